/* centre.c (bench): the speed of the interactions between centres (src/lib/centre.c) on
 * grains in a cube, simple cubic lattice of spacing 1 mm jittered by up to 0.2 mm: REPEAT
 * force evaluations (pala_centre_forces), each timed, medians.  Prints one line:
 *   <terms> <grains> <threads> <cutoff/spacing> <s per evaluation (wall)>
 *   <pair evaluations/s (wall)> <pair evaluations per CPU-s> <s per grain (wall)>
 *   <CPU-s per grain> <pairs in the cells per grain> <peak RSS increase, bytes per grain>
 * A pair evaluation is one ordered pair (i, j), i != j, computed: each grain sums its own
 * pairs, so an all-pairs evaluation makes n (n - 1) of them.  With a cutoff, the count is
 * of the pairs in reach of the cells (i with every grain of the 27 cells around its cell;
 * the kernel skips the grains j out of reach of a whole tile among them).  The CPU time is
 * the process's (all threads, including a waiting thread's spin).
 * usage: centre_bench TERMS N THREADS REPEAT [CUTOFF_IN_SPACINGS] [check]
 *   THREADS may be A/B/R: R rounds that each time REPEAT passes on A threads, then on B
 *   threads, within a second or so (so that a slow spell of a shared machine hits both):
 *   prints each round's time ratio A/B, then the median and the best.
 *   TERMS: q (charges), G (masses), p (electric dipoles), m (magnetic dipoles), pm, qpm...
 *   check: also compare with the plain reference (small N only) and print the largest
 *   relative difference of forces and torques. */
#include "pala/pala.h"
#include "centre.h"
#include "field.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double peak_rss(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return 1024.0 * (double)ru.ru_maxrss;
}

