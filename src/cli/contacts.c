/* contacts.c: contacts.tsv, contacts.bin and grains.tsv (contacts.h; the formats are those
 * of docs/output-formats.md, so a change to the bytes here is a change of the documented
 * format), and the reading of the contact files back. */
#include "contacts.h"
#include "traj.h"
#include "writer.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- writing ------------------------------------------------------------------------------- */
static const char *const cols = "step\ttime\ti\tci\tj\tcj\twall\tx\ty\tz\tnx\tny\tnz\toverlap\tfn\tftx\tfty\tftz";

/* The torsion moment about n and the rolling moment, its rest (docs/physics.md, "Contact
 * history"): m = mr + mt n. */
static double torsion(const pala_contact *c, pala_vec3 *mr)
{
    double mt = pala_vdot(c->m, c->n);
    *mr = pala_vaxpy(c->m, -mt, c->n);
    return mt;
}

void pala_contacts_tsv_open(FILE *f, const pala_world *w, int moments)
{
    (void)w;
    fprintf(f, "# pala contacts 1\n%s%s\n", cols, moments ? "\tmrx\tmry\tmrz\tmt" : "");
}

/* A frame: its line "# frame STEP TIME COUNT" (a frame without contacts is seen too), then a
 * row per contact; grains numbered from 0 as in the input, a wall's j and cj -1. */
/* "\t" and x as "%.17g" writes it, at o (pala_fmt17: printf's characters at a fraction of
 * its cost, which was the whole of a text frame's); returns the end. */
static char *put17(char *o, double x)
{
    *o++ = '\t';
    return o + pala_fmt17(o, x);
}

void pala_contacts_tsv_frame(FILE *f, const pala_world *w, const pala_contact_list *L)
{
    long step = w->step;
    double t = pala_output_time(w);
    fprintf(f, "# frame %ld %.17g %ld\n", step, t, L->n);
    char ts[40];
    pala_fmt17(ts, t);
    for (long q = 0; q < L->n; q++) {
        const pala_contact *c = &L->c[q];
        const char *wall = c->j < 0 ? pala_world_face_name(w, c->face) : "-";
        char row[1024], *o = row;
        o += snprintf(o, 400, "%ld\t%s\t%d\t%d\t%d\t%d\t%.300s", step, ts, c->i, c->ci, c->j, c->cj, wall ? wall : "?");
        const double v[11] = {c->x.x, c->x.y, c->x.z, c->n.x, c->n.y, c->n.z, c->overlap, c->fn, c->ft.x, c->ft.y, c->ft.z};
        for (int k = 0; k < 11; k++) o = put17(o, v[k]);
        if (L->moments) {
            pala_vec3 mr;
            double mt = torsion(c, &mr);
            o = put17(put17(put17(put17(o, mr.x), mr.y), mr.z), mt);
        }
        *o++ = '\n';
        fwrite(row, 1, (size_t)(o - row), f);
    }
}

/* the faces a wall contact may name: the container's and a membrane's, then the [wall]s' */
static int face_count(const pala_world *w) { return PALA_WALL_FACES + w->nsurf; }

void pala_contacts_bin_open(FILE *f, const pala_world *w, int moments)
{
    unsigned char h[24];
    int D = moments ? 15 : 11, F = face_count(w);
    memcpy(h, PALA_CONT_BIN_MAGIC, 8);
    pala_le32(h + 8, PALA_CONT_BIN_VERSION);
    pala_le32(h + 12, (uint32_t)(24 + 8 * D));
    pala_le32(h + 16, (uint32_t)D);
    pala_le32(h + 20, (uint32_t)F);
    fwrite(h, 1, sizeof h, f);
    for (int i = 0; i < F; i++) {
        char nm[PALA_CONT_NAME];
        memset(nm, 0, sizeof nm);
        const char *s = pala_world_face_name(w, i);
        if (s) snprintf(nm, sizeof nm, "%s", s);
        fwrite(nm, 1, sizeof nm, f);
    }
}

