/* collect.c: `pala collect DIR...` - gather the one-row summary.tsv of several runs into
 * one table, one row per run (docs/cli.md).
 *
 * Columns of the output: `run` (the DIR as given), then the parameter columns whose
 * value differs between the runs (all of them with --all), then the result columns.
 * Result columns are a fixed list of names written by `pala run`; every other column
 * of summary.tsv is a parameter.  --columns A,B,... chooses the columns instead: any of
 * summary.tsv, or of the measure.tsv pala measure wrote into the folder (its mean over the
 * file's rows: the frames measured), or NAME.COL: column COL of the measure-NAME.tsv of a
 * [measure NAME] section (its last row: the state at the run's end). */
#include "commands.h"
#include "rundir.h"
#include "tsv.h"
#include "pala/pala.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/stat.h>

static const char *const result_cols[] = {
    "status", "exit_code", "steps_done", "sim_time", "wall_time", "grain_steps_per_s",
    "E_total_initial", "E_total_final", "E_total_min", "E_total_max", "max_abs_dE_rel",
    "E_dissipated", "max_abs_dE_bal_rel", "warning",
    "grains", "inserted", "insert_behind", "insert_short", "removed", "mass_removed"   /* runs whose grains enter and leave */
};
#define NRESULT ((int)(sizeof result_cols / sizeof result_cols[0]))

static void usage(FILE *f)
{
    fprintf(f,
        "usage: pala collect DIR... [-o table.tsv] [--force] [--all] [--skip-incomplete] [--columns A,B,...]\n"
        "  DIR       run folders, each holding the summary.tsv written by `pala run`\n"
        "  -o FILE   write the table to FILE instead of standard output\n"
        "  --force   overwrite FILE if it exists\n"
        "  --all     include every parameter column, not only those that differ\n"
        "  --columns A,B,...  these columns only: of summary.tsv, or of DIR/measure.tsv (written by\n"
        "            pala measure; its mean over its rows), or NAME.COL: column COL of DIR/measure-NAME.tsv\n"
        "            (a [measure NAME] section's; its last row)\n"
        "  --skip-incomplete  leave out the folders without a readable summary.tsv (a run\n"
        "            killed or still running) and list them on standard error\n"
        "exit status: 0 ok, 1 bad input (missing or malformed summary.tsv), 5 write error\n");
}

static int is_result(const char *name)
{
    for (int k = 0; k < NRESULT; k++)
        if (strcmp(name, result_cols[k]) == 0) return 1;
    return 0;
}

/* The cell of column name in run r's one-row summary, or NULL if it has no such column. */
static const char *cell(const pala_tsv *r, const char *name)
{
    int c = pala_tsv_col(r, name);
    return c < 0 ? NULL : r->cell[c];
}

/* Write s with tabs and line breaks replaced by spaces, so a cell cannot break the
 * table (the run path is the only cell that does not come from a TSV file). */
static void put_cell(const char *s, FILE *f)
{
    for (; *s; s++) fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

/* A number written with 17 digits (sim_time, E_total_initial, ...) in the fewest digits that
 * read back as the same double: 0.40000000000000002 is 0.4, as the user set it. */
static void put_value(const char *s, FILE *f)
{
    char *end, buf[40];
    double x = strtod(s, &end);
    if (end != s && !*end && isfinite(x) && strlen(s) > 15)
        for (int p = 1; p <= 17; p++) {
            snprintf(buf, sizeof buf, "%.*g", p, x);
            if (strtod(buf, NULL) == x) { fputs(buf, f); return; }
        }
    put_cell(s, f);
}

/* Read DIR/summary.tsv; it must hold exactly one data row. */
static int read_summary(const char *dir, pala_tsv *t, FILE *err)
{
    char path[4096];
    struct stat st;
    memset(t, 0, sizeof *t);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(err, "pala collect: '%s' is not a folder; give the run folders "
                "(e.g. pala collect sweep/*/)\n", dir);
        return PALA_ERR_INPUT;
    }
    if (snprintf(path, sizeof path, "%s/summary.tsv", dir) >= (int)sizeof path) {
        fprintf(err, "pala collect: path too long: %s\n", dir);
        return PALA_ERR_INPUT;
    }
    if (stat(path, &st) != 0) {
        fprintf(err, "pala collect: %s has no summary.tsv (`pala run` writes it when "
                "the run ends; was the run started or did it finish?)\n", dir);
        return PALA_ERR_INPUT;
    }
    int rc = pala_tsv_read(t, path, PALA_TSV_TEXT, err);
    if (rc == PALA_OK && t->nrow != 1) {
        if (t->nrow == 0)
            fprintf(err, "pala: %s:%ld: no data row after the header; expected one\n",
                    path, t->hline);
        else
            fprintf(err, "pala: %s:%ld: second data row; summary.tsv holds one header "
                    "line and one data row\n", path, t->line[1]);
        rc = PALA_ERR_INPUT;
    }
    return rc;
}

