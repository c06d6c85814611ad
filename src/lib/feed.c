/* feed.c: the inserters and outlets of a world (feed.h): adding them, their checks, the
 * steps they act at, the grains and mass an inserter has due, what they report, and the
 * state a checkpoint keeps (docs/physics.md, "Grains that enter and leave"). */
#include "feed.h"
#include "alloc.h"
#include "region.h"
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pala_feed_free(pala_world *w)
{
    if (!w->feed) return;
    for (int i = 0; i < w->feed->n; i++) free((void *)w->feed->f[i].in.tseq);
    free(w->feed->f);
    free(w->feed->d);
    free(w->feed);
    w->feed = NULL;
}

static int add(pala_world *w, const pala_inserter *in, const pala_outlet *o)
{
    if (w->feed && w->feed->n == PALA_MAX_FEEDS) {
        snprintf(w->why, sizeof w->why, "a world has at most %d inserters and outlets", PALA_MAX_FEEDS);
        return -1;
    }
    if (!w->feed) {
        w->feed = pala_xrealloc(NULL, sizeof *w->feed);
        memset(w->feed, 0, sizeof *w->feed);
        w->feed->acted = -1;
    }
    pala_feed *fd = w->feed;
    PALA_GROW(fd->f, fd->n + 1);
    PALA_GROW(fd->d, fd->n + 1);
    pala_feed_one *f = &fd->f[fd->n];
    memset(f, 0, sizeof *f);
    f->outlet = o != NULL;
    if (o) f->out = *o;
    else {
        f->in = *in;
        if (in->tseq) {   /* the world's copy (the inserter's count of templates) */
            long n = in->count > 0 ? in->count : 0;
            int *q = pala_xrealloc(NULL, (size_t)(n + 1) * sizeof *q);
            memcpy(q, in->tseq, (size_t)n * sizeof *q);
            f->in.tseq = q;
        }
    }
    pala_feed_dyn *d = &fd->d[fd->n];
    memset(d, 0, sizeof *d);
    d->first_short = d->last_short = d->next_tmpl = -1;
    if (in) pala_rng_seed(&d->rng, in->seed);
    return fd->n++;
}

int pala_world_add_inserter(pala_world *w, const pala_inserter *in)
{
    if (!in) { snprintf(w->why, sizeof w->why, "pala_world_add_inserter: no inserter given"); return -1; }
    return add(w, in, NULL);
}

int pala_world_add_outlet(pala_world *w, const pala_outlet *o)
{
    if (!o) { snprintf(w->why, sizeof w->why, "pala_world_add_outlet: no outlet given"); return -1; }
    return add(w, NULL, o);
}

/* ---- the steps -------------------------------------------------------------------------- */
/* an inserter's first and last step: its start and end rounded to steps (no end: LONG_MAX) */
static long first_step(const pala_world *w, const pala_inserter *in) { return in->start > 0 ? lround(in->start / w->dt) : 0; }
static long last_step(const pala_world *w, const pala_inserter *in) { return in->end > 0 ? lround(in->end / w->dt) : LONG_MAX; }

double pala_feed_radius(const pala_world *w, int i)
{
    const pala_inserter *in = &w->feed->f[i].in;
    double R = 0;
    for (int t = in->tfirst; t < in->tfirst + in->tcount && t < w->ntmpl; t++) R = fmax(R, w->tmpl[t].bound_radius);
    return R;
}

/* The time a grain takes to fall through the region and its own bounding diameter, starting
 * with the inserter's velocity: the height H along g solves v0 t + g t^2 / 2 = H (LAMMPS's
 * fix pour refills its region so); without g, H along the velocity at its speed; 0 if the
 * grains do not move. */
