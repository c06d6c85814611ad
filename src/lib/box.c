/* box.c: the container "box": six flat walls on the faces of an axis-aligned box (in 2D
 * the four walls x and y).  Faces are numbered xlo, xhi, ylo, yhi, zlo, zhi. */
#include "container.h"
#include "grain.h"
#include "keydef.h"
#include "neighbor.h"
#include <math.h>
#include <stdio.h>

typedef struct box_par {
    pala_vec3 lo, hi;   /* the lowest and highest corners, m (in 2D z is not used) */
} box_par;

static int box_axes(const pala_world *w) { return w->dim == 2 ? 2 : 3; }

/* ---- keys and checks ---- */
/* box = xlo xhi ylo yhi zlo zhi: the two corners */
static void set_box(void *obj, const pala_value *v)
{
    box_par *b = obj;
    b->lo = pala_v(v->x[0], v->x[2], v->x[4]);
    b->hi = pala_v(v->x[1], v->x[3], v->x[5]);
}

static const pala_keydef keys[] = {
    PALA_WALL_KEY(box, REALS, NULL, "m", -HUGE_VAL, HUGE_VAL, PALA_SET(set_box), .nmin = 6, .nmax = 6,
                  .doc = "xlo xhi ylo yhi zlo zhi of the box walls (z ignored in 2D)"),
};

static const char *box_check(const pala_world *w, const pala_wall *wl, char *buf, size_t len, const char **key)
{
    const box_par *b = wl->par;
    const double lo[3] = {b->lo.x, b->lo.y, b->lo.z}, hi[3] = {b->hi.x, b->hi.y, b->hi.z};
    for (int a = 0; a < box_axes(w); a++)
        if (!(isfinite(lo[a]) && isfinite(hi[a]) && hi[a] > lo[a]))
            return pala_wall_refuse(buf, len, key, "box", "'box': %chi must exceed %clo, both finite (give xlo xhi ylo yhi zlo zhi; got %g .. %g)",
                                    "xyz"[a], "xyz"[a], lo[a], hi[a]);
    return NULL;
}

int pala_world_set_box(pala_world *w, pala_vec3 lo, pala_vec3 hi, int mat) { return pala_walls_set(w, "box", mat, &(box_par){lo, hi}); }

/* ---- geometry ---- */
static int box_clear(const pala_world *w, const pala_wall *wl, pala_vec3 x, double R)
{
    const box_par *b = wl->par;
    int in = (x.x - R > b->lo.x) & (b->hi.x - x.x > R) & (x.y - R > b->lo.y) & (b->hi.y - x.y > R);
    return in & (w->dim == 2 || ((x.z - R > b->lo.z) & (b->hi.z - x.z > R)));
}

static int box_inside(const pala_world *w, const pala_wall *wl, pala_vec3 x, double R)
{
    const box_par *b = wl->par;
    if (x.x - R < b->lo.x || x.x + R > b->hi.x || x.y - R < b->lo.y || x.y + R > b->hi.y) return 0;
    return !(w->dim == 3 && (x.z - R < b->lo.z || x.z + R > b->hi.z));
}

static void box_bounds(const pala_world *w, const pala_wall *wl, double R, double lo[3], double hi[3])
{
    const box_par *b = wl->par;
    const double l[3] = {b->lo.x, b->lo.y, b->lo.z}, u[3] = {b->hi.x, b->hi.y, b->hi.z};
    for (int a = 0; a < box_axes(w); a++) { lo[a] = l[a] + R; hi[a] = u[a] - R; }
}

static double box_cut(const pala_world *w, const pala_wall *wl, pala_vec3 c, double a)
{
    const box_par *b = wl->par;
    double d = fmax(fmax(b->lo.x - (c.x - a), (c.x + a) - b->hi.x), fmax(b->lo.y - (c.y - a), (c.y + a) - b->hi.y));
    if (w->dim == 3) d = fmax(d, fmax(b->lo.z - (c.z - a), (c.z + a) - b->hi.z));
    return d;
}

static int box_room(const pala_world *w, const pala_wall *wl, double a)
{
    (void)w; (void)wl; (void)a;
    return 2 * 3;   /* a component touches each face at most once */
}

/* A flat wall is a sphere of infinite radius: r~ = H(a, inf) = 2a (docs/physics.md).  The
 * walls do not move: vs = 0.  The touches of grain k's components (of template t) with the
 * two faces across axis ax, at lo and hi, component by component, lo first (inline with ax a
 * constant: the coordinate is a load, the normal constants). */
