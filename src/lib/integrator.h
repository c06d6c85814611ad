/* integrator.h: the direct-midpoint step (paper sections 6-7, eqs. 59-69), the only home
 * of its formulas.  The per-grain parts are inline, because the force pass
 * (force_pass.c) finishes each grain's step as soon as its force is known; the end of the
 * step of a block of grains (integrator.c) is called from there too.  The driver of the
 * step is step.c. */
#ifndef PALA_INTEGRATOR_H
#define PALA_INTEGRATOR_H
#include "neighbor.h"
#include "work.h"
#include <math.h>

/* The new angular velocity of an anisotropic grain after the free motion over h
 * (eq. 59 and the rotation_step option; integrator.c). */
pala_vec3 pala_free_rotation(const pala_world *w, const pala_template *t, pala_vec3 r, pala_vec3 om, double h);

/* The velocity of the neighbour list's frame (neighbor.h), m/s. */
static inline pala_vec3 pala_list_frame(const pala_world *w) { return w->nl ? w->nl->frame : pala_v(0, 0, 0); }

/* Free rigid-body motion Phi(h), eq. (59), of grain k; returns the squared bound on the
 * displacement of its pebbles (neighbor.c), *rel the same in the list's frame. */
static inline double pala_free_motion_h(pala_world *w, int k, double h, double *rel)
{
    const pala_template *t = &w->tmpl[w->tid[k]];
    pala_vec3 v = w->v[k];
    w->x[k] = pala_vaxpy(w->x[k], h, v);
    pala_vec3 om = w->w[k], r = w->r[k], om2 = om;
    if (!t->isotropic) om2 = pala_free_rotation(w, t, r, om, h);
    /* r <- exp(h (omega + omega')/2) o r */
    pala_vec3 q = pala_rot_exp(pala_vscale(0.5 * h, pala_vadd(om, om2)));
    if (w->sphere_orientation != PALA_SPHERES_FIXED) w->r[k] = pala_rot_compose(q, r);   /* fixed: a sphere keeps r (docs/physics.md) */
    w->w[k] = om2;
    /* Bound on the squared displacement of the grain's pebbles (neighbor.c): the centre
     * moves by h v; a pebble at s from it turns by 2 sin(phi/2) |s| <= 2 |q| |s| more. */
    double dx2 = h * h * pala_vnorm2(v), dr2 = h * h * pala_vnorm2(pala_vsub(v, pala_list_frame(w)));
    *rel = dr2;
    if (t->ncomp == 1) return dx2;
    double s = 2 * pala_vnorm(q) * w->work->smax[w->tid[k]], d = sqrt(dx2) + s, e = sqrt(dr2) + s;
    *rel = e * e;
    return d * d;
}

/* eqs. (65)-(66) for grain k: free motion over dt/2, half kick with the accelerations of
 * the previous step, then its pebbles (eq. 50).  Returns the squared displacement bound,
 * *rel the same in the list's frame. */
static inline double pala_grain_start_step(pala_world *w, int k, double *rel)
{
    double tau = 0.5 * w->dt;
    double d2 = pala_free_motion_h(w, k, tau, rel);                         /* eq. (65) */
    w->v[k] = pala_vaxpy(w->v[k], tau, w->acc[k]);                          /* eq. (66) */
    w->w[k] = pala_vaxpy(w->w[k], tau, w->bacc[k]);
    if (w->pc) pala_world_place_pebbles(w, k);   /* eq. (50) */
    return d2;
}

/* eq. (68) for grain k, called by the force pass as soon as the grain's new
 * accelerations a (eq. 61) and be (eq. 62) are known. */
static inline void pala_grain_end_kick(pala_world *w, int k, pala_vec3 a, pala_vec3 be)
{
    double tau = 0.5 * w->dt;
    w->v[k] = pala_vaxpy(w->v[k], tau, pala_vsub(pala_vscale(2, a), w->acc[k]));   /* eq. (68) */
    w->w[k] = pala_vaxpy(w->w[k], tau, pala_vsub(pala_vscale(2, be), w->bacc[k]));
    w->acc[k] = a;
    w->bacc[k] = be;
}

/* The magnetic Lorentz force q v x B of a grain with charge/mass qm in the field B (at the
 * step's midpoint time), applied implicitly (docs/physics.md, "The Lorentz force"):
 *   v_n+1 = v_n + dt (a + qm (v_n + v_n+1)/2 x B),
 * a the grain's other forces over its mass, solved in closed form (Boris' rotation: the
 * magnetic force does no work, exactly).  Returns (v_n+1 - v_n) / dt, the acceleration
 * the kick of eq. (68) then applies; v_n is the velocity before eq. (66). */
