/* membrane.c: the membrane (membrane.h; docs/physics.md, "Membrane").
 *
 * The plane x_a = mem_pos (a = membrane - 1) across the box holds bars whose axes lie in
 * the plane.  In 3D there are two families: bars along each in-plane axis, at the other
 * in-plane coordinate box_lo + j spacing (j = 0 .. extent / spacing, the outermost lying
 * on the box's faces), so the holes are squares of side spacing between bar axes.  In 2D
 * only the bars perpendicular to the plane z = 0 exist: discs of radius mem_rbar in the
 * plane, at box_lo + j spacing along the in-plane axis of the membrane's line.
 *
 * A bar touches a component (centre c, radius a) like a sphere of radius mem_rbar
 * centred at the point of the bar's axis nearest to c: with d the distance of c from the
 * axis, the overlap is a + mem_rbar - d, the normal points from the axis to c, and
 * r~ = H(a, mem_rbar) (eq. 55).  The bar does not move. */
#include "membrane.h"
#include "contact_law.h"
#include "grain.h"
#include <math.h>
#include <stdio.h>

static double comp(pala_vec3 v, int a) { return a == 0 ? v.x : a == 1 ? v.y : v.z; }

/* The in-plane axes along which the bars' positions vary (one per family), increasing. */
static int families(const pala_world *w, int e[2])
{
    int ax = w->membrane - 1;
    if (w->dim == 2) { e[0] = 1 - ax; return 1; }   /* the bars along z */
    int n = 0;
    for (int i = 0; i < 3; i++)
        if (i != ax) e[n++] = i;
    return 2;
}

/* The number of spacings across the box along axis e: bars j = 0 .. nbars. */
static double nbars(const pala_world *w, int e)
{
    return round((comp(w->box_hi, e) - comp(w->box_lo, e)) / w->mem_spacing);
}

int pala_membrane_clear(const pala_world *w, pala_vec3 x, double R)
{
    return fabs(comp(x, w->membrane - 1) - w->mem_pos) - R > w->mem_rbar;
}

int pala_membrane_touch_room(const pala_world *w, double a)
{
    int e[2], nf = families(w, e);
    return nf * ((int)fmin(2 * (a + w->mem_rbar) / w->mem_spacing, 1e6) + 2);
}

/* the bars j0 .. j1 of family e that a sphere reaching reach about c may touch */
static void bar_range(const pala_world *w, int e, pala_vec3 c, double reach, long *j0, long *j1)
{
    double ce = comp(c, e) - comp(w->box_lo, e), s = w->mem_spacing;
    *j0 = (long)fmax(ceil((ce - reach) / s), 0.0);
    *j1 = (long)fmin(floor((ce + reach) / s), nbars(w, e));
}

double pala_membrane_cut(const pala_world *w, pala_vec3 c, double a)
{
    int ax = w->membrane - 1, e[2], nf = families(w, e);
    double reach = a + w->mem_rbar, da = comp(c, ax) - w->mem_pos, worst = -reach;
    if (!(fabs(da) < reach)) return -1;
    for (int f = 0; f < nf; f++) {
        long j0, j1;
        bar_range(w, e[f], c, reach, &j0, &j1);
        for (long j = j0; j <= j1; j++) {
            double de = comp(c, e[f]) - (comp(w->box_lo, e[f]) + (double)j * w->mem_spacing);
            worst = fmax(worst, reach - sqrt(da * da + de * de));
        }
    }
    return worst;
}

/* The bar touches of grain k: component by component, family by family, bar by bar.  The
 * side is that of the grain's centre (the plane itself counts as above). */
static int bars_touch(const pala_world *w, int k, pala_wall_touch *out)
{
    const pala_template *t = &w->tmpl[w->tid[k]];
    int ax = w->membrane - 1, e[2], nf = families(w, e);
    double rb = w->mem_rbar, s = w->mem_spacing, xa = comp(w->x[k], ax) - w->mem_pos;
    if (fabs(xa) - t->bound_radius > rb) return 0;   /* bounding sphere clear */
    int face = PALA_FACE_MEMBRANE + (xa >= 0), p0 = pala_grain_peb0(w, k), m = 0;
    const double *rad = w->shape_r + t->comp0;
    for (int i = 0; i < t->ncomp; i++) {
        pala_vec3 c = w->pc ? w->pc[p0 + i] : w->x[k];
        double a = rad[i], reach = a + rb, da = comp(c, ax) - w->mem_pos;
        if (!(fabs(da) < reach)) continue;
        double rt = pala_law_rt(a, rb);   /* eq. (55) */
        for (int f = 0; f < nf; f++) {
            long j0, j1;
            bar_range(w, e[f], c, reach, &j0, &j1);
            double lo = comp(w->box_lo, e[f]);
            for (long j = j0; j <= j1; j++) {
                double de = comp(c, e[f]) - (lo + (double)j * s), d2 = da * da + de * de;
                if (!(d2 < reach * reach) || d2 == 0) continue;
                double d = sqrt(d2), n[3] = {0, 0, 0};
                n[ax] = da / d;
                n[e[f]] = de / d;
                out[m++] = (pala_wall_touch){c, pala_v(n[0], n[1], n[2]), a, reach - d, rt, face, k, p0 + i,
                                             (unsigned)(8 + 4 * j + 2 * f + (face - PALA_FACE_MEMBRANE))};
            }
        }
    }
    return m;
}