/* CPU time of the process, s (all its threads) */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int main(int argc, char **argv)
{
    if (argc < 5) { fprintf(stderr, "usage: centre_bench TERMS N THREADS REPEAT [CUTOFF_IN_SPACINGS] [check]\n"); return 1; }
    const char *terms = argv[1];
    int n = atoi(argv[2]), nth = atoi(argv[3]), rep = atoi(argv[4]);
    double cut = argc > 5 ? atof(argv[5]) : 0;
    int check = argc > 6 && !strcmp(argv[6], "check");
    double rss0 = peak_rss();
    pala_world w;
    pala_world_init(&w);
    pala_material mat = {.name = "m", .rho = 2500, .E = 5e8, .sigma = 0.3, .delta = 1, .mu = 0, .nu = 1e-3};
    pala_world_add_material(&w, &mat);
    int t = pala_world_add_sphere_template(&w, 0, 2e-4);
    if (strchr(terms, 'q')) w.tmpl[t].charge = 1e-12;
    if (strchr(terms, 'p')) w.tmpl[t].edip = pala_v(1e-15, 2e-16, -3e-16);
    if (strchr(terms, 'm')) w.tmpl[t].mdip = pala_v(2e-6, -1e-6, 5e-7);
    if (strchr(terms, 'G')) w.grav_G = 6.674e-11;
    int side = (int)ceil(cbrt((double)n));
    pala_rng g;
    pala_rng_seed(&g, 1);
    for (int k = 0; k < n; k++) {
        pala_vec3 x = pala_v(1e-3 * (k % side), 1e-3 * (k / side % side), 1e-3 * (k / side / side));
        x = pala_vadd(x, pala_vscale(2e-4 * pala_rng_uniform(&g), pala_rng_unit(&g, 3)));
        pala_world_add_grain(&w, t, x, pala_vscale(3, pala_rng_unit(&g, 3)), pala_v(0, 0, 0), pala_v(0, 0, 0));
    }
    w.cutoff = cut * 1e-3;
    w.dt = 1e-6;
    if (pala_world_prepare(&w) != PALA_OK) { fprintf(stderr, "centre_bench: %s\n", pala_world_error(&w)); return 1; }
    pala_world_set_threads(&w, nth);
    pala_field *fd = w.field;
    for (int k = 0; k < n && fd->dipoles; k++) {
        fd->pw[k] = pala_rot_apply(w.r[k], w.tmpl[t].edip);
        fd->mw[k] = pala_rot_apply(w.r[k], w.tmpl[t].mdip);
    }
    pala_vec3 *F = calloc((size_t)n, sizeof *F), *T = calloc((size_t)n, sizeof *T);
    int ta = 0, tb = 0, rounds = 0;
    if (sscanf(argv[3], "%d/%d/%d", &ta, &tb, &rounds) == 3 && ta > 0 && tb > 0 && rounds > 0) {
        /* rounds of: rep passes on ta threads, rep passes on tb threads (each the median
         * of its passes); prints the ratio of each round, then the median and best */
        double *ratio = calloc((size_t)rounds, sizeof *ratio), *tt = calloc((size_t)rep, sizeof *tt);
        for (int r = 0; r < rounds; r++) {
            double m[2];
            for (int i = 0; i < 2; i++) {
                pala_world_set_threads(&w, i ? tb : ta);
                pala_centre_forces(&w, F, T);
                for (int k = 0; k < rep; k++) {
                    double t0 = pala_now();
                    pala_centre_forces(&w, F, T);
                    tt[k] = pala_now() - t0;
                }
                m[i] = median(tt, rep);
            }
            ratio[r] = m[0] / m[1];
            printf("round %d: %.4g s on %d, %.4g s on %d threads: %.3f\n", r + 1, m[0], ta, m[1], tb, ratio[r]);
        }
        double best = 0;
        for (int r = 0; r < rounds; r++) best = fmax(best, ratio[r]);
        printf("%s %d speedup %d/%d: median %.3f best %.3f (%d rounds)\n", terms, n, tb, ta, median(ratio, rounds), best, rounds);
        pala_world_free(&w);
        return 0;
    }
    pala_centre_forces(&w, F, T);   /* warm up */
    double *tw = calloc((size_t)rep, sizeof *tw), *tc = calloc((size_t)rep, sizeof *tc);
    for (int r = 0; r < rep; r++) {
        double c0 = cpu_now(), t0 = pala_now();
        pala_centre_forces(&w, F, T);
        tw[r] = pala_now() - t0;
        tc[r] = cpu_now() - c0;
    }
    double dt = median(tw, rep), dc = median(tc, rep);
    double tried = pala_centre_tried(&w);   /* pairs per evaluation */
    double rss = peak_rss() - rss0;
    printf("%s %d %d %g %.4g %.4g %.4g %.4g %.4g %.1f %.0f\n", terms, n, nth, cut, dt, tried / dt, tried / dc, dt / n, dc / n,
           tried / n, rss / n);
    if (check) {
        pala_vec3 *F1 = calloc((size_t)n, sizeof *F), *T1 = calloc((size_t)n, sizeof *T), *F2 = calloc((size_t)n, sizeof *F), *T2 = calloc((size_t)n, sizeof *T);
        pala_centre_forces(&w, F1, T1);
        double c0 = cpu_now();
        double U2 = pala_centre_reference(&w, F2, T2);
        printf("reference: %.4g pair evaluations per CPU-s\n", (double)n * (n - 1) / (cpu_now() - c0));
        double fm = 0, tm = 0, df = 0, dtq = 0;
        for (int k = 0; k < n; k++) {
            fm = fmax(fm, pala_vnorm(F2[k])); tm = fmax(tm, pala_vnorm(T2[k]));
            df = fmax(df, pala_vnorm(pala_vsub(F1[k], F2[k]))); dtq = fmax(dtq, pala_vnorm(pala_vsub(T1[k], T2[k])));
        }
        double U1 = pala_centre_energy(&w);
        printf("check: |dF|/max|F| %.3g  |dT|/max|T| %.3g  U %.17g vs %.17g (rel %.3g)\n", df / fm, tm > 0 ? dtq / tm : 0, U1, U2, fabs(U1 - U2) / fabs(U2));
    }
    pala_world_free(&w);
    return 0;
}
