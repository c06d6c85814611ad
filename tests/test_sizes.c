/* test_sizes.c: size distributions (src/lib/sizes.c; docs/physics.md, "Size distributions").
 *  - each law, by number and by mass, sampled at a fixed seed (20,000 sizes): the mean and
 *    standard deviation within 3 standard errors of their closed forms; a Kolmogorov-Smirnov
 *    test against the law's CDF that passes (D below its 1% point), and fails against the
 *    other weighting (by mass instead of number, or the reverse);
 *  - by mass, the mass-weighted moments of the sample against the law as given (a sieve
 *    curve's mass fractions, the mass-weighted mean of a uniform law, the mass median of a
 *    log-normal one); a table by mass gives its mass fractions to one grain's worth;
 *  - through a control file: the grains of a group with a distribution share a bounded
 *    number of templates, each of a class within (1 + size_resolution)^(1/2) of the size, a
 *    clump scaled exactly; random placement puts the largest first; the errors of the keys. */
#include "t.h"
#include "t_world.h"
#include "sizes.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_sizes(void);

enum { N = 20000 };

static double phi(double z) { return exp(-0.5 * z * z) / sqrt(2 * PALA_PI); }

/* mean and standard deviation of x[0..n), weighted by r^3 if mass */
static void moments(const double *x, int n, int mass, double *mean, double *sd)
{
    double sw = 0, s = 0, s2 = 0;
    for (int i = 0; i < n; i++) {
        double w = mass ? x[i] * x[i] * x[i] : 1;
        sw += w; s += w * x[i]; s2 += w * x[i] * x[i];
    }
    *mean = s / sw;
    *sd = sqrt(s2 / sw - *mean * *mean);
}

static int cmp_double(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }

/* Kolmogorov-Smirnov statistic of the sorted sample against the CDF of d */
static double ks(const double *sorted, int n, const pala_sizes *d)
{
    double D = 0;
    for (int i = 0; i < n; i++) {
        double F = pala_sizes_cdf(d, sorted[i]);
        D = fmax(D, fmax(fabs(F - (double)i / n), fabs(F - (double)(i + 1) / n)));
    }
    return D;
}

/* One law: its sample's mean and sd against mean0, sd0 (number-weighted, closed forms),
 * within 3 standard errors (of the mean sd0/sqrt(n), of the sd about sd0 sqrt(2/n) for a
 * near-normal law; 3 sd0/sqrt(n) taken for both, the sd's error being smaller for these laws
 * but for the log-normal one, which is given its own: sd0 sqrt((kurt - 1)/(4 n))); then KS. */
static void law(const char *what, pala_sizes d, double mean0, double sd0, double sd_se)
{
    double *x = malloc(N * sizeof *x), m, s;
    pala_rng g;
    pala_rng_seed(&g, 99);
    T_CHECK(pala_sizes_sample(&d, &g, N, x) == 0, "%s: sampled", what);
    moments(x, N, 0, &m, &s);
    double se = sd0 / sqrt((double)N);
    T_CHECK(fabs(m - mean0) < 3 * se, "%s: mean %.6g against %.6g (3 standard errors %.3g)", what, m, mean0, 3 * se);
    T_CHECK(fabs(s - sd0) < 3 * sd_se, "%s: standard deviation %.6g against %.6g (3 standard errors %.3g)", what, s, sd0, 3 * sd_se);
    qsort(x, N, sizeof *x, cmp_double);
    double crit = 1.63 / sqrt((double)N), D = ks(x, N, &d);   /* the 1 % point of D */
    T_CHECK(D < crit, "%s: Kolmogorov-Smirnov D = %.4f below %.4f against its own law", what, D, crit);
    pala_sizes other = d;
    other.by_mass = !d.by_mass;
    double D2 = ks(x, N, &other);
    T_CHECK(D2 > crit, "%s: D = %.4f above %.4f against the law by %s (the test tells them apart)", what, D2, crit, d.by_mass ? "number" : "mass");
    free(x);
}