void pala_contacts_bin_frame(FILE *f, const pala_world *w, const pala_contact_list *L)
{
    unsigned char h[24], r[24 + 8 * 15];
    pala_le64(h, (uint64_t)(int64_t)w->step);
    pala_le_double(h + 8, pala_output_time(w));
    pala_le64(h + 16, (uint64_t)L->n);
    fwrite(h, 1, sizeof h, f);
    int D = L->moments ? 15 : 11;
    for (long q = 0; q < L->n; q++) {
        const pala_contact *c = &L->c[q];
        const int32_t iv[6] = {c->i, c->ci, c->j, c->cj, c->j < 0 ? c->face : -1, 0};
        for (int a = 0; a < 6; a++) pala_le32(r + 4 * a, (uint32_t)iv[a]);
        pala_vec3 mr = pala_v(0, 0, 0);
        double mt = L->moments ? torsion(c, &mr) : 0;
        const double dv[15] = {c->x.x, c->x.y, c->x.z, c->n.x, c->n.y, c->n.z, c->overlap, c->fn, c->ft.x, c->ft.y, c->ft.z, mr.x, mr.y, mr.z, mt};
        for (int a = 0; a < D; a++) pala_le_double(r + 24 + 8 * a, dv[a]);
        fwrite(r, 1, 24 + 8 * (size_t)D, f);
    }
}

void pala_grains_tsv_open(FILE *f)
{
    fprintf(f, "step\ttime\tid\ttype\tx\ty\tz\tvx\tvy\tvz\twx\twy\twz\trx\try\trz\tqw\tqx\tqy\tqz\tFx\tFy\tFz\tTx\tTy\tTz\tZ\tZw\n");
}

/* A row per grain (input order): its state, the quaternion of its rotation vector
 * r = tan(phi/2) n, (1, r) / sqrt(1 + r.r) (eq. 8), and the sums of its contacts. */
void pala_grains_tsv_frame(FILE *f, const pala_world *w, const pala_contact_list *L)
{
    long step = w->step;
    double t = pala_output_time(w);
    for (int i = 0; i < L->ngrains; i++) {   /* by number; a grain that left has none */
        int k = w->gid ? w->inv[i] : i;
        if (k < 0) continue;
        pala_vec3 x = w->x[k], v = w->v[k], om = w->w[k], r = w->r[k], F = L->F[i], T = L->T[i];
        double c = 1 / sqrt(1 + pala_vnorm2(r));
        fprintf(f, "%ld\t%.17g\t%d\t%d\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g"
                "\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%d\t%d\n",
                step, t, i, w->tid[k], x.x, x.y, x.z, v.x, v.y, v.z, om.x, om.y, om.z, r.x, r.y, r.z, c, c * r.x, c * r.y, c * r.z, F.x, F.y, F.z,
                T.x, T.y, T.z, L->z[i], L->zw[i]);
    }
}

/* ---- reading ------------------------------------------------------------------------------- */
static int bad(pala_cfile *cf, FILE *err, const char *fmt, const char *what)
{
    if (!err) return -1;
    if (cf->binary) fprintf(err, "pala: %s: ", cf->path);
    else fprintf(err, "pala: %s:%ld: ", cf->path, cf->line);
    fprintf(err, fmt, what);
    fputc('\n', err);
    return -1;
}

