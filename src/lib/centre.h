/* centre.h: the interactions between grain centres (paper feature v; docs/physics.md,
 * "Charges, dipoles and fields"): gravitation between masses, Coulomb between charges,
 * charge-dipole, and electric and magnetic dipole-dipole.  Each gives forces (minus the
 * gradient of its potential), torques, and its potential energy (E_pair, in E_total).
 * Exact sum over all pairs by default; with a cutoff, switched off smoothly over the outer
 * part of the range and found through cells.  Sums per grain in a fixed order: the same
 * bits on any number of threads. */
#ifndef PALA_CENTRE_H
#define PALA_CENTRE_H
#include "pala/pala.h"

#define PALA_EPS0 8.8541878128e-12      /* vacuum permittivity, F/m (CODATA 2018) */
#define PALA_MU0_4PI 1.00000000055e-7   /* mu0 / (4 pi), N/A^2 (CODATA 2018) */
#define PALA_SWITCH 0.2                 /* the switch acts over the outer 20 % of the cutoff */

/* The state of the interactions between centres (w->centre).  Made by pala_centre_prepare,
 * freed by pala_centre_free. */
typedef struct pala_centre {
    int on;                /* pala_centre_forces has work: two grains or more, and G > 0,
                            * charges or dipoles */
    double G, eps_r, cutoff;   /* the settings it was made for (pala_centre_changed) */
    struct pala_centre_sums *sums;   /* the grains' data in kernel order, the cells (centre.c) */
} pala_centre;

/* Make w->centre from the settings and what the templates carry (w->field: call after
 * pala_field_prepare).  Called by pala_grain_forces_prepare. */
void pala_centre_prepare(pala_world *w);
void pala_centre_free(pala_world *w);
/* 1 if G, eps_r or the cutoff of the world differ from those w->centre was made for. */
int pala_centre_changed(const pala_world *w);
/* Adds the forces and torques of all interactions between centres at the current state
 * to F, T (the dipoles in the world frame are w->field's pw, mw).  On the world's threads. */
void pala_centre_forces(pala_world *w, pala_vec3 *F, pala_vec3 *T);
/* Their potential energy at the current state (dipoles from the rotation vectors), J. */
double pala_centre_energy(pala_world *w);
/* The plain form, one pair at a time (for the tests): adds the forces and torques of all
 * interactions between centres to F, T (unless NULL) and returns their energy; the
 * dipoles are w->field's pw, mw.  With a cutoff, every pair is tried. */
double pala_centre_reference(pala_world *w, pala_vec3 *F, pala_vec3 *T);
/* The ordered pairs (i, j) of the last pass: n (n - 1) without a cutoff; with it, those of
 * i with the grains of the 27 cells around its cell (before the box test skips some). For
 * bench/. */
double pala_centre_tried(pala_world *w);

#endif