static void laws(void)
{
    const double a = 0.001, b = 0.003;
    /* uniform by number: (a + b)/2, (b - a)/sqrt(12) */
    pala_sizes u = {.law = PALA_SIZE_UNIFORM, .range = {a, b}, .resolution = 0.01};
    law("uniform by number", u, 0.5 * (a + b), (b - a) / sqrt(12.0), (b - a) / sqrt(12.0) / sqrt(N));
    /* uniform by mass: number density C r^-3, C = 2 / (a^-2 - b^-2); mean C (1/a - 1/b), E r^2 = C ln(b/a) */
    u.by_mass = 1;
    double C = 2 / (1 / (a * a) - 1 / (b * b)), mu = C * (1 / a - 1 / b), sd = sqrt(C * log(b / a) - mu * mu);
    law("uniform by mass", u, mu, sd, sd / sqrt(N));
    /* log-normal by number: median m e^(s^2/2), sd^2 = m^2 e^(s^2) (e^(s^2) - 1) */
    const double med = 0.001, sg = 0.5, e = exp(sg * sg);
    pala_sizes l = {.law = PALA_SIZE_LOGNORMAL, .median = med, .sigma = sg, .resolution = 0.01};
    double lsd = med * sqrt(e * (e - 1)), kurt = e * e * e * e + 2 * e * e * e + 3 * e * e - 3;   /* excess kurtosis */
    law("lognormal by number", l, med * sqrt(e), lsd, lsd * sqrt((kurt + 2) / (4.0 * N)));
    /* by mass: the number median is the mass median times e^(-3 s^2) (Hatch-Choate) */
    l.by_mass = 1;
    double nmed = med * exp(-3 * sg * sg);
    lsd = nmed * sqrt(e * (e - 1));
    law("lognormal by mass", l, nmed * sqrt(e), lsd, lsd * sqrt((kurt + 2) / (4.0 * N)));
    /* normal truncated to [lo, hi]: mean mu + s (phi(al) - phi(be)) / Z, var s^2 (1 + (al phi(al) - be phi(be))/Z - ((phi(al) - phi(be))/Z)^2) */
    const double m0 = 0.002, s0 = 0.0006, lo = 0.001, hi = 0.0035, al = (lo - m0) / s0, be = (hi - m0) / s0;
    pala_sizes nrm = {.law = PALA_SIZE_NORMAL, .mean = m0, .sd = s0, .range = {lo, hi}, .resolution = 0.01};
    double Z = pala_normal_share(m0, s0, lo, hi), dphi = (phi(al) - phi(be)) / Z;
    double nsd = s0 * sqrt(1 + (al * phi(al) - be * phi(be)) / Z - dphi * dphi);
    law("normal by number", nrm, m0 + s0 * dphi, nsd, nsd / sqrt(N));
    /* by mass: the moments of the density N(r) r^-3, by Simpson's rule on a fine grid */
    nrm.by_mass = 1;
    double w0 = 0, w1 = 0, w2 = 0, h = (hi - lo) / 20000;
    for (int i = 0; i <= 20000; i++) {
        double r = lo + i * h, c = i == 0 || i == 20000 ? 1 : i % 2 ? 4 : 2, f = c * exp(-0.5 * (r - m0) * (r - m0) / (s0 * s0)) / (r * r * r);
        w0 += f; w1 += f * r; w2 += f * r * r;
    }
    double nm = w1 / w0, nsd2 = sqrt(w2 / w0 - nm * nm);
    law("normal by mass", nrm, nm, nsd2, nsd2 / sqrt(N));
    /* a sieve curve by number: piecewise uniform, 30 % in [1, 2] mm, 70 % in [2, 3] mm */
    const double sr[3] = {0.001, 0.002, 0.003}, sf[3] = {0, 0.3, 1};
    pala_sizes sv = {.law = PALA_SIZE_SIEVE, .n = 3, .r = sr, .f = sf, .resolution = 0.01};
    double sm = 0.3 * 0.0015 + 0.7 * 0.0025, s2 = 0.3 * (0.0015 * 0.0015 + 1e-6 / 12) + 0.7 * (0.0025 * 0.0025 + 1e-6 / 12);
    law("sieve by number", sv, sm, sqrt(s2 - sm * sm), sqrt(s2 - sm * sm) / sqrt(N));
}

/* The standard error of the mass-weighted mean m of x (or of ln x): the ratio estimator
 * sum w y / sum w, w = r^3, by the delta method: sqrt(sum w^2 (y - m)^2) / sum w. */
