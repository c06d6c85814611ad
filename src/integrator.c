/* integrator.c: the direct-midpoint step for many grains, paper sections 6-7
 * (eqs. 59, 65-69; PHYSICS.md 3).  Exactly one force evaluation per step. */
#include "internal.h"
#include <math.h>
#include <stdio.h>

/* omega' = I_r^-1 (I_r omega x omega): torque-free Euler equation, eq. (60). */
static pala_vec3 euler_rate(pala_vec3 r, const pala_template *t, pala_vec3 om)
{
    pala_vec3 L = pala_rot_diag_apply(r, t->inertia, om);
    return pala_rot_diag_apply(r, t->inv_inertia, pala_vcross(L, om));
}

/* Free rigid-body motion Phi(h), eq. (59): x += h v; omega changes by the torque-free
 * Euler equation; r <- exp(h (omega + omega')/2) o r.
 *
 * The paper's Delta omega = h I_r^-1 (I_{dr o r} omega x omega), dr = exp(h/2 omega), takes
 * only part of the midpoint into account (omega and I_r^-1 stay at the start), and we
 * measured it to drift the angular momentum of an asymmetric grain to first order in h
 * only (tests/test_dynamics.c, Dzhanibekov).  With rotation_step = midpoint (default)
 * Delta omega is evaluated at the midpoint (omega_h, r_h) of an Euler half-step, which
 * is second order; rotation_step = paper keeps eq. (59) as printed.  Isotropic grains
 * (spheres) have Delta omega = 0 either way. */
void pala_world_free_motion(pala_world *w, int k, double h)
{
    const pala_template *t = &w->tmpl[w->tid[k]];
    w->x[k] = pala_vaxpy(w->x[k], h, w->v[k]);
    pala_vec3 om = w->w[k], r = w->r[k], om2 = om;
    if (!t->isotropic) {
        if (w->rotation_step == PALA_ROTSTEP_PAPER) {
            pala_vec3 r1 = pala_rot_compose(pala_rot_exp(pala_vscale(0.5 * h, om)), r);
            pala_vec3 L = pala_rot_diag_apply(r1, t->inertia, om);
            om2 = pala_vaxpy(om, h, pala_rot_diag_apply(r, t->inv_inertia, pala_vcross(L, om)));
        } else {
            pala_vec3 omh = pala_vaxpy(om, 0.5 * h, euler_rate(r, t, om));
            pala_vec3 rh = pala_rot_compose(pala_rot_exp(pala_vscale(0.5 * h, omh)), r);
            om2 = pala_vaxpy(om, h, euler_rate(rh, t, omh));
        }
    }
    /* r <- exp(h (omega + omega')/2) o r */
    w->r[k] = pala_rot_compose(pala_rot_exp(pala_vscale(0.5 * h, pala_vadd(om, om2))), r);
    w->w[k] = om2;
}

int pala_world_step(pala_world *w)
{
    double tau = 0.5 * w->dt;
    for (int k = 0; k < w->n; k++) {
        pala_world_free_motion(w, k, tau);                      /* eq. (65) */
        w->v[k] = pala_vaxpy(w->v[k], tau, w->acc[k]);          /* eq. (66) */
        w->w[k] = pala_vaxpy(w->w[k], tau, w->bacc[k]);
    }
    w->t += tau;
    int st = pala_world_forces_ex(w, NULL, 1);                 /* eq. (67) */
    int finite = 1;
    double pdiss = 0;
    for (int k = 0; k < w->n; k++) {
        const pala_template *t = &w->tmpl[w->tid[k]];
        pala_vec3 a = pala_vscale(1.0 / t->mass, w->f[k]);                      /* eq. (61) */
        pala_vec3 b = pala_rot_diag_apply(w->r[k], t->inv_inertia, w->tq[k]);   /* eq. (62) */
        if (w->fnc) {
            /* Work of the non-conservative forces over the step, with the velocities
             * the positions actually advance by, v + tau alpha_new (the kinetic energy
             * changes by exactly F . dt (v_n + v_n+1)/2 in this scheme). */
            pala_vec3 vm = pala_vaxpy(w->v[k], tau, pala_vsub(a, w->acc[k]));
            pala_vec3 om = pala_vaxpy(w->w[k], tau, pala_vsub(b, w->bacc[k]));
            pdiss += pala_vdot(w->fnc[k], vm) + pala_vdot(w->tnc[k], om);
        }
        w->v[k] = pala_vaxpy(w->v[k], tau, pala_vsub(pala_vscale(2, a), w->acc[k]));   /* eq. (68) */
        w->w[k] = pala_vaxpy(w->w[k], tau, pala_vsub(pala_vscale(2, b), w->bacc[k]));
        w->acc[k] = a;
        w->bacc[k] = b;
        pala_world_free_motion(w, k, tau);                      /* eq. (69) */
        if (w->dim == 2) {
            /* PHYSICS.md 2: in-plane motion, omega along z.  The dynamics keeps these zero
             * exactly already; the projection only makes it a guarantee. */
            w->x[k].z = w->v[k].z = w->acc[k].z = 0;
            w->w[k].x = w->w[k].y = w->bacc[k].x = w->bacc[k].y = 0;
            w->r[k].x = w->r[k].y = 0;
        }
        finite &= pala_visfinite(w->x[k]) & pala_visfinite(w->v[k]) & pala_visfinite(w->w[k]) & pala_visfinite(w->r[k]);
    }
    w->t += tau;
    w->step++;
    w->diss -= w->dt * pdiss;
    if (!finite) {
        if (!w->why[0])
            snprintf(w->why, sizeof w->why,
                     "non-finite state at t = %.6g s (step %ld): the time step is too large for the "
                     "stiffness; reduce dt (a contact should last at least ~20 steps)", w->t, w->step);
        return PALA_UNSTABLE;
    }
    return st;
}