static uint32_t le32(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

static void *grow(void *p, size_t bytes)
{
    void *q = realloc(p, bytes ? bytes : 1);
    if (!q) { fprintf(stderr, "pala: out of memory\n"); exit(PALA_ERR_IO); }
    return q;
}

static int regular(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int pala_cfile_open(pala_cfile *cf, const char *run, FILE *err)
{
    memset(cf, 0, sizeof *cf);
    char dir[4096];
    if (regular(run)) snprintf(cf->path, sizeof cf->path, "%s", run);
    else {
        snprintf(dir, sizeof dir, "%s", run);
        snprintf(cf->path, sizeof cf->path, "%s/contacts.tsv", dir);
        if (!regular(cf->path)) snprintf(cf->path, sizeof cf->path, "%s/contacts.bin", dir);
        if (!regular(cf->path)) {
            if (err) fprintf(err, "pala: %s has no contacts.tsv or contacts.bin: run the scene with contacts_every = N "
                    "(e.g. --set contacts_every=100, the same as trajectory_every) to write the contacts\n", run);
            return PALA_ERR_INPUT;
        }
    }
    cf->f = fopen(cf->path, "rb");
    if (!cf->f) { if (err) fprintf(err, "pala: cannot read %s: %s\n", cf->path, strerror(errno)); return PALA_ERR_INPUT; }
    unsigned char h[24];
    size_t got = fread(h, 1, 8, cf->f);
    cf->binary = got == 8 && !memcmp(h, PALA_CONT_BIN_MAGIC, 8);
    if (cf->binary) {
        if (fread(h + 8, 1, 16, cf->f) != 16) return bad(cf, err, "%s", "the header is cut"), PALA_ERR_INPUT;
        uint32_t ver = le32(h + 8), R = le32(h + 12), D = le32(h + 16), F = le32(h + 20);
        if (ver != PALA_CONT_BIN_VERSION) return bad(cf, err, "%s", "a version of contacts.bin this pala does not read"), PALA_ERR_INPUT;
        if ((D != 11 && D != 15) || R != 24 + 8 * D || F > 4096)
            return bad(cf, err, "%s", "a header that is not of contacts.bin (its sizes are wrong)"), PALA_ERR_INPUT;
        cf->rec = (int)R; cf->dbl = (int)D; cf->moments = D == 15;
        cf->nface = (int)F;
        cf->face = grow(NULL, (size_t)F * PALA_CONT_NAME + 1);
        if (F && fread(cf->face, PALA_CONT_NAME, F, cf->f) != F) return bad(cf, err, "%s", "the table of faces is cut"), PALA_ERR_INPUT;
        for (uint32_t i = 0; i < F; i++) cf->face[i][PALA_CONT_NAME - 1] = 0;
        return PALA_OK;
    }
    rewind(cf->f);
    /* text: "# pala contacts 1", then the columns */
    for (int i = 0; i < 2; i++) {
        cf->line++;
        if (getline(&cf->buf, &cf->buflen, cf->f) < 0) return bad(cf, err, "%s", "the header is missing (not a contacts.tsv)"), PALA_ERR_INPUT;
        cf->buf[strcspn(cf->buf, "\r\n")] = 0;
        if (i == 0 && strcmp(cf->buf, "# pala contacts 1"))
            return bad(cf, err, "%s", "the first line is not '# pala contacts 1' (not a contacts.tsv of this pala)"), PALA_ERR_INPUT;
        if (i == 1 && strncmp(cf->buf, cols, strlen(cols))) return bad(cf, err, "%s", "the columns are not those of contacts.tsv"), PALA_ERR_INPUT;
    }
    cf->moments = strstr(cf->buf, "\tmt") != NULL;
    return PALA_OK;
}

/* A text row's fields, separated by white space as sscanf's "%ld %lf %d %d %d %d %31s %lf..."
 * would take them, read by strtol and strtod themselves (what sscanf calls, without its
 * cost per call: 80 % of `pala measure`'s instructions on a text run went to sscanf).
 * Returns 1 if the row has all its fields. */
static int take_long(char **s, long lo, long hi, long *v)
{
    char *e;
    errno = 0;
    long x = strtol(*s, &e, 10);
    if (e == *s || errno || x < lo || x > hi) return 0;
    *s = e;
    *v = x;
    return 1;
}
static int take_int(char **s, int *v)
{
    long x;
    if (!take_long(s, INT_MIN, INT_MAX, &x)) return 0;
    *v = (int)x;
    return 1;
}
static int row_fields(char *s, long *st, double *t, int *i, int *ci, int *j, int *cj, char *wall, double *d, int nd)
{
    char *e;
    if (!take_long(&s, LONG_MIN, LONG_MAX, st)) return 0;
    *t = strtod(s, &e);
    if (e == s) return 0;
    s = e;
    if (!take_int(&s, i) || !take_int(&s, ci) || !take_int(&s, j) || !take_int(&s, cj)) return 0;
    while (isspace((unsigned char)*s)) s++;
    size_t w = 0;
    while (s[w] && !isspace((unsigned char)s[w]) && w < PALA_CONT_NAME - 1) w++;
    if (!w) return 0;
    memcpy(wall, s, w);
    wall[w] = 0;
    s += w;
    for (int k = 0; k < nd; k++) {
        d[k] = strtod(s, &e);
        if (e == s) return 0;
        s = e;
    }
    return 1;
}

/* A contact's 15 numbers as both files hold them (x, n, overlap, fn, ft, then the rolling
 * moment and the torsion about n) into c. */
static void from_numbers(pala_contact *c, const double d[15])
{
    c->x = pala_v(d[0], d[1], d[2]);
    c->n = pala_v(d[3], d[4], d[5]);
    c->overlap = d[6]; c->fn = d[7];
    c->ft = pala_v(d[8], d[9], d[10]);
    c->m = pala_vaxpy(pala_v(d[11], d[12], d[13]), d[14], c->n);
}

/* Row k of a text frame into its contact (row_fields; pala_rows_parse's callback): 1 if it
 * is not a contact of the frame. */
static int contact_row(void *ctx, char *text, long k)
{
    pala_cfile *cf = ctx;
    pala_contact *c = &cf->c[k];
    long st;
    double t, d[15] = {0};
    if (!row_fields(text, &st, &t, &c->i, &c->ci, &c->j, &c->cj, cf->wname[k], d, cf->moments ? 15 : 11) || st != cf->step) return 1;
    from_numbers(c, d);
    return 0;
}

/* a text frame's rows */
static int tsv_frame(pala_cfile *cf, FILE *err)
{
    for (;;) {
        if (!cf->pending) {
            cf->line++;
            if (getline(&cf->buf, &cf->buflen, cf->f) < 0) return 0;
            cf->buf[strcspn(cf->buf, "\r\n")] = 0;
        }
        cf->pending = 0;
        if (!cf->buf[0]) continue;
        long cnt;
        if (sscanf(cf->buf, "# frame %ld %lf %ld", &cf->step, &cf->time, &cnt) != 3 || cnt < 0)
            return bad(cf, err, "%s", "expected a line '# frame STEP TIME COUNT'");
        /* the rows' text first (the arrays grow with the rows read, not with the count a
         * header claims), then their numbers, by several threads on a large frame */
        long line0 = cf->line;
        if (pala_rows_read(&cf->rows, cf->f, cnt, &cf->line) < cnt) return bad(cf, err, "%s", "the frame is cut: fewer rows than its count");
        if (cnt > cf->cap) {
            cf->cap = cnt;
            cf->c = grow(cf->c, (size_t)cnt * sizeof *cf->c);
            cf->wname = grow(cf->wname, (size_t)cnt * sizeof *cf->wname);
        }
        long first_bad = pala_rows_parse(&cf->rows, contact_row, cf);
        for (long k = 0; k < cnt; k++) {
            pala_contact *c = &cf->c[k];
            if (k == first_bad) {
                cf->line = line0 + 1 + k;
                return bad(cf, err, "%s", "a row that is not a contact of this frame");
            }
            c->face = -1;
            if (c->j < 0) {   /* the faces by name, as met */
                const char *wall = cf->wname[k];
                int f = 0;
                while (f < cf->nface && strcmp(cf->face[f], wall)) f++;
                if (f == cf->nface) {
                    cf->face = grow(cf->face, (size_t)(f + 1) * PALA_CONT_NAME);
                    snprintf(cf->face[f], PALA_CONT_NAME, "%s", wall);
                    cf->nface++;
                }
                c->face = f;
            }
        }
        cf->n = cnt;
        return 1;
    }
}

static int bin_frame(pala_cfile *cf, FILE *err)
{
    unsigned char h[24];
    size_t got = fread(h, 1, sizeof h, cf->f);
    if (got == 0) return 0;
    if (got != sizeof h) return bad(cf, err, "%s", "a frame's head is cut");
    cf->step = (long)(int64_t)pala_get_le64(h);
    cf->time = pala_get_le_double(h + 8);
    uint64_t cnt = pala_get_le64(h + 16);
    if (cnt > ((uint64_t)1 << 40)) return bad(cf, err, "%s", "a frame's count is not sane");
    size_t bytes = (size_t)cnt * (size_t)cf->rec;
    if (bytes > cf->rcap) { cf->rcap = bytes; cf->rbuf = grow(cf->rbuf, bytes); }
    if (fread(cf->rbuf, 1, bytes, cf->f) != bytes) return bad(cf, err, "%s", "the frame is cut: fewer records than its count");
    if ((long)cnt > cf->cap) { cf->cap = (long)cnt; cf->c = grow(cf->c, (size_t)cnt * sizeof *cf->c); }
    cf->n = (long)cnt;
    for (long q = 0; q < cf->n; q++) {
        const unsigned char *r = cf->rbuf + (size_t)q * (size_t)cf->rec;
        pala_contact *c = &cf->c[q];
        int32_t iv[6];
        for (int a = 0; a < 6; a++) iv[a] = (int32_t)le32(r + 4 * a);
        double d[15] = {0};
        for (int a = 0; a < cf->dbl; a++) d[a] = pala_get_le_double(r + 24 + 8 * a);
        c->i = iv[0]; c->ci = iv[1]; c->j = iv[2]; c->cj = iv[3]; c->face = iv[4];
        from_numbers(c, d);
    }
    return 1;
}

int pala_cfile_next(pala_cfile *cf, FILE *err) { return cf->binary ? bin_frame(cf, err) : tsv_frame(cf, err); }

void pala_cfile_close(pala_cfile *cf)
{
    if (cf->f) fclose(cf->f);
    free(cf->face); free(cf->c); free(cf->buf); free(cf->rbuf); free(cf->wname);
    pala_rows_free(&cf->rows);
    memset(cf, 0, sizeof *cf);
}

/* ---- per grain ------------------------------------------------------------------------------ */
static int cmp_u64(const void *a, const void *b)
{
    unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
    return x < y ? -1 : x > y;
}

void pala_contact_coordination(const pala_contact *c, long nc, long n, int *z, int *zw, unsigned long long *keys)
{
    if (n > 0) {   /* memset takes no NULL either */
        memset(z, 0, (size_t)n * sizeof *z);
        memset(zw, 0, (size_t)n * sizeof *zw);
    }
    long nk = 0;
    for (long q = 0; q < nc; q++) {
        if (c[q].i < 0 || c[q].i >= n || c[q].j >= n) continue;
        unsigned long long a = (unsigned long long)c[q].i, b = c[q].j >= 0 ? (unsigned long long)c[q].j : (unsigned long long)n + (unsigned)c[q].face;
        if (c[q].j >= 0 && b < a) { unsigned long long s = a; a = b; b = s; }
        keys[nk++] = a << 32 | b;
    }
    if (nk > 1) qsort(keys, (size_t)nk, sizeof *keys, cmp_u64);   /* keys may be NULL with no contact: qsort takes no NULL */
    for (long q = 0; q < nk; q++) {
        if (q && keys[q] == keys[q - 1]) continue;
        long a = (long)(keys[q] >> 32), b = (long)(keys[q] & 0xffffffffu);
        if (b >= n) { zw[a]++; continue; }
        z[a]++; z[b]++;
    }
}

void pala_cfile_grain_fields(const pala_cfile *cf, long n, double *z, double *F)
{
    int *zi = malloc(sizeof *zi * (size_t)(2 * n + 1));
    unsigned long long *keys = malloc(sizeof *keys * (size_t)(cf->n + 1));
    pala_vec3 *sum = calloc((size_t)n + 1, sizeof *sum);
    if (!zi || !keys || !sum) { fprintf(stderr, "pala: out of memory\n"); exit(PALA_ERR_IO); }
    pala_contact_coordination(cf->c, cf->n, n, zi, zi + n, keys);
    for (long q = 0; q < cf->n; q++) {   /* the force on i is fn n + ft, on j its negative */
        const pala_contact *c = &cf->c[q];
        if (c->i < 0 || c->i >= n || c->j >= n) continue;
        pala_vec3 f = pala_vaxpy(c->ft, c->fn, c->n);
        sum[c->i] = pala_vadd(sum[c->i], f);
        if (c->j >= 0) sum[c->j] = pala_vsub(sum[c->j], f);
    }
    for (long k = 0; k < n; k++) {
        z[k] = zi[k];
        F[k] = sqrt(pala_vdot(sum[k], sum[k]));
    }
    free(zi); free(keys); free(sum);
}
