/* membrane.c: the membrane (PaLa feature iv; docs/physics.md, "Membrane"), a wall inside a
 * box: a plane across the box, perpendicular to axis `axis` at `pos`, holding a square grid
 * of bars of radius rbar whose axes lie `spacing` apart.
 *
 * The plane x_a = pos (a = axis - 1) holds bars whose axes lie in the plane.  In 3D there
 * are two families: bars along each in-plane axis, at the other in-plane coordinate
 * lo + j spacing (lo the box's face; j = 0 .. extent / spacing, the outermost lying on the
 * box's faces), so the holes are squares of side spacing between bar axes.  In 2D only the
 * bars perpendicular to the plane z = 0 exist: discs of radius rbar in the plane, at
 * lo + j spacing along the in-plane axis of the membrane's line.
 *
 * A bar touches a component (centre c, radius a) like a sphere of radius rbar centred at
 * the point of the bar's axis nearest to c: with d the distance of c from the axis, the
 * overlap is a + rbar - d, the normal points from the axis to c, and r~ = H(a, rbar)
 * (eq. 55).  The bars do not move.  The touches are of two faces, face0 (the grain's centre
 * below the plane) and face0 + 1 (above), so walls.tsv gets the push from each side. */
#include "container.h"
#include "contact_law.h"
#include "grain.h"
#include "keydef.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct membrane_par {
    int axis;                /* 0: none; 1, 2, 3: the plane perpendicular to x, y, z */
    double pos;              /* where the plane crosses its axis, m */
    double rbar, spacing;    /* radius of the bars and distance between their axes, m */
} membrane_par;

static double comp(pala_vec3 v, int a) { return a == 0 ? v.x : a == 1 ? v.y : v.z; }

/* The extent of the box the membrane spans, the container's (-inf .. inf where it has none,
 * z in 2D). */
static void extent(const pala_world *w, double lo[3], double hi[3])
{
    for (int a = 0; a < 3; a++) { lo[a] = -HUGE_VAL; hi[a] = HUGE_VAL; }
    const pala_wall *c = pala_container_of(w);
    if (c) c->kind->bounds(w, c, 0, lo, hi);
}

/* The in-plane axes along which the bars' positions vary (one per family), increasing. */
static int families(const pala_world *w, const membrane_par *m, int e[2])
{
    int ax = m->axis - 1;
    if (w->dim == 2) { e[0] = 1 - ax; return 1; }   /* the bars along z */
    int n = 0;
    for (int i = 0; i < 3; i++)
        if (i != ax) e[n++] = i;
    return 2;
}

/* The number of spacings across the box along axis e: bars j = 0 .. nbars. */
static double nbars(const membrane_par *m, const double lo[3], const double hi[3], int e) { return round((hi[e] - lo[e]) / m->spacing); }

/* ---- keys and checks ---- */
static const pala_keydef keys[] = {
    PALA_WALL_KEY(membrane_axis, WORD, "none", "-", 0, 0, PALA_AT(membrane_par, axis), .choices = "none|x|y|z", PALA_CODES(0, 1, 2, 3),
                  .doc = "x, y or z: a membrane across the box (container = box), the plane perpendicular to this axis at "
                         "membrane_position, holding a square grid of bars; none: no membrane"),
    PALA_WALL_KEY(membrane_position, REAL, NULL, "m", -HUGE_VAL, HUGE_VAL, PALA_AT(membrane_par, pos),
                  .doc = "where the membrane's plane crosses its axis (strictly inside the box)"),
    PALA_WALL_KEY(membrane_bar_radius, REAL, NULL, "m", 0, HUGE_VAL, PALA_AT(membrane_par, rbar),
                  .doc = "radius of the membrane's bars (cylinders; in 2D discs in the plane)"),
    PALA_WALL_KEY(membrane_spacing, REAL, NULL, "m", 0, HUGE_VAL, PALA_AT(membrane_par, spacing),
                  .doc = "distance between neighbouring bar axes; the box's extent along each in-plane axis must be a "
                         "whole number of spacings; a sphere of radius below spacing/2 - membrane_bar_radius passes"),
    PALA_WALL_KEY(membrane_material, NAME, NULL, "-", 0, 0, {PALA_ST_NONE, 0, 0, NULL, NULL}, .ref = PALA_S_MATERIAL,
                  .doc = "material of the membrane's bars (required with a membrane)"),
};

