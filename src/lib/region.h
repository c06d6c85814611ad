/* region.h: the geometry of a region of space (pala_region, pala.h): where an inserter puts
 * the centres of its grains, where an outlet removes grains, where a group of the initial
 * placement may go (region.c).  Pure functions of the region and the dimension: in 2D a box
 * is its rectangle in x and y, a cylinder the disc of its radius about its centre, a plane
 * a line of the plane z = 0. */
#ifndef PALA_REGION_H
#define PALA_REGION_H
#include "pala/pala.h"
#include <stddef.h>

/* 1 if the point x lies in the region (its boundary included).  A line holds the points
 * within 1e-12 of its length of the segment; the container and the slab are not regions of
 * their own here: 1. */
int pala_region_inside(const pala_region *r, int dim, pala_vec3 x);
/* The box [lo, hi] (per axis) that holds the region; infinite where it is open (a plane). */
void pala_region_bounds(const pala_region *r, int dim, double lo[3], double hi[3]);
/* A point uniform in the region (a box, a cylinder, a line), from g; in 2D z = 0. */
pala_vec3 pala_region_sample(const pala_region *r, int dim, pala_rng *g);
/* The region's extent along the unit vector u, m (the height a grain falls through it). */
double pala_region_extent(const pala_region *r, int dim, pala_vec3 u);
/* NULL if the region is usable as one of kinds (words of pala_region_word, "box|cylinder|
 * line"), else what is wrong, into buf, naming in *key the control-file key to change: a box
 * with hi <= lo, a radius or (3D) length <= 0, an axis or a normal of length 0, a line of
 * length 0, in 2D a centre, line or normal out of the plane.  The axis and the normal need
 * not be unit vectors (the functions above divide by their length). */
const char *pala_region_check(const pala_region *r, int dim, const char *kinds, char *buf, size_t len, const char **key);
/* The word of a region kind ("box"). */
const char *pala_region_word(int kind);

#endif
