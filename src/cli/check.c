/* check.c: `pala check RUN REFERENCE` - compare the energy curves of a run against a
 * reference run (regression testing, docs/cli.md).
 *
 * The reference is interpolated linearly in time at each run time inside the common
 * time range, and each compared column must satisfy |run - ref| <= atol + rtol*scale,
 * where scale is the largest |value| of that column over the whole reference.  A
 * per-column scale (instead of |ref| at each point) keeps quantities that pass through
 * zero, such as E_field or E_contact, from failing on round-off.
 *
 * A chaotic flow (a pour, a drum) does not repeat point by point on another machine or
 * with another dt, but its means do: --window T0:T1 compares each column's mean over the
 * rows with T0 <= time <= T1 of each file (the scale: the largest |value| of the reference
 * in the window), --final the last rows.  Any TSV with a time column compares, such as
 * pala measure's measure.tsv. */
#include "commands.h"
#include "tsv.h"
#include "pala/pala.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Same binary + same scene gives bit-identical energy.tsv (the build uses
 * -ffp-contract=off and a seeded RNG), so any deviation at all is suspicious.  The
 * default rtol leaves room for a different compiler, libm or CPU, whose round-off
 * differences grow over a chaotic granular run but stay far below 1e-6 of the energy
 * scale over the short regression scenes; atol 0 because energies are in joules and any
 * absolute floor would depend on the scene. */
#define CHECK_RTOL 1e-6
#define CHECK_ATOL 0.0

static const char *const default_cols[] = { "E_total", "E_kin", "E_rot", "E_contact",
                                            "E_field" };
#define NDEFAULT ((int)(sizeof default_cols / sizeof default_cols[0]))
#define MAXCOLS 64

static void usage(FILE *f)
{
    fprintf(f,
        "usage: pala check RUN REFERENCE [--columns E_total,E_kin,...] [--rtol R] [--atol A]\n"
        "                  [--window T0:T1 | --final]\n"
        "  RUN, REFERENCE: run folders (their energy.tsv is read) or .tsv files with a time\n"
        "             column (e.g. pala measure's measure.tsv, a [measure NAME]\n"
        "             section's measure-NAME.tsv)\n"
        "  --columns  columns to compare (default: E_total,E_kin,E_rot,E_contact,E_field,\n"
        "             those present in both files)\n"
        "  --rtol R   relative tolerance, times the column's largest |value| in the\n"
        "             reference (default %g)\n"
        "  --atol A   absolute tolerance (default %g)\n"
        "  --window T0:T1  compare each column's mean over the rows from time T0 to T1 (s)\n"
        "             in each file, not the curves point by point (chaotic flows)\n"
        "  --final    compare the last rows' values\n"
        "exit status: 0 all columns within tolerance, 3 some column deviates, 1 bad input\n",
        CHECK_RTOL, CHECK_ATOL);
}

/* A non-negative finite number from an option value, or -1 with a message. */
static int parse_tol(const char *opt, const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v) || v < 0) {
        fprintf(stderr, "pala check: %s needs a non-negative number, got '%s' "
                "(e.g. %s 1e-6)\n", opt, s, opt);
        return -1;
    }
    *out = v;
    return 0;
}

/* Resolve a RUN/REFERENCE argument to a file: a folder means FOLDER/energy.tsv. */
static int resolve(const char *arg, char *buf, size_t len)
{
    struct stat st;
    if (stat(arg, &st) != 0) {
        fprintf(stderr, "pala check: '%s' does not exist; give a run folder (holding "
                "energy.tsv) or a .tsv file\n", arg);
        return -1;
    }
    int n = S_ISDIR(st.st_mode) ? snprintf(buf, len, "%s/energy.tsv", arg)
                                : snprintf(buf, len, "%s", arg);
    if (n < 0 || (size_t)n >= len) {
        fprintf(stderr, "pala check: path too long: %s\n", arg);
        return -1;
    }
    return 0;
}

