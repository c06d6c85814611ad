/* step.c: the driver of a step.  It lists the stages of the direct-midpoint step (paper
 * sections 6-7, eqs. 65-69; docs/physics.md, "The integrator") in order and runs them on
 * the world's threads; the physics of each stage lives in its module:
 *
 *   start        eqs. (65)-(66): free motion over dt/2, half kick     integrator.h
 *   grain forces interactions between centres, additional forces       grain_forces.c
 *   list         the neighbour list, rebuilt when it may be stale      neighbor.c
 *   sweep        eq. (67): contacts, each grain then ends its step     force_pass.c
 *                (68)-(69), and starts the next when chained           integrator.c
 *   boundary     the grains of the thread-boundary blocks              force_pass.c
 *   balance      the split of the blocks between the threads           threads.c
 *   reduce       sums over blocks in block order                       force_pass.c
 *
 * Fusing the end of a grain's step into the sweep is a scheduling decision made here and
 * in force_pass.c; the formulas are those of integrator.h. */
#include "pala/pala.h"
#include "force_pass.h"
#include "grain_forces.h"
#include "integrator.h"
#include "neighbor.h"
#include "threads.h"
#include "world.h"
#include <math.h>
#include <stdio.h>

/* Stages list .. reduce: the force evaluation of a step (eq. 67) with the end of every
 * grain's step.  An unstable step (runaway overlap, non-finite state) still ends every
 * grain's step, and starts the next one when chained (pala_world_steps then does the same
 * for an unchained step), so the state reported depends neither on the threads nor on the
 * chaining. */
static int force_pass(pala_world *w, double *pdiss)
{
    pala_grain_forces_eval(w);
    if (pala_nlist_update(w)) pala_force_pass_setup(w);
    pala_team_run(w->team, pala_force_pass_sweep, w);
    if (w->work->nbb) pala_team_run(w->team, pala_force_pass_boundary, w);
    if (pala_team_balance(w->team)) pala_force_pass_setup(w);
    return pala_force_pass_reduce(w, NULL, pdiss) || w->nl->bad ? PALA_UNSTABLE : PALA_OK;
}

/* eqs. (65)-(66): free motion over dt/2, half kick; then the pebbles of eq. (50). */
static void start_job(void *ctx, int t, int b0, int b1)
{
    pala_world *w = ctx;
    (void)t;
    for (int b = b0; b < b1; b++) {
        int k0 = b * PALA_BLOCK, k1 = pala_block_end(w->n, b);
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
    w->nl->drift += sqrt(mv);
}

int pala_world_step(pala_world *w) { return pala_world_steps(w, 1); }

/* n steps whose intermediate states nobody looks at: the sweep of each step also starts
 * the next one (its free motion and half kick, eqs. 65-66), which saves a pass over the
 * grains.  Every operation, and the order of the drift bounds of the neighbour list, is
 * that of n calls of pala_world_step: the results are the same bits. */
int pala_world_steps(pala_world *w, long n)
{
    int st0 = pala_world_check_prepared(w);
    if (st0) return st0;
    double tau = 0.5 * w->dt;
    pala_team_run(w->team, start_job, w);                       /* eqs. (65)-(66) */
    add_drift(w);
    for (long i = 0; i < n; i++) {
        w->t += tau;
        w->work->chain = i + 1 < n;
        double pdiss = 0;
        int st = force_pass(w, &pdiss);               /* eq. (67), then (68)-(69) grain by grain */
        int chained = w->work->chain;
        add_drift(w);
        int finite = 1;
        for (int b = 0; b < w->work->nblk; b++) finite &= w->work->bs[b].finite;
        w->t += tau;
        w->step++;
        w->diss -= w->dt * pdiss;
        if (w->work->em) w->wfield += w->dt * w->work->wrate;   /* midpoint rule (docs/physics.md, "Turning fields") */
        if (chained) {   /* the next step's first free motion happened in the sweep */
            double mv = 0;
            for (int b = 0; b < w->work->nblk; b++)
                if (mv < w->work->bs[b].move2) mv = w->work->bs[b].move2;
            w->nl->drift += sqrt(mv);
        }
        if (!finite || st != PALA_OK) {
            /* The sweep finishes grains before it knows whether a later one fails, so a
             * chained step has started the next one already.  An unchained step does the
             * same here: the state reported is the next step's midpoint, at t + dt/2,
             * whatever the chaining (the world is not meant to be stepped further). */
            if (!chained) {
                pala_team_run(w->team, start_job, w);
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
