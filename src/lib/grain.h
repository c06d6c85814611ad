/* grain.h: where a grain's components ("pebbles") are.  Pebble p belongs to grain
 * pg[p]; grain k's pebbles start at p0[k].  In a world of spheres only, pebble k is
 * grain k itself and these arrays are not kept (pala.h). */
#ifndef PALA_GRAIN_H
#define PALA_GRAIN_H
#include "pala/pala.h"

/* The grain of pebble p. */
static inline int pala_peb_grain(const pala_world *w, int p) { return w->pg ? w->pg[p] : p; }
/* The first pebble of grain k (k == n: the pebble count). */
static inline int pala_grain_peb0(const pala_world *w, int k) { return w->p0 ? w->p0[k] : k; }
/* c_i = x + r * x_i (eq. 50) for grain k: pala_world_place_pebbles (pala.h, grain.c). */

#endif
