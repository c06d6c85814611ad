/* grain.c: a grain's pebbles from its position and rotation (grain.h). */
#include "grain.h"
#include "alloc.h"
#include <stdlib.h>
#include <string.h>

/* The bounding circles' centres x + r * b_i of grain k's arcs, as pala_place_arcs or the
 * matrix would turn them (the same bits as when every step placed them). */
static void arc_bounds(pala_world *w, int k)
{
    const pala_template *t = &w->tmpl[w->tid[k]];
    if (t->ncomp == 1) return;   /* a sphere: its centre, placed with it */
    const pala_vec3 r = w->r[k], x = w->x[k];
    const pala_arcrange *a = w->arc + t->comp0;
    pala_arcrange *q = w->parc + w->p0[k];
    double m[3][3];
    if (r.x == 0 && r.y == 0) {
        const double rho = r.x * r.x + r.y * r.y + r.z * r.z, b = 0.5 * (1.0 - rho), c = 2.0 / (1.0 + rho);
        const double cs = c * (r.x * r.x + b), sn = c * r.z;
        for (int i = 0; i < t->ncomp; i++) {
            q[i].bx = x.x + cs * a[i].bx - sn * a[i].by;
            q[i].by = x.y + sn * a[i].bx + cs * a[i].by;
        }
        return;
    }
    pala_rot_matrix(r, m);
    for (int i = 0; i < t->ncomp; i++) {
        q[i].bx = x.x + m[0][0] * a[i].bx + m[0][1] * a[i].by;
        q[i].by = x.y + m[1][0] * a[i].bx + m[1][1] * a[i].by;
    }
}

void pala_world_arc_bounds(pala_world *w)
{
    if (w->parc)
        for (int k = 0; k < w->n; k++) arc_bounds(w, k);
}

/* c_i = x + r * x_i (eq. 50): always from the constant shape vectors. */
void pala_world_place_pebbles(pala_world *w, int k)
{
    if (!w->pc) {   /* spheres only: pebble centres made on request (src/cli/order.c) */
        PALA_GROW(w->p0, w->n + 1);
        PALA_GROW(w->pc, w->n);
        for (int i = 0; i <= w->n; i++) w->p0[i] = i;
        for (int i = 0; i < w->n; i++) w->pc[i] = w->x[i];
    }
    const pala_template *t = &w->tmpl[w->tid[k]];
    pala_vec3 *pc = w->pc + w->p0[k];
    if (t->ncomp == 1) {
        pc[0] = w->x[k];
        if (w->parc) w->parc[w->p0[k]] = (pala_arcrange){1, 0, -2, HUGE_VAL, pc[0].x, pc[0].y, w->shape_r[t->comp0], 0};   /* a sphere among arcs */
        return;
    }
    if (w->parc && w->r[k].x == 0 && w->r[k].y == 0 && w->x[k].z == 0) { pala_place_arcs(w, t, w->p0[k], w->x[k].x, w->x[k].y, w->r[k].z); return; }
    const pala_vec3 *s = w->shape + t->comp0;
    double m[3][3];
    pala_rot_matrix(w->r[k], m);   /* one matrix for all components (paper, after eq. 10) */
    pala_vec3 x = w->x[k];
    for (int i = 0; i < t->ncomp; i++)
        pc[i] = pala_v(x.x + m[0][0] * s[i].x + m[0][1] * s[i].y + m[0][2] * s[i].z,
                       x.y + m[1][0] * s[i].x + m[1][1] * s[i].y + m[1][2] * s[i].z,
                       x.z + m[2][0] * s[i].x + m[2][1] * s[i].y + m[2][2] * s[i].z);
    if (!w->parc) return;
    const pala_arcrange *a = w->arc + t->comp0;
    pala_arcrange *q = w->parc + w->p0[k];
    for (int i = 0; i < t->ncomp; i++)
        q[i] = (pala_arcrange){m[0][0] * a[i].mx + m[0][1] * a[i].my, m[1][0] * a[i].mx + m[1][1] * a[i].my, a[i].ch, a[i].dl, 0, 0, a[i].br, 0};
}

typedef struct radcount { double a; long n; } radcount;
static int cmp_radcount(const void *x, const void *y)
{
    double a = ((const radcount *)x)->a, b = ((const radcount *)y)->a;
    return (a > b) - (a < b);
}

void pala_grain_radii(const pala_world *w, int bound, double *least, double *largest, double *median)
{
    *least = *largest = *median = 0;
    long *use = pala_xrealloc(NULL, (size_t)(w->ntmpl + 1) * sizeof *use);
    memset(use, 0, (size_t)(w->ntmpl + 1) * sizeof *use);
    for (int k = 0; k < w->n; k++) use[w->tid[k]]++;
    radcount *rc = pala_xrealloc(NULL, (size_t)(w->nshape + w->ntmpl + 1) * sizeof *rc);
    int m = 0;
    long total = 0;
    for (int t = 0; t < w->ntmpl; t++)
        for (int i = 0; use[t] && i < (bound ? 1 : w->tmpl[t].ncomp); i++) {
            rc[m++] = (radcount){bound ? w->tmpl[t].bound_radius : w->arc ? w->arc[w->tmpl[t].comp0 + i].br : w->shape_r[w->tmpl[t].comp0 + i], use[t]};
            total += use[t];
        }
    if (m > 0) {
        qsort(rc, (size_t)m, sizeof *rc, cmp_radcount);
        *least = rc[0].a;
        *largest = rc[m - 1].a;
        long seen = 0, mid = (total - 1) / 2;
        for (int i = 0; i < m; i++) {
            seen += rc[i].n;
            if (seen > mid) { *median = rc[i].a; break; }
        }
    }
    free(rc);
    free(use);
}