static int membrane_present(const void *par) { return ((const membrane_par *)par)->axis != 0; }

static int membrane_room(const pala_world *w, const pala_wall *wl, double a)
{
    const membrane_par *m = wl->par;
    int e[2], nf = families(w, m, e);
    return nf * ((int)fmin(2 * (a + m->rbar) / m->spacing, 1e6) + 2);
}

/* A box, a plane inside it, holes (spacing > 2 bar radii), a box whose extent along each
 * in-plane axis is a whole number of spacings (so every hole is a square between bar axes),
 * and few enough bars near one component that their touches fit (force_pass.c). */
static const char *membrane_check(const pala_world *w, const pala_wall *wl, char *buf, size_t len, const char **key)
{
    const membrane_par *m = wl->par;
    int ax = m->axis - 1;
    const pala_wall *c = pala_container_of(w);
    if (ax < 0 || ax > 2)
        return pala_wall_refuse(buf, len, key, "membrane_axis", "membrane_axis is %d: give x, y or z (1, 2, 3: its plane perpendicular to that axis)", m->axis);
    const char *axn = (const char *[]){"x", "y", "z"}[ax];
    if (!c || strcmp(c->kind->name, "box"))
        return pala_wall_refuse(buf, len, key, "membrane_axis", "'membrane_axis = %s' needs container = box (the membrane spans a box); "
                                "set container = box or membrane_axis = none", axn);
    if (w->dim == 2 && ax == 2)
        return pala_wall_refuse(buf, len, key, "membrane_axis", "'membrane_axis = z': in 2D the membrane is a line across the plane: use x or y");
    if (!(m->rbar > 0 && isfinite(m->rbar)))
        return pala_wall_refuse(buf, len, key, "membrane_bar_radius", "'membrane_bar_radius = %g': the bars need a finite radius > 0", m->rbar);
    double lo[3], hi[3];
    extent(w, lo, hi);
    if (!(m->pos > lo[ax] && m->pos < hi[ax]))
        return pala_wall_refuse(buf, len, key, "membrane_position", "'membrane_position = %g' must lie strictly inside the box along %s (%g .. %g)",
                                m->pos, axn, lo[ax], hi[ax]);
    if (!(m->spacing > 2 * m->rbar && isfinite(m->spacing)))
        return pala_wall_refuse(buf, len, key, "membrane_spacing", "'membrane_spacing = %g' must exceed twice membrane_bar_radius (%g): "
                                "the bars would close every hole; raise the spacing or thin the bars", m->spacing, m->rbar);
    int e[2], nf = families(w, m, e);
    for (int f = 0; f < nf; f++) {
        double L = hi[e[f]] - lo[e[f]], n = nbars(m, lo, hi, e[f]);
        const char *en = (const char *[]){"x", "y", "z"}[e[f]];
        if (!(n >= 1 && fabs(n * m->spacing - L) <= 1e-9 * L))
            return pala_wall_refuse(buf, len, key, "membrane_spacing", "'membrane_spacing = %g': the box's extent along %s (%g m) must be a "
                                    "whole number of spacings (bars lie at %slo + i spacing); use e.g. membrane_spacing = %.10g",
                                    m->spacing, en, L, en, L / fmax(n, 1));
    }
    double amax = 0;
    for (int i = 0; i < w->nshape; i++) amax = fmax(amax, w->shape_r[i]);
    if (membrane_room(w, wl, amax) > 1024)   /* room for the touches of a component (force_pass.c) */
        return pala_wall_refuse(buf, len, key, "membrane_spacing", "'membrane_spacing = %g': a component of radius %g m spans more than "
                                "500 bars; use a spacing comparable to the grains", m->spacing, amax);
    return NULL;
}

/* ---- geometry ---- */
/* 1 if a sphere of radius R about x is strictly clear of every bar (it does not reach the
 * slab of half-thickness rbar about the plane). */
static int membrane_clear(const pala_world *w, const pala_wall *wl, pala_vec3 x, double R)
{
    (void)w;
    const membrane_par *m = wl->par;
    return fabs(comp(x, m->axis - 1) - m->pos) - R > m->rbar;
}

