/* population.c: the grains that enter and leave (docs/physics.md, "Grains that enter and
 * leave").  Between two steps, at a step where a feed acts (feed.h): first the outlets take
 * every grain whose centre of mass lies in their region, then the inserters place the grains
 * they have due (place.c).  The world is compacted and set up again (world.c), the states of
 * the contacts with history go with their pebbles (contact_state.c).
 *
 * The energy: E_out is the drop of E_total when the grains leave, E_in its rise when they
 * come, each the difference of two evaluations of the energy (energy.c) across the change.
 * So whatever a grain carries (its motion, its height in the field, its charge and dipoles,
 * its pairs with other centres, its contacts and their springs) is accounted for without a
 * term of its own: E_total + E_diss - W_field + E_out - E_in keeps its value across the
 * change exactly, and between changes the integrator's error is the only one. */
#include "population.h"
#include "alloc.h"
#include "feed.h"
#include "place.h"
#include "region.h"
#include "world.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The outlets that act at step s: their grains leave; E_out takes their energy.  The energy
 * before is *E (NAN: not evaluated yet); after, *E is the energy of the world that stays. */
static void outlets(pala_world *w, long s, double *E)
{
    pala_feed *fd = w->feed;
    unsigned char *gone = NULL;
    for (int i = 0; i < fd->n; i++) {
        const pala_feed_one *f = &fd->f[i];
        if (!f->outlet || !pala_feed_acts(w, i, s)) continue;
        for (int k = 0; k < w->n; k++) {
            if ((gone && gone[k]) || !pala_region_inside(&f->out.region, w->dim, w->x[k])) continue;
            if (!gone) {
                gone = pala_xrealloc(NULL, (size_t)w->n);
                memset(gone, 0, (size_t)w->n);
            }
            gone[k] = 1;   /* the first outlet whose region holds it counts it */
            fd->d[i].count += 1;
            fd->d[i].mass += w->tmpl[w->tid[k]].mass;
        }
    }
    if (!gone) return;
    if (*E != *E) *E = pala_world_energy(w).total;
    long nh;
    double *hist = pala_world_history_get(w, &nh);
    pala_world_repopulate(w, gone, hist, nh);
    free(hist);
    free(gone);
    double after = pala_world_energy(w).total;
    w->eout += *E - after;
    *E = after;
}

/* Inserter i at step s: the grains it has due (*want, at most) and the mass (*room, kg; a
 * grain rate: no limit); 0 if none is due. */
static int due(const pala_world *w, int i, long s, long *want, double *room)
{
    const pala_feed_dyn *d = &w->feed->d[i];
    double mdue;
    *want = pala_feed_due(w, i, s, &mdue) - (long)d->count;
    *room = w->feed->f[i].in.mass_rate > 0 ? mdue - d->mass : HUGE_VAL;
    return *want > 0 && *room > 0;
}

/* Inserter i places what it has due at step s, as many as find room; a shortfall is noted. */
static long insert(pala_world *w, int i, long s, long want, double room)
{
    pala_feed_one *f = &w->feed->f[i];
    pala_feed_dyn *d = &w->feed->d[i];
    int full;
    long placed = pala_place_insert(w, &f->in, d, want, room, &full);
    double pm = 0;
    for (int k = w->n - (int)placed; k < w->n; k++) pm += w->tmpl[w->tid[k]].mass;
    d->mass += pm;
    d->count += (double)placed;
    d->behind = 0;
    if (full) {
        /* a grain rate: the grains due less those in; a mass rate: the mass due less the mass
         * in, in grains of the next one's mass */
        double b = f->in.mass_rate > 0 ? floor((room - pm) / w->tmpl[(int)d->next_tmpl].mass + 1e-9) : (double)(want - placed);
        if (f->in.count > 0) b = fmin(b, (double)f->in.count - d->count);   /* no more than are left to insert, */
        d->behind = b > 1 ? fmin(b, 1e15) : 1;                           /* nor than a count of grains can be (a mass rate of 1e300 kg/s) */
        d->short_events += 1;
        double t = (double)s * w->dt;
        if (d->first_short < 0) d->first_short = t;
        d->last_short = t;
        if (d->behind > d->most_behind) d->most_behind = d->behind;
    }
    return placed;
}

int pala_population_act(pala_world *w)
{
    pala_feed *fd = w->feed;
    long s = w->step;
    if (!fd || fd->acted == s) return PALA_OK;
    int any = 0;
    for (int i = 0; i < fd->n && !any; i++) any = pala_feed_acts(w, i, s);
    if (!any) return PALA_OK;
    fd->acted = s;
    double E = (double)NAN;
    outlets(w, s, &E);
    /* the inserters: their grains are added at the end; the world is set up again once */
    long nh = 0, placed = 0;
    double *hist = NULL;
    int ready = 0;
    for (int i = 0; i < fd->n; i++) {
        long want;
        double room;
        if (fd->f[i].outlet || !pala_feed_acts(w, i, s)) continue;
        if (!due(w, i, s, &want, &room)) { fd->d[i].behind = 0; continue; }
        if (!ready) {   /* before the first grain comes: the energy and the states of the world */
            if (E != E) E = pala_world_energy(w).total;
            hist = pala_world_history_get(w, &nh);
            ready = 1;
        }
        placed += insert(w, i, s, want, room);
    }
    if (placed) {
        pala_world_repopulate(w, NULL, hist, nh);
        w->ein += pala_world_energy(w).total - E;
    }
    free(hist);
    return PALA_OK;
}
