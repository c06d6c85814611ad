/* grain.c: a grain's pebbles from its position and rotation (grain.h). */
#include "grain.h"
#include "alloc.h"
#include <stdlib.h>
#include <string.h>

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
    if (t->ncomp == 1) { pc[0] = w->x[k]; return; }
    const pala_vec3 *s = w->shape + t->comp0;
    double m[3][3];
    pala_rot_matrix(w->r[k], m);   /* one matrix for all components (paper, after eq. 10) */
    pala_vec3 x = w->x[k];
    for (int i = 0; i < t->ncomp; i++)
        pc[i] = pala_v(x.x + m[0][0] * s[i].x + m[0][1] * s[i].y + m[0][2] * s[i].z,
                       x.y + m[1][0] * s[i].x + m[1][1] * s[i].y + m[1][2] * s[i].z,
                       x.z + m[2][0] * s[i].x + m[2][1] * s[i].y + m[2][2] * s[i].z);
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
            rc[m++] = (radcount){bound ? w->tmpl[t].bound_radius : w->shape_r[w->tmpl[t].comp0 + i], use[t]};
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
