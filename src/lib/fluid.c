/* fluid.c: the Stokes drag of a background fluid (fluid.h; docs/physics.md, "Drag and
 * buoyancy"). */
#include "fluid.h"
#include "grain.h"

void pala_fluid_drag(const pala_world *w, long k0, long k1, pala_facc *A, long mask)
{
    const double c1 = 6 * PALA_PI * w->fluid_eta, c3 = 8 * PALA_PI * w->fluid_eta;   /* Stokes: 6 pi eta a, 8 pi eta a^3 */
    const pala_vec3 u = w->fluid_u;
    for (long k = k0; k < k1; k++) {
        const pala_template *t = &w->tmpl[w->tid[k]];
        const pala_vec3 v = w->v[k], om = w->w[k];
        pala_vec3 F, T;
        if (t->ncomp == 1) {   /* a sphere about its centre of mass */
            double a = w->shape_r[t->comp0];
            F = pala_vscale(-c1 * a, pala_vsub(v, u));
            T = pala_vscale(-c3 * a * a * a, om);
        } else {
            F = T = pala_v(0, 0, 0);
            for (int i = 0; i < t->ncomp; i++) {
                double a = w->shape_r[t->comp0 + i];
                pala_vec3 s = pala_vsub(w->pc[w->p0[k] + i], w->x[k]);             /* c_i - x, eq. (50) */
                pala_vec3 Fi = pala_vscale(-c1 * a, pala_vsub(pala_vadd(v, pala_vcross(om, s)), u));
                F = pala_vadd(F, Fi);
                T = pala_vadd(T, pala_vaxpy(pala_vcross(s, Fi), -c3 * a * a * a, om));
            }
        }
        pala_facc *ac = &A[k & mask];
        ac->F = pala_vadd(ac->F, F);
        ac->Fnc = pala_vadd(ac->Fnc, F);
        ac->T = pala_vadd(ac->T, T);
        ac->Tnc = pala_vadd(ac->Tnc, T);
    }
}
