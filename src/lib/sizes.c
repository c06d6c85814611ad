/* sizes.c: size distributions (sizes.h; docs/physics.md, "Size distributions").
 *
 * A law by number is sampled directly: uniform r = lo + u (hi - lo); normal and log-normal
 * by a draw of the normal, repeated while it falls outside the truncation.  A law by mass,
 * of mass density f_m(r), has the number density f_m(r) / r^3 (mass ~ r^3):
 *   - uniform in [a, b] by mass: number density ~ r^-3, whose inverse CDF is
 *     r = (a^-2 - u (a^-2 - b^-2))^(-1/2);
 *   - log-normal by mass (median M, sigma s): the number law is log-normal with median
 *     M exp(-3 s^2) and the same s (Hatch and Choate), the truncation the same;
 *   - normal by mass: a draw of the truncated normal kept with probability (lo / r)^3;
 *   - a sieve curve F(r) linear between its points: segment k holds the mass fraction
 *     dF_k spread evenly over [r_k, r_k+1], so by number the weight
 *     dF_k / dr_k (r_k^-2 - r_k+1^-2) / 2 and, within it, the r^-3 law above;
 *   - a table: number fractions f_i / r_i^3.
 * A table's counts are exact (largest remainders), in an order drawn at random. */
#include "sizes.h"
#include "alloc.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* r with number density ~ r^-3 on [a, b] (uniform in mass), u in [0, 1) */
static double inv_cube(double a, double b, double u)
{
    double ia = 1 / (a * a), ib = 1 / (b * b);
    return 1 / sqrt(ia - u * (ia - ib));
}

static double phi(double z) { return 0.5 * erfc(-z / sqrt(2.0)); }

double pala_normal_share(double mean, double sd, double lo, double hi) { return phi((hi - mean) / sd) - phi((lo - mean) / sd); }

/* The number weight of each segment (sieve) or class (table), cumulative in w[0..n). */
static void weights(const pala_sizes *d, double *w)
{
    double s = 0;
    if (d->law == PALA_SIZE_TABLE)
        for (int i = 0; i < d->n; i++) { s += d->by_mass ? d->f[i] / (d->r[i] * d->r[i] * d->r[i]) : d->f[i]; w[i] = s; }
    else
        for (int k = 0; k + 1 < d->n; k++) {
            double a = d->r[k], b = d->r[k + 1], dF = d->f[k + 1] - d->f[k];
            if (d->by_mass) dF = b > a ? dF / (b - a) * (1 / (a * a) - 1 / (b * b)) / 2 : dF / (a * a * a);
            s += dF;
            w[k] = s;
        }
}

/* The segment of a cumulative weight u in w[0..m), by bisection: the first with w > u. */
static int segment(const double *w, int m, double u)
{
    int lo = 0, hi = m - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (w[mid] > u) hi = mid; else lo = mid + 1;
    }
    return lo;
}

/* One size of a continuous law; NaN if the truncation refused 10^7 draws in a row. */
static double one(const pala_sizes *d, pala_rng *g, const double *w)
{
    const double lo = d->range[0], hi = d->range[1];
    switch (d->law) {
    case PALA_SIZE_UNIFORM: {
        double u = pala_rng_uniform(g);
        return d->by_mass ? inv_cube(lo, hi, u) : lo + u * (hi - lo);
    }
    case PALA_SIZE_NORMAL:
        for (long k = 0; k < 10000000; k++) {
            double r = d->mean + d->sd * pala_rng_normal(g);
            if (!(r >= lo && r <= hi)) continue;
            if (d->by_mass && pala_rng_uniform(g) >= (lo / r) * (lo / r) * (lo / r)) continue;
            return r;
        }
        return (double)NAN;
    case PALA_SIZE_LOGNORMAL: {
        double med = d->by_mass ? d->median * exp(-3 * d->sigma * d->sigma) : d->median;
        for (long k = 0; k < 10000000; k++) {
            double r = med * exp(d->sigma * pala_rng_normal(g));
            if (hi > 0 && !(r >= lo && r <= hi)) continue;
            return r;
        }
        return (double)NAN;
    }
    default: {   /* sieve */
        int k = segment(w, d->n - 1, pala_rng_uniform(g) * w[d->n - 2]);
        double a = d->r[k], b = d->r[k + 1], u = pala_rng_uniform(g);
        return b == a ? a : d->by_mass ? inv_cube(a, b, u) : a + u * (b - a);
    }
    }
}