/* A column of some run's summary: its name, where it was first seen (run k, column c),
 * and its cell there. */
typedef struct seen { const char *name, *val; long first; } seen;
static int by_name_first(const void *a, const void *b)
{
    const seen *p = a, *q = b;
    int c = strcmp(p->name, q->name);
    return c ? c : (p->first > q->first) - (p->first < q->first);
}
static int by_first(const void *a, const void *b)
{
    const seen *p = a, *q = b;
    return (p->first > q->first) - (p->first < q->first);
}

/* Build the output column list: chosen parameters in first-seen order, then the
 * result columns present in any run.  cols must hold every distinct column name.
 * Returns the number of parameter columns in *npar and the total.  A parameter is
 * chosen (without all) if it differs between the runs: missing from one, or another
 * value.  Every column of every run is sorted once by name, so the cost grows as
 * N log N in the N cells of all runs (runs times columns), not with their square. */
static int choose(const pala_tsv *runs, int n, int all, const char **cols, int *npar, long ncell)
{
    seen *v = malloc((size_t)(ncell ? ncell : 1) * sizeof *v);
    if (!v) return -1;
    long m = 0, width = 0;
    for (int k = 0; k < n; k++) width = runs[k].ncol > width ? runs[k].ncol : width;
    for (int k = 0; k < n; k++)
        for (int c = 0; c < runs[k].ncol; c++)
            v[m++] = (seen){runs[k].name[c], runs[k].cell[c], (long)k * width + c};
    qsort(v, (size_t)m, sizeof *v, by_name_first);
    long np = 0;
    for (long i = 0, j; i < m; i = j) {   /* one name: v[i..j), in the order the runs hold it */
        int same = 1;
        for (j = i + 1; j < m && !strcmp(v[j].name, v[i].name); j++) same &= !strcmp(v[j].val, v[i].val);
        /* `run` is our own first column; a summary column of that name is dropped */
        if (is_result(v[i].name) || !strcmp(v[i].name, "run")) continue;
        if (all || !same || j - i < n) v[np++] = v[i];
    }
    qsort(v, (size_t)np, sizeof *v, by_first);
    for (long i = 0; i < np; i++) cols[i] = v[i].name;
    free(v);
    int mm = (int)np;
    *npar = mm;
    for (int r = 0; r < NRESULT; r++)
        for (int k = 0; k < n; k++)
            if (pala_tsv_col(&runs[k], result_cols[r]) >= 0) {
                cols[mm++] = result_cols[r];
                break;
            }
    return mm;
}

/* The mean over the rows of column name of a run's measure.tsv (nan cells left out) into
 * buf: NULL if it has no such column. */
static const char *measure_mean(const pala_tsv *ms, const char *name, char *buf, size_t len)
{
    int mc = ms ? pala_tsv_col(ms, name) : -1;
    if (mc < 0) return NULL;
    double s = 0;
    long cnt = 0;
    for (long r = 0; r < ms->nrow; r++) {
        double x = ms->num[r * ms->ncol + mc];
        if (!isnan(x)) { s += x; cnt++; }
    }
    if (cnt) snprintf(buf, len, "%.10g", s / (double)cnt);
    else snprintf(buf, len, "nan");
    return buf;
}

/* Column NAME.COL of the measure-NAME.tsv a [measure NAME] section wrote during the run in
 * dir: its last row's value (the state at the run's end) into buf; NULL if the folder has no
 * such file or the file no such column. */
static const char *section_final(const char *dir, const char *col, char *buf, size_t len)
{
    const char *dot = strchr(col, '.');
    char path[4300];
    struct stat st;
    pala_tsv t;
    if (!dot || dot == col || strchr(dot + 1, '.')) return NULL;
    snprintf(path, sizeof path, "%s/measure-%.*s.tsv", dir, (int)(dot - col), col);
    if (stat(path, &st) != 0 || pala_tsv_read(&t, path, PALA_TSV_NUMERIC, stderr) != PALA_OK) return NULL;
    int c = pala_tsv_col(&t, dot + 1);
    const char *v = NULL;
    if (c >= 0 && t.nrow > 0) {
        snprintf(buf, len, "%.10g", t.num[(t.nrow - 1) * t.ncol + c]);
        v = buf;
    }
    pala_tsv_free(&t);
    return v;
}

