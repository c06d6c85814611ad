/* order.c: `pala order FILE [--runs K] [--factor F] [--window T0:T1] [-o DIR]`:
 * the integrator's order measured on any scene (PaLa features viii and ix, paper
 * section 1).
 *
 * The scene runs K times over the same time interval, run k with dt0 / F^k.  At common
 * sample times it records every component centre (c = x + r * x_i, eq. 42) and E_total.
 * Two distances compare successive runs k-1 and k:
 *   d_traj(t) = RMS over all components of |c_k(t) - c_{k-1}(t)|          (m)
 *   d_E(t)    = |E_k(t) - E_{k-1}(t)| / |E_0|
 * For an integrator of order p the distances shrink by F^p from one pair to the next.
 * The order is the least-squares slope of log d (RMS over the window) against log dt over
 * all pairs, with its standard error and the pairwise orders log(d_k / d_k+1) / log F as
 * the spread; order.svg and order-fit.svg draw the curves and the fit.
 * For long times a chaotic system forgets its initial state and d turns into a random
 * function of dt: the late-window orders printed beside the early ones show it. */
#include "commands.h"
#include "pala/pala.h"
#include "run.h"
#include "rundir.h"
#include "svg.h"
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pala_cmd_order(int argc, char **argv);

static void usage(FILE *f)
{
    fprintf(f,
        "usage: pala order FILE [--runs K] [--factor F] [--window T0:T1] [--samples M]\n"
        "                  [--set KEY=VALUE]... [-o DIR] [--force]\n"
        "  --runs K        number of runs, 3 to 8 (default 5)\n"
        "  --factor F      integer step-count factor between runs, 2 to 10 (default 2)\n"
        "  --window T0:T1  time window (s) of the early order fit (default: automatic, from\n"
        "                  when the finest pair differs by more than 1e-9 of a grain's\n"
        "                  bounding radius to when the coarsest differs by 1%% of it)\n"
        "  --samples M     sample times over the run, at least 10 (default 400)\n"
        "  -o DIR          folder for order.tsv and orders.tsv (default <scene>.order)\n"
        "exit status: 0 ok, 1 bad input, 2 a run went unstable, 5 cannot write\n");
}

/* Component centres of every grain at the current state. */
static void centres(pala_world *w, double *out)
{
    for (int k = 0; k < w->n; k++) pala_world_place_pebbles(w, k);
    for (int p = 0; p < w->npeb; p++) { out[3 * p] = w->pc[p].x; out[3 * p + 1] = w->pc[p].y; out[3 * p + 2] = w->pc[p].z; }
}

/* ---- the order from all pairs ------------------------------------------------------ */
typedef struct order_fit {
    int n;            /* pairs in the fit */
    double p, se;     /* slope of log d against log dt, its standard error (NAN for 2 pairs) */
    double pmin, pmax;   /* the pairwise orders log(d_k / d_k+1) / log F */
    double a;         /* intercept: log d = a + p log dt */
    const char *why;  /* NULL, or why there is no order */
} order_fit;

static order_fit fit(int K, const double *d, const double *dt, int F)
{
    order_fit o = {0, (double)NAN, (double)NAN, HUGE_VAL, -HUGE_VAL, (double)NAN, NULL};
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int k = 1; k < K; k++) {
        if (!(d[k] > 0) || !isfinite(d[k])) { o.why = "a pair of runs has d = 0 in the window (identical runs, or nothing moves)"; return o; }
        double x = log(dt[k]), y = log(d[k]);
        sx += x; sy += y; sxx += x * x; sxy += x * y;
        o.n++;
        if (k > 1) {
            double pk = log(d[k - 1] / d[k]) / log(F);
            o.pmin = fmin(o.pmin, pk);
            o.pmax = fmax(o.pmax, pk);
        }
    }
    double n = o.n, sxxc = sxx - sx * sx / n;
    o.p = (sxy - sx * sy / n) / sxxc;
    o.a = (sy - o.p * sx) / n;
    if (o.n > 2) {
        double r2 = 0;
        for (int k = 1; k < K; k++) { double r = log(d[k]) - o.a - o.p * log(dt[k]); r2 += r * r; }
        o.se = sqrt(r2 / (n - 2) / sxxc);
    }
    if (o.p < 0.5) o.why = "d does not shrink with dt (fitted order below 0.5)";
    else if (o.n > 2 && o.se > 0.25 * o.p) o.why = "the pairs disagree (standard error above a quarter of the order)";
    return o;
}

