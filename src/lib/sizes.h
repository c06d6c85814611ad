/* sizes.h: size distributions of a group of grains (sizes.c; docs/physics.md, "Size
 * distributions"): the laws, sampling by number or by mass, and the classes of sizes that
 * grains share a template in.  Pure functions of the law and the random generator. */
#ifndef PALA_SIZES_H
#define PALA_SIZES_H
#include "pala/pala.h"

/* The laws of a grain type's size (key size_distribution). */
enum pala_size_law { PALA_SIZE_NONE, PALA_SIZE_UNIFORM, PALA_SIZE_NORMAL, PALA_SIZE_LOGNORMAL, PALA_SIZE_TABLE, PALA_SIZE_SIEVE };

/* A size distribution.  The size of a grain is the radius of the sphere of its volume (a
 * sphere's radius), m.  by_mass: the law describes the mass of the grains (a sieve curve)
 * rather than their number; grains are sampled one by one all the same, with the number
 * density the mass density divided by r^3 (grains of one type have one density). */
typedef struct pala_sizes {
    int law;                 /* enum pala_size_law */
    int by_mass;             /* 0: fractions of number; 1: of mass (size_by) */
    double range[2];         /* uniform: its range; normal, lognormal: the truncation (0 0: none), m */
    double mean, sd;         /* normal: mean and standard deviation before truncation, m */
    double median, sigma;    /* lognormal: median, m, and the standard deviation of ln r */
    int n;                   /* table: classes; sieve: points of the curve */
    const double *r, *f;     /* table: sizes (m) and their fractions (any positive scale);
                                sieve: sizes (m, increasing) and the fraction up to each,
                                0 at the first, 1 at the last (linear in between) */
    double resolution;       /* relative width of the classes of templates (size_resolution) */
} pala_sizes;

/* n sizes drawn from d into out (m), one grain after another.  A table gives its exact
 * counts (N f_i / sum f, by largest remainders) in an order drawn at random.  Returns 0,
 * or -1 if the truncation of a normal or log-normal law refused 10^7 draws in a row, -2 if
 * a table's weights (its fractions; by mass, over size^3) add up to no positive finite sum. */
int pala_sizes_sample(const pala_sizes *d, pala_rng *g, long n, double *out);
/* The fraction of grains (by number) of size <= r: the law's closed form, for the tests
 * (the table's and the sieve's counts the fractions give). */
double pala_sizes_cdf(const pala_sizes *d, double r);
/* The class of size r: its index (a table: the class of the table) and *rc, the size every
 * grain of the class gets: the table's size itself, else the nearest of (1 + resolution)^j
 * metres in the ratio (so within a factor (1 + resolution)^(1/2) of r). */
long pala_sizes_class(const pala_sizes *d, double r, double *rc);
/* The fraction of draws a normal or log-normal law keeps (its truncation, and the (lo/r)^3 of
 * a normal law by mass); 1 for the other laws.  The control-file reader refuses a law that
 * keeps less than 10^-3. */
double pala_sizes_acceptance(const pala_sizes *d);
/* The share of the normal law N(mean, sd) in [lo, hi]: Phi(b) - Phi(a). */
double pala_normal_share(double mean, double sd, double lo, double hi);

#endif