/* Write the table: header, then one row per run; missing cells are empty.  ms (or NULL):
 * each run's measure.tsv, whose means serve the columns its summary.tsv has not. */
static void write_table(FILE *f, char **dirs, const pala_tsv *runs, int n,
                        const char **cols, int m, const pala_tsv *ms)
{
    fputs("run", f);
    for (int c = 0; c < m; c++) fprintf(f, "\t%s", cols[c]);
    fputc('\n', f);
    for (int k = 0; k < n; k++) {
        put_cell(dirs[k], f);
        for (int c = 0; c < m; c++) {
            char buf[64];
            const char *v = cell(&runs[k], cols[c]);
            if (!v && ms) v = measure_mean(&ms[k], cols[c], buf, sizeof buf);
            if (!v && ms) v = section_final(dirs[k], cols[c], buf, sizeof buf);
            fputc('\t', f);
            if (v) put_value(v, f);
        }
        fputc('\n', f);
    }
}

/* --columns: the table of the columns of list (comma-separated): each run's summary.tsv
 * cell, else the mean over the rows of its measure.tsv.  A column that no run has is an
 * error naming what there is. */
static int write_columns(FILE *f, char **dirs, const pala_tsv *runs, int n, const char *list)
{
    char *names = strdup(list), *save = NULL;
    pala_tsv *ms = calloc((size_t)n, sizeof *ms);
    const char **col = calloc(strlen(list) + 1, sizeof *col);
    int m = 0, rc = PALA_OK;
    if (!names || !ms || !col) { free(names); free(ms); free(col); return PALA_ERR_IO; }
    for (char *s = strtok_r(names, ",", &save); s; s = strtok_r(NULL, ",", &save)) col[m++] = s;
    for (int k = 0; k < n; k++) {   /* measure.tsv, if the folder has one */
        char path[4200];
        struct stat st;
        snprintf(path, sizeof path, "%s/measure.tsv", dirs[k]);
        if (stat(path, &st) == 0 && pala_tsv_read(&ms[k], path, PALA_TSV_NUMERIC, stderr) != PALA_OK) rc = PALA_ERR_INPUT;
    }
    for (int c = 0; c < m && rc == PALA_OK; c++) {
        int found = 0;
        char buf[64];
        for (int k = 0; k < n && !found; k++)
            found = cell(&runs[k], col[c]) || pala_tsv_col(&ms[k], col[c]) >= 0 || section_final(dirs[k], col[c], buf, sizeof buf);
        if (!found) {
            fprintf(stderr, "pala collect: --columns: no run has a column '%s' in summary.tsv, measure.tsv or (NAME.COL) a [measure NAME] "
                    "section's measure-NAME.tsv (columns of %s/summary.tsv: ", col[c], dirs[0]);
            pala_tsv_print_names(&runs[0], stderr);
            if (ms[0].ncol) { fprintf(stderr, "; of its measure.tsv: "); pala_tsv_print_names(&ms[0], stderr); }
            fprintf(stderr, ")\n");
            rc = PALA_ERR_INPUT;
        }
    }
    if (rc == PALA_OK) write_table(f, dirs, runs, n, col, m, ms);
    for (int k = 0; k < n; k++) pala_tsv_free(&ms[k]);
    free(ms); free(col); free(names);
    return rc;
}