/* Find the time column and check that time is finite and non-decreasing. */
static int time_column(const pala_tsv *t)
{
    int c = pala_tsv_col(t, "time");
    if (c < 0) {
        fprintf(stderr, "pala: %s:%ld: no 'time' column (columns: ", t->path, t->hline);
        pala_tsv_print_names(t, stderr);
        fprintf(stderr, "); is this an energy.tsv written by `pala run`?\n");
        return -1;
    }
    for (long i = 0; i < t->nrow; i++) {
        double v = t->num[i * t->ncol + c];
        if (!isfinite(v)) {
            fprintf(stderr, "pala: %s:%ld: time is not finite (%g)\n", t->path, t->line[i], v);
            return -1;
        }
        if (i > 0 && v < t->num[(i - 1) * t->ncol + c]) {
            fprintf(stderr, "pala: %s:%ld: time goes backwards (%.10g after %.10g at line "
                    "%ld); rows must be in time order\n", t->path, t->line[i], v,
                    t->num[(i - 1) * t->ncol + c], t->line[i - 1]);
            return -1;
        }
    }
    if (t->nrow == 0) {
        fprintf(stderr, "pala: %s: no data rows after the header (line %ld)\n", t->path,
                t->hline);
        return -1;
    }
    return c;
}

/* Report a requested column missing from file t. */
static void missing_column(const pala_tsv *t, const char *name)
{
    fprintf(stderr, "pala: %s:%ld: no column '%s'; available columns: ", t->path, t->hline,
            name);
    pala_tsv_print_names(t, stderr);
    fprintf(stderr, " (choose with --columns)\n");
}

/* Choose the columns to compare: the --columns list (each must exist in both files),
 * or the default energy columns present in both.  Fills idx_run/idx_ref/names and
 * returns the count, or -1 after a message. */
static int choose_columns(const char *list, const pala_tsv *run, const pala_tsv *ref,
                          int *idx_run, int *idx_ref, const char **names, char *store,
                          size_t storelen)
{
    int n = 0;
    if (!list) {
        for (int k = 0; k < NDEFAULT; k++) {
            int a = pala_tsv_col(run, default_cols[k]), b = pala_tsv_col(ref, default_cols[k]);
            if (a < 0 || b < 0) continue;
            idx_run[n] = a, idx_ref[n] = b, names[n] = default_cols[k];
            n++;
        }
        if (n == 0) {
            fprintf(stderr, "pala check: %s and %s have none of the default columns "
                    "E_total,E_kin,E_rot,E_contact,E_field in common; choose with "
                    "--columns (columns of %s: ", run->path, ref->path, run->path);
            pala_tsv_print_names(run, stderr);
            fprintf(stderr, ")\n");
            return -1;
        }
        return n;
    }
    if (strlen(list) >= storelen) {
        fprintf(stderr, "pala check: --columns list too long\n");
        return -1;
    }
    strcpy(store, list);
    for (char *s = store; s;) {
        char *e = strchr(s, ',');
        if (e) *e = 0;
        while (*s == ' ') s++;
        for (char *q = s + strlen(s); q > s && q[-1] == ' ';) *--q = 0;
        if (!*s) {
            fprintf(stderr, "pala check: empty name in --columns '%s' (write e.g. "
                    "--columns E_total,E_kin)\n", list);
            return -1;
        }
        if (n == MAXCOLS) {
            fprintf(stderr, "pala check: more than %d columns in --columns\n", MAXCOLS);
            return -1;
        }
        int a = pala_tsv_col(run, s), b = pala_tsv_col(ref, s);
        if (a < 0) { missing_column(run, s); return -1; }
        if (b < 0) { missing_column(ref, s); return -1; }
        idx_run[n] = a, idx_ref[n] = b, names[n] = s;
        n++;
        s = e ? e + 1 : NULL;
    }
    return n;
}

/* Per-column result of the comparison. */
typedef struct colres {
    double scale;    /* max |ref| over the whole reference */
    double maxdev;   /* largest |run - ref| (NaN once a value is NaN) */
    double at;       /* time of maxdev */
} colres;