static double weighted_se(const double *x, int n, int logs, double m)
{
    double sw = 0, num = 0;
    for (int i = 0; i < n; i++) {
        double w = x[i] * x[i] * x[i], y = logs ? log(x[i]) : x[i];
        sw += w;
        num += w * w * (y - m) * (y - m);
    }
    return sqrt(num) / sw;
}

/* By mass, the sample's mass against the law as given. */
static void by_mass(void)
{
    double *x = malloc(N * sizeof *x), m, s;
    pala_rng g;
    pala_rng_seed(&g, 7);
    /* uniform in [1, 3] mm by mass: the mass-weighted mean is 2 mm, the sd 2/sqrt(12) mm */
    pala_sizes u = {.law = PALA_SIZE_UNIFORM, .by_mass = 1, .range = {0.001, 0.003}, .resolution = 0.01};
    pala_sizes_sample(&u, &g, N, x);
    moments(x, N, 1, &m, &s);
    double se = weighted_se(x, N, 0, m);
    T_CHECK(fabs(m - 0.002) < 3 * se, "uniform by mass: mass-weighted mean %.6g m against 0.002 (3 standard errors %.2g)", m, 3 * se);
    T_CHECK(fabs(s - 0.002 / sqrt(12.0)) < 6 * se, "uniform by mass: mass-weighted sd %.6g m against %.6g", s, 0.002 / sqrt(12.0));
    /* log-normal by mass (mass median 1 mm, sigma 0.5): the mass-weighted mean of ln r is ln 1 mm */
    pala_sizes l = {.law = PALA_SIZE_LOGNORMAL, .by_mass = 1, .median = 0.001, .sigma = 0.5, .resolution = 0.01};
    pala_sizes_sample(&l, &g, N, x);
    double lw = 0, l1 = 0, l2 = 0, sw = 0;
    for (int i = 0; i < N; i++) {
        double w = x[i] * x[i] * x[i], y = log(x[i]);
        sw += w; l1 += w * y; l2 += w * y * y;
    }
    lw = l1 / sw;
    double lsd = sqrt(l2 / sw - lw * lw);
    se = weighted_se(x, N, 1, lw);
    T_CHECK(fabs(lw - log(0.001)) < 3 * se, "lognormal by mass: mass-weighted mean of ln r %.5f against ln(1 mm) = %.5f (3 standard errors %.2g)",
            lw, log(0.001), 3 * se);
    T_CHECK(fabs(lsd - 0.5) < 0.05, "lognormal by mass: mass-weighted sd of ln r %.4f against 0.5", lsd);
    /* a sieve curve by mass: 30 % of the mass below 2 mm, 80 % below 4 mm, all below 8 mm */
    const double sr[4] = {0.001, 0.002, 0.004, 0.008}, sf[4] = {0, 0.3, 0.8, 1};
    pala_sizes sv = {.law = PALA_SIZE_SIEVE, .by_mass = 1, .n = 4, .r = sr, .f = sf, .resolution = 0.01};
    pala_sizes_sample(&sv, &g, N, x);
    double tot = 0, below[4] = {0, 0, 0, 0};
    for (int i = 0; i < N; i++) {
        double w = x[i] * x[i] * x[i];
        tot += w;
        for (int k = 0; k < 4; k++) below[k] += x[i] <= sr[k] ? w : 0;
    }
    for (int k = 1; k < 3; k++) {
        /* the mass fraction below r_k is the weighted mean of the indicator r <= r_k */
        double *ind = malloc(N * sizeof *ind), sw1 = 0, num = 0;
        for (int i = 0; i < N; i++) {
            double w = x[i] * x[i] * x[i];
            ind[i] = x[i] <= sr[k];
            sw1 += w;
            num += w * w * (ind[i] - below[k] / tot) * (ind[i] - below[k] / tot);
        }
        se = sqrt(num) / sw1;
        free(ind);
        T_CHECK(fabs(below[k] / tot - sf[k]) < 3 * se, "sieve by mass: mass below %g m %.4f against %.2f (3 standard errors %.3f)", sr[k], below[k] / tot,
                sf[k], 3 * se);
    }
    /* a table by mass: exact counts, so each class's mass fraction within one grain's mass */
    const double tr[3] = {0.001, 0.002, 0.005}, tf[3] = {0.2, 0.3, 0.5};
    pala_sizes t = {.law = PALA_SIZE_TABLE, .by_mass = 1, .n = 3, .r = tr, .f = tf, .resolution = 0.01};
    pala_sizes_sample(&t, &g, N, x);
    double cls[3] = {0, 0, 0};
    tot = 0;
    for (int i = 0; i < N; i++) {
        tot += x[i] * x[i] * x[i];
        for (int k = 0; k < 3; k++) cls[k] += x[i] == tr[k] ? x[i] * x[i] * x[i] : 0;
    }
    int ok = 1;
    for (int k = 0; k < 3; k++) ok &= fabs(cls[k] / tot - tf[k]) < tr[2] * tr[2] * tr[2] / tot;
    T_CHECK(ok, "table by mass: mass fractions %.5f %.5f %.5f against 0.2 0.3 0.5, each within the mass of one grain of the largest",
            cls[0] / tot, cls[1] / tot, cls[2] / tot);
    free(x);
}

