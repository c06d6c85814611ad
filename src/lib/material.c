/* material.c: the combined data of two materials in contact (eq. 55): the harmonic
 * mean H of each property, and the stiffness prefactor of the Hertz law (eq. 57). */
#include "material.h"
#include "alloc.h"
#include <math.h>

double pala_harmonic(double a, double b)
{
    if (isinf(a)) return 2 * b;            /* H(inf, x) = 2x: a flat wall (docs/physics.md, "Walls") */
    if (isinf(b)) return 2 * a;
    return a + b == 0 ? 0 : 2 * a * b / (a + b);
}

/* eq. (57): F = c_H E~ sqrt(r~) (-d)^{3/2} with c_H = sqrt(3)/2.  The textbook law
 * 4/3 E* sqrt(R*) with E* = E~/2, R* = r~/2 is the same form with c_H = sqrt(2)/3. */
double pala_hertz_prefactor(int hertz)
{
    return hertz == PALA_HERTZ_TEXTBOOK ? sqrt(2.0) / 3.0 : sqrt(3.0) / 2.0;
}

void pala_material_pairs(pala_world *w)
{
    PALA_GROW(w->pm, w->nmat * w->nmat);
    double ch = pala_hertz_prefactor(w->hertz);
    for (int i = 0; i < w->nmat; i++)
        for (int j = 0; j < w->nmat; j++) {
            const pala_material *a = &w->mat[i], *b = &w->mat[j];
            pala_pairmat *p = &w->pm[i * w->nmat + j];
            p->kE = ch * pala_harmonic(a->E / (1 - a->sigma * a->sigma), b->E / (1 - b->sigma * b->sigma));
            p->delta = pala_harmonic(a->delta, b->delta);
            p->mu = pala_harmonic(a->mu, b->mu);
            p->nu = pala_harmonic(a->nu, b->nu);
        }
}
