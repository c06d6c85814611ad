/* material.h: the combined data of pairs of materials (eq. 55; material.c). */
#ifndef PALA_MATERIAL_H
#define PALA_MATERIAL_H
#include "pala/pala.h"

/* w->pm, the nmat x nmat table of eq. (55), from w->mat, w->hertz and w->tlaw, with the
 * values of w->pairs in place of the mixed ones. */
void pala_material_pairs(pala_world *w);

#endif