/* The sizes of a scene's grains: the radius of each grain's sphere of volume. */
static void scene(void)
{
    char path[256], err[2048];
    snprintf(path, sizeof path, "%s/sizes.txt", t_tmpdir());
    t_write(path, "dimension = 3\ncontainer = box\nbox = 0 0.06 0 0.06 0 0.06\nwall_material = m\ndt = 1e-6\nsteps = 1\nseed = 4\n"
                  "[material m]\ndensity = 2500\nyoung = 5e8\npoisson = 0.3\n"
                  "[grain s]\nmaterial = m\nshape = sphere\nsize_distribution = lognormal\nsize_median = 0.0005\nsize_sigma = 0.5\n"
                  "[grain c]\nmaterial = m\nshape = spheres\nsphere = 0 0 0 1\nsphere = 1.5 0 0 0.8\nmc_samples = 2000\n"
                  "size_distribution = uniform\nsize_range = 0.001 0.002\nsize_resolution = 0.05\n"
                  "[group gc]\ngrain = c\ncount = 300\n[group gs]\ngrain = s\ncount = 5000\n");
    pala_scene *sc = t_load_scene(path, 0, NULL, err, sizeof err);
    T_CHECK(sc != NULL, "a scene with size distributions loads (%.300s)", err);
    if (!sc) return;
    const pala_world *w = pala_scene_world(sc);
    int nsph = 0, nclump = 0, bad = 0;
    double lmean = 0, l2 = 0;
    for (int t = 0, base = 1; t < w->ntmpl; t++) {
        const pala_template *tp = &w->tmpl[t];
        if (!strcmp(tp->name, "c") && base) { base = 0; continue; }   /* the clump as its keys build it: what the classes scale */
        double req = cbrt(3 * tp->volume / (4 * PALA_PI)), rc;
        pala_sizes q = {.law = PALA_SIZE_LOGNORMAL, .resolution = !strcmp(tp->name, "s") ? 0.01 : 0.05};
        pala_sizes_class(&q, req, &rc);
        bad += fabs(rc - req) > 1e-12 * req;   /* each template is the class's size, exactly */
        if (!strcmp(tp->name, "s")) nsph++;
        else nclump++;
    }
    /* lognormal sigma 0.5: 5000 sizes from about e^-2 to e^2 the median, classes of 1 %: at most ln(e^4)/ln(1.01) + 1 */
    T_CHECK(nsph > 10 && nsph <= 4 / log1p(0.01) + 1 && nclump >= 2 && nclump <= log(2.0) / log1p(0.05) + 2 && bad == 0,
            "templates per class of sizes: %d for 5000 log-normal spheres, %d for 300 clumps of sizes 1 to 2 mm in classes of 5 %% "
            "(besides the clump's own), each of its class's size (%d not)", nsph, nclump, bad);
    int ns = 0, first = -1, largest_first = 1;
    for (int k = 0; k < w->n; k++) {
        int i = w->inv ? w->inv[k] : k;   /* in the order placed */
        const pala_template *tp = &w->tmpl[w->tid[i]];
        if (strcmp(tp->name, "s")) continue;
        double r = tp->bound_radius, y = log(r);
        if (first >= 0 && r > w->tmpl[w->tid[first]].bound_radius) largest_first = 0;
        first = i;
        lmean += y; l2 += y * y; ns++;
    }
    lmean /= ns;
    double lsd = sqrt(l2 / ns - lmean * lmean), se = 0.5 / sqrt((double)ns);
    T_CHECK(ns == 5000 && fabs(lmean - log(0.0005)) < 3 * se + 0.005 && fabs(lsd - 0.5) < 3 * se,
            "the spheres' sizes: mean of ln r %.4f against ln(0.5 mm) = %.4f, sd %.4f against 0.5 (3 standard errors %.3f, classes of 1 %%)",
            lmean, log(0.0005), lsd, 3 * se);
    T_CHECK(largest_first, "random placement of a size distribution places (and numbers) the largest first");
    /* a clump class is the clump scaled: its components keep their proportions */
    int ok = 1;
    for (int t = 1; t < w->ntmpl; t++)
        if (!strcmp(w->tmpl[t].name, "c") && w->tmpl[t].ncomp == 2) {
            const double *r = w->shape_r + w->tmpl[t].comp0;
            ok &= fabs(r[1] / r[0] - 0.8) < 1e-12;
        }
    T_CHECK(ok, "the clump's classes are scaled copies (component radii 1 : 0.8)");
    pala_scene_free(sc);
}

