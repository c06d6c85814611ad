/* feed.h: the grains that enter and leave: the inserters and outlets of a world (pala.h),
 * their steps and their state (feed.c).  What happens at one of their steps (the grains
 * placed and removed, the energy they bring and take) is population.c's. */
#ifndef PALA_FEED_H
#define PALA_FEED_H
#include "pala/pala.h"

/* What a feed has done so far: the state a checkpoint keeps (8-byte members only, so its
 * bytes have no padding). */
typedef struct pala_feed_dyn {
    double count;          /* grains inserted, or removed */
    double mass;           /* their mass, kg */
    double behind;         /* an inserter: grains due by now that found no room yet */
    double short_events;   /* its insertions that fell short */
    double first_short, last_short;   /* their first and last times, s (-1: none yet) */
    double most_behind;    /* the most it was behind at once */
    double next_tmpl;      /* an inserter: the template of its next grain, -1: not chosen yet */
    pala_rng rng;          /* an inserter: its random generator */
} pala_feed_dyn;

/* One feed: an inserter (outlet 0) or an outlet. */
typedef struct pala_feed_one {
    int outlet;
    pala_inserter in;
    pala_outlet out;
} pala_feed_one;

/* The feeds of a world (w->feed). */
typedef struct pala_feed {
    int n;
    pala_feed_one *f;
    pala_feed_dyn *d;
    long acted;            /* the step of the last action (-1: none yet) */
} pala_feed;

void pala_feed_free(pala_world *w);
/* NULL if every feed is usable, else what is wrong (into buf) in the words of the control
 * file, naming the feed (*which) and the key to change (*key). */
const char *pala_feeds_check(const pala_world *w, char *buf, size_t len, int *which, const char **key);
/* 1 if feed i acts at step s: an inserter at its first step, every `every` steps after it
 * and at its last (the step of its end), until it has inserted its count; an outlet at every
 * multiple of its `every`. */
int pala_feed_acts(const pala_world *w, int i, long s);
/* The first step after s at which a feed acts; LONG_MAX if none will. */
long pala_feed_next(const pala_world *w, long s);
/* Inserter i at step s: the grains due since its start (at most its count), and the mass
 * due (its mass rate times the time since its start), kg, both by its next insertion (or
 * its end): an insertion brings the grains of the interval it begins. */
long pala_feed_due(const pala_world *w, int i, long s, double *mass_due);
/* The steps between the insertions of inserter i: its `every`, or the time a grain takes to
 * fall through its region (0 if it does not fall). */
long pala_feed_every(const pala_world *w, int i);
/* The largest bounding radius of inserter i's grains, m. */
double pala_feed_radius(const pala_world *w, int i);

#endif
