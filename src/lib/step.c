/* step.c: the driver of a step.  The direct-midpoint step (paper sections 6-7, eqs. 65-69;
 * docs/physics.md, "The integrator") is a list of stages, each a function of its module,
 * which the driver runs in order on the world's threads (docs/design.md, "The step").  The
 * driver knows the order and the threading; it states no physics.  Fusing the end of a
 * grain's step into the sweep is a scheduling decision made here and in force_pass.c; the
 * formulas are those of integrator.h. */
#include "pala/pala.h"
#include "feed.h"
#include "force_pass.h"
#include "grain_forces.h"
#include "integrator.h"
#include "neighbor.h"
#include "surface.h"
#include "population.h"
#include "threads.h"
#include "world.h"
#include <limits.h>
#include <math.h>
#include <stdio.h>

/* A stage: the team runs job over the blocks of its split (threads.h), then the calling
 * thread runs run (which may hand blocks to the team itself); either may be NULL.  A stage
 * with when runs only in the steps where when(w) holds. */
typedef struct stage {
    const char *name;
    int (*when)(const pala_world *w);
    void (*job)(void *w, int t, int b0, int b1);
    int (*run)(pala_world *w);   /* PALA_OK, or PALA_UNSTABLE */
} stage;

/* ---- the glue of the stages: the order of calls, no formulas ----------------------------- */

static int derive(pala_world *w) { pala_world_derive(w); return PALA_OK; }
static int grain_forces(pala_world *w) { pala_grain_forces_eval(w); return PALA_OK; }

/* The list, rebuilt when it may be stale; the sweep is set up again after a build, its
 * wall candidates alone when only they are listed again. */
static int list(pala_world *w)
{
    int u = pala_nlist_update(w);
    if (u == 2) pala_force_pass_setup(w);
    else if (u == 1) pala_force_pass_setup_walls(w);
    return PALA_OK;
}

/* The moving walls where they are at the step's midpoint. */
static int walls_move(const pala_world *w) { return w->work->moving; }
static int move_walls(pala_world *w) { pala_surfaces_move(w, w->t); return PALA_OK; }

/* The list's drift bounds (at rest and in its frame) take the largest displacement of the
 * phase, summed over the blocks in block order, then (chained) that of the next step's
 * first free motion. */
static void add_drift(pala_world *w, int chained)
{
    double mv = 0, mv2 = 0, rv = 0, rv2 = 0;
    for (int b = 0; b < w->work->nblk; b++) {
        const pala_blocksum *s = &w->work->bs[b];
        if (s->move > mv) mv = s->move;
        if (s->rmove > rv) rv = s->rmove;
        if (chained && s->move2 > mv2) mv2 = s->move2;
        if (chained && s->rmove2 > rv2) rv2 = s->rmove2;
    }
    w->nl->drift += sqrt(mv);
    w->nl->rdrift += sqrt(rv);
    if (chained) { w->nl->drift += sqrt(mv2); w->nl->rdrift += sqrt(rv2); }
}
static int drift(pala_world *w) { add_drift(w, 0); return PALA_OK; }
static int drift_step(pala_world *w) { add_drift(w, w->work->chain); return PALA_OK; }

/* The split of the blocks between the threads follows their measured times; the sweep is
 * set up again when it moves. */
static int balance(pala_world *w)
{
    int count = pala_team_adapt(w->team);   /* one thread while it is faster (threads.c) */
    if (pala_team_balance(w->team) || count) pala_force_pass_setup_pairs(w);   /* the wall candidates do not depend on the split */
    return PALA_OK;
}

/* The sums over the blocks in block order; the work of the step's non-conservative forces
 * joins E_diss (force_pass.c: their power at the step's midpoint velocities). */
static int reduce(pala_world *w)
{
    double pdiss = 0;
    int bad = pala_force_pass_reduce(w, NULL, &pdiss);
    w->diss -= w->dt * pdiss;
    return bad || w->nl->bad ? PALA_UNSTABLE : PALA_OK;
}

/* ---- the stages ------------------------------------------------------------------------- */

/* Before the first step of pala_world_steps. */
enum { DERIVE, START, NFIRST };
static const stage first[NFIRST] = {
    /*         name           when             job (on the team)          run (on this thread) */
    [DERIVE] = {"derive",     NULL,            NULL,                      derive},   /* world.c: what depends on g, fields, dt */
    [START]  = {"start",      NULL,            pala_integrator_start,     drift},    /* integrator.c: eqs. (65)-(66) */
};

