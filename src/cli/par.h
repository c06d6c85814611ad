/* par.h: the text frames of trajectory.txt and contacts.tsv, fast: their rows parsed by
 * several threads.  Parsing 17-digit numbers is nearly all the cost of reading those files,
 * and each row is read alone, so what is read does not depend on the thread count. */
#ifndef PALA_PAR_H
#define PALA_PAR_H
#include <stddef.h>
#include <stdio.h>

/* A frame's rows as text: the bytes of n rows, each ended by a 0, and where each starts. */
typedef struct pala_rows {
    char *text;
    size_t cap, used;
    size_t *off;
    long n, ocap;
} pala_rows;

/* Read n lines of f into R (replacing what it held; line counts the lines read).  Returns
 * the number read: fewer than n at the end of the file. */
long pala_rows_read(pala_rows *R, FILE *f, long n, long *line);
/* Calls row(ctx, text, k) for k = 0..R->n-1, by up to one thread per CPU (8 at most) when
 * there are many rows; returns the least k for which row returned nonzero, or R->n. */
long pala_rows_parse(const pala_rows *R, int (*row)(void *ctx, char *text, long k), void *ctx);
void pala_rows_free(pala_rows *R);

#endif

/* x as printf's "%.17g" writes it (the same characters: 17 significant digits, correctly
 * rounded, ties to even; the exponent form below 1e-4 and from 1e17), into out (at least 32
 * bytes) without printf's cost; returns the length.  Exact integer arithmetic for
 * 1e-16 <= |x| < 1e16 and zero, snprintf otherwise. */
int pala_fmt17(char *out, double x);
