/* rng.c: splitmix64 (Steele, Lea, Flood 2014), small, fast and reproducible across
 * platforms.  The world owns one generator seeded by the scene's `seed`. */
#include "pala/pala.h"
#include <math.h>

void pala_rng_seed(pala_rng *g, uint64_t seed) { g->s = seed; }

uint64_t pala_rng_u64(pala_rng *g)
{
    uint64_t z = (g->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* 53 random bits -> [0, 1) */
double pala_rng_uniform(pala_rng *g) { return (double)(pala_rng_u64(g) >> 11) * 0x1.0p-53; }

/* Box-Muller, one value per call (the second is discarded: simpler state, still exact). */
double pala_rng_normal(pala_rng *g)
{
    double u1 = 1.0 - pala_rng_uniform(g), u2 = pala_rng_uniform(g);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * PALA_PI * u2);
}

pala_vec3 pala_rng_unit(pala_rng *g, int dim)
{
    if (dim == 2) {
        double a = 2.0 * PALA_PI * pala_rng_uniform(g);
        return pala_v(cos(a), sin(a), 0);
    }
    double z = 2.0 * pala_rng_uniform(g) - 1.0, a = 2.0 * PALA_PI * pala_rng_uniform(g);
    double s = sqrt(1.0 - z * z);
    return pala_v(s * cos(a), s * sin(a), z);
}
