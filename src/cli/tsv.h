/* tsv.h: a small reader for the tab-separated tables pala writes (energy.tsv,
 * summary.tsv) and reads back in `pala check` and `pala collect`.
 *
 * Format: lines starting with '#' are comments and blank lines are ignored anywhere;
 * the first other line is the header (tab-separated column names); every following line
 * is a row with exactly as many tab-separated fields as the header.  A trailing '\r'
 * (files edited on Windows) is dropped.  In numeric mode every field must parse as a
 * number (strtod, surrounding blanks allowed; "nan" and "inf" are accepted so a run
 * that went non-finite can still be compared and fail); in text mode cells are kept
 * verbatim and may contain spaces. */
#ifndef PALA_TSV_H
#define PALA_TSV_H
#include <math.h>
#include <stdio.h>

/* Time t in the window [t0, t1] given on a command line (--window), its ends taken with a
 * margin of 1e-9 of their size: the files' times are step * dt written whole, so the last
 * frame of a run to 1.5 s is at 1.5000000000000002, which a window ending at 1.5 means. */
static inline int pala_in_window(double t, double t0, double t1)
{
    return t >= t0 - 1e-9 * fabs(t0) && t <= t1 + 1e-9 * fabs(t1);
}

enum { PALA_TSV_TEXT = 0, PALA_TSV_NUMERIC = 1 };

typedef struct pala_tsv {
    char *path;     /* the file read (for messages) */
    int ncol;
    char **name;    /* ncol column names */
    int *byname;    /* the column indices in the order of their names (pala_tsv_col's search) */
    long nrow;
    char **cell;    /* text mode: nrow*ncol cells, row-major (NULL in numeric mode) */
    double *num;    /* numeric mode: nrow*ncol values, row-major (NULL in text mode) */
    long *line;     /* line number in the file of each row (1-based) */
    long hline;     /* line number of the header */
} pala_tsv;

/* Read path into t (mode PALA_TSV_TEXT or PALA_TSV_NUMERIC).  Returns PALA_OK; or
 * PALA_ERR_INPUT after printing `pala: FILE:LINE: message` (or `pala: FILE: message`
 * when the file cannot be opened) to err; or PALA_ERR_IO when out of memory.  t is
 * always left in a state pala_tsv_free accepts. */
int pala_tsv_read(pala_tsv *t, const char *path, int mode, FILE *err);
void pala_tsv_free(pala_tsv *t);
/* Index of the column called name, or -1 (a binary search: a header of 100,000 columns
 * costs no more than its sorting). */
int pala_tsv_col(const pala_tsv *t, const char *name);
/* Print the column names as "a, b, c" (for "available columns: ..." hints). */
void pala_tsv_print_names(const pala_tsv *t, FILE *f);

#endif
