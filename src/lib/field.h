/* field.h: charges and dipoles at the grains' centres in the homogeneous electric and
 * magnetic fields, which may turn at a constant rate (paper features v-vi; docs/physics.md,
 * "Charges, dipoles and fields"): the fields at time t, each grain's dipoles in the world
 * frame, the forces q E, torques p x E + m x B, their potential energy, and the rate at
 * which turning fields work on the grains (W_field).  The magnetic Lorentz force q v x B is
 * applied by the kick (integrator.h), or here with lorentz = paper.  The homogeneous
 * gravity m g stays where every grain's sum starts (grain_forces.h). */
#ifndef PALA_FIELD_H
#define PALA_FIELD_H
#include "work.h"

/* Rodrigues' formula: v turned by the angle |om| t about om (eq. 5; any angle). */
static inline pala_vec3 pala_field_turned(pala_vec3 v, pala_vec3 om, double t)
{
    double a = pala_vnorm(om);
    if (a == 0 || t == 0) return v;
    pala_vec3 n = pala_vscale(1 / a, om);
    double c = cos(a * t), s = sin(a * t);
    return pala_vadd(pala_vadd(pala_vscale(c, v), pala_vscale(s, pala_vcross(n, v))), pala_vscale((1 - c) * pala_vdot(n, v), n));
}

/* Set up the per-template tables and flags (work.h: em, centre, lorentz, qm, dipoles) from
 * the templates and the field settings.  Called by pala_grain_forces_prepare. */
void pala_field_prepare(pala_world *w);
/* At the current state (time w->t): the fields wk->Et, wk->Bt, the world-frame dipoles
 * wk->pw, wk->mw, and into F, T (set, not added) the fields' forces and torques; the rate
 * dU/dt of the fields' energy at fixed configuration, summed in block order, into
 * wk->wrate.  Runs on the world's threads. */
void pala_field_eval(pala_world *w, pala_vec3 *F, pala_vec3 *T);
/* 1 if the field or interaction settings of the world differ from those prepared. */
int pala_field_changed(const pala_world *w);
/* The fields' potential energy -q E.x - p.E - m.B at the current state, J (0 without). */
double pala_field_energy(pala_world *w);

#endif
