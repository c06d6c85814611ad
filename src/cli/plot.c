/* plot.c: `pala plot RUN [-o DIR]`: SVG plots of a run's tables (svg.c):
 *   energy.svg        the energy terms of energy.tsv (every E_ and W_ column) against time
 *   energy-error.svg  |dE_rel| and the energy balance |dE_bal_rel| on a log axis
 *   contacts.svg      the number of contacts
 *   walls.svg         the wall pressures of walls.tsv if it has any (columns p_... or
 *                     ...pressure...), else the momentum the walls received
 * docs/cli.md, "pala plot"; docs/visualisation.md. */
#include "commands.h"
#include "rundir.h"
#include "svg.h"
#include "traj.h"
#include "tsv.h"
#include "pala/pala.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
        "usage: pala plot RUN [-o DIR]\n"
        "  RUN     a run folder (written by pala run)\n"
        "  -o DIR  where the SVG files go (default: RUN)\n"
        "writes energy.svg (energy terms), energy-error.svg (|dE_rel| and |dE_bal_rel|, log axis),\n"
        "contacts.svg and walls.svg (wall pressures, or the walls' momenta)\n");
}

enum { PW = 860, PH = 470 };

static double *column(const pala_tsv *t, int c)
{
    double *v = malloc(sizeof(double) * (size_t)(t->nrow > 0 ? t->nrow : 1));
    if (!v) { fprintf(stderr, "pala plot: out of memory\n"); exit(PALA_ERR_IO); }
    for (long i = 0; i < t->nrow; i++) v[i] = t->num[i * t->ncol + c];
    return v;
}

static FILE *open_svg(const char *dir, const char *name, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", dir, name);
    FILE *f = pala_fopen(path, "w");
    if (!f) fprintf(stderr, "pala plot: cannot write %s: %s\n", path, pala_strerror(errno));
    return f;
}

static int close_svg(FILE *f, const char *path)
{
    int bad = ferror(f) != 0;
    bad |= fclose(f) != 0;
    if (bad) fprintf(stderr, "pala plot: writing %s failed: %s\n", path, strerror(errno ? errno : EIO));
    else printf("  %s\n", path);
    return bad;
}

/* a plot of the columns cols[0..nc) of t against time */
static int plot_columns(const char *dir, const char *file, const pala_tsv *t, const int *cols, int nc, int ylog, int absval,
                        const char *title, const char *ylabel, const char *const *labels, const char *const *dash, const int *colour)
{
    char path[4300];
    int tc = pala_tsv_col(t, "time");
    double *x = column(t, tc);
    double ylo = HUGE_VAL, yhi = -HUGE_VAL;
    double **y = calloc((size_t)nc, sizeof *y);
    for (int k = 0; k < nc; k++) {
        y[k] = column(t, cols[k]);
        for (long i = 0; i < t->nrow; i++) {
            if (absval) y[k][i] = fabs(y[k][i]);
            double v = y[k][i];
            if (!isfinite(v) || (ylog && v <= 0)) continue;
            ylo = fmin(ylo, v);
            yhi = fmax(yhi, v);
        }
    }
    double x0 = x[0], x1 = x[t->nrow - 1];
    pala_svg_range(&ylo, &yhi, ylog, !ylog);
    FILE *f = open_svg(dir, file, path, sizeof path);
    int bad = 1;
    if (f) {
        pala_svg_plot p;
        pala_svg_begin(&p, f, PW, PH, x0, x1 > x0 ? x1 : x0 + 1e-9, ylo, yhi, ylog, title, "time (s)", ylabel);
        for (int k = 0; k < nc; k++) {
            const char *col = colour && colour[k] < 0 ? "#111" : pala_svg_colour(colour ? colour[k] : k);
            pala_svg_line(&p, (int)t->nrow, x, y[k], col, colour && colour[k] < 0 ? 2.4 : 1.8, dash ? dash[k] : NULL, t->nrow <= 40);
            pala_svg_legend(&p, labels ? labels[k] : t->name[cols[k]], col, dash ? dash[k] : NULL);
        }
        if (ylog && yhi <= ylo) pala_svg_note(&p, "no positive values to draw");
        pala_svg_end(&p);
        bad = close_svg(f, path);
    }
    for (int k = 0; k < nc; k++) free(y[k]);
    free(y);
    free(x);
    return bad;
}

static int is_pressure(const char *name)
{
    char low[128];
    size_t i;
    for (i = 0; name[i] && i + 1 < sizeof low; i++) low[i] = (char)tolower((unsigned char)name[i]);
    low[i] = 0;
    return !strncmp(name, "p_", 2) || strstr(low, "pressure") != NULL;
}