static inline pala_vec3 pala_lorentz_accel(const pala_world *w, int k, pala_vec3 a, double qm, pala_vec3 B)
{
    double tau = 0.5 * w->dt;
    pala_vec3 vn = pala_vaxpy(w->v[k], -tau, w->acc[k]);                    /* eq. (66) undone */
    pala_vec3 vm = pala_vaxpy(vn, tau, a);                                   /* half the other forces */
    pala_vec3 t = pala_vscale(qm * tau, B);
    pala_vec3 vp = pala_vadd(vm, pala_vcross(vm, t));
    pala_vec3 vr = pala_vadd(vm, pala_vscale(2 / (1 + pala_vdot(t, t)), pala_vcross(vp, t)));   /* the rotation */
    pala_vec3 v1 = pala_vaxpy(vr, tau, a);                                   /* the other half */
    return pala_vscale(1 / w->dt, pala_vsub(v1, vn));
}

/* eq. (69) for grain k after pala_grain_end_kick: the free motion over dt/2.  Returns the
 * squared displacement bound of its pebbles, *rel the same in the list's frame. */
static inline double pala_grain_end_drift(pala_world *w, int k, double *rel)
{
    double d2 = pala_free_motion_h(w, k, 0.5 * w->dt, rel);                 /* eq. (69) */
    if (w->dim == 2) {
        /* docs/physics.md, "2D mode": in-plane motion, omega along z.  The dynamics keeps these zero
         * exactly already; the projection only makes it a guarantee. */
        w->x[k].z = w->v[k].z = w->acc[k].z = 0;
        w->w[k].x = w->w[k].y = w->bacc[k].x = w->bacc[k].y = 0;
        w->r[k].x = w->r[k].y = 0;
    }
    return d2;
}

/* 0 if grain k's position and rotation are finite, NaN otherwise (a non-finite velocity
 * or angular velocity reaches both in the free motion of eq. 69).  With sphere_orientation
 * = fixed r stays as placed, so its angular velocity is checked in its place. */
static inline double pala_grain_check(const pala_world *w, int k)
{
    pala_vec3 x = w->x[k], r = w->sphere_orientation == PALA_SPHERES_FIXED ? w->w[k] : w->r[k];
    return 0.0 * (x.x + x.y + x.z + r.x + r.y + r.z);
}

/* What the end of a block's step adds up, per block. */
typedef struct pala_finish {
    double pdiss;   /* power of the non-conservative forces, W */
    double mv;      /* largest squared displacement bound of eq. (69), m^2 */
    double mv2;     /* ... of the next step's eq. (65) when chained, m^2 */
    double rv, rv2; /* the same two in the neighbour list's frame (neighbor.h), m^2 */
    double chk;     /* 0, or NaN if a grain's state is not finite */
    int kend;       /* the end of the calling thread's grains: the next block's state is
                     * fetched ahead only below it (beyond, another thread writes it; 0: none) */
} pala_finish;

/* The end of the step of grains [k0, k1) of one block, whose force and torque sums are
 * complete (A[k & mask]): accelerations (eqs. 61-62), kick (68), free motion (69) and,
 * when w->work->chain, the next step's (65)-(66).  Blocks of one isotropic template in 3D
 * take a vectorised path with the same operations in the same order (the same bits). */
void pala_integrator_end_block(pala_world *w, int k0, int k1, pala_facc *A, long mask, pala_finish *fa);
/* Stage start, blocks [b0, b1) (ctx: the world): eqs. (65)-(66) for their grains (free
 * motion over dt/2, half kick, pebbles), each block's largest squared displacement bound
 * into w->work->bs[b].move, in the list's frame into .rmove. */
void pala_integrator_start(void *ctx, int t, int b0, int b1);
/* The paths, for the test that compares them: any block, one of one isotropic template, one
 * of isotropic grains of several templates (btid -2). */
void pala_integrator_end_general(pala_world *w, int k0, int k1, pala_facc *A, long mask, pala_finish *fa);
void pala_integrator_end_isotropic(pala_world *w, int k0, int k1, pala_facc *A, long mask, int tid, pala_finish *fa);
void pala_integrator_end_mixed(pala_world *w, int k0, int k1, pala_facc *A, long mask, pala_finish *fa);

#endif
