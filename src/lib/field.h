/* field.h: charges and dipoles at the grains' centres in the homogeneous electric and
 * magnetic fields, which may turn at a constant rate (paper features v-vi; docs/physics.md,
 * "Charges, dipoles and fields"): the fields at time t, each grain's dipoles in the world
 * frame, the forces q E, torques p x E + m x B, their potential energy, and the rate at
 * which turning fields work on the grains (W_field).  The magnetic Lorentz force q v x B is
 * applied by the kick (integrator.h), or here with lorentz = paper.  The homogeneous
 * gravity m g stays where every grain's sum starts (grain_forces.h). */
#ifndef PALA_FIELD_H
#define PALA_FIELD_H
#include "pala/pala.h"

/* Rodrigues' formula: v turned by the angle |om| t about om (eq. 5; any angle). */
static inline pala_vec3 pala_field_turned(pala_vec3 v, pala_vec3 om, double t)
{
    double a = pala_vnorm(om);
    if (a == 0 || t == 0) return v;
    pala_vec3 n = pala_vscale(1 / a, om);
    double c = cos(a * t), s = sin(a * t);
    return pala_vadd(pala_vadd(pala_vscale(c, v), pala_vscale(s, pala_vcross(n, v))), pala_vscale((1 - c) * pala_vdot(n, v), n));
}

/* The state of the fields (w->field): what the templates carry, the tables and flags made
 * from them and the field settings, and the fields' part of the current force evaluation.
 * Made by pala_field_prepare, freed by pala_field_free. */
typedef struct pala_field {
    int charges, edipoles, mdipoles;   /* some template has a charge, an electric, a magnetic dipole */
    int dipoles;           /* edipoles or mdipoles: pw, mw are kept */
    int em;                /* a charge or dipole meets a field: pala_field_eval has work */
    int lorentz;           /* charged grains in a B field with lorentz = implicit: the kick applies
                            * q v x B (integrator.h: pala_lorentz_accel) */
    double *qm;            /* per template: charge / mass, C/kg */
    pala_vec3 *pw, *mw;    /* per grain: electric and magnetic dipoles in the world frame */
    pala_vec3 Et, Bt;      /* the fields at the time of the current force evaluation */
    double *bwrate;        /* per block: dU/dt of the fields at fixed configuration, W */
    double wrate;          /* their sum in block order */
    /* the settings the state was made for (pala_field_changed) */
    pala_vec3 E, B, E_turn, B_turn;
    int lorentz_rule;      /* enum pala_lorentz */
} pala_field;

/* Make w->field from the templates and the field settings (per block: after the team is
 * made, pala_work_prepare).  Called by pala_grain_forces_prepare. */
void pala_field_prepare(pala_world *w);
void pala_field_free(pala_world *w);
/* At the current state (time w->t, the step's midpoint): the fields Et, Bt, the world-frame
 * dipoles pw, mw, and into F, T (set, not added) the fields' forces and torques; the rate
 * dU/dt of the fields' energy at fixed configuration, summed in block order, into wrate,
 * and with em the work of the turning fields over the step, dt wrate (midpoint rule;
 * docs/physics.md, "Turning fields"), into W_field.  Runs on the world's threads. */
void pala_field_eval(pala_world *w, pala_vec3 *F, pala_vec3 *T);
/* 1 if the field settings of the world differ from those w->field was made for. */
int pala_field_changed(const pala_world *w);
/* The fields' potential energy -q E.x - p.E - m.B at the current state, J (0 without). */
double pala_field_energy(pala_world *w);

#endif