/* Walk the run rows inside the reference's time range, interpolate the reference
 * linearly between its bracketing rows, and record each column's largest deviation.
 * Both time columns are non-decreasing, so one forward pass over the reference
 * suffices.  Where the reference repeats a time, the last row with that time is used.
 * Returns the number of run points compared; *skipped gets those outside the range. */
static long compare(const pala_tsv *run, int trun, const pala_tsv *ref, int tref, int n,
                    const int *ir, const int *irf, colres *res, long *skipped)
{
    const double t0 = ref->num[tref], t1 = ref->num[(ref->nrow - 1) * ref->ncol + tref];
    long j = 0, used = 0;
    *skipped = 0;
    for (int c = 0; c < n; c++) {
        res[c].scale = 0, res[c].maxdev = 0, res[c].at = (double)NAN;
        for (long i = 0; i < ref->nrow; i++) {
            double a = fabs(ref->num[i * ref->ncol + irf[c]]);
            if (a > res[c].scale || isnan(a)) res[c].scale = a;
            if (isnan(a)) break;
        }
    }
    for (long i = 0; i < run->nrow; i++) {
        const double *row = run->num + i * run->ncol;
        double t = row[trun];
        if (t < t0 || t > t1) { (*skipped)++; continue; }
        while (j + 1 < ref->nrow && ref->num[(j + 1) * ref->ncol + tref] <= t) j++;
        const double *ra = ref->num + j * ref->ncol;
        double f = 0;
        const double *rb = ra;
        if (ra[tref] < t) {          /* strictly inside (ra, rb): interpolate */
            rb = ra + ref->ncol;
            f = (t - ra[tref]) / (rb[tref] - ra[tref]);
        }
        for (int c = 0; c < n; c++) {
            double a = ra[irf[c]], b = rb[irf[c]];
            double v = f == 0 ? a : a + f * (b - a);
            double dev = fabs(row[ir[c]] - v);
            if (isnan(res[c].maxdev)) continue;
            if (isnan(dev) || dev > res[c].maxdev || isnan(res[c].at)) {
                res[c].maxdev = dev;
                res[c].at = t;
            }
        }
        used++;
    }
    return used;
}

/* The mean of column c over the rows of t with t0 <= time <= t1 (time column tc), their
 * number in *rows and the largest |value| among them in *scale. */
static double window_mean(const pala_tsv *t, int tc, int c, double t0, double t1, long *rows, double *scale)
{
    double s = 0;
    *rows = 0;
    *scale = 0;
    for (long i = 0; i < t->nrow; i++) {
        const double *r = t->num + i * t->ncol;
        if (!pala_in_window(r[tc], t0, t1)) continue;
        s += r[c];
        (*rows)++;
        if (fabs(r[c]) > *scale || isnan(r[c])) *scale = fabs(r[c]);
    }
    return *rows ? s / (double)*rows : (double)NAN;
}

/* --window T0:T1 (final: the last rows): the columns' means (values) against the
 * reference's, printed as a table; the exit code. */
