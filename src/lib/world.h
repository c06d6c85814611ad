/* world.h: what the library's entry points share about a world (world.c). */
#ifndef PALA_WORLD_H
#define PALA_WORLD_H
#include "pala/pala.h"

/* PALA_OK if pala_world_prepare has run (re-deriving what depends on g if it changed),
 * else PALA_ERR_INPUT with the reason in w->why. */
int pala_world_check_prepared(pala_world *w);

/* The checks of pala_world_prepare, in the order a reader would fix what they find: the
 * world's settings, the materials and pairs (material.h; they make w->pm, eq. 55), the
 * templates, the grains, the container and membrane, the interactions.  PALA_OK, or
 * PALA_ERR_INPUT with the fault and its message in c (check.h).  The control-file reader
 * calls it with c->keys = 1 before it places the grains of the groups. */
struct pala_check;
int pala_world_check(pala_world *w, struct pala_check *c);

#endif