/* Parse the command line, read every DIR/summary.tsv, choose the columns, write. */
int pala_cmd_collect(int argc, char **argv)
{
    const char *out = NULL, *columns = NULL;
    int force = 0, all = 0, n = 0, opts_done = 0, skip = 0;
    char **dirs = calloc((size_t)argc + 1, sizeof *dirs);
    if (!dirs) return PALA_ERR_IO;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (!opts_done && a[0] == '-' && a[1]) {
            if (strcmp(a, "--") == 0) opts_done = 1;
            else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
                usage(stdout);
                free(dirs);
                return PALA_OK;
            } else if (strcmp(a, "--force") == 0) force = 1;
            else if (strcmp(a, "--all") == 0) all = 1;
            else if (strcmp(a, "--skip-incomplete") == 0) skip = 1;
            else if (strcmp(a, "--columns") == 0 || strncmp(a, "--columns=", 10) == 0) {
                columns = a[9] == '=' ? a + 10 : i + 1 < argc ? argv[++i] : NULL;
                if (!columns || !*columns || strstr(columns, ",,") || columns[0] == ',' || columns[strlen(columns) - 1] == ',') {
                    fprintf(stderr, "pala collect: --columns needs names separated by commas, e.g. --columns dt,E_dissipated,phi\n");
                    free(dirs);
                    return PALA_ERR_INPUT;
                }
            }
            else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
                if (i + 1 == argc || !argv[i + 1][0]) {
                    fprintf(stderr, "pala collect: %s needs a file name, e.g. -o table.tsv\n", a);
                    free(dirs);
                    return PALA_ERR_INPUT;
                }
                out = argv[++i];
            } else {
                fprintf(stderr, "pala collect: unknown option '%s' (see pala collect "
                        "--help)\n", a);
                free(dirs);
                return PALA_ERR_INPUT;
            }
            continue;
        }
        /* the run column shows the folder as given, without trailing slashes */
        size_t L = strlen(a);
        while (L > 1 && a[L - 1] == '/') a[--L] = 0;
        dirs[n++] = a;
    }
    if (n == 0) {
        fprintf(stderr, "pala collect: no run folders given, e.g. pala collect "
                "sweep/*/ -o table.tsv\n");
        usage(stderr);
        free(dirs);
        return PALA_ERR_INPUT;
    }
    if (out && pala_refuse_result(out, "collect", "runs.tsv", stderr)) {   /* a run's summary.tsv, whatever --force */
        free(dirs);
        return PALA_ERR_INPUT;
    }
    struct stat st;
    if (out && !force && stat(out, &st) == 0) {
        fprintf(stderr, "pala collect: %s exists; add --force to overwrite it or choose "
                "another -o\n", out);
        free(dirs);
        return PALA_ERR_INPUT;
    }

    pala_tsv *runs = calloc((size_t)n, sizeof *runs);
    int rc = runs ? PALA_OK : PALA_ERR_IO, ncolmax = 0;
    int nskip = 0;
    for (int k = 0; k < n && rc == PALA_OK; k++) {
        FILE *quiet = skip ? fopen("/dev/null", "w") : NULL;
        rc = read_summary(dirs[k], &runs[k], quiet ? quiet : stderr);
        if (quiet) fclose(quiet);
        if (rc != PALA_OK && skip) {   /* left out: the later runs move up (below) */
            pala_tsv_free(&runs[k]);
            fprintf(stderr, "%s %s", nskip++ ? "" : "pala collect: skipped (no complete summary.tsv):", dirs[k]);
            dirs[k] = NULL;
            rc = PALA_OK;
            continue;
        }
        ncolmax += runs[k].ncol;
    }
    int kept = 0;
    for (int k = 0; k < n && rc == PALA_OK; k++)
        if (dirs[k]) { runs[kept] = runs[k]; dirs[kept++] = dirs[k]; }
    if (rc == PALA_OK) n = kept;
    if (nskip) fputc('\n', stderr);
    if (rc == PALA_OK && n == 0) {
        fprintf(stderr, "pala collect: no run folder holds a complete summary.tsv\n");
        rc = PALA_ERR_INPUT;
    }
    const char **cols = rc == PALA_OK ? malloc(((size_t)ncolmax + NRESULT) * sizeof *cols)
                                      : NULL;
    if (rc == PALA_OK && !cols) rc = PALA_ERR_IO;
    if (rc == PALA_OK) {
        int npar, m = choose(runs, n, all, cols, &npar, ncolmax);
        FILE *f = m < 0 ? NULL : out ? pala_fopen(out, "w") : stdout;
        if (m < 0) rc = PALA_ERR_IO;
        else if (!f) {
            fprintf(stderr, "pala collect: cannot write %s: %s\n", out, pala_strerror(errno));
            rc = PALA_ERR_IO;
        } else {
            if (columns) rc = write_columns(f, dirs, runs, n, columns);
            else write_table(f, dirs, runs, n, cols, m, NULL);
            int bad = ferror(f);
            if (out) bad |= fclose(f) != 0;
            else bad |= fflush(f) != 0;
            if (bad) {
                fprintf(stderr, "pala collect: error writing %s\n", out ? out : "output");
                rc = PALA_ERR_IO;
            } else if (out) {
                fprintf(stderr, "pala collect: %d run%s, %d parameter column%s -> %s\n", n,
                        n == 1 ? "" : "s", npar, npar == 1 ? "" : "s", out);
            }
        }
    }
    for (int k = 0; runs && k < n; k++) pala_tsv_free(&runs[k]);
    free(runs);
    free(cols);
    free(dirs);
    return rc;
}
