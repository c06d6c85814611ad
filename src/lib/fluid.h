/* fluid.h: a background fluid (docs/physics.md, "Drag and buoyancy"): the Stokes drag and
 * its torque on each component sphere, added to the grains' sums as non-conservative forces
 * (their work goes into E_diss); the buoyancy is in the weight (grain_forces.c). */
#ifndef PALA_FLUID_H
#define PALA_FLUID_H
#include "work.h"

/* The mass whose weight a grain of template t feels: m - rho_f V (Archimedes), m without a
 * fluid density. */
static inline double pala_fluid_weight_mass(const pala_world *w, const pala_template *t)
{
    return w->fluid_rho > 0 ? t->mass - w->fluid_rho * t->volume : t->mass;
}

/* Adds the drag on grains [k0, k1) at the current state into their sums A[k & mask]: on
 * each component sphere of radius a, centre c, the force -6 pi eta a (v + omega x (c - x) - u)
 * and the torque -8 pi eta a^3 omega about its centre, to F and Fnc, and their moments about
 * the centre of mass to T and Tnc. */
void pala_fluid_drag(const pala_world *w, long k0, long k1, pala_facc *A, long mask);

#endif
