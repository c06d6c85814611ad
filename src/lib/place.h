/* place.h: initial placement of groups of grains (used by the scene reader). */
#ifndef PALA_PLACE_H
#define PALA_PLACE_H
#include "pala/pala.h"

enum { PALA_PLACE_RANDOM, PALA_PLACE_LATTICE, PALA_PLACE_LIST };
enum { PALA_REGION_CONTAINER, PALA_REGION_BOX, PALA_REGION_SLAB };
enum { PALA_ORIENT_RANDOM, PALA_ORIENT_WRITTEN, PALA_ORIENT_GIVEN };

typedef struct pala_group {
    int tfirst, tcount;      /* templates of the grain type (random types have several) */
    int random_variant;      /* pick a template at random (else grain q takes tfirst + tnext + q) */
    int tnext;               /* templates of this type already used by earlier groups */
    long count;
    int placement, region, orient;
    double rbox[6];          /* region = box */
    pala_vec3 slab_n;        /* region = slab: unit normal, offset, thickness */
    double slab_off, slab_th;
    double spacing;          /* lattice spacing, 0 = auto */
    double *at;              /* list: count x 6 (x y z vx vy vz) */
    pala_vec3 vel, omega, orient_r;
    double vspread;
} pala_group;

/* Adds the group's grains to w.  Returns the number placed, or -1 with a message. */
long pala_place_group(pala_world *w, const pala_group *g, pala_rng *rng, char *err, size_t errlen);

#endif