static double fall_time(const pala_world *w, int i)
{
    const pala_inserter *in = &w->feed->f[i].in;
    double gn = pala_vnorm(w->g), sp = pala_vnorm(in->vel), D = 2 * pala_feed_radius(w, i);
    if (gn > 0) {
        pala_vec3 u = pala_vscale(1 / gn, w->g);
        double H = pala_region_extent(&in->region, w->dim, u) + D, v0 = pala_vdot(in->vel, u);
        return (sqrt(v0 * v0 + 2 * gn * H) - v0) / gn;
    }
    if (sp > 0) return (pala_region_extent(&in->region, w->dim, pala_vscale(1 / sp, in->vel)) + D) / sp;
    return 0;
}

long pala_feed_every(const pala_world *w, int i)
{
    const pala_inserter *in = &w->feed->f[i].in;
    if (in->every > 0) return in->every;
    double t = fall_time(w, i);
    if (!(t > 0 && isfinite(t)) || !(w->dt > 0)) return 0;
    double s = ceil(t / w->dt - 1e-9);
    return s < 1 ? 1 : s > 1e15 ? 1000000000000000L : (long)s;
}

/* an inserter that has inserted its count acts no more */
static int done(const pala_world *w, int i)
{
    const pala_inserter *in = &w->feed->f[i].in;
    return in->count > 0 && w->feed->d[i].count >= (double)in->count;
}

int pala_feed_acts(const pala_world *w, int i, long s)
{
    const pala_feed_one *f = &w->feed->f[i];
    if (f->outlet) return s % f->out.every == 0;
    long s0 = first_step(w, &f->in), s1 = last_step(w, &f->in), ev = pala_feed_every(w, i);
    if (done(w, i) || s < s0 || s > s1 || ev < 1) return 0;
    return s == s1 || (s - s0) % ev == 0;
}

long pala_feed_next(const pala_world *w, long s)
{
    long next = LONG_MAX;
    for (int i = 0; w->feed && i < w->feed->n; i++) {
        const pala_feed_one *f = &w->feed->f[i];
        long n = LONG_MAX;
        if (f->outlet) n = (s / f->out.every + 1) * f->out.every;
        else if (!done(w, i) && pala_feed_every(w, i) > 0) {
            long s0 = first_step(w, &f->in), s1 = last_step(w, &f->in), ev = pala_feed_every(w, i);
            if (s < s0) n = s0;
            else if (s < s1) {
                n = s0 + ((s - s0) / ev + 1) * ev;
                if (n > s1 || n < s) n = s1;   /* (n < s: past the range of long) */
            }
        }
        if (n < next) next = n;
    }
    return next;
}

long pala_feed_due(const pala_world *w, int i, long s, double *mass_due)
{
    const pala_inserter *in = &w->feed->f[i].in;
    long s0 = first_step(w, in), s1 = last_step(w, in), ev = pala_feed_every(w, i);
    /* an insertion brings the grains of the interval until the next one (as LAMMPS's fix pour
     * fills its region at once): those due by then, or by the end */
    long upto = s1 - s > ev ? s + ev : s1;
    double el = (double)(upto - s0) * w->dt;
    if (el < 0) el = 0;
    *mass_due = in->mass_rate * el;
    /* the rate times the time, counted down to a whole grain; the tolerance keeps 1000/s over
     * 0.05 s at 50 however the product rounds */
    double n = floor(in->rate * el * (1 + 1e-12) + 1e-9);
    if (in->mass_rate > 0) n = 1e18;   /* the mass decides */
    if (in->count > 0 && n > (double)in->count) n = (double)in->count;
    return n > 1e18 ? (long)1e18 : (long)n;
}

/* ---- the checks ----------------------------------------------------------------------- */
#define REFUSE(k, ...) (snprintf(buf, len, __VA_ARGS__), *key = (k), buf)