/* One step, at its midpoint t + dt/2: the force evaluation (eq. 67), each grain ending its
 * step (68)-(69) in the sweep as soon as its sums are complete, and starting the next one
 * (65)-(66) when chained.  An unstable step (runaway overlap, non-finite state) still ends
 * every grain's step, so the state reported does not depend on the threads. */
static const stage each_step[] = {
    /* name           when             job (on the team)          run (on this thread) */
    {"grain forces",  NULL,            NULL,                      grain_forces},   /* grain_forces.c: m g, fields, centres, additional */
    {"list",          NULL,            NULL,                      list},           /* neighbor.c */
    {"walls",         walls_move,      NULL,                      move_walls},     /* surface.c: the pose of the moving walls */
    {"sweep",         NULL,            pala_force_pass_sweep,     NULL},           /* force_pass.c, contact.c, integrator.c */
    {"balance",       NULL,            NULL,                      balance},        /* threads.c */
    {"reduce",        NULL,            NULL,                      reduce},         /* force_pass.c: sums, E_diss */
    {"drift",         NULL,            NULL,                      drift_step},     /* neighbor.c's bound */
};

#define NSTAGES(a) (int)(sizeof(a) / sizeof(a)[0])

static int run_stages(pala_world *w, const stage *s, int n)
{
    int st = PALA_OK;
    for (int i = 0; i < n; i++) {
        if (s[i].when && !s[i].when(w)) continue;
        if (s[i].job) pala_team_run(w->team, s[i].job, w);
        if (s[i].run) {
            int r = s[i].run(w);
            if (r != PALA_OK) st = r;
        }
    }
    return st;
}

static int blocks_finite(const pala_world *w)
{
    int finite = 1;
    for (int b = 0; b < w->work->nblk; b++) finite &= w->work->bs[b].finite;
    return finite;
}

int pala_world_step(pala_world *w) { return pala_world_steps(w, 1); }

/* n steps whose intermediate states nobody looks at: the sweep of each step also starts
 * the next one (its free motion and half kick, eqs. 65-66), which saves a pass over the
 * grains.  Every operation, and the order of the drift bounds of the neighbour list, is
 * that of n calls of pala_world_step: the results are the same bits. */
static int chained_steps(pala_world *w, long n)
{
    double tau = 0.5 * w->dt;
    run_stages(w, first, NFIRST);
    for (long i = 0; i < n; i++) {
        w->t += tau;
        w->work->chain = i + 1 < n;
        int chained = w->work->chain;
        int st = run_stages(w, each_step, NSTAGES(each_step));
        int finite = blocks_finite(w);
        w->t += tau;
        w->step++;
        if (!finite || st != PALA_OK) {
            /* The sweep finishes grains before it knows whether a later one fails, so a
             * chained step has started the next one already.  An unchained step does the
             * same here: the state reported is the next step's midpoint, at t + dt/2,
             * whatever the chaining (the world is not meant to be stepped further). */
            if (!chained) run_stages(w, &first[START], 1);
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

/* The next step after w->step at which something happens between steps: a feed acts, or
 * the spatial order is checked. */
static long next_stop(const pala_world *w)
{
    long s = w->feed ? pala_feed_next(w, w->step) : LONG_MAX;
    if (pala_world_resorts(w)) {
        long k = (w->step / w->sort_every + 1) * w->sort_every;
        if (k < s) s = k;
    }
    return s;
}

int pala_world_steps(pala_world *w, long n)
{
    int st = pala_world_check_prepared(w);
    if (st || (!w->feed && !pala_world_resorts(w))) return st ? st : chained_steps(w, n);
    /* between steps, at the steps of the feeds, grains enter and leave (population.c), and
     * at multiples of sort_every the grains may be stored in spatial order again (world.c):
     * the steps up to the next such step run chained, and that step starts a call of its own */
    while (n > 0 && st == PALA_OK) {
        if (w->feed) pala_population_act(w);
        pala_world_resort(w);
        long before = w->step, m = next_stop(w) - w->step;
        st = chained_steps(w, m < 1 || m > n ? n : m);
        n -= w->step - before;
    }
    return st;
}
