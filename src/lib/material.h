/* material.h: the combined data of pairs of materials (eq. 55; material.c). */
#ifndef PALA_MATERIAL_H
#define PALA_MATERIAL_H
#include "pala/pala.h"

/* w->pm, the nmat x nmat table of eq. (55), from w->mat, w->hertz and w->tlaw, with the
 * values of w->pairs in place of the mixed ones. */
void pala_material_pairs(pala_world *w);

/* The normal dashpot (docs/physics.md, "The normal dashpot"): F_n = F_H - c sqrt(m* K)
 * x^(1/4) w.n with F_H = K x^(3/2), clamped at >= 0.  The restitution of a head-on
 * collision with constant c (any impact speed), and the c whose restitution is sqrt(delta)
 * (delta >= PALA_DASHPOT_DELTA_MIN: smaller values make the contact last ever longer). */
#define PALA_DASHPOT_DELTA_MIN 1e-4
double pala_dashpot_restitution(double c);
double pala_dashpot_constant(double delta);

#endif
