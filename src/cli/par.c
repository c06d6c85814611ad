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

/* x = m 2^e exactly (m < 2^53).  With p = 16 - floor(log10 |x|), D = |x| 10^p rounded
 * (ties to even) has 17 digits; m 10^p 2^e = (m 5^p) 2^(p + e), and m 5^p < 2^128 for
 * 0 <= p <= 32, so D is exact in 128-bit integers: a shift with its remainder. */
#include <math.h>
#include <stdio.h>
#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128;
static int digits17(double ax, int p, unsigned long long *D)
{
    int e;
    double fr = frexp(ax, &e);   /* ax = fr 2^e, 0.5 <= fr < 1 */
    unsigned long long m = (unsigned long long)ldexp(fr, 53);
    e -= 53;
    u128 X = m;
    for (int i = 0; i < p; i++) X *= 5;
    int s = -(p + e);   /* D = X 2^-s */
    if (s <= 0) {
        if (-s > 20) return 0;
        X <<= -s;
    } else if (s >= 128) {
        X = 0;   /* below half a unit: rounds to 0 (not reached for 17 digits) */
    } else {
        u128 q = X >> s, r = X - (q << s), half = (u128)1 << (s - 1);
        if (r > half || (r == half && (q & 1))) q++;
        X = q;
    }
    if (X >> 64) return 0;
    *D = (unsigned long long)X;
    return 1;
}
#else
static int digits17(double ax, int p, unsigned long long *D) { (void)ax; (void)p; (void)D; return 0; }   /* snprintf's */
#endif

int pala_fmt17(char *out, double x)
{
    if (x == 0) return (int)(signbit(x) ? (strcpy(out, "-0"), 2) : (strcpy(out, "0"), 1));
    double ax = fabs(x);
    if (!(ax >= 1e-16 && ax < 1e16)) return snprintf(out, 32, "%.17g", x);
    int X = (int)floor(log10(ax));
    unsigned long long D = 0;
    const unsigned long long lo = 10000000000000000ULL, hi = 100000000000000000ULL;   /* 1e16, 1e17 */
    if (16 - X < 0 || 16 - X > 32 || !digits17(ax, 16 - X, &D)) return snprintf(out, 32, "%.17g", x);
    /* X from log10 may be one off near a power of ten: the digits say which; at exactly 1e16
     * the value may lie below 10^X and take 17 digits of the lower decade (as printf's does,
     * unless those round up to 10^X) */
    if (D >= hi) { X++; if (16 - X < 0 || !digits17(ax, 16 - X, &D)) return snprintf(out, 32, "%.17g", x); }
    else if (D < lo) { X--; if (16 - X > 32 || !digits17(ax, 16 - X, &D)) return snprintf(out, 32, "%.17g", x); }
    else if (D == lo) {
        unsigned long long D2;
        if (16 - (X - 1) > 32 || !digits17(ax, 16 - (X - 1), &D2)) return snprintf(out, 32, "%.17g", x);
        if (D2 < hi) { X--; D = D2; }
    }
    if (D < lo || D >= hi) return snprintf(out, 32, "%.17g", x);
    char dg[17];
    for (int i = 16; i >= 0; i--) { dg[i] = (char)('0' + D % 10); D /= 10; }
    int nd = 17;
    while (nd > 1 && dg[nd - 1] == '0') nd--;   /* %g drops trailing zeros */
    char *o = out;
    if (x < 0) *o++ = '-';
    if (X < -4 || X >= 17) {   /* d.ddde+XX */
        *o++ = dg[0];
        if (nd > 1) { *o++ = '.'; memcpy(o, dg + 1, (size_t)nd - 1); o += nd - 1; }
        o += sprintf(o, "e%c%02d", X < 0 ? '-' : '+', X < 0 ? -X : X);
    } else if (X >= 0) {   /* X + 1 digits before the point */
        for (int i = 0; i <= X; i++) *o++ = i < nd ? dg[i] : '0';
        if (nd > X + 1) { *o++ = '.'; memcpy(o, dg + X + 1, (size_t)(nd - X - 1)); o += nd - X - 1; }
    } else {   /* 0.000ddd */
        *o++ = '0';
        *o++ = '.';
        for (int i = 0; i < -X - 1; i++) *o++ = '0';
        memcpy(o, dg, (size_t)nd);
        o += nd;
    }
    *o = 0;
    return (int)(o - out);
}
