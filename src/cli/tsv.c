/* tsv.c: the TSV table reader shared by `pala check` and `pala collect` (see tsv.h). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* strdup, getline, readlink */
#endif
#include "tsv.h"
#include "rundir.h"
#include "pala/pala.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

void pala_tsv_free(pala_tsv *t)
{
    if (t->name)
        for (int c = 0; c < t->ncol; c++) free(t->name[c]);
    if (t->cell)
        for (long k = 0; k < t->nrow * (long)t->ncol; k++) free(t->cell[k]);
    free(t->name);
    free(t->byname);
    free(t->cell);
    free(t->num);
    free(t->line);
    free(t->path);
    memset(t, 0, sizeof *t);
}

int pala_tsv_col(const pala_tsv *t, const char *name)
{
    int lo = 0, hi = t->byname ? t->ncol : 0;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2, c = strcmp(t->name[t->byname[mid]], name);
        if (c == 0) return t->byname[mid];
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

/* the order of byname: by name, then by index (so equal names stand in file order) */
typedef struct named { const char *name; int idx; } named;
static int by_name(const void *a, const void *b)
{
    const named *p = a, *q = b;
    int c = strcmp(p->name, q->name);
    return c ? c : (p->idx > q->idx) - (p->idx < q->idx);
}

void pala_tsv_print_names(const pala_tsv *t, FILE *f)
{
    for (int c = 0; c < t->ncol; c++) fprintf(f, "%s%s", c ? ", " : "", t->name[c]);
}

/* Strip the line terminator ("\n" or "\r\n") in place. */
static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r')) s[--n] = 0;
}

/* Whether the line holds only blanks (such lines are skipped). */
static int blank(const char *s)
{
    for (; *s; s++)
        if (*s != ' ' && *s != '\t') return 0;
    return 1;
}

/* Number of tab-separated fields in s. */
static int count_fields(const char *s)
{
    int n = 1;
    for (; *s; s++) n += *s == '\t';
    return n;
}

/* Copy of the field s[0..n) with surrounding blanks removed (for column names). */
static char *trimmed_copy(const char *s, size_t n)
{
    while (n > 0 && *s == ' ') s++, n--;
    while (n > 0 && s[n - 1] == ' ') n--;
    char *r = malloc(n + 1);
    if (r) {
        memcpy(r, s, n);
        r[n] = 0;
    }
    return r;
}

/* Parse the header line s into t->name.  Names must be non-empty and distinct, since
 * both commands look columns up by name. */
static int read_header(pala_tsv *t, const char *s, FILE *err)
{
    int n = count_fields(s);
    t->name = calloc((size_t)n, sizeof *t->name);
    if (!t->name) return PALA_ERR_IO;
    t->ncol = n;
    for (int c = 0; c < n; c++) {
        const char *e = strchr(s, '\t');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (!(t->name[c] = trimmed_copy(s, len))) return PALA_ERR_IO;
        if (!t->name[c][0]) {
            fprintf(err, "pala: %s:%ld: header field %d is an empty column name "
                    "(columns must be separated by single tabs)\n", t->path, t->hline, c + 1);
            return PALA_ERR_INPUT;
        }
        s = e ? e + 1 : s + len;
    }
    /* the names sorted (n log n, not the n^2 of comparing each with those before): a
     * name twice stands beside itself; the first field that repeats one is reported */
    named *v = malloc((size_t)n * sizeof *v);
    t->byname = malloc((size_t)n * sizeof *t->byname);
    if (!v || !t->byname) { free(v); return PALA_ERR_IO; }
    for (int c = 0; c < n; c++) v[c] = (named){t->name[c], c};
    qsort(v, (size_t)n, sizeof *v, by_name);
    int d = -1, c = n;
    for (int k = 1; k < n; k++)
        if (v[k].idx < c && !strcmp(v[k].name, v[k - 1].name)) d = v[k - 1].idx, c = v[k].idx;
    for (int k = 0; k < n; k++) t->byname[k] = v[k].idx;
    free(v);
    if (d >= 0) {
        fprintf(err, "pala: %s:%ld: column '%s' appears twice in the header "
                "(fields %d and %d)\n", t->path, t->hline, t->name[c], d + 1, c + 1);
        return PALA_ERR_INPUT;
    }
    return PALA_OK;
}

