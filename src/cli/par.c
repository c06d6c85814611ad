/* par.c: a large frame's rows parsed by several threads (par.h). */
#include "par.h"
#include "alloc.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

long pala_rows_read(pala_rows *R, FILE *f, long n, long *line)
{
    char *buf = NULL;
    size_t blen = 0;
    R->n = 0;
    R->used = 0;
    while (R->n < n) {
        ssize_t len = getline(&buf, &blen, f);
        if (len < 0) break;
        ++*line;
        if (R->used + (size_t)len + 1 > R->cap) { R->cap = 2 * (R->used + (size_t)len + 1); PALA_GROW(R->text, R->cap); }
        memcpy(R->text + R->used, buf, (size_t)len + 1);
        if (R->n >= R->ocap) { R->ocap = 2 * R->n + 1024; PALA_GROW(R->off, R->ocap); }
        R->off[R->n++] = R->used;
        R->used += (size_t)len + 1;
    }
    free(buf);
    return R->n;
}

typedef struct rowjob {
    const pala_rows *R;
    int (*row)(void *ctx, char *text, long k);
    void *ctx;
    long k0, k1, bad;
} rowjob;

static void *rows_job(void *arg)
{
    rowjob *J = arg;
    J->bad = J->k1;
    for (long k = J->k0; k < J->k1; k++)
        if (J->row(J->ctx, J->R->text + J->R->off[k], k)) { J->bad = k; break; }
    return NULL;
}

long pala_rows_parse(const pala_rows *R, int (*row)(void *ctx, char *text, long k), void *ctx)
{
    enum { MAXT = 8, PER = 4096 };   /* rows a thread is worth */
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN), n = R->n;
    int nt = (int)(n / PER);
    nt = nt < 1 ? 1 : nt > MAXT ? MAXT : nt;
    if (ncpu > 0 && nt > ncpu) nt = (int)ncpu;
    rowjob J[MAXT];
    pthread_t th[MAXT];
    int started[MAXT] = {0};
    for (int i = 0; i < nt; i++) J[i] = (rowjob){R, row, ctx, n * i / nt, n * (i + 1) / nt, 0};
    for (int i = 1; i < nt; i++) started[i] = pthread_create(&th[i], NULL, rows_job, &J[i]) == 0;
    rows_job(&J[0]);
    for (int i = 1; i < nt; i++) {
        if (started[i]) pthread_join(th[i], NULL);
        else rows_job(&J[i]);   /* no thread: this one reads them */
    }
    for (int i = 0; i < nt; i++)
        if (J[i].bad < J[i].k1) return J[i].bad;
    return n;
}

void pala_rows_free(pala_rows *R)
{
    free(R->text);
    free(R->off);
    memset(R, 0, sizeof *R);
}
