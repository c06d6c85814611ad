/* world.h: what the library's entry points share about a world (world.c). */
#ifndef PALA_WORLD_H
#define PALA_WORLD_H
#include "pala/pala.h"

/* PALA_OK if pala_world_prepare has run (re-deriving what depends on g if it changed),
 * else PALA_ERR_INPUT with the reason in w->why. */
int pala_world_check_prepared(pala_world *w);

#endif