/* Make room for one more row; *cap is the current row capacity. */
static int grow(pala_tsv *t, int mode, long *cap)
{
    if (t->nrow < *cap) return PALA_OK;
    long nc = *cap ? 2 * *cap : 64;
    long *ln = realloc(t->line, (size_t)nc * sizeof *ln);
    if (!ln) return PALA_ERR_IO;
    t->line = ln;
    if (mode == PALA_TSV_NUMERIC) {
        double *v = realloc(t->num, (size_t)nc * (size_t)t->ncol * sizeof *v);
        if (!v) return PALA_ERR_IO;
        t->num = v;
    } else {
        char **v = realloc(t->cell, (size_t)nc * (size_t)t->ncol * sizeof *v);
        if (!v) return PALA_ERR_IO;
        t->cell = v;
    }
    *cap = nc;
    return PALA_OK;
}

/* Parse data line s (line number ln) as the next row.  The field count must match the
 * header; in numeric mode every field must be a complete number. */
static int read_row(pala_tsv *t, int mode, char *s, long ln, FILE *err)
{
    int n = count_fields(s);
    if (n != t->ncol) {
        fprintf(err, "pala: %s:%ld: row has %d field%s but the header (line %ld) has %d "
                "columns; fields must be separated by single tabs\n",
                t->path, ln, n, n == 1 ? "" : "s", t->hline, t->ncol);
        return PALA_ERR_INPUT;
    }
    long base = t->nrow * (long)t->ncol;
    for (int c = 0; c < n; c++) {
        char *e = strchr(s, '\t');
        if (e) *e = 0;
        if (mode == PALA_TSV_NUMERIC) {
            char *end;
            errno = 0;
            double v = strtod(s, &end);
            const char *q = end;
            while (*q == ' ') q++;
            if (end == s || *q) {
                if (blank(s))
                    fprintf(err, "pala: %s:%ld: field %d (%s) is empty; expected a number\n",
                            t->path, ln, c + 1, t->name[c]);
                else
                    fprintf(err, "pala: %s:%ld: field %d (%s) is not a number: '%s'\n",
                            t->path, ln, c + 1, t->name[c], s);
                return PALA_ERR_INPUT;
            }
            t->num[base + c] = v;   /* ERANGE: strtod's +-HUGE_VAL or 0 are fine here */
        } else {
            /* Set each cell as it is made so pala_tsv_free never sees garbage. */
            t->cell[base + c] = strdup(s);
            if (!t->cell[base + c]) {
                for (int d = c + 1; d < n; d++) t->cell[base + d] = NULL;
                t->nrow++;   /* so the partial row is freed */
                return PALA_ERR_IO;
            }
        }
        s = e ? e + 1 : s + strlen(s);
    }
    t->line[t->nrow++] = ln;
    return PALA_OK;
}

/* Read the whole file line by line: comments and blank lines are skipped, the first
 * remaining line is the header, the rest are rows. */
int pala_tsv_read(pala_tsv *t, const char *path, int mode, FILE *err)
{
    memset(t, 0, sizeof *t);
    if (!(t->path = strdup(path))) return PALA_ERR_IO;
    FILE *f = pala_fopen(path, "r");
    if (!f) {
        fprintf(err, "pala: %s: cannot open: %s\n", path, pala_strerror(errno));
        return PALA_ERR_INPUT;
    }
    char *buf = NULL;
    size_t bufcap = 0;
    long ln = 0, cap = 0;
    int rc = PALA_OK;
    errno = 0;
    while (rc == PALA_OK && getline(&buf, &bufcap, f) >= 0) {
        ln++;
        chomp(buf);
        if (buf[0] == '#' || blank(buf)) continue;
        if (!t->name) {
            t->hline = ln;
            rc = read_header(t, buf, err);
        } else if ((rc = grow(t, mode, &cap)) == PALA_OK) {
            rc = read_row(t, mode, buf, ln, err);
        }
    }
    if (rc == PALA_OK && ferror(f)) {
        fprintf(err, "pala: %s: read error: %s\n", path, strerror(errno));
        rc = PALA_ERR_INPUT;
    }
    if (rc == PALA_OK && !t->name) {
        fprintf(err, "pala: %s: no header line (the file is empty or holds only comments)\n",
                path);
        rc = PALA_ERR_INPUT;
    }
    if (rc == PALA_ERR_IO) fprintf(err, "pala: %s: out of memory\n", path);
    free(buf);
    fclose(f);
    return rc;
}
