/* integrator.c: the direct-midpoint step for many grains, paper sections 6-7
 * (eqs. 59, 65-69; PHYSICS.md 3).  Exactly one force evaluation per step. */
#include "motion.h"
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
 * measured its drift of the angular momentum of an asymmetric grain not to shrink as
 * h^2 (tests/test_dynamics.c, Dzhanibekov).  With rotation_step = midpoint (default)
 * Delta omega is evaluated at the midpoint (omega_h, r_h) of an Euler half-step, which
 * is second order; rotation_step = paper keeps eq. (59) as printed.  Isotropic grains
 * (spheres) have Delta omega = 0 either way. */
/* The new angular velocity of an anisotropic grain after the free motion over h. */
pala_vec3 pala_free_rotation(const pala_world *w, const pala_template *t, pala_vec3 r, pala_vec3 om, double h)
{
    if (w->rotation_step == PALA_ROTSTEP_PAPER) {
        pala_vec3 r1 = pala_rot_compose(pala_rot_exp(pala_vscale(0.5 * h, om)), r);
        pala_vec3 L = pala_rot_diag_apply(r1, t->inertia, om);
        return pala_vaxpy(om, h, pala_rot_diag_apply(r, t->inv_inertia, pala_vcross(L, om)));
    }
    pala_vec3 omh = pala_vaxpy(om, 0.5 * h, euler_rate(r, t, om));
    pala_vec3 rh = pala_rot_compose(pala_rot_exp(pala_vscale(0.5 * h, omh)), r);
    return pala_vaxpy(om, h, euler_rate(rh, t, omh));
}

void pala_world_free_motion(pala_world *w, int k, double h)
{
    pala_free_motion_h(w, k, h);
    if (w->work) w->nl.builds = 0;   /* moved outside a step: rebuild the list */
}

/* Grains of block b: [k0, k1). */
static inline void block_range(const pala_world *w, int b, int *k0, int *k1)
{
    *k0 = b * PALA_BLOCK;
    *k1 = (b + 1) * PALA_BLOCK < w->n ? (b + 1) * PALA_BLOCK : w->n;
}

/* eqs. (65)-(66): free motion over dt/2, half kick; then the pebbles of eq. (50). */
static void phase_drift_kick(pala_world *w, int b0, int b1)
{
    for (int b = b0; b < b1; b++) {
        int k0, k1;
        block_range(w, b, &k0, &k1);
        double mv = 0;
        for (int k = k0; k < k1; k++) {
            double d2 = pala_grain_start_step(w, k);
            if (d2 > mv) mv = d2;
        }
        w->work->bs[b].move = mv;
    }
}

/* Largest displacement of the phase, added to the list's drift bound. */
static void add_drift(pala_world *w)
{
    double mv = 0;
    for (int b = 0; b < w->work->nblk; b++)
        if (w->work->bs[b].move > mv) mv = w->work->bs[b].move;
    w->nl.drift += sqrt(mv);
}

int pala_world_step(pala_world *w) { return pala_world_steps(w, 1); }

/* n steps whose intermediate states nobody looks at: the sweep of each step also starts
 * the next one (its free motion and half kick, eqs. 65-66), which saves a pass over the
 * grains.  Every operation, and the order of the drift bounds of the neighbour list, is
 * that of n calls of pala_world_step: the results are the same bits. */
int pala_world_steps(pala_world *w, long n)
{
    if (!w->work) pala_work_prepare(w);
    double tau = 0.5 * w->dt;
    pala_world_par(w, phase_drift_kick);                        /* eqs. (65)-(66) */
    add_drift(w);
    for (long i = 0; i < n; i++) {
        w->t += tau;
        w->work->chain = i + 1 < n;
        double pdiss = 0;
        int st = pala_world_forces_step(w, &pdiss);   /* eq. (67), then (68)-(69) grain by grain */
        int chained = w->work->chain;
        add_drift(w);
        int finite = 1;
        for (int b = 0; b < w->work->nblk; b++) finite &= w->work->bs[b].finite;
        w->t += tau;
        w->step++;
        w->diss -= w->dt * pdiss;
        if (chained) {   /* the next step's first free motion happened in the sweep */
            double mv = 0;
            for (int b = 0; b < w->work->nblk; b++)
                if (mv < w->work->bs[b].move2) mv = w->work->bs[b].move2;
            w->nl.drift += sqrt(mv);
        }
        if (!finite || st != PALA_OK) {
            /* The sweep finishes grains before it knows whether a later one fails, so a
             * chained step has started the next one already.  An unchained step does the
             * same here: the state reported is the next step's midpoint, at t + dt/2,
             * whatever the chaining (the world is not meant to be stepped further). */
            if (!chained) {
                pala_world_par(w, phase_drift_kick);
                add_drift(w);
            }
            w->t += tau;
            if (!finite && !w->why[0])
                snprintf(w->why, sizeof w->why,
                         "non-finite state at t = %.6g s (step %ld): the time step is too large for the "
                         "stiffness; reduce dt (a contact should last at least ~20 steps)", w->t, w->step);
            w->work->chain = 0;
            return finite ? st : PALA_UNSTABLE;
        }
    }
    w->work->chain = 0;
    return PALA_OK;
}