static inline __attribute__((always_inline)) int box_axis(const pala_world *w, const pala_wall *wl, int k, const pala_template *t, int ax,
                                                          double lo, double hi, pala_wall_touch *out)
{
    const double *rad = w->shape_r + t->comp0;
    int m = 0, p0 = pala_grain_peb0(w, k);
    for (int i = 0; i < t->ncomp; i++) {
        pala_vec3 pc = w->pc ? w->pc[p0 + i] : w->x[k];
        double c = ax == 0 ? pc.x : ax == 1 ? pc.y : pc.z;
        for (int side = 0; side < 2; side++) {
            double dist = side ? hi - c : c - lo;
            double ov = rad[i] - dist;
            if (ov <= 0) continue;
            double nn = side ? -1 : 1;
            int face = wl->face0 + 2 * ax + side;
            out[m++] = (pala_wall_touch){.c = pc, .n = pala_v(ax == 0 ? nn : 0, ax == 1 ? nn : 0, ax == 2 ? nn : 0), .vs = pala_v(0, 0, 0),
                                         .a = rad[i], .ov = ov, .rt = 2 * rad[i], .face = face, .k = k, .p = p0 + i, .id = (unsigned)face};
        }
    }
    return m;
}

/* The axes whose faces grain k's bounding sphere reaches, x, y, then z (none: it is clear
 * of the box). */
static int box_grain_touch(const pala_world *w, const pala_wall *wl, int k, pala_wall_touch *out)
{
    const box_par *b = wl->par;
    const pala_template *t = &w->tmpl[w->tid[k]];
    double R = t->bound_radius;
    pala_vec3 x = w->x[k];
    int m = 0;
    if (!(x.x - R > b->lo.x && b->hi.x - x.x > R)) m += box_axis(w, wl, k, t, 0, b->lo.x, b->hi.x, out + m);
    if (!(x.y - R > b->lo.y && b->hi.y - x.y > R)) m += box_axis(w, wl, k, t, 1, b->lo.y, b->hi.y, out + m);
    if (w->dim == 3 && !(x.z - R > b->lo.z && b->hi.z - x.z > R)) m += box_axis(w, wl, k, t, 2, b->lo.z, b->hi.z, out + m);
    return m;
}

/* box_grain_touch in a world of spheres (pebble k is grain k at x[k], of radius a): the same touches,
 * found without a branch per axis and face.  Which faces a grain near the box touches
 * changes from grain to grain (the floor, a side, a corner): those branches mispredicted
 * about once a grain.  The faces it touches are a mask, written in face order.  The test
 * of the bounding sphere is left out: with a <= R, a face the sphere of radius a cuts is
 * one the bounding sphere reaches (c - R > lo rounded means c - lo > R >= a exactly, so
 * c - lo rounds to >= a and a - (c - lo) to <= 0; the same at hi), so it removes no touch. */
static inline __attribute__((always_inline)) int box_sphere_at(const pala_world *w, const pala_wall *wl, int k, double a, pala_wall_touch *out)
{
    static const pala_vec3 normal[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};   /* box_axis's, a load */
    const box_par *b = wl->par;
    const pala_vec3 x = w->x[k];
    const double ov[6] = {a - (x.x - b->lo.x), a - (b->hi.x - x.x), a - (x.y - b->lo.y), a - (b->hi.y - x.y),
                          a - (x.z - b->lo.z), a - (b->hi.z - x.z)};   /* box_axis's overlaps */
    unsigned mask = 0;
    for (int f = 0; f < 2 * box_axes(w); f++) mask |= (unsigned)(ov[f] > 0) << f;
    int m = 0;
    for (; mask; mask &= mask - 1, m++) {
        int f = __builtin_ctz(mask);
        out[m] = (pala_wall_touch){.c = x, .n = normal[f], .vs = pala_v(0, 0, 0), .a = a, .ov = ov[f], .rt = 2 * a, .face = wl->face0 + f,
                                   .k = k, .p = k, .id = (unsigned)(wl->face0 + f)};
    }
    return m;
}

static int box_sphere_touch(const pala_world *w, const pala_wall *wl, int k, pala_wall_touch *out)
{
    const pala_template *t = &w->tmpl[w->tid[k]];
    const double a = w->shape_r[t->comp0];
    if (a > t->bound_radius) return box_grain_touch(w, wl, k, out);   /* (never: a sphere's bound is its radius) */
    return box_sphere_at(w, wl, k, a, out);
}

