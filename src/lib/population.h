/* population.h: the grains that enter and leave a world between steps (population.c). */
#ifndef PALA_POPULATION_H
#define PALA_POPULATION_H
#include "pala/pala.h"

/* At the world's step, if a feed acts there and has not acted at this step yet: the outlets
 * remove the grains in their regions, then the inserters place the grains they have due
 * (feed.h, place.h); E_out and E_in take the energy that left and came (docs/physics.md,
 * "Grains that enter and leave").  Between steps, on a prepared world.  Returns PALA_OK. */
int pala_population_act(pala_world *w);

#endif
