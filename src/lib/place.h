/* place.h: initial placement of groups of grains (used by the scene reader), and the
 * grains an inserter places during a run (population.c). */
#ifndef PALA_PLACE_H
#define PALA_PLACE_H
#include "pala/pala.h"
#include "feed.h"
#include "sizes.h"

/* The placements of a group: at t = 0 (random, lattice, list), or over time (insert: an
 * inserter, feed.h).  The regions and orientations are pala.h's (enum pala_region_kind,
 * enum pala_orient). */
enum { PALA_PLACE_RANDOM, PALA_PLACE_LATTICE, PALA_PLACE_LIST, PALA_PLACE_INSERT };

typedef struct pala_group {
    int tfirst, tcount;      /* templates of the grain type (random types have several) */
    int random_variant;      /* pick a template at random (else grain q takes tfirst + tnext + q) */
    int tnext;               /* templates of this type already used by earlier groups */
    const pala_sizes *sizes; /* the grain type's size distribution, or NULL: each grain gets the
                                template of its size class (made as needed), scaled from its
                                type's (or, tcount 0, a sphere like proto) */
    pala_template proto;     /* spheres of a size distribution: name, material, charge, dipoles */
    /* set from the group's keys (keys.c binds each key to its field) */
    long count;              /* number of grains (count) */
    int placement;           /* PALA_PLACE_* (placement) */
    pala_region reg;         /* where centres may go: its kind (region; container, box, slab,
                                cylinder, or for an inserter line), a box (region_box), a
                                cylinder (region_centre, region_axis, region_radius,
                                region_length), a line (region_line) */
    int orient;              /* PALA_ORIENT_* (orientation) */
    pala_vec3 slab_n;        /* region = slab: unit normal of the mid-plane (slab_normal) */
    double slab_off;         /* region = slab: offset of the mid-plane along slab_n, m */
    double slab_th;          /* region = slab: thickness, m (slab_thickness) */
    double spacing;          /* lattice spacing, m; 0 = auto (lattice_spacing) */
    double *at;              /* list: count x 6 (x y z m, vx vy vz m/s) from the 'at' lines */
    pala_vec3 vel;           /* velocity of every grain, m/s (velocity) */
    pala_vec3 omega;         /* angular velocity of every grain, 1/s (angular_velocity) */
    pala_vec3 orient_r;      /* orient = PALA_ORIENT_GIVEN: rotation vector (orientation) */
    double vspread;          /* standard deviation of the random velocity, m/s (velocity_spread) */
} pala_group;

/* An explicit position may touch a wall but not start deep in it (the first step would fail
 * as a runaway overlap, far from its cause): 1, and "at (x, y, z): its component ... reaches
 * ... of its radius into ..." in err, if a component of a grain of template tmpl at x with
 * rotation r is cut by a wall deeper than max_overlap; else 0. */
int pala_place_deep(const pala_world *w, int tmpl, pala_vec3 x, pala_vec3 r, char *err, size_t errlen);

/* Adds the group's grains to w.  Returns the number placed, or -1 with a message.  With a
 * size distribution, random placement places the largest grains first (the grains are
 * numbered in that order); lattice and list placement keep the order the sizes were drawn in. */
long pala_place_group(pala_world *w, const pala_group *g, pala_rng *rng, char *err, size_t errlen);
/* An insertion of inserter in, whose state is d: up to want grains of total mass at most
 * mass_room (kg), each of the template d->next_tmpl (when -1: the next of in->tseq, or chosen from d->rng, or the next in
 * turn), its centre uniform in the region, accepted when its bounding sphere lies inside the
 * walls and overlaps no grain's there (100 tries a grain), then turned and given its
 * velocities as the group's grains at t = 0; added at the end of w (pala_world_add_grain).
 * Returns the number placed; *full = 1 when a grain found no room (the insertion stops there),
 * and d->next_tmpl is that grain's template. */
/* The template of each of the group's count grains (malloc'd; NULL and a message in err if
 * the law failed) from its size distribution (docs/physics.md, "Size distributions"): its
 * size drawn from rng, its type's template chosen as without sizes, then one template per
 * (type's template, size class), made in that order (consecutive, from w->ntmpl on). */
int *pala_place_size_templates(pala_world *w, const pala_group *g, pala_rng *rng, char *err, size_t errlen);
long pala_place_insert(pala_world *w, const pala_inserter *in, pala_feed_dyn *d, long want, double mass_room, int *full);

#endif