static int compare_means(const pala_tsv *run, int trun, const pala_tsv *ref, int tref, int n, const int *ir, const int *irf,
                         const char *const *names, double t0, double t1, int final, double rtol, double atol)
{
    int w = 6, nfail = 0;
    for (int c = 0; c < n; c++)
        if ((int)strlen(names[c]) > w) w = (int)strlen(names[c]);
    long nr, nf;
    double sc;
    if (final) {
        t0 = t1 = run->num[(run->nrow - 1) * run->ncol + trun];
        printf("pala check: %s against reference %s\nthe last rows: t = %.10g s and t = %.10g s\n", run->path, ref->path, t0,
               ref->num[(ref->nrow - 1) * ref->ncol + tref]);
    } else {
        window_mean(run, trun, ir[0], t0, t1, &nr, &sc);
        window_mean(ref, tref, irf[0], t0, t1, &nf, &sc);
        if (!nr || !nf) {
            fprintf(stderr, "pala check: --window %g:%g holds no row of %s (%ld rows) or %s (%ld rows); choose a window both runs cover\n",
                    t0, t1, run->path, nr, ref->path, nf);
            return PALA_ERR_INPUT;
        }
        printf("pala check: %s against reference %s\nmeans over t in [%g, %g] s: %ld rows of the run, %ld of the reference\n", run->path,
               ref->path, t0, t1, nr, nf);
    }
    printf("%-*s  %-13s  %-13s  %-13s  %-13s  %s\n", w, "column", final ? "run" : "run mean", final ? "reference" : "ref mean", "|dev|",
           "tolerance", "result");
    for (int c = 0; c < n; c++) {
        double a, b, scale;
        if (final) {
            a = run->num[(run->nrow - 1) * run->ncol + ir[c]];
            b = ref->num[(ref->nrow - 1) * ref->ncol + irf[c]];
            window_mean(ref, tref, irf[c], -HUGE_VAL, HUGE_VAL, &nf, &scale);
        } else {
            a = window_mean(run, trun, ir[c], t0, t1, &nr, &sc);
            b = window_mean(ref, tref, irf[c], t0, t1, &nf, &scale);
        }
        double dev = fabs(a - b), tol = atol + rtol * scale;
        int ok = dev <= tol;
        nfail += !ok;
        printf("%-*s  %-13.6g  %-13.6g  %-13.6g  %-13.6g  %s\n", w, names[c], a, b, dev, tol, ok ? "PASS" : "FAIL");
    }
    if (!nfail) printf("PASS: all %d column%s within tolerance (rtol %g, atol %g)\n", n, n == 1 ? "" : "s", rtol, atol);
    else printf("FAIL: %d of %d column%s beyond tolerance (rtol %g, atol %g)\n", nfail, n, n == 1 ? "" : "s", rtol, atol);
    return nfail ? PALA_CHECK_FAILED : PALA_OK;
}

