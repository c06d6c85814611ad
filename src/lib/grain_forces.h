/* grain_forces.h: the one place where a grain's force and torque sums start: the
 * homogeneous field (m g, eq. 61), the interactions between grain centres
 * (pala_interaction), and the embedding program's additional forces.  The contacts of the
 * force pass are then added to these sums in a fixed order (force_pass.c). */
#ifndef PALA_GRAIN_FORCES_H
#define PALA_GRAIN_FORCES_H
#include "work.h"
#include "fluid.h"

/* The state of what the sums start from (w->forces).  Made by pala_grain_forces_prepare,
 * freed by pala_grain_forces_free. */
typedef struct pala_grain_forces {
    pala_vec3 *mg;         /* per template: mass g, the field's force, N */
    pala_vec3 g;           /* the field mg was made for (pala_grain_forces_derive) */
    /* forces between centres and additional forces, per grain, at the state of the current
     * force evaluation; ext is 0 and the arrays unused without them */
    int ext;
    pala_vec3 *fc, *tc;    /* interactions and fields: conservative force and torque, N, N m */
    pala_vec3 *fh, *th;    /* the embedding program's additional forces and torques */
    int tc_any;            /* some interaction gives torques: tc is used by the kick */
    int drag;              /* a fluid's drag acts (fluid.h) */
} pala_grain_forces;

/* The sums of grains [k0, k1) before their contacts, into A[k & mask]: the weight, a fluid's
 * drag, the interactions and additional forces. */
static inline void pala_facc_start(const pala_world *w, long k0, long k1, pala_facc *A, long mask)
{
    const pala_grain_forces *gf = w->forces;
    const pala_vec3 *mg = gf->mg;
    const int *tid = w->tid;
    for (long k = k0; k < k1; k++) {
        pala_facc *a = &A[k & mask];
        a->F = mg[tid[k]];
        a->T = a->Fnc = a->Tnc = pala_v(0, 0, 0);
    }
    if (gf->drag) pala_fluid_drag(w, k0, k1, A, mask);
    if (!gf->ext) return;
    for (long k = k0; k < k1; k++) {   /* conservative torques tc are added by the kick (integrator.c) */
        pala_facc *a = &A[k & mask];
        a->F = pala_vadd(a->F, pala_vadd(gf->fc[k], gf->fh[k]));
        a->T = a->Tnc = gf->th[k];
        a->Fnc = gf->fh[k];
    }
}

static inline void pala_facc_add(pala_facc *A, const pala_facc *c, int dissipative)
{
    A->F = pala_vadd(A->F, c->F);
    A->T = pala_vadd(A->T, c->T);
    if (dissipative) {
        A->Fnc = pala_vadd(A->Fnc, c->Fnc);
        A->Tnc = pala_vadd(A->Tnc, c->Tnc);
    }
}

/* Make w->forces, with w->field and w->centre, for the current templates, g, fields and
 * interactions (after pala_work_prepare). */
void pala_grain_forces_prepare(pala_world *w);
void pala_grain_forces_free(pala_world *w);
/* Stage derive: prepares again if g, the fields or the settings of the interactions
 * between centres changed since (an embedding program may change them between steps). */
void pala_grain_forces_derive(pala_world *w);
/* Stage grain forces: the interactions and additional forces at the current state, before
 * a force pass (nothing without them); the fields' work into W_field (field.h). */
void pala_grain_forces_eval(pala_world *w);
/* Potential energy of the interactions at the current state, J (0 without them). */
double pala_grain_forces_energy(pala_world *w);

#endif