static volatile sig_atomic_t g_stop;
static void on_stop(int sig) { g_stop = sig; }

static void report(const char *what, const order_fit *o, int samples)
{
    if (samples < 3) printf("  %-10s: no order: the window holds %d sample%s; give a --window or more --samples\n", what, samples, samples == 1 ? "" : "s");
    else if (o->why && !isfinite(o->p)) printf("  %-10s: no order from these data: %s\n", what, o->why);
    else if (o->why) printf("  %-10s: no order from these data: %s (fit %.2f, pairwise %.2f to %.2f)\n", what, o->why, o->p, o->pmin, o->pmax);
    else if (o->n > 2) printf("  %-10s: order %.2f +- %.2f (least squares over %d pairs; pairwise %.2f to %.2f)\n", what, o->p, o->se, o->n, o->pmin, o->pmax);
    else printf("  %-10s: order %.2f (%d pairs: no spread; use --runs 4 or more)\n", what, o->p, o->n);
}

static int close_pic(FILE *f, const char *path)
{
    int bad = ferror(f) != 0;
    bad |= fclose(f) != 0;
    if (bad) fprintf(stderr, "pala order: writing %s failed\n", path);
    return bad;
}

/* d_traj of each pair against time, log axis, the window marked, the fit in the note */
static int order_svg(const char *path, int K, int ns, const double *ts, const double *dtr, double dt0, int F,
                     double w0, double w1, const order_fit *ft)
{
    FILE *f = pala_fopen(path, "w");
    if (!f) { fprintf(stderr, "pala order: cannot write %s: %s\n", path, pala_strerror(errno)); return 1; }
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    for (int k = 1; k < K; k++)
        for (int j = 0; j < ns; j++) {
            double v = dtr[(size_t)k * (size_t)ns + (size_t)j];
            if (v > 0 && isfinite(v)) { lo = fmin(lo, v); hi = fmax(hi, v); }
        }
    pala_svg_range(&lo, &hi, 1, 0);
    pala_svg_plot p;
    pala_svg_begin(&p, f, 860, 500, ts[0], ts[ns - 1], lo, hi, 1, "Distance of synchronous configurations, runs k-1 and k",
                   "time (s)", "d_traj (m), RMS over component centres");
    char lab[96], note[200];
    for (int k = 1; k < K; k++) {
        long ff = 1;
        for (int i = 0; i < k; i++) ff *= F;
        snprintf(lab, sizeof lab, "dt %.3g / %.3g s", dt0 * F / (double)ff, dt0 / (double)ff);
        pala_svg_line(&p, ns, ts, dtr + (size_t)k * (size_t)ns, pala_svg_colour(k - 1), 1.6, NULL, 0);
        pala_svg_legend(&p, lab, pala_svg_colour(k - 1), NULL);
    }
    pala_svg_segment(&p, w0, lo, w0, hi, "#555", "4 3");
    pala_svg_segment(&p, w1, lo, w1, hi, "#555", "4 3");
    pala_svg_legend(&p, "order window", "#555", "4 3");
    if (ft->why) snprintf(note, sizeof note, "window %.4g to %.4g s: no order from these data", w0, w1);
    else if (ft->n > 2) snprintf(note, sizeof note, "window %.4g to %.4g s: fitted order %.2f \u00b1 %.2f over %d pairs", w0, w1, ft->p, ft->se, ft->n);
    else snprintf(note, sizeof note, "window %.4g to %.4g s: fitted order %.2f", w0, w1, ft->p);
    pala_svg_note(&p, note);
    pala_svg_end(&p);
    return close_pic(f, path);
}