static const char *check_inserter(const pala_world *w, int i, char *buf, size_t len, const char **key)
{
    const pala_inserter *in = &w->feed->f[i].in;
    char e[256];
    const char *nm = in->name;
    if (in->tcount < 1 || in->tfirst < 0 || in->tfirst + in->tcount > w->ntmpl)
        return REFUSE("grain", "[group %s]: its templates %d .. %d do not exist (the world has %d)", nm, in->tfirst, in->tfirst + in->tcount - 1, w->ntmpl);
    if (in->tseq && !(in->count > 0)) return REFUSE("count", "[group %s]: grains of sizes drawn before the run need 'count' (the grains to insert)", nm);
    for (long q = 0; in->tseq && q < in->count; q++)
        if (in->tseq[q] < in->tfirst || in->tseq[q] >= in->tfirst + in->tcount)
            return REFUSE("grain", "[group %s]: its grain %ld has template %d, not one of its templates %d .. %d", nm, q, in->tseq[q], in->tfirst,
                          in->tfirst + in->tcount - 1);
    const char *r = pala_region_check(&in->region, w->dim, "box|cylinder|line", e, sizeof e, key);
    if (r) return snprintf(buf, len, "[group %s]: %s (grains are inserted in a box, a cylinder or on a line%s)", nm, r, w->dim == 2 ? "; in 2D a rectangle, a disc or a line" : ""), buf;
    int byrate = in->rate > 0 && isfinite(in->rate), bymass = in->mass_rate > 0 && isfinite(in->mass_rate);
    if (byrate == bymass || in->rate < 0 || in->mass_rate < 0)
        return REFUSE(in->rate != 0 ? "insert_rate" : "insert_mass_rate", "[group %s]: give one rate, insert_rate (grains/s) or insert_mass_rate (kg/s), "
                      "positive and finite (got %g and %g)", nm, in->rate, in->mass_rate);
    if (!(in->start >= 0 && isfinite(in->start))) return REFUSE("insert_start", "[group %s]: 'insert_start = %g': must be at least 0 (s)", nm, in->start);
    if (w->dt > 0 && !(in->start / w->dt < 1e15 && in->end / w->dt < 1e15))   /* first_step and last_step round them to a long */
        return REFUSE(in->start / w->dt < 1e15 ? "insert_end" : "insert_start", "[group %s]: 'insert_%s = %g': more than 1e15 steps of dt = %g s "
                      "from the start: give a time within the run (s)", nm, in->start / w->dt < 1e15 ? "end" : "start",
                      in->start / w->dt < 1e15 ? in->end : in->start, w->dt);
    if (!(in->end == 0 || (in->end > in->start && isfinite(in->end))))
        return REFUSE("insert_end", "[group %s]: 'insert_end = %g': must come after insert_start = %g (s)", nm, in->end, in->start);
    if (in->count < 0) return REFUSE("count", "[group %s]: 'count = %ld': must be at least 0", nm, in->count);
    if (in->count == 0 && in->end == 0)
        return REFUSE("insert_end", "[group %s]: the insertion would never stop: give insert_end (s) or count (the grains to insert)", nm);
    if (in->every < 0) return REFUSE("insert_every", "[group %s]: 'insert_every = %ld': must be at least 1 (steps)", nm, in->every);
    if (pala_feed_every(w, i) < 1)
        return REFUSE("insert_every", "[group %s]: the grains do not fall through the region (no gravity, no velocity), so the steps between "
                      "insertions cannot be chosen: give insert_every (steps)", nm);
    if (!(in->vspread >= 0 && isfinite(in->vspread))) return REFUSE("velocity_spread", "[group %s]: 'velocity_spread = %g': must be at least 0 (m/s)", nm, in->vspread);
    if (in->orient < PALA_ORIENT_RANDOM || in->orient > PALA_ORIENT_GIVEN) return REFUSE("orientation", "[group %s]: orientation %d: no such orientation", nm, in->orient);
    if (w->dim == 2) {
        if (in->vel.z != 0) return REFUSE("velocity", "[group %s]: in 2D the velocity needs z = 0", nm);
        if (in->omega.x != 0 || in->omega.y != 0) return REFUSE("angular_velocity", "[group %s]: in 2D grains turn about z only: use 0 0 wz", nm);
        if (in->orient == PALA_ORIENT_GIVEN && (in->orient_r.x != 0 || in->orient_r.y != 0))
            return REFUSE("orientation", "[group %s]: in 2D the rotation vector must be 0 0 rz", nm);
    }
    return NULL;
}