/* a grain's bounding sphere clear of the bars; a centre placed by a list anywhere */
static int membrane_inside(const pala_world *w, const pala_wall *wl, pala_vec3 x, double R) { return R <= 0 || membrane_clear(w, wl, x, R); }

static void membrane_bounds(const pala_world *w, const pala_wall *wl, double R, double lo[3], double hi[3])
{
    (void)w; (void)wl; (void)R; (void)lo; (void)hi;
}

/* the bars j0 .. j1 of family e that a sphere reaching reach about c may touch */
static void bar_range(const membrane_par *m, const double lo[3], const double hi[3], int e, pala_vec3 c, double reach, long *j0, long *j1)
{
    double ce = comp(c, e) - lo[e], s = m->spacing;
    *j0 = (long)fmax(ceil((ce - reach) / s), 0.0);
    *j1 = (long)fmin(floor((ce + reach) / s), nbars(m, lo, hi, e));
}

/* how far the bars reach into the sphere (c, a), m (the largest overlap) */
static double membrane_cut(const pala_world *w, const pala_wall *wl, pala_vec3 c, double a)
{
    const membrane_par *m = wl->par;
    int ax = m->axis - 1, e[2], nf = families(w, m, e);
    double lo[3], hi[3], reach = a + m->rbar, da = comp(c, ax) - m->pos, worst = -reach;
    if (!(fabs(da) < reach)) return -1;
    extent(w, lo, hi);
    for (int f = 0; f < nf; f++) {
        long j0, j1;
        bar_range(m, lo, hi, e[f], c, reach, &j0, &j1);
        for (long j = j0; j <= j1; j++) {
            double de = comp(c, e[f]) - (lo[e[f]] + (double)j * m->spacing);
            worst = fmax(worst, reach - sqrt(da * da + de * de));
        }
    }
    return worst;
}

/* The bar touches of grain k: component by component, family by family, bar by bar.  The
 * side is that of the grain's centre (the plane itself counts as above). */
static int bars_touch(const pala_world *w, const pala_wall *wl, int k, pala_wall_touch *out)
{
    const membrane_par *mp = wl->par;
    const pala_template *t = &w->tmpl[w->tid[k]];
    int ax = mp->axis - 1, e[2], nf = families(w, mp, e);
    double rb = mp->rbar, s = mp->spacing, xa = comp(w->x[k], ax) - mp->pos;
    if (fabs(xa) - t->bound_radius > rb) return 0;   /* bounding sphere clear */
    int side = xa >= 0, p0 = pala_grain_peb0(w, k), m = 0;
    double lo[3], hi[3];
    extent(w, lo, hi);
    const double *rad = w->shape_r + t->comp0;
    for (int i = 0; i < t->ncomp; i++) {
        pala_vec3 c = w->pc ? w->pc[p0 + i] : w->x[k];
        double a = rad[i], reach = a + rb, da = comp(c, ax) - mp->pos;
        if (!(fabs(da) < reach)) continue;
        double rt = pala_law_rt(a, rb);   /* eq. (55) */
        for (int f = 0; f < nf; f++) {
            long j0, j1;
            bar_range(mp, lo, hi, e[f], c, reach, &j0, &j1);
            for (long j = j0; j <= j1; j++) {
                double de = comp(c, e[f]) - (lo[e[f]] + (double)j * s), d2 = da * da + de * de;
                if (!(d2 < reach * reach) || d2 == 0) continue;
                double d = sqrt(d2), n[3] = {0, 0, 0};
                n[ax] = da / d;
                n[e[f]] = de / d;
                /* a bar's id lies above the faces' (force_pass.c takes the material of ids
                 * below PALA_WALL_FACES from wall_mat) */
                out[m++] = (pala_wall_touch){.c = c, .n = pala_v(n[0], n[1], n[2]), .vs = pala_v(0, 0, 0), .a = a, .ov = reach - d, .rt = rt,
                                             .face = wl->face0 + side, .k = k, .p = p0 + i,
                                             .id = (unsigned)(PALA_WALL_FACES + 4 * j + 2 * f + side)};
            }
        }
    }
    return m;
}

