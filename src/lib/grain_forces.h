/* grain_forces.h: the one place where a grain's force and torque sums start: the
 * homogeneous field (m g, eq. 61), the interactions between grain centres
 * (pala_interaction), and the embedding program's additional forces.  The contacts of the
 * force pass are then added to these sums in a fixed order (force_pass.c). */
#ifndef PALA_GRAIN_FORCES_H
#define PALA_GRAIN_FORCES_H
#include "work.h"

/* The sums of grains [k0, k1) before their contacts, into A[k & mask]. */
static inline void pala_facc_start(const pala_world *w, long k0, long k1, pala_facc *A, long mask)
{
    const pala_work *wk = w->work;
    const pala_vec3 *mg = wk->mg;
    const int *tid = w->tid;
    for (long k = k0; k < k1; k++) {
        pala_facc *a = &A[k & mask];
        a->F = mg[tid[k]];
        a->T = a->Fnc = a->Tnc = pala_v(0, 0, 0);
    }
    if (!wk->ext) return;
    for (long k = k0; k < k1; k++) {   /* conservative torques tc are added by the kick (integrator.c) */
        pala_facc *a = &A[k & mask];
        a->F = pala_vadd(a->F, pala_vadd(wk->fc[k], wk->fh[k]));
        a->T = a->Tnc = wk->th[k];
        a->Fnc = wk->fh[k];
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

/* Set up what the sums start from (after a change of templates, g or interactions). */
void pala_grain_forces_prepare(pala_world *w);
/* The interactions and additional forces at the current state, before a force pass
 * (nothing without them). */
void pala_grain_forces_eval(pala_world *w);
/* Potential energy of the interactions at the current state, J (0 without them). */
double pala_grain_forces_energy(pala_world *w);

#endif