/* Parse the command line, read both files, compare, print the table and the verdict. */
int pala_cmd_check(int argc, char **argv)
{
    const char *pos[2] = { NULL, NULL };
    const char *cols = NULL;
    double rtol = CHECK_RTOL, atol = CHECK_ATOL, t0 = 0, t1 = 0;
    int npos = 0, opts_done = 0, window = 0, final = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        int which = 0;   /* 1 columns, 2 rtol, 3 atol */
        if (!opts_done && strcmp(a, "--") == 0) { opts_done = 1; continue; }
        if (!opts_done && (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)) {
            usage(stdout);
            return PALA_OK;
        }
        if (!opts_done && strcmp(a, "--final") == 0) { final = 1; continue; }
        if (!opts_done && a[0] == '-' && a[1]) {
            static const char *const opt[] = { "--columns", "--rtol", "--atol", "--window" };
            for (int k = 0; k < 4; k++) {
                size_t L = strlen(opt[k]);
                if (strncmp(a, opt[k], L) == 0 && (a[L] == 0 || a[L] == '=')) {
                    which = k + 1;
                    if (a[L] == '=') val = a + L + 1;
                    else if (i + 1 < argc) val = argv[++i];
                    else {
                        fprintf(stderr, "pala check: %s needs a value\n", opt[k]);
                        return PALA_ERR_INPUT;
                    }
                }
            }
            if (!which) {
                fprintf(stderr, "pala check: unknown option '%s' (see pala check --help)\n", a);
                return PALA_ERR_INPUT;
            }
            if (which == 1) cols = val;
            else if (which == 4) {
                char *e;
                t0 = strtod(val, &e);
                if (e == val || *e != ':' || (t1 = strtod(e + 1, &e), *e) || !(t1 >= t0)) {
                    fprintf(stderr, "pala check: --window '%s': expected T0:T1 in s with T0 <= T1, e.g. --window 0.5:1\n", val);
                    return PALA_ERR_INPUT;
                }
                window = 1;
            } else if (parse_tol(which == 2 ? "--rtol" : "--atol", val,
                               which == 2 ? &rtol : &atol) != 0)
                return PALA_ERR_INPUT;
            continue;
        }
        if (npos == 2) {
            fprintf(stderr, "pala check: unexpected argument '%s'; expected RUN REFERENCE\n", a);
            return PALA_ERR_INPUT;
        }
        pos[npos++] = a;
    }
    if (npos != 2) {
        fprintf(stderr, "pala check: need a RUN and a REFERENCE (run folders or energy.tsv "
                "files), e.g. pala check out/ ref/\n");
        usage(stderr);
        return PALA_ERR_INPUT;
    }

    if (window && final) {
        fprintf(stderr, "pala check: give --window or --final, not both\n");
        return PALA_ERR_INPUT;
    }
    char prun[4096], pref[4096];
    if (resolve(pos[0], prun, sizeof prun) || resolve(pos[1], pref, sizeof pref))
        return PALA_ERR_INPUT;
    pala_tsv run, ref;
    int rc = pala_tsv_read(&run, prun, PALA_TSV_NUMERIC, stderr);
    if (rc != PALA_OK) { pala_tsv_free(&run); return rc; }
    rc = pala_tsv_read(&ref, pref, PALA_TSV_NUMERIC, stderr);
    if (rc != PALA_OK) { pala_tsv_free(&run); pala_tsv_free(&ref); return rc; }

    int ir[MAXCOLS], iref[MAXCOLS];
    const char *names[MAXCOLS];
    char store[4096];
    colres res[MAXCOLS];
    int trun = time_column(&run), tref = trun < 0 ? -1 : time_column(&ref);
    int n = tref < 0 ? -1 : choose_columns(cols, &run, &ref, ir, iref, names, store,
                                           sizeof store);
    long skipped = 0, used = 0;
    if (n > 0 && (window || final)) {
        rc = compare_means(&run, trun, &ref, tref, n, ir, iref, names, t0, t1, final, rtol, atol);
        pala_tsv_free(&run);
        pala_tsv_free(&ref);
        return rc;
    }
    if (n > 0) {
        used = compare(&run, trun, &ref, tref, n, ir, iref, res, &skipped);
        if (used == 0) {
            fprintf(stderr, "pala check: no common time: %s covers t in [%g, %g], %s covers "
                    "[%g, %g]; compare runs of the same scene\n", prun, run.num[trun],
                    run.num[(run.nrow - 1) * run.ncol + trun], pref, ref.num[tref],
                    ref.num[(ref.nrow - 1) * ref.ncol + tref]);
            n = -1;
        }
    }
    if (n <= 0) {
        pala_tsv_free(&run);
        pala_tsv_free(&ref);
        return PALA_ERR_INPUT;
    }

    int w = 6, nfail = 0;
    for (int c = 0; c < n; c++)
        if ((int)strlen(names[c]) > w) w = (int)strlen(names[c]);
    printf("pala check: %s against reference %s\n", prun, pref);
    printf("%ld points compared", used);
    if (skipped)
        printf(", %ld run point%s outside the reference's time range skipped", skipped,
               skipped == 1 ? "" : "s");
    printf("\n%-*s  %-13s  %-13s  %-13s  %s\n", w, "column", "max|dev|", "at time",
           "tolerance", "result");
    for (int c = 0; c < n; c++) {
        double tol = atol + rtol * res[c].scale;
        int ok = res[c].maxdev <= tol;   /* false for NaN */
        nfail += !ok;
        printf("%-*s  %-13.6g  %-13.6g  %-13.6g  %s\n", w, names[c], res[c].maxdev,
               res[c].at, tol, ok ? "PASS" : "FAIL");
    }
    if (nfail == 0)
        printf("PASS: all %d column%s within tolerance (rtol %g, atol %g)\n", n,
               n == 1 ? "" : "s", rtol, atol);
    else {
        printf("FAIL: %d of %d column%s beyond tolerance (rtol %g, atol %g):", nfail, n,
               n == 1 ? "" : "s", rtol, atol);
        for (int c = 0; c < n; c++)
            if (!(res[c].maxdev <= atol + rtol * res[c].scale)) printf(" %s", names[c]);
        printf("\n");
    }
    pala_tsv_free(&run);
    pala_tsv_free(&ref);
    return nfail ? PALA_CHECK_FAILED : PALA_OK;
}
