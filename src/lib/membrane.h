/* membrane.h: the membrane (PaLa feature iv; docs/physics.md, "Membrane"): a plane across
 * the box, perpendicular to axis w->membrane - 1 at w->mem_pos, holding a square grid of
 * bars of radius w->mem_rbar whose axes lie w->mem_spacing apart, of material w->mem_mat.
 * A bar touches a component like a sphere of the bar's radius centred at the point of the
 * bar's axis nearest to the component's centre.  Its touches are wall touches
 * (container.h) of faces PALA_FACE_MEMBRANE (grain centre below the plane) and
 * PALA_FACE_MEMBRANE + 1 (above), so they run through the force pass and the kernel
 * like the walls'.  A world without a membrane (w->membrane == 0) never calls this. */
#ifndef PALA_MEMBRANE_H
#define PALA_MEMBRANE_H
#include "container.h"
#include <stddef.h>

/* 1 if a sphere of radius R about x is strictly clear of every bar (it does not reach the
 * slab of half-thickness mem_rbar about the plane). */
int pala_membrane_clear(const pala_world *w, pala_vec3 x, double R);
/* How far the bars reach into the sphere (c, a), m (the largest overlap); <= 0 if none
 * touches it. */
double pala_membrane_cut(const pala_world *w, pala_vec3 c, double a);
/* The most touches of bars one component of radius at most a can have. */
int pala_membrane_touch_room(const pala_world *w, double a);
/* The container's touch (the box's) with the bars': for each grain of cand[0 .. n) its box
 * touches, then its bar touches (component by component, family by family, bar by bar),
 * as pala_container_kind.touch. */
int pala_membrane_touch(const pala_world *w, const int *cand, int n, pala_wall_touch *out, int cap, int *used);
/* The membrane's columns of walls.tsv: P_mem_lo, the momentum along +axis received from
 * grains below the plane, and P_mem_hi, along -axis from grains above; both on the area
 * of the plane inside the box (in 2D its length). */
int pala_membrane_columns(const pala_world *w, const char **names, double *values, double *area, int max);
/* NULL if the world's membrane is usable, else what is wrong (into buf). */
const char *pala_membrane_check(const pala_world *w, char *buf, size_t len);

#endif