/* What the reader refuses, at the key's line, saying what to change. */
static void errors(void)
{
    static const struct { const char *keys, *want; } cases[] = {
        {"size_distribution = uniform\n", "needs 'size_range' for size_distribution = uniform"},
        {"size_distribution = uniform\nsize_range = 0.002 0.001\n", "the least size (0.002 m) must be below the largest"},
        {"size_distribution = normal\nsize_range = 0.001 0.002\nsize_sd = 0.001\n", "needs 'size_mean'"},
        {"size_distribution = normal\nsize_range = 0.001 0.0011\nsize_mean = 0.01\nsize_sd = 0.001\n", "'size_range' keeps only"},
        {"size_distribution = lognormal\nsize_median = 0.001\n", "needs 'size_sigma'"},
        {"size_distribution = table\n", "but no such lines: add 'size_class = SIZE FRACTION' lines"},
        {"size_distribution = sieve\nsieve = 0.001 0\nsieve = 0.002 0.9\n", "the curve ends at fraction 1"},
        {"size_distribution = sieve\nsieve = 0.001 0.1\nsieve = 0.002 1\n", "the curve starts at fraction 0"},
        {"size_distribution = sieve\nsieve = 0.002 0\nsieve = 0.001 1\n", "the sizes must not decrease"},
        {"size_distribution = table\nsize_class = 0.001 1\nvolume_radius = 0.001\n", "give either volume_radius (one size) or size_distribution"},
        {"size_distribution = table\nsize_class = 0.001 1\nradius = 0.001\n", "give either radius (one size) or size_distribution (the spheres' radii)"},
        /* laws that reach beyond a double (session 27's hostile inputs: a template index of -1 and a segfault) */
        {"size_distribution = lognormal\nsize_median = 0.002\nsize_sigma = 10\nsize_by = mass\n", "has no positive finite mass or moment"},
        {"size_distribution = lognormal\nsize_median = 1e300\nsize_sigma = 1\n", "has no positive finite mass or moment"},
        {"size_distribution = table\nsize_class = 0.001 1e308\nsize_class = 0.002 1e308\n", "fractions (by mass: over size^3) do not add up to a finite number"},
        {"size_distribution = table\nsize_by = mass\nsize_class = 1e-300 1\nsize_class = 0.002 1\n", "do not add up to a finite number"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[256], text[1024], err[2048] = "";
        snprintf(path, sizeof path, "%s/sizes_err.txt", t_tmpdir());
        snprintf(text, sizeof text, "dt = 1e-6\nsteps = 1\nbox = 0 0.05 0 0.05 0 0.05\nwall_material = m\n[material m]\ndensity = 2500\nyoung = 5e8\n"
                 "[grain g]\nmaterial = m\nshape = sphere\n%s[group a]\ngrain = g\ncount = 10\n", cases[i].keys);
        t_write(path, text);
        pala_scene *sc = t_load_scene(path, 0, NULL, err, sizeof err);
        T_CHECK(!sc && strstr(err, cases[i].want) && strstr(err, "sizes_err.txt:"), "refused at its line: %.80s -> %.300s", cases[i].keys, err);
        pala_scene_free(sc);
    }
}

void test_sizes(void)
{
    laws();
    by_mass();
    scene();
    errors();
}