int pala_membrane_touch(const pala_world *w, const int *cand, int n, pala_wall_touch *out, int cap, int *used)
{
    int m = 0, i = 0;
    for (; i < n; i++) {
        const pala_template *t = &w->tmpl[w->tid[cand[i]]];
        if (cap - m < t->ncomp * (PALA_TOUCH_PER_COMP + pala_membrane_touch_room(w, t->bound_radius))) break;
        int u;
        m += pala_container_box.touch(w, cand + i, 1, out + m, cap - m, &u);
        m += bars_touch(w, cand[i], out + m);
    }
    *used = i;
    return m;
}

int pala_membrane_columns(const pala_world *w, const char **names, double *values, double *area, int max)
{
    static const char *const nm[2] = {"P_mem_lo", "P_mem_hi"};
    int ax = w->membrane - 1, e[2], nf = families(w, e);
    double A = 1;
    for (int f = 0; f < nf; f++) A *= comp(w->box_hi, e[f]) - comp(w->box_lo, e[f]);
    const double v[2] = {comp(w->mem_impulse[0], ax) + 0.0, -comp(w->mem_impulse[1], ax) + 0.0};   /* + 0.0: no "-0" */
    int n = 0;
    for (; n < 2 && n < max; n++) {
        names[n] = nm[n];
        values[n] = v[n];
        if (area) area[n] = A;
    }
    return n;
}

const char *pala_membrane_check(const pala_world *w, char *buf, size_t len)
{
    int ax = w->membrane - 1;
    if (w->membrane < 0 || w->membrane > 3)
        snprintf(buf, len, "membrane is %d: set 0 (none) or 1, 2, 3 (its plane perpendicular to x, y, z)", w->membrane);
    else if (w->container != PALA_CONTAINER_BOX)
        snprintf(buf, len, "a membrane spans a box: set container to PALA_CONTAINER_BOX, or membrane to 0");
    else if (w->dim == 2 && ax == 2)
        snprintf(buf, len, "in 2D the membrane must be perpendicular to x or y (membrane 1 or 2)");
    else if (w->mem_mat < 0 || w->mem_mat >= w->nmat)
        snprintf(buf, len, "membrane: mem_mat is %d: set it to the index of a material (0..%d)", w->mem_mat, w->nmat - 1);
    else if (!(w->mem_rbar > 0 && isfinite(w->mem_rbar)) || !(w->mem_spacing > 2 * w->mem_rbar && isfinite(w->mem_spacing)))
        snprintf(buf, len, "membrane: need mem_rbar > 0 and mem_spacing > 2 mem_rbar (got %g, %g): the bars would close the holes",
                 w->mem_rbar, w->mem_spacing);
    else if (!(w->mem_pos > comp(w->box_lo, ax) && w->mem_pos < comp(w->box_hi, ax)))
        snprintf(buf, len, "membrane: mem_pos %g lies outside the box (%g .. %g along %c)", w->mem_pos, comp(w->box_lo, ax),
                 comp(w->box_hi, ax), "xyz"[ax]);
    else {
        int e[2], nf = families(w, e);
        double amax = 0;
        for (int i = 0; i < w->nshape; i++) amax = fmax(amax, w->shape_r[i]);
        if (pala_membrane_touch_room(w, amax) > 1024) {   /* room for the touches of a component (force_pass.c) */
            snprintf(buf, len, "membrane: a component of radius %g m spans more than 500 bars of spacing %g m; "
                     "use a spacing comparable to the grains", amax, w->mem_spacing);
            return buf;
        }
        for (int f = 0; f < nf; f++) {
            double L = comp(w->box_hi, e[f]) - comp(w->box_lo, e[f]), nb = nbars(w, e[f]);
            if (!(nb >= 1 && fabs(nb * w->mem_spacing - L) <= 1e-9 * L)) {
                snprintf(buf, len, "membrane: the box's extent along %c (%g m) is not a whole number of spacings (%g m); "
                         "use a spacing of %.10g m", "xyz"[e[f]], L, w->mem_spacing, L / fmax(nb, 1));
                return buf;
            }
        }
        return NULL;
    }
    return buf;
}
