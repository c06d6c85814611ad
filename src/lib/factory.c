/* factory.c: random grains, the paper's "grain factory" gamma of eq. (22).
 *
 * Grows a grain sphere by sphere: each new sphere overlaps a randomly chosen existing
 * one (so the grain is connected: condition 1 of section 3) and is rejected if it lies
 * inside another sphere or another lies inside it (condition 2). */
#include "pala/pala.h"
#include <math.h>

static int inside_one_another(pala_vec3 a, double ra, pala_vec3 b, double rb)
{
    return pala_vnorm(pala_vsub(a, b)) + fmin(ra, rb) <= fmax(ra, rb);
}

int pala_factory_make(const pala_factory *f, pala_rng *g, int dim, pala_vec3 *c, double *rad)
{
    int n = f->nmin + (int)(pala_rng_uniform(g) * (f->nmax - f->nmin + 1));
    if (n > f->nmax) n = f->nmax;
    c[0] = pala_v(0, 0, 0);
    rad[0] = f->rmin + (f->rmax - f->rmin) * pala_rng_uniform(g);
    int k = 1;
    for (int tries = 0; k < n && tries < 10000; tries++) {
        double r = f->rmin + (f->rmax - f->rmin) * pala_rng_uniform(g);
        int a = (int)(pala_rng_uniform(g) * k);
        if (a >= k) a = k - 1;
        pala_vec3 p = pala_vaxpy(c[a], f->spread * (rad[a] + r), pala_rng_unit(g, dim));
        int ok = 1;
        for (int b = 0; b < k && ok; b++) ok = !inside_one_another(p, r, c[b], rad[b]);
        if (!ok) continue;
        c[k] = p;
        rad[k] = r;
        k++;
    }
    return k;
}