/* the window's RMS d against dt, log-log, with the fitted lines */
static int fit_svg(const char *path, int K, const double *dt_, const double *de, const double *dtf, const order_fit *ft,
                   const order_fit *fe, double w0, double w1)
{
    FILE *f = pala_fopen(path, "w");
    if (!f) { fprintf(stderr, "pala order: cannot write %s: %s\n", path, pala_strerror(errno)); return 1; }
    double x[8], yt[8], ye[8], lo = HUGE_VAL, hi = -HUGE_VAL;
    int n = 0;
    for (int k = 1; k < K; k++, n++) {
        x[n] = log10(dtf[k]); yt[n] = dt_[k]; ye[n] = de[k];
        if (yt[n] > 0) { lo = fmin(lo, yt[n]); hi = fmax(hi, yt[n]); }
        if (ye[n] > 0) { lo = fmin(lo, ye[n]); hi = fmax(hi, ye[n]); }
    }
    pala_svg_range(&lo, &hi, 1, 0);
    pala_svg_plot p;
    char title[128], lab[96];
    snprintf(title, sizeof title, "Order fit over the window %.4g to %.4g s", w0, w1);
    pala_svg_begin(&p, f, 860, 500, x[n - 1] - 0.15, x[0] + 0.15, lo, hi, 1, title, "log10(dt / s) of the finer run of each pair", "RMS distance over the window");
    /* fine dt on the left */
    pala_svg_line(&p, n, x, yt, pala_svg_colour(0), 0, NULL, 1);
    pala_svg_line(&p, n, x, ye, pala_svg_colour(1), 0, NULL, 1);
    if (isfinite(ft->p)) pala_svg_segment(&p, x[0], exp(ft->a + ft->p * x[0] * log(10)), x[n - 1], exp(ft->a + ft->p * x[n - 1] * log(10)), pala_svg_colour(0), "6 4");
    if (isfinite(fe->p)) pala_svg_segment(&p, x[0], exp(fe->a + fe->p * x[0] * log(10)), x[n - 1], exp(fe->a + fe->p * x[n - 1] * log(10)), pala_svg_colour(1), "6 4");
    snprintf(lab, sizeof lab, "d_traj (m): p = %.2f", ft->p);
    pala_svg_legend(&p, lab, pala_svg_colour(0), "6 4");
    snprintf(lab, sizeof lab, "d_E (rel): p = %.2f", fe->p);
    pala_svg_legend(&p, lab, pala_svg_colour(1), "6 4");
    pala_svg_end(&p);
    return close_pic(f, path);
}

/* the folder of pala order: its four files, recognised by the header of its tables */
static const char *const order_files[] = {"order.tsv", "orders.tsv", "order.svg", "order-fit.svg", NULL};
static const char *const order_marker[] = {"orders.tsv", "order.tsv", NULL};
static const char *const order_head[] = {"window\tt0\tt1\tpair", "time\td_traj_1", NULL};
static const pala_folder_kind order_folder = {"order", order_files, order_marker, order_head};