static int box_touch(const pala_world *w, const pala_wall *wl, const int *cand, int n, pala_wall_touch *out, int cap, int *used)
{
    const double *trad = !w->pg && w->nl ? w->nl->trad : NULL;
    if (trad) {   /* box_sphere_touch with each template's radius from the list's (neighbor.h; a sphere's bound is its radius) */
        int m = 0, i = 0;
        for (; i < n && cap - m >= box_room(w, wl, 0); i++) m += box_sphere_at(w, wl, cand[i], trad[w->tid[cand[i]]], out + m);
        *used = i;
        return m;
    }
    if (!w->pc) return pala_touch_grains(w, wl, cand, n, out, cap, used, box_room, box_sphere_touch);
    return pala_touch_grains(w, wl, cand, n, out, cap, used, box_room, box_grain_touch);
}

static pala_vec3 box_lowest(const pala_world *w, const pala_wall *wl, pala_vec3 g)
{
    (void)w;
    const box_par *b = wl->par;
    return pala_v(g.x > 0 ? b->hi.x : g.x < 0 ? b->lo.x : 0, g.y > 0 ? b->hi.y : g.y < 0 ? b->lo.y : 0,
                  g.z > 0 ? b->hi.z : g.z < 0 ? b->lo.z : 0);
}

/* the normal momentum each face received, positive outward; the area of a face (in 2D
 * its length: the box has no z extent) */
static int box_columns(const pala_world *w, const pala_wall *wl, const char **names, double *values, double *area, int max)
{
    static const char *const nm[6] = {"P_xlo", "P_xhi", "P_ylo", "P_yhi", "P_zlo", "P_zhi"};
    const box_par *b = wl->par;
    const double sgn[6] = {-1, 1, -1, 1, -1, 1};
    const double L[3] = {b->hi.x - b->lo.x, b->hi.y - b->lo.y, w->dim == 2 ? 1.0 : b->hi.z - b->lo.z};
    int n = 0;
    for (int i = 0; i < 2 * box_axes(w) && n < max; i++, n++) {
        pala_vec3 p = w->wall_impulse[wl->face0 + i];
        names[n] = nm[i];
        values[n] = (i < 2 ? p.x : i < 4 ? p.y : p.z) * sgn[i] + 0.0;   /* + 0.0: no "-0" for unloaded faces */
        if (area) area[n] = L[0] * L[1] * L[2] / L[i / 2];
    }
    return n;
}

/* its faces as its columns name them (P_xlo: xlo) */
static const char *box_face(const pala_world *w, const pala_wall *wl, int i)
{
    (void)w; (void)wl;
    static const char *const nm[6] = {"xlo", "xhi", "ylo", "yhi", "zlo", "zhi"};
    return i >= 0 && i < 6 ? nm[i] : NULL;
}

/* ---- serialisation and presentation ---- */
/* the corners; in 2D the box reaches from -inf to inf in z */
static void corners(const pala_world *w, const pala_wall *wl, pala_vec3 *lo, pala_vec3 *hi)
{
    const box_par *b = wl->par;
    *lo = b->lo;
    *hi = b->hi;
    if (w->dim == 2) { lo->z = -HUGE_VAL; hi->z = HUGE_VAL; }
}

/* "xlo xhi ylo yhi zlo zhi" */
static int box_line(const pala_world *w, const pala_wall *wl, char *buf, size_t len)
{
    pala_vec3 a, b;
    corners(w, wl, &a, &b);
    return snprintf(buf, len, "%.17g %.17g %.17g %.17g %.17g %.17g", a.x, b.x, a.y, b.y, a.z, b.z);
}

static int box_parse(const pala_world *w, pala_wall *wl, const char *args)
{
    (void)w;
    pala_value v = {args, -1, 6, {0}};
    if (pala_wall_numbers(args, v.x, 6)) return -1;
    set_box(wl->par, &v);
    return 0;
}

static int box_draw(const pala_world *w, const pala_wall *wl, pala_draw *out, int max)
{
    if (max < 1) return 0;
    out[0] = (pala_draw){.shape = PALA_DRAW_BOX};
    corners(w, wl, &out[0].p[0], &out[0].p[1]);
    return 1;
}

const pala_wall_kind pala_wall_box = {
    .name = "box", .what = "the box wall", .container = 1, .nfaces = 6, .size = sizeof(box_par),
    .keys = keys, .nkeys = sizeof keys / sizeof keys[0], .after = "container",
    .check = box_check, .clear = box_clear, .inside = box_inside, .bounds = box_bounds, .cut = box_cut, .room = box_room,
    .touch = box_touch, .lowest = box_lowest, .columns = box_columns, .face = box_face, .line = box_line, .parse = box_parse,
    .draw = box_draw,
};