const char *pala_feeds_check(const pala_world *w, char *buf, size_t len, int *which, const char **key)
{
    *key = NULL;
    for (int i = 0; w->feed && i < w->feed->n; i++) {
        *which = i;
        const pala_feed_one *f = &w->feed->f[i];
        if (!f->outlet) {
            const char *e = check_inserter(w, i, buf, len, key);
            if (e) return e;
            continue;
        }
        char e[256];
        const char *r = pala_region_check(&f->out.region, w->dim, "plane|box|cylinder", e, sizeof e, key);
        if (r) return snprintf(buf, len, "[outlet %s]: %s (an outlet is a plane's side, a box or a cylinder%s)", f->out.name, r,
                               w->dim == 2 ? "; in 2D a line's side, a rectangle or a disc" : ""), buf;
        if (f->out.every < 1) return REFUSE("every", "[outlet %s]: 'every = %ld': must be at least 1 (steps)", f->out.name, f->out.every);
    }
    return NULL;
}

/* ---- what they report, what a checkpoint keeps ------------------------------------------- */
int pala_world_feed_report(const pala_world *w, int i, pala_feed_report *r)
{
    if (!w->feed || i < 0 || i >= w->feed->n) return -1;
    const pala_feed_one *f = &w->feed->f[i];
    const pala_feed_dyn *d = &w->feed->d[i];
    memset(r, 0, sizeof *r);
    r->name = f->outlet ? f->out.name : f->in.name;
    r->outlet = f->outlet;
    r->count = (long)d->count;
    r->mass = d->mass;
    r->behind = (long)d->behind;
    r->short_events = (long)d->short_events;
    r->first_short = d->first_short;
    r->last_short = d->last_short;
    r->most_behind = (long)d->most_behind;
    r->due = r->count + r->behind;
    return 0;
}

long pala_world_most_grains(const pala_world *w)
{
    double most = w->n;
    for (int i = 0; w->feed && i < w->feed->n; i++) {
        const pala_feed_one *f = &w->feed->f[i];
        if (f->outlet) continue;
        const pala_inserter *in = &f->in;
        double m = HUGE_VAL, lightest = HUGE_VAL;
        for (int t = in->tfirst; t < in->tfirst + in->tcount && t >= 0 && t < w->ntmpl; t++) lightest = fmin(lightest, w->tmpl[t].mass);
        if (in->end > 0) m = ceil((in->rate + in->mass_rate / lightest) * (in->end - in->start)) + 1;
        if (in->count > 0) m = fmin(m, (double)in->count);
        m -= w->feed->d[i].count;   /* those in already */
        if (!(m < 1e15)) return -1;
        most += m;
    }
    return (long)most;
}

void *pala_world_feed_state(pala_world *w, int i, const char **name, size_t *elem, long *count)
{
    if (!w->feed || !w->feed->n) return NULL;
    *count = 1;
    switch (i) {
    case 0: *name = "world.ein"; *elem = sizeof w->ein; return &w->ein;
    case 1: *name = "world.eout"; *elem = sizeof w->eout; return &w->eout;
    case 2: *name = "world.nid"; *elem = sizeof w->nid; return &w->nid;
    case 3: *name = "feed.acted"; *elem = sizeof w->feed->acted; return &w->feed->acted;
    case 4: *name = "feed.state"; *elem = sizeof *w->feed->d; *count = w->feed->n; return w->feed->d;
    default: return NULL;
    }
}
