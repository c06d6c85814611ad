/* grain.h: where a grain's components ("pebbles") and its dipoles are.  Pebble p belongs to grain
 * pg[p]; grain k's pebbles start at p0[k].  In a world of spheres only, pebble k is
 * grain k itself and these arrays are not kept (pala.h). */
#ifndef PALA_GRAIN_H
#define PALA_GRAIN_H
#include "pala/pala.h"

/* The grain of pebble p. */
static inline int pala_peb_grain(const pala_world *w, int p) { return w->pg ? w->pg[p] : p; }
/* The first pebble of grain k (k == n: the pebble count). */
static inline int pala_grain_peb0(const pala_world *w, int k) { return w->p0 ? w->p0[k] : k; }
/* c_i = x + r * x_i (eq. 50) for grain k: pala_world_place_pebbles (pala.h, grain.c).  In an
 * arc world it turns each arc's range (parc's m) with the grain but not its bounding circle,
 * which the neighbour list alone reads: pala_world_arc_bounds places those of every grain
 * when the list is built. */
void pala_world_arc_bounds(pala_world *w);
/* pala_world_place_pebbles of an arc world's grain of template t (n > 1 components), its first
 * pebble p0, turned about z alone, at (x, y, 0) (2D: r = (0, 0, g), eq. 8): its circles'
 * centres and its arcs' bisectors.  pala_rot_matrix's entries are then m00 = m11 = c b =
 * cos phi, m10 = -m01 = c g = sin phi and m22 = c (g^2 + b), the others zero (b = (1 - g^2)/2, c = 2/(1 + g^2), eqs. 11-13), so
 * c_i = x + r * x_i (eq. 50) is the same operations on the nonzero entries as the general
 * product: the same bits, at half the instructions.  The circles' centres lie in z = 0
 * (arcs.c), so c_i's z is 0 + m22 0 = 0 (g^2 finite), stored without the product; the end
 * of the step passes x, y and g from its registers (integrator.c, end_planar).  Each arc's
 * bisector turns with it (docs/physics.md, "Arc grains"); its bounding circle only when the
 * list is built (arc_bounds); its cos h and bounding radius, constants, were set once
 * (pala_world_setup).  Inline: the end of the step calls it for each grain read (as a call,
 * with the template and first pebble loaded again, 16 instructions a grain more).
 * An arc's centre and bisector are one vector of four (w->arcv holds each component's
 * (s_x, s_x, m_x, m_x) and (s_y, s_y, m_y, m_y)):
 *     (c_x, c_y, m'_x, m'_y) = ((x, y, -0, -0) + (cs, sn, cs, sn) A) + (-sn, cs, -sn, cs) B,
 * lane by lane the scalar c_x = x + cs s_x - sn s_y, c_y = y + sn s_x + cs s_y,
 * m'_x = cs m_x - sn m_y, m'_y = sn m_x + cs m_y in the same order: a - b is a + (-b), and
 * -0 + p is p for every p, its zeros' signs too.  Callgrind (bench/arcs/triangle.txt,
 * settled): 12 instructions an arc instead of the scalar loop's 30, placement 212 -> 111 a
 * grain-step. */
typedef double pala_v4u __attribute__((vector_size(32), aligned(8)));   /* unaligned loads: arcv is realloc's */
typedef double pala_v2u __attribute__((vector_size(16), aligned(8)));
static inline void pala_place_arcs(pala_world *w, const pala_template *t, int p0, double x, double y, double g)
{
    pala_vec3 *restrict pc = w->pc + p0;
    const double rho = g * g, b = 0.5 * (1.0 - rho), c = 2.0 / (1.0 + rho);   /* rho = 0 + 0 + g^2 */
    const double cs = c * b, sn = c * g;                                         /* c (0 + b), c g */
    const pala_v4u o = {x, y, -0.0, -0.0}, C = {cs, sn, cs, sn}, D = {-sn, cs, -sn, cs};
    const double *restrict v = w->arcv + 8 * (size_t)t->comp0;
    pala_arcrange *restrict q = w->parc + p0;
    for (int i = 0, n = t->ncomp; i < n; i++) {
        const pala_v4u A = *(const pala_v4u *)(v + 8 * i), B = *(const pala_v4u *)(v + 8 * i + 4);
        const pala_v4u P = (o + C * A) + D * B;
        *(pala_v2u *)&pc[i].x = (pala_v2u){P[0], P[1]};
        pc[i].z = 0;
        *(pala_v2u *)&q[i].mx = (pala_v2u){P[2], P[3]};
    }
}

/* The sizes of the world's grains, each counted once per grain: their bounding radii
 * (bound = 1), or the radii of their components (bound = 0; an arc's: its bounding circle's,
 * the neighbour list's, docs/physics.md "Arc grains"): the least, the largest and the
 * lower median (the element (N - 1)/2 of the N sorted), m; all 0 without grains.  A median, so
 * that in a world of one size it is that size exactly. */
void pala_grain_radii(const pala_world *w, int bound, double *least, double *largest, double *median);
/* Grain k's electric and magnetic dipoles in the world frame: p = r * p_body (eq. 6; they
 * are fixed in the body like its components). */
static inline void pala_grain_dipoles(const pala_world *w, int k, pala_vec3 *p, pala_vec3 *m)
{
    const pala_template *tp = &w->tmpl[w->tid[k]];
    *p = pala_rot_apply(w->r[k], tp->edip);
    *m = pala_rot_apply(w->r[k], tp->mdip);
}

#endif
