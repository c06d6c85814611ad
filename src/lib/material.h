/* material.h: the combined data of pairs of materials (eq. 55; material.c). */
#ifndef PALA_MATERIAL_H
#define PALA_MATERIAL_H
#include "pala/pala.h"
#include "check.h"

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

/* The checks of the materials' laws, for pala_world_prepare (check.h says how they name
 * what they refuse).  pala_material_check: material i's fields against the ranges and words
 * of their keys; if it is used (a template's, the walls', the membrane's material), that its
 * laws have their parameters (docs/physics.md, "Contact history": the spring law a
 * tangential stiffness, rolling and torsion resistance a stiffness and a friction both, the
 * fractional law k unless alpha = 1 and c unless alpha = 0).  pala_material_pair_check: the
 * same for the pair of used materials ma, mb as mixed (eq. 55) and set by w->pairs (in w->pm,
 * pala_material_pairs): a mix of a material with a value and one without is 0; the dashpot
 * needs delta >= PALA_DASHPOT_DELTA_MIN and is not for the fractional law.  Both return
 * PALA_OK or the fault. */
int pala_material_check(pala_check *c, const pala_world *w, int i, int used);
int pala_material_pair_check(pala_check *c, const pala_world *w, int ma, int mb);

#endif