int pala_cmd_order(int argc, char **argv)
{
    const char *scene = NULL, *outdir = NULL;
    int K = 5, F = 2, M = 400, force = 0, nset = 0;
    double w0 = -1, w1 = -1;
    char **sets = calloc((size_t)argc + 2, sizeof *sets);
    if (!sets) return PALA_ERR_IO;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "--runs") && more) K = atoi(argv[++i]);
        else if (!strcmp(a, "--factor") && more) F = atoi(argv[++i]);
        else if (!strcmp(a, "--samples") && more) M = atoi(argv[++i]);
        else if (!strcmp(a, "--window") && more) {
            if (sscanf(argv[++i], "%lf:%lf", &w0, &w1) != 2 || !(w1 > w0) || w0 < 0) {
                fprintf(stderr, "pala order: --window '%s': expected T0:T1 in seconds with 0 <= T0 < T1\n", argv[i]);
                free(sets);
                return PALA_ERR_INPUT;
            }
        } else if (!strcmp(a, "--set") && more) sets[nset++] = argv[++i];
        else if (!strcmp(a, "-o") && more && !argv[i + 1][0]) { fprintf(stderr, "pala order: -o needs a folder name, e.g. -o order/first\n"); free(sets); return PALA_ERR_INPUT; }
        else if (!strcmp(a, "-o") && more) outdir = argv[++i];
        else if (!strcmp(a, "--force")) force = 1;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); free(sets); return 0; }
        else if (a[0] == '-') { fprintf(stderr, "pala order: unknown option or missing value: '%s'\n", a); usage(stderr); free(sets); return PALA_ERR_INPUT; }
        else if (!scene) scene = a;
        else { fprintf(stderr, "pala order: one control file only\n"); free(sets); return PALA_ERR_INPUT; }
    }
    if (!scene) { usage(stderr); free(sets); return PALA_ERR_INPUT; }
    if (K < 3 || K > 8 || F < 2 || F > 10 || M < 10) {
        fprintf(stderr, "pala order: need 3 <= --runs <= 8, 2 <= --factor <= 10 (an integer, so sample times coincide), --samples >= 10\n");
        free(sets);
        return PALA_ERR_INPUT;
    }
    pala_scene *base;
    int rc = pala_scene_load(scene, nset, sets, &base, stderr);
    if (rc) { free(sets); return rc; }
    double dt0 = pala_scene_world(base)->dt;
    long steps0 = pala_scene_steps(base);
    int by_steps = pala_scene_get(base, "steps") != NULL;
    pala_world *bw = pala_scene_world(base);
    int npeb = bw->npeb;
    double lscale = 0;   /* mean bounding radius: the length scale of the automatic window */
    for (int k = 0; k < bw->n; k++) lscale += bw->tmpl[bw->tid[k]].bound_radius / bw->n;
    pala_scene_free(base);
    if (steps0 < M) M = (int)steps0;
    if (M < 2) { fprintf(stderr, "pala order: the run is too short (%ld steps)\n", steps0); free(sets); return PALA_ERR_INPUT; }
    long every0 = steps0 / M;
    int ns = (int)(steps0 / every0) + 1;            /* samples at s = 0, every0, 2 every0, ... */
    double T = (double)steps0 * dt0;
    char dir[4096];
    if (outdir) snprintf(dir, sizeof dir, "%s", outdir);
    else {
        pala_run_default_dir(scene, dir, sizeof dir);
        size_t l = strlen(dir);
        if (l > 4) snprintf(dir + l - 4, sizeof dir - (l - 4), ".order");
    }
    /* a new or empty folder, or an order folder (whose files it replaces only with
     * --force), locked for this process (rundir.h): never a run's folder */
    char p1[4200], p2[4200];
    snprintf(p1, sizeof p1, "%s/order.tsv", dir);
    snprintf(p2, sizeof p2, "%s/orders.tsv", dir);
    int lock;
    if ((rc = pala_folder_prepare(dir, &order_folder, force, "order", &lock, stderr)) != 0) { free(sets); return rc; }

    double *prev = malloc(sizeof(double) * 3 * (size_t)npeb * (size_t)ns), *cur = malloc(sizeof(double) * 3 * (size_t)npeb * (size_t)ns);
    double *eprev = malloc(sizeof(double) * (size_t)ns), *ecur = malloc(sizeof(double) * (size_t)ns);
    double *dtr = calloc((size_t)K * (size_t)ns, sizeof(double)), *den = calloc((size_t)K * (size_t)ns, sizeof(double));
    double *tsample = malloc(sizeof(double) * (size_t)ns);
    if (!prev || !cur || !eprev || !ecur || !dtr || !den || !tsample) {
        fprintf(stderr, "pala order: out of memory\n");
        rc = PALA_ERR_IO;
        goto done;
    }
    double E0 = 0;
    long fac = 1;
    struct sigaction sa;   /* Ctrl-C, SIGTERM, SIGHUP: stop between samples, say so, exit 4 */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    printf("pala order %s: %d runs, step factor %d, %ld base steps of %.6g s over %.6g s\n", scene, K, F, steps0, dt0, T);
    for (int k = 0; k < K; k++, fac *= F) {
        char sdt[64], sst[64];
        snprintf(sdt, sizeof sdt, "dt=%.17g", dt0 / (double)fac);
        snprintf(sst, sizeof sst, "steps=%ld", steps0 * fac);
        sets[nset] = sdt;
        sets[nset + 1] = sst;
        pala_scene *sc;
        rc = pala_scene_load(scene, nset + 1 + by_steps, sets, &sc, stderr);
        if (rc) goto done;
        pala_world *w = pala_scene_world(sc);
        long steps = steps0 * fac, every = every0 * fac;   /* not the scene's: end_time/dt may round */
        int q = 0;
        for (long s = 0; s <= steps && q < ns; s += every) {
            if (g_stop) {
                fprintf(stderr, "pala order: interrupted in run %d of %d; its tables are written only at the end, so %s holds nothing yet: run it again\n",
                        k + 1, K, dir);
                pala_scene_free(sc);
                rc = PALA_INTERRUPTED;
                goto done;
            }
            /* the steps between samples are chained (identical to single steps) */
            if (s > 0 && (rc = pala_world_steps(w, every)) != PALA_OK) {
                fprintf(stderr, "pala order: run %d (dt = %.6g s) became unstable: %s\n", k, w->dt, pala_world_error(w));
                pala_scene_free(sc);
                goto done;
            }
            centres(w, cur + 3 * (size_t)npeb * (size_t)q);
            ecur[q] = pala_world_energy(w).total;
            tsample[q] = (double)s * w->dt;
            q++;
        }
        pala_scene_free(sc);
        if (k == 0) E0 = fabs(ecur[0]) > 0 ? fabs(ecur[0]) : 1;
        if (k > 0)
            for (int j = 0; j < ns; j++) {
                double sum = 0;
                const double *a = cur + 3 * (size_t)npeb * (size_t)j, *b = prev + 3 * (size_t)npeb * (size_t)j;
                for (int p = 0; p < 3 * npeb; p++) sum += (a[p] - b[p]) * (a[p] - b[p]);
                dtr[(size_t)k * (size_t)ns + (size_t)j] = sqrt(sum / npeb);
                den[(size_t)k * (size_t)ns + (size_t)j] = fabs(ecur[j] - eprev[j]) / E0;
            }
        double *t1 = prev; prev = cur; cur = t1;
        t1 = eprev; eprev = ecur; ecur = t1;
        printf("  run %d: dt = %.6g s, %ld steps\n", k, dt0 / (double)fac, steps0 * fac);
    }
    const char *wend = "given by --window";   /* says what set the window's end */
    if (w0 < 0) {
        /* automatic window, where the runs still share their history: from when the finest
         * pair's distance rises above round-off (1e-9 of a bounding radius) to when the
         * runs part: refining dt no longer brings the coarsest runs closer (d_1 <= d_2 at
         * three samples in a row), or the coarsest pair differs by 1 % of a bounding
         * radius (collisions then happen at different times) */
        int ja = -1, jb = -1, run3 = 0;
        for (int j = 0; j < ns && jb < 0; j++) {
            double d1 = dtr[(size_t)ns + (size_t)j], d2 = dtr[2 * (size_t)ns + (size_t)j];
            if (ja < 0 && dtr[(size_t)(K - 1) * (size_t)ns + (size_t)j] > 1e-9 * lscale) ja = j;
            if (ja < 0) continue;
            run3 = d1 <= d2 ? run3 + 1 : 0;
            if (run3 == 3) { jb = j - 2; wend = "it ends where the runs part (d_1 <= d_2 at three samples in a row)"; }
            else if (d1 > 1e-2 * lscale) { jb = j; wend = "it ends where the coarsest pair differs by 1% of a bounding radius"; }
        }
        if (ja < 0) { w0 = 0; w1 = T; wend = "no sample rises above round-off: the whole run"; }
        else { w0 = tsample[ja]; w1 = jb > ja ? tsample[jb] : T; if (jb <= ja) wend = "it ends with the run"; }
    }
    /* curves */
    FILE *f = pala_fopen(p1, "w");
    if (!f) { fprintf(stderr, "pala order: cannot write %s: %s\n", p1, pala_strerror(errno)); rc = PALA_ERR_IO; goto done; }
    fprintf(f, "time");
    for (int k = 1; k < K; k++) fprintf(f, "\td_traj_%d", k);
    for (int k = 1; k < K; k++) fprintf(f, "\td_E_%d", k);
    fprintf(f, "\n");
    for (int j = 0; j < ns; j++) {
        fprintf(f, "%.12g", tsample[j]);
        for (int k = 1; k < K; k++) fprintf(f, "\t%.6e", dtr[(size_t)k * (size_t)ns + (size_t)j]);
        for (int k = 1; k < K; k++) fprintf(f, "\t%.6e", den[(size_t)k * (size_t)ns + (size_t)j]);
        fprintf(f, "\n");
    }
    fclose(f);
    /* orders over the early window and over the last quarter */
    FILE *g = pala_fopen(p2, "w");
    if (!g) { fprintf(stderr, "pala order: cannot write %s: %s\n", p2, pala_strerror(errno)); rc = PALA_ERR_IO; goto done; }
    fprintf(g, "window\tt0\tt1\tpair\tdt_fine\td_traj\td_E\torder_traj\torder_E\n");
    const double wins[2][2] = {{w0, w1}, {0.75 * T, T}};
    const char *wname[2] = {"early", "late"};
    printf("\n  distance of synchronous configurations (RMS over the window's samples) and order p = log(d_k / d_k+1) / log %d\n", F);
    printf("  %-6s %-20s %-12s %-12s %-12s %-9s %-9s\n", "window", "t0:t1 (s)", "dt fine (s)", "d_traj (m)", "d_E (rel)", "p_traj", "p_E");
    double pt_early = (double)NAN, pe_early = (double)NAN;
    double rms_t[8] = {0}, rms_e[8] = {0}, dtf[8] = {0};   /* the early window's d per pair, for the fit */
    int wsamples = 0;
    for (int wi = 0; wi < 2; wi++) {
        double prevt = 0, preve = 0;
        for (int k = 1; k < K; k++) {
            double st = 0, se = 0;
            int cnt = 0;
            for (int j = 0; j < ns; j++)
                if (tsample[j] >= wins[wi][0] - 1e-12 * T && tsample[j] <= wins[wi][1] + 1e-12 * T) {
                    double a = dtr[(size_t)k * (size_t)ns + (size_t)j], b = den[(size_t)k * (size_t)ns + (size_t)j];
                    st += a * a;
                    se += b * b;
                    cnt++;
                }
            st = cnt ? sqrt(st / cnt) : 0;
            se = cnt ? sqrt(se / cnt) : 0;
            double pt = k > 1 && st > 0 ? log(prevt / st) / log(F) : (double)NAN, pe = k > 1 && se > 0 ? log(preve / se) / log(F) : (double)NAN;
            char tw[48];
            snprintf(tw, sizeof tw, "%.4g:%.4g", wins[wi][0], wins[wi][1]);
            long ff = 1;
            for (int i = 0; i < k; i++) ff *= F;
            printf("  %-6s %-20s %-12.4g %-12.4g %-12.4g ", wname[wi], tw, dt0 / (double)ff, st, se);
            if (k > 1) printf("%-9.3f %-9.3f\n", pt, pe);
            else printf("%-9s %-9s\n", "-", "-");
            fprintf(g, "%s\t%.9g\t%.9g\t%d-%d\t%.9g\t%.6e\t%.6e\t%.4f\t%.4f\n", wname[wi], wins[wi][0], wins[wi][1], k - 1, k, dt0 / (double)ff, st, se, pt, pe);
            if (wi == 0 && k > 1) { pt_early = pt; pe_early = pe; }
            if (wi == 0) { rms_t[k] = st; rms_e[k] = se; dtf[k] = dt0 / (double)ff; wsamples = cnt; }
            prevt = st;
            preve = se;
        }
    }
    fclose(g);
    (void)pt_early; (void)pe_early;
    /* the order: least squares on log d against log dt over all pairs, with the standard
     * error of the slope and the range of the pairwise orders as its spread */
    order_fit ft = fit(K, rms_t, dtf, F), fe = fit(K, rms_e, dtf, F);
    printf("\n  early window %.4g:%.4g s (%d samples; %s)\n", w0, w1, wsamples, wend);
    report("trajectory", &ft, wsamples);
    report("energy", &fe, wsamples);
    printf("  late window: the runs have forgotten their common start, d no longer scales with dt\n"
           "  (order estimates there are a random function of dt, paper section 1 (viii)).\n");
    /* the pictures */
    char p3[4200], p4[4200];
    snprintf(p3, sizeof p3, "%s/order.svg", dir);
    snprintf(p4, sizeof p4, "%s/order-fit.svg", dir);
    int bad = order_svg(p3, K, ns, tsample, dtr, dt0, F, w0, w1, &ft);
    bad |= fit_svg(p4, K, rms_t, rms_e, dtf, &ft, &fe, w0, w1);
    printf("  curves: %s, table: %s, pictures: %s, %s\n", p1, p2, p3, p4);
    if (bad) { rc = PALA_ERR_IO; goto done; }
    rc = PALA_OK;
done:
    pala_rundir_unlock(lock);
    free(prev); free(cur); free(eprev); free(ecur); free(dtr); free(den); free(tsample); free(sets);
    return rc;
}