int pala_cmd_plot(int argc, char **argv)
{
    const char *run = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 0; }
        else if (!strcmp(a, "-o") && i + 1 < argc) out = argv[++i];
        else if (a[0] == '-') { fprintf(stderr, "pala plot: unknown option or missing value: '%s'\n", a); usage(stderr); return PALA_ERR_INPUT; }
        else if (!run) run = a;
        else { fprintf(stderr, "pala plot: one run only (got '%s' and '%s')\n", run, a); return PALA_ERR_INPUT; }
    }
    if (!run) { fprintf(stderr, "pala plot: which run? e.g. pala plot paper-ten-grains.run\n"); usage(stderr); return PALA_ERR_INPUT; }
    char dir[4096], p[4200];
    pala_traj_rundir(run, dir, sizeof dir);
    const char *od = out ? out : dir;
    if (out && pala_mkdir_p(out, "plot", stderr)) return PALA_ERR_IO;   /* a new folder, as pala run -o makes one */
    snprintf(p, sizeof p, "%s/energy.tsv", dir);
    pala_tsv e;
    int rc = pala_tsv_read(&e, p, PALA_TSV_NUMERIC, stderr);
    if (rc) { pala_tsv_free(&e); return rc; }
    if (pala_tsv_col(&e, "time") < 0 || e.nrow < 1) { fprintf(stderr, "pala plot: %s has no time column or no rows\n", p); pala_tsv_free(&e); return PALA_ERR_INPUT; }
    int bad = 0;
    printf("pala plot: %s (%ld rows)\n", p, e.nrow);
    /* energies: every E_ and W_ column but the relative errors; E_total black and thick,
     * E_diss dashed */
    int cols[32], colour[32], nc = 0, ci = 0;
    const char *dash[32];
    for (int c = 0; c < e.ncol && nc < 32; c++)
        if (!strncmp(e.name[c], "E_", 2) || !strncmp(e.name[c], "W_", 2)) {
            cols[nc] = c;
            colour[nc] = !strcmp(e.name[c], "E_total") ? -1 : ci++;
            dash[nc] = !strcmp(e.name[c], "E_diss") || !strncmp(e.name[c], "W_", 2) ? "7 4" : NULL;
            nc++;
        }
    bad |= plot_columns(od, "energy.svg", &e, cols, nc, 0, 0, "Energy terms", "energy (J)", NULL, dash, colour);
    int er = pala_tsv_col(&e, "dE_rel"), eb = pala_tsv_col(&e, "dE_bal_rel");
    if (er >= 0 && eb >= 0) {
        int c2[2] = {er, eb}, k2[2] = {0, 1};
        const char *lb[2] = {"|dE_rel|", "|dE_bal_rel| (balance)"}, *d2[2] = {NULL, "7 4"};
        bad |= plot_columns(od, "energy-error.svg", &e, c2, 2, 1, 1, "Relative energy error and energy balance", "relative error (-)", lb, d2, k2);
    }
    int cc = pala_tsv_col(&e, "contacts");
    if (cc >= 0) {
        const char *lb[1] = {"contacts"};
        bad |= plot_columns(od, "contacts.svg", &e, &cc, 1, 0, 0, "Touching component pairs (grain-grain and wall)", "contacts (-)", lb, NULL, NULL);
    }
    pala_tsv_free(&e);
    snprintf(p, sizeof p, "%s/walls.tsv", dir);
    pala_tsv wt;
    FILE *probe = pala_fopen(p, "r");
    if (probe || errno != ENOENT) {   /* a link or a device is refused by the reader, with a message */
        if (probe) fclose(probe);
        if (pala_tsv_read(&wt, p, PALA_TSV_NUMERIC, stderr) == PALA_OK && wt.nrow > 0 && pala_tsv_col(&wt, "time") >= 0) {
            int wc[32], nw = 0, np = 0;
            for (int c = 0; c < wt.ncol; c++) np += is_pressure(wt.name[c]);
            for (int c = 0; c < wt.ncol && nw < 32; c++)
                if (strcmp(wt.name[c], "step") && strcmp(wt.name[c], "time") && (np == 0 || is_pressure(wt.name[c]))) wc[nw++] = c;
            if (nw > 0)
                bad |= plot_columns(od, "walls.svg", &wt, wc, nw, 0, 0, np ? "Wall pressures" : "Momentum received by the walls (cumulative)",
                                    np ? "pressure (Pa)" : "momentum (N s)", NULL, NULL, NULL);
            else printf("  (no walls in this run: no walls.svg)\n");
        }
        pala_tsv_free(&wt);
    }
    return bad ? PALA_ERR_IO : PALA_OK;
}