int pala_sizes_sample(const pala_sizes *d, pala_rng *g, long n, double *out)
{
    double *w = NULL;
    if (d->law == PALA_SIZE_TABLE || d->law == PALA_SIZE_SIEVE) {
        w = pala_xrealloc(NULL, (size_t)d->n * sizeof *w);
        weights(d, w);
    }
    int st = 0;
    if (d->law == PALA_SIZE_TABLE) {
        /* exact counts: floor(N p_i), then one more to the largest remainders (the first of equals) */
        if (!(w[d->n - 1] > 0 && isfinite(w[d->n - 1]))) { free(w); return -2; }   /* fractions (by mass: over size^3) past a double's range */
        long *c = pala_xrealloc(NULL, (size_t)d->n * sizeof *c), given = 0;
        double *rem = pala_xrealloc(NULL, (size_t)d->n * sizeof *rem), tot = w[d->n - 1];
        for (int i = 0; i < d->n; i++) {
            double x = (double)n * (w[i] - (i ? w[i - 1] : 0)) / tot;
            c[i] = (long)floor(x);
            rem[i] = x - (double)c[i];
            given += c[i];
        }
        for (; given < n; given++) {
            int best = 0;
            for (int i = 1; i < d->n; i++)
                if (rem[i] > rem[best]) best = i;
            c[best]++;
            rem[best] = -1;
        }
        long q = 0;
        for (int i = 0; i < d->n; i++)
            for (long j = 0; j < c[i]; j++) out[q++] = d->r[i];
        for (long i = n - 1; i > 0; i--) {   /* Fisher-Yates */
            long j = (long)(pala_rng_uniform(g) * (double)(i + 1));
            if (j > i) j = i;
            double t = out[i];
            out[i] = out[j];
            out[j] = t;
        }
        free(c);
        free(rem);
    } else
        for (long q = 0; q < n && !st; q++) {
            out[q] = one(d, g, w);
            if (isnan(out[q])) st = -1;
        }
    free(w);
    return st;
}

/* The integral of the normal density / r^3 over [a, b] (Simpson, 2000 intervals): the
 * number of grains of a normal law by mass between a and b, up to a constant. */
static double normal_cube(const pala_sizes *d, double a, double b)
{
    double s = 0, h = (b - a) / 2000;
    for (int i = 0; i <= 2000; i++) {
        double x = a + i * h, c = i == 0 || i == 2000 ? 1 : i % 2 ? 4 : 2;
        s += c * exp(-0.5 * (x - d->mean) * (x - d->mean) / (d->sd * d->sd)) / (sqrt(2 * PALA_PI) * d->sd * x * x * x);
    }
    return s * h / 3;
}

double pala_sizes_acceptance(const pala_sizes *d)
{
    const double lo = d->range[0], hi = d->range[1];
    if (d->law == PALA_SIZE_NORMAL) return d->by_mass ? lo * lo * lo * normal_cube(d, lo, hi) : pala_normal_share(d->mean, d->sd, lo, hi);
    if (d->law == PALA_SIZE_LOGNORMAL && hi > 0) {
        double l = log(d->by_mass ? d->median * exp(-3 * d->sigma * d->sigma) : d->median);
        return pala_normal_share(l, d->sigma, log(lo), log(hi));
    }
    return 1;
}

double pala_sizes_cdf(const pala_sizes *d, double r)
{
    const double lo = d->range[0], hi = d->range[1];
    switch (d->law) {
    case PALA_SIZE_UNIFORM:
        if (r <= lo) return 0;
        if (r >= hi) return 1;
        return d->by_mass ? (1 / (lo * lo) - 1 / (r * r)) / (1 / (lo * lo) - 1 / (hi * hi)) : (r - lo) / (hi - lo);
    case PALA_SIZE_NORMAL: {
        if (r <= lo) return 0;
        if (r >= hi) return 1;
        if (!d->by_mass) return pala_normal_share(d->mean, d->sd, lo, r) / pala_normal_share(d->mean, d->sd, lo, hi);
        return normal_cube(d, lo, r) / normal_cube(d, lo, hi);
    }
    case PALA_SIZE_LOGNORMAL: {
        double med = d->by_mass ? d->median * exp(-3 * d->sigma * d->sigma) : d->median, l = log(med);
        if (hi > 0) {
            if (r <= lo) return 0;
            if (r >= hi) return 1;
            return pala_normal_share(l, d->sigma, log(lo), log(r)) / pala_normal_share(l, d->sigma, log(lo), log(hi));
        }
        return r <= 0 ? 0 : phi((log(r) - l) / d->sigma);
    }
    default: {   /* table, sieve: the number weights below r */
        double *w = pala_xrealloc(NULL, (size_t)d->n * sizeof *w), s = 0;
        weights(d, w);
        int m = d->law == PALA_SIZE_TABLE ? d->n : d->n - 1;
        for (int k = 0; k < m; k++) {
            double wk = w[k] - (k ? w[k - 1] : 0);
            if (d->law == PALA_SIZE_TABLE) { if (d->r[k] <= r) s += wk; continue; }
            double a = d->r[k], b = d->r[k + 1];
            if (r >= b) s += wk;
            else if (r > a) s += wk * (d->by_mass ? (1 / (a * a) - 1 / (r * r)) / (1 / (a * a) - 1 / (b * b)) : (r - a) / (b - a));
        }
        s /= w[m - 1];
        free(w);
        return s;
    }
    }
}

long pala_sizes_class(const pala_sizes *d, double r, double *rc)
{
    if (d->law == PALA_SIZE_TABLE) {
        for (int i = 0; i < d->n; i++)
            if (d->r[i] == r) { *rc = r; return i; }
    }
    double lq = log1p(d->resolution);
    long j = lround(log(r) / lq);
    *rc = exp((double)j * lq);
    return j;
}
