/* centre.h: the interactions between grain centres (paper feature v; docs/physics.md,
 * "Charges, dipoles and fields"): gravitation between masses, Coulomb between charges,
 * charge-dipole, and electric and magnetic dipole-dipole.  Each gives forces (minus the
 * gradient of its potential), torques, and its potential energy (E_pair, in E_total).
 * Exact sum over all pairs by default; with a cutoff, switched off smoothly over the outer
 * part of the range and found through cells.  Sums per grain in a fixed order: the same
 * bits on any number of threads. */
#ifndef PALA_CENTRE_H
#define PALA_CENTRE_H
#include "work.h"

#define PALA_EPS0 8.8541878128e-12      /* vacuum permittivity, F/m (CODATA 2018) */
#define PALA_MU0_4PI 1.00000000055e-7   /* mu0 / (4 pi), N/A^2 (CODATA 2018) */
#define PALA_SWITCH 0.2                 /* the switch acts over the outer 20 % of the cutoff */

/* Set wk->centre and the scratch of the sums (called by pala_field_prepare). */
void pala_centre_prepare(pala_world *w);
/* Adds the forces and torques of all interactions between centres at the current state
 * to F, T (the dipoles in the world frame are wk->pw, wk->mw).  On the world's threads. */
void pala_centre_forces(pala_world *w, pala_vec3 *F, pala_vec3 *T);
/* Their potential energy at the current state (dipoles from the rotation vectors), J. */
double pala_centre_energy(pala_world *w);
void pala_centre_free(pala_work *wk);

#endif