static int membrane_touch(const pala_world *w, const pala_wall *wl, const int *cand, int n, pala_wall_touch *out, int cap, int *used)
{
    return pala_touch_grains(w, wl, cand, n, out, cap, used, membrane_room, bars_touch);
}

/* P_mem_lo, the momentum along +axis received from grains below the plane, and P_mem_hi,
 * along -axis from grains above; both on the area of the plane inside the box (in 2D its
 * length) */
static int membrane_columns(const pala_world *w, const pala_wall *wl, const char **names, double *values, double *area, int max)
{
    static const char *const nm[2] = {"P_mem_lo", "P_mem_hi"};
    const membrane_par *m = wl->par;
    int ax = m->axis - 1, e[2], nf = families(w, m, e);
    double lo[3], hi[3], A = 1;
    extent(w, lo, hi);
    for (int f = 0; f < nf; f++) A *= hi[e[f]] - lo[e[f]];
    const pala_vec3 *imp = w->wall_impulse + wl->face0;
    const double v[2] = {comp(imp[0], ax) + 0.0, -comp(imp[1], ax) + 0.0};   /* + 0.0: no "-0" */
    int n = 0;
    for (; n < 2 && n < max; n++) {
        names[n] = nm[n];
        values[n] = v[n];
        if (area) area[n] = A;
    }
    return n;
}

/* its two faces as its columns name them (P_mem_lo: mem_lo) */
static const char *membrane_face(const pala_world *w, const pala_wall *wl, int i)
{
    (void)w; (void)wl;
    return i == 0 ? "mem_lo" : i == 1 ? "mem_hi" : NULL;
}

/* ---- serialisation and presentation ---- */
/* "AXIS pos rbar spacing" (AXIS: x, y or z) */
static int membrane_line(const pala_world *w, const pala_wall *wl, char *buf, size_t len)
{
    (void)w;
    const membrane_par *m = wl->par;
    return snprintf(buf, len, "%c %.17g %.17g %.17g", m->axis >= 1 && m->axis <= 3 ? "xyz"[m->axis - 1] : '?', m->pos, m->rbar, m->spacing);
}

static int membrane_parse(const pala_world *w, pala_wall *wl, const char *args)
{
    (void)w;
    membrane_par *m = wl->par;
    char ax = 0;
    while (*args == ' ' || *args == '\t') args++;
    if (sscanf(args, "%c", &ax) != 1 || ax < 'x' || ax > 'z') return -1;
    double x[3];
    if (pala_wall_numbers(args + 1, x, 3)) return -1;
    *m = (membrane_par){ax - 'x' + 1, x[0], x[1], x[2]};
    return 0;
}

/* its plane's outline inside the box: a guide, the bars are not drawn */
static int membrane_draw(const pala_world *w, const pala_wall *wl, pala_draw *out, int max)
{
    const membrane_par *m = wl->par;
    int a = m->axis - 1, b = (a + 1) % 3, c = (a + 2) % 3;
    double lo[3], hi[3];
    extent(w, lo, hi);
    if (w->dim == 2) lo[2] = hi[2] = 0;
    if (max < 1 || a < 0 || a > 2) return 0;
    out[0] = (pala_draw){.shape = PALA_DRAW_QUAD, .guide = 1};
    for (int i = 0; i < 4; i++) {
        double v[3];
        v[a] = m->pos;
        v[b] = (i == 1 || i == 2) ? hi[b] : lo[b];
        v[c] = i >= 2 ? hi[c] : lo[c];
        out[0].p[i] = pala_v(v[0], v[1], v[2]);
    }
    return 1;
}

const pala_wall_kind pala_wall_membrane = {
    .name = "membrane", .what = "a membrane bar", .container = 0, .nfaces = 2, .size = sizeof(membrane_par),
    .keys = keys, .nkeys = sizeof keys / sizeof keys[0], .after = "lorentz_step", .present = membrane_present,
    .check = membrane_check, .clear = membrane_clear, .inside = membrane_inside, .bounds = membrane_bounds, .cut = membrane_cut,
    .room = membrane_room, .touch = membrane_touch, .columns = membrane_columns, .face = membrane_face, .line = membrane_line,
    .parse = membrane_parse, .draw = membrane_draw,
};
