/* grain.c: a grain's pebbles from its position and rotation (grain.h). */
#include "grain.h"
#include "alloc.h"
#include <stdlib.h>
#include <string.h>

/* An arc world's grain k of n > 1 components turned about z alone, at (x, y, 0) (2D: r = (0, 0, g),
 * eq. 8): pala_rot_matrix's entries are then m00 = m11 = c b = cos phi, m10 = -m01 = c g = sin phi
 * and m22 = c (g^2 + b), the others zero (b = (1 - g^2)/2, c = 2/(1 + g^2), eqs. 11-13), so
 * c_i = x + r * x_i (eq. 50) is the same operations on the nonzero entries as the general
 * product: the same bits, at half the instructions.  The circles' centres lie in z = 0
 * (arcs.c), so c_i's z is 0 + m22 0 = 0 (g^2 finite), stored without the product; the end
 * of the step passes x, y and g from its registers (integrator.c, end_planar).  Each arc's
 * bisector turns with it (docs/physics.md, "Arc grains"); its bounding circle only when the
 * list is built (arc_bounds); its cos h and bounding radius, constants, were set once
 * (pala_world_setup).
 * An arc's centre and bisector are one vector of four (w->arcv holds each component's
 * (s_x, s_x, m_x, m_x) and (s_y, s_y, m_y, m_y)):
 *     (c_x, c_y, m'_x, m'_y) = ((x, y, -0, -0) + (cs, sn, cs, sn) A) + (-sn, cs, -sn, cs) B,
 * lane by lane the scalar c_x = x + cs s_x - sn s_y, c_y = y + sn s_x + cs s_y,
 * m'_x = cs m_x - sn m_y, m'_y = sn m_x + cs m_y in the same order: a - b is a + (-b), and
 * -0 + p is p for every p, its zeros' signs too.  Callgrind (bench/arcs/triangle.txt,
 * settled): 12 instructions an arc instead of the scalar loop's 30, placement 212 -> 111 a
 * grain-step. */
typedef double arc4 __attribute__((vector_size(32), aligned(8)));   /* unaligned loads: arcv is realloc's */
typedef double arc2 __attribute__((vector_size(16), aligned(8)));
void pala_world_place_arcs(pala_world *w, int k, double x, double y, double g)
{
    const pala_template *t = &w->tmpl[w->tid[k]];
    const int p0 = w->p0[k];
    pala_vec3 *restrict pc = w->pc + p0;
    const double rho = g * g, b = 0.5 * (1.0 - rho), c = 2.0 / (1.0 + rho);   /* rho = 0 + 0 + g^2 */
    const double cs = c * b, sn = c * g;                                         /* c (0 + b), c g */
    const arc4 o = {x, y, -0.0, -0.0}, C = {cs, sn, cs, sn}, D = {-sn, cs, -sn, cs};
    const double *restrict v = w->arcv + 8 * (size_t)t->comp0;
    pala_arcrange *restrict q = w->parc + p0;
    for (int i = 0, n = t->ncomp; i < n; i++) {
        const arc4 A = *(const arc4 *)(v + 8 * i), B = *(const arc4 *)(v + 8 * i + 4);
        const arc4 P = (o + C * A) + D * B;
        *(arc2 *)&pc[i].x = (arc2){P[0], P[1]};
        pc[i].z = 0;
        *(arc2 *)&q[i].mx = (arc2){P[2], P[3]};
    }
}

/* The bounding circles' centres x + r * b_i of grain k's arcs, as place_arcs or the
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
        if (w->parc) w->parc[w->p0[k]] = (pala_arcrange){1, 0, -2, pc[0].x, pc[0].y, w->shape_r[t->comp0]};   /* a sphere among arcs */
        return;
    }
    if (w->parc && w->r[k].x == 0 && w->r[k].y == 0 && w->x[k].z == 0) { pala_world_place_arcs(w, k, w->x[k].x, w->x[k].y, w->r[k].z); return; }
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
        q[i] = (pala_arcrange){m[0][0] * a[i].mx + m[0][1] * a[i].my, m[1][0] * a[i].mx + m[1][1] * a[i].my, a[i].ch, 0, 0, a[i].br};
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
