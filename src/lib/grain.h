/* grain.h: where a grain's components ("pebbles") and its dipoles are.  Pebble p belongs to grain
 * pg[p]; grain k's pebbles start at p0[k].  In a world of spheres only, pebble k is
 * grain k itself and these arrays are not kept (pala.h). */
#ifndef PALA_GRAIN_H
#define PALA_GRAIN_H
#include "pala/pala.h"

/* The grain of pebble p. */
static inline int pala_peb_grain(const pala_world *w, int p) { return w->pg ? w->pg[p] : p; }
/* The first pebble of grain k (k == n: the pebble count). */
static inline int pala_grain_peb0(const pala_world *w, int k) { return w->p0 ? w->p0[k] : k; }
/* c_i = x + r * x_i (eq. 50) for grain k: pala_world_place_pebbles (pala.h, grain.c).  In an
 * arc world it turns each arc's range (parc's m) with the grain but not its bounding circle,
 * which the neighbour list alone reads: pala_world_arc_bounds places those of every grain
 * when the list is built. */
void pala_world_arc_bounds(pala_world *w);
/* pala_world_place_pebbles of an arc world's grain k of more than one component at x = (x, y, 0)
 * turned about z alone (r = (0, 0, g)): its circles' centres and its arcs' bisectors (grain.c). */
void pala_world_place_arcs(pala_world *w, int k, double x, double y, double g);
/* The sizes of the world's grains, each counted once per grain: their bounding radii
 * (bound = 1), or the radii of their components (bound = 0; an arc's: its bounding circle's,
 * the neighbour list's, docs/physics.md "Arc grains"): the least, the largest and the
 * lower median (the element (N - 1)/2 of the N sorted), m; all 0 without grains.  A median, so
 * that in a world of one size it is that size exactly. */
void pala_grain_radii(const pala_world *w, int bound, double *least, double *largest, double *median);
/* Grain k's electric and magnetic dipoles in the world frame: p = r * p_body (eq. 6; they
 * are fixed in the body like its components). */
static inline void pala_grain_dipoles(const pala_world *w, int k, pala_vec3 *p, pala_vec3 *m)
{
    const pala_template *tp = &w->tmpl[w->tid[k]];
    *p = pala_rot_apply(w->r[k], tp->edip);
    *m = pala_rot_apply(w->r[k], tp->mdip);
}

#endif
