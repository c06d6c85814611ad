/* traj.c: reading trajectory.txt (docs/output-formats.md) and the same view of a running
 * world (traj.h). */
#include "traj.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) { fprintf(stderr, "pala: out of memory\n"); exit(PALA_ERR_IO); }
    return p;
}

void pala_traj_rundir(const char *run, char *buf, size_t len)
{
    struct stat st;
    if (stat(run, &st) == 0 && S_ISDIR(st.st_mode)) { snprintf(buf, len, "%s", run); return; }
    const char *sl = strrchr(run, '/');
    if (!sl) snprintf(buf, len, ".");
    else snprintf(buf, len, "%.*s", (int)(sl - run), run);
}

static char *next_line(pala_traj *t)
{
    ssize_t k = getline(&t->buf, &t->buflen, t->f);
    if (k < 0) return NULL;
    t->line++;
    return t->buf;
}

static int bad(pala_traj *t, FILE *err, const char *what)
{
    fprintf(err, "%s:%ld: %s; is this a trajectory.txt written by pala run?\n", t->path, t->line, what);
    return PALA_ERR_INPUT;
}

static void alloc_state(pala_traj *t)
{
    t->x = xcalloc((size_t)t->n, sizeof *t->x);
    t->r = xcalloc((size_t)t->n, sizeof *t->r);
    t->v = xcalloc((size_t)t->n, sizeof *t->v);
    t->w = xcalloc((size_t)t->n, sizeof *t->w);
    t->npeb = 0;
    for (int k = 0; k < t->n; k++) t->npeb += t->ncomp[t->tid[k]];
}

static int read_header(pala_traj *t, FILE *err);

static int bad_bin(pala_traj *t, FILE *err, const char *what)
{
    fprintf(err, "%s: %s; is this a trajectory.bin written by pala run?\n", t->path, what);
    return PALA_ERR_INPUT;
}

/* trajectory.bin: the fixed head, then the text header read as trajectory.txt's */
static int open_binary(pala_traj *t, FILE *err)
{
    unsigned char h[PALA_TRAJ_BIN_HEAD];
    rewind(t->f);
    if (fread(h, 1, sizeof h, t->f) != sizeof h) return bad_bin(t, err, "the file ends inside its first 24 bytes");
    uint32_t ver = (uint32_t)(pala_get_le64(h + 8) & 0xffffffffu);
    long n = (long)(pala_get_le64(h + 8) >> 32);
    uint64_t hl = pala_get_le64(h + 16);
    if (ver != PALA_TRAJ_BIN_VERSION) {
        char m[128];
        snprintf(m, sizeof m, "format version %u, this pala reads version %u", ver, PALA_TRAJ_BIN_VERSION);
        return bad_bin(t, err, m);
    }
    struct stat st;
    if (fstat(fileno(t->f), &st) != 0 || hl < 20 || hl > (uint64_t)st.st_size - PALA_TRAJ_BIN_HEAD)
        return bad_bin(t, err, "the header's length runs past the end of the file (truncated?)");
    char *txt = malloc((size_t)hl);
    if (!txt) { fprintf(stderr, "pala: out of memory\n"); exit(PALA_ERR_IO); }
    if (fread(txt, 1, (size_t)hl, t->f) != (size_t)hl) { free(txt); return bad_bin(t, err, "the file ends inside its header"); }
    FILE *bin = t->f;
    t->f = fmemopen(txt, (size_t)hl, "r");
    if (!t->f) { fprintf(stderr, "pala: out of memory\n"); exit(PALA_ERR_IO); }
    int rc = read_header(t, err);
    fclose(t->f);
    free(txt);
    t->f = bin;
    if (rc) return rc;
    if (t->n != n) return bad_bin(t, err, "the grains of the head and of the header differ");
    t->binary = 1;
    t->data0 = PALA_TRAJ_BIN_HEAD + (long)hl;
    t->fbuf = xcalloc(16 + 96 * (size_t)t->n, 1);
    return PALA_OK;
}

int pala_traj_open(pala_traj *t, const char *run, FILE *err)
{
    static char pathbuf[4200];
    memset(t, 0, sizeof *t);
    struct stat st;
    if (stat(run, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(pathbuf, sizeof pathbuf, "%s/trajectory.txt", run);
        if (stat(pathbuf, &st) != 0) {   /* a run with trajectory_format = binary */
            snprintf(pathbuf, sizeof pathbuf, "%s/trajectory.bin", run);
            if (stat(pathbuf, &st) != 0) snprintf(pathbuf, sizeof pathbuf, "%s/trajectory.txt", run);
        }
    } else snprintf(pathbuf, sizeof pathbuf, "%s", run);
    t->path = pathbuf;
    t->f = fopen(pathbuf, "r");
    if (!t->f) {
        fprintf(err, "pala: cannot read %s: %s; give a run folder (written by pala run) or its trajectory.txt or trajectory.bin\n", pathbuf, strerror(errno));
        return PALA_ERR_INPUT;
    }
    char magic[8] = {0};
    size_t got = fread(magic, 1, 8, t->f);
    if (got == 8 && !memcmp(magic, PALA_TRAJ_BIN_MAGIC, 8)) return open_binary(t, err);
    if (got > 0 && got < 8 && !memcmp(magic, PALA_TRAJ_BIN_MAGIC, got)) return bad_bin(t, err, "the file ends inside its first 24 bytes");
    rewind(t->f);
    return read_header(t, err);
}

static int read_header(pala_traj *t, FILE *err)
{
    t->dim = 3;
    t->container = PALA_CONTAINER_NONE;
    char *l = next_line(t);
    if (!l || strncmp(l, "# pala trajectory", 17) != 0) return bad(t, err, "expected '# pala trajectory 1' on the first line");
    /* keyword lines up to `templates`; unknown keywords are skipped (later versions may add some) */
    for (;;) {
        if (!(l = next_line(t))) return bad(t, err, "the file ends before 'templates N'");
        char kw[64];
        int off = 0;
        if (sscanf(l, "%63s%n", kw, &off) != 1) continue;
        const char *a = l + off;
        if (!strcmp(kw, "dimension")) t->dim = atoi(a) == 2 ? 2 : 3;
        else if (!strcmp(kw, "container")) {
            char c[32] = "";
            sscanf(a, "%31s", c);
            t->container = !strcmp(c, "box") ? PALA_CONTAINER_BOX : !strcmp(c, "cavity") ? PALA_CONTAINER_CAVITY : PALA_CONTAINER_NONE;
        } else if (!strcmp(kw, "box")) {
            double b[6];
            char *e = (char *)a;
            for (int i = 0; i < 6; i++) b[i] = strtod(e, &e);
            t->box_lo = pala_v(b[0], b[2], b[4]);
            t->box_hi = pala_v(b[1], b[3], b[5]);
        } else if (!strcmp(kw, "cavity")) {
            char *e = (char *)a;
            t->cav_c.x = strtod(e, &e); t->cav_c.y = strtod(e, &e); t->cav_c.z = strtod(e, &e);
            t->cav_R = strtod(e, &e);
        } else if (!strcmp(kw, "membrane")) {
            char ax = 0;
            if (sscanf(a, " %c %lf", &ax, &t->mem_pos) == 2 && ax >= 'x' && ax <= 'z') t->mem_axis = ax - 'x' + 1;
        } else if (!strcmp(kw, "gravity")) {
            char *e = (char *)a;
            t->g.x = strtod(e, &e); t->g.y = strtod(e, &e); t->g.z = strtod(e, &e);
        } else if (!strcmp(kw, "templates")) { t->ntmpl = atoi(a); break; }
    }
    if (t->ntmpl < 1 || t->ntmpl > 100000000) return bad(t, err, "expected 'templates N' with N >= 1");
    t->tname = xcalloc((size_t)t->ntmpl, sizeof *t->tname);
    t->ncomp = xcalloc((size_t)t->ntmpl, sizeof *t->ncomp);
    t->comp0 = xcalloc((size_t)t->ntmpl, sizeof *t->comp0);
    t->bound = xcalloc((size_t)t->ntmpl, sizeof *t->bound);
    size_t cap = 64;
    t->shape = xcalloc(cap, sizeof *t->shape);
    t->srad = xcalloc(cap, sizeof *t->srad);
    for (int i = 0; i < t->ntmpl; i++) {
        int idx, nc;
        char name[64];
        if (!(l = next_line(t)) || sscanf(l, "template %d %63s ncomp %d", &idx, name, &nc) != 3 || idx != i || nc < 1)
            return bad(t, err, "expected 'template I NAME ncomp N ...'");
        const char *br = strstr(l, "bound_radius ");
        t->bound[i] = br ? strtod(br + 13, NULL) : 0;
        snprintf(t->tname[i], sizeof t->tname[i], "%s", name);
        t->ncomp[i] = nc;
        t->comp0[i] = t->nshape;
        for (int c = 0; c < nc; c++) {
            if ((size_t)t->nshape == cap) {
                cap *= 2;
                t->shape = realloc(t->shape, cap * sizeof *t->shape);
                t->srad = realloc(t->srad, cap * sizeof *t->srad);
                if (!t->shape || !t->srad) { fprintf(stderr, "pala: out of memory\n"); exit(PALA_ERR_IO); }
            }
            pala_vec3 b;
            double rad;
            if (!(l = next_line(t)) || sscanf(l, "%lf %lf %lf %lf", &b.x, &b.y, &b.z, &rad) != 4)
                return bad(t, err, "expected a component line 'bx by bz radius'");
            t->shape[t->nshape] = b;
            t->srad[t->nshape++] = rad;
        }
    }
    if (!(l = next_line(t)) || sscanf(l, "grains %d", &t->n) != 1 || t->n < 0) return bad(t, err, "expected 'grains N'");
    t->tid = xcalloc((size_t)t->n, sizeof *t->tid);
    int got = 0;
    while (got < t->n) {
        if (!(l = next_line(t))) return bad(t, err, "the template indices of the grains end early");
        char *e = l;
        for (;;) {
            char *e2;
            long v = strtol(e, &e2, 10);
            if (e2 == e) break;
            if (v < 0 || v >= t->ntmpl || got >= t->n) return bad(t, err, "a grain's template index is out of range");
            t->tid[got++] = (int)v;
            e = e2;
        }
    }
    alloc_state(t);
    return PALA_OK;
}

static int next_binary(pala_traj *t, FILE *err)
{
    size_t len = 16 + 96 * (size_t)t->n, got = fread(t->fbuf, 1, len, t->f);
    if (got == 0 && feof(t->f)) return 0;
    if (got != len) {
        fprintf(err, "%s: frame %ld is cut off after %zu of its %zu bytes (the run was stopped while writing, or the "
                "file was truncated); the frames before it are whole\n", t->path, t->frames, got, len);
        return -1;
    }
    const unsigned char *p = t->fbuf;
    t->step = (long)(int64_t)pala_get_le64(p);
    t->time = pala_get_le_double(p + 8);
    p += 16;
    for (int k = 0; k < t->n; k++) {
        pala_vec3 *q[4] = {&t->x[k], &t->r[k], &t->v[k], &t->w[k]};
        for (int j = 0; j < 4; j++, p += 24) *q[j] = pala_v(pala_get_le_double(p), pala_get_le_double(p + 8), pala_get_le_double(p + 16));
    }
    t->frames++;
    return 1;
}

long pala_traj_count(pala_traj *t)
{
    long here = ftell(t->f), n = 0;
    if (t->binary) {
        struct stat st;
        if (fstat(fileno(t->f), &st) == 0 && st.st_size > t->data0) n = (long)((st.st_size - t->data0) / (16 + 96 * (long)t->n));
        return n;
    }
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, t->f) >= 0) n += !strncmp(line, "frame ", 6);
    free(line);
    fseek(t->f, here, SEEK_SET);
    return t->frames + n;
}

int pala_traj_next(pala_traj *t, FILE *err)
{
    if (t->binary) return next_binary(t, err);
    char *l = next_line(t);
    if (!l) return 0;
    if (sscanf(l, "frame %ld %lf", &t->step, &t->time) != 2) { bad(t, err, "expected 'frame STEP TIME'"); return -1; }
    for (int k = 0; k < t->n; k++) {
        if (!(l = next_line(t))) { bad(t, err, "the frame ends early (fewer grain lines than 'grains N')"); return -1; }
        double q[12];
        char *e = l;
        for (int i = 0; i < 12; i++) {
            char *e2;
            q[i] = strtod(e, &e2);
            if (e2 == e) { bad(t, err, "expected 12 numbers 'x y z rx ry rz vx vy vz wx wy wz'"); return -1; }
            e = e2;
        }
        t->x[k] = pala_v(q[0], q[1], q[2]);
        t->r[k] = pala_v(q[3], q[4], q[5]);
        t->v[k] = pala_v(q[6], q[7], q[8]);
        t->w[k] = pala_v(q[9], q[10], q[11]);
    }
    t->frames++;
    return 1;
}

void pala_traj_close(pala_traj *t)
{
    if (t->f) fclose(t->f);
    free(t->tname); free(t->ncomp); free(t->comp0); free(t->bound); free(t->shape); free(t->srad);
    free(t->tid); free(t->x); free(t->r); free(t->v); free(t->w); free(t->buf); free(t->fbuf);
    memset(t, 0, sizeof *t);
}

void pala_traj_from_world(pala_traj *t, const pala_world *w)
{
    memset(t, 0, sizeof *t);
    t->dim = w->dim;
    t->container = w->container;
    t->box_lo = w->box_lo;
    t->box_hi = w->box_hi;
    t->cav_c = w->cav_c;
    t->cav_R = w->cav_R;
    t->g = w->g;
    t->mem_axis = w->membrane >= 1 && w->membrane <= 3 ? w->membrane : 0;
    t->mem_pos = w->mem_pos;
    t->ntmpl = w->ntmpl;
    t->tname = xcalloc((size_t)w->ntmpl, sizeof *t->tname);
    t->ncomp = xcalloc((size_t)w->ntmpl, sizeof *t->ncomp);
    t->comp0 = xcalloc((size_t)w->ntmpl, sizeof *t->comp0);
    t->bound = xcalloc((size_t)w->ntmpl, sizeof *t->bound);
    t->nshape = w->nshape;
    t->shape = xcalloc((size_t)w->nshape, sizeof *t->shape);
    t->srad = xcalloc((size_t)w->nshape, sizeof *t->srad);
    memcpy(t->shape, w->shape, (size_t)w->nshape * sizeof *t->shape);
    memcpy(t->srad, w->shape_r, (size_t)w->nshape * sizeof *t->srad);
    for (int i = 0; i < w->ntmpl; i++) {
        snprintf(t->tname[i], sizeof t->tname[i], "%s", w->tmpl[i].name);
        t->ncomp[i] = w->tmpl[i].ncomp;
        t->comp0[i] = w->tmpl[i].comp0;
        t->bound[i] = w->tmpl[i].bound_radius;
    }
    t->n = w->n;
    t->tid = xcalloc((size_t)w->n, sizeof *t->tid);
    for (int i = 0; i < w->n; i++) t->tid[i] = w->tid[w->gid ? w->inv[i] : i];
    alloc_state(t);
}

void pala_traj_take(pala_traj *t, const pala_world *w)
{
    t->step = w->step;
    double t0 = (double)w->step * w->dt;   /* as trajectory.txt prints it (writers.c) */
    t->time = fabs(w->t - t0) > 0.25 * w->dt ? ((double)w->step + 0.5) * w->dt : t0;
    for (int i = 0; i < w->n; i++) {
        int k = w->gid ? w->inv[i] : i;
        t->x[i] = w->x[k]; t->r[i] = w->r[k]; t->v[i] = w->v[k]; t->w[i] = w->w[k];
    }
    t->frames++;
}

pala_vec3 pala_traj_centre(const pala_traj *t, int k, int c)
{
    return pala_vadd(t->x[k], pala_rot_apply(t->r[k], t->shape[c]));
}

pala_vec3 pala_traj_comp_velocity(const pala_traj *t, int k, pala_vec3 centre)
{
    return pala_vadd(t->v[k], pala_vcross(t->w[k], pala_vsub(centre, t->x[k])));
}

void pala_traj_bounds(const pala_traj *t, pala_vec3 *lo, pala_vec3 *hi)
{
    pala_vec3 a = pala_v(HUGE_VAL, HUGE_VAL, HUGE_VAL), b = pala_v(-HUGE_VAL, -HUGE_VAL, -HUGE_VAL);
    for (int k = 0; k < t->n; k++) {
        const int t0 = t->comp0[t->tid[k]], nc = t->ncomp[t->tid[k]];
        for (int c = t0; c < t0 + nc; c++) {
            pala_vec3 p = pala_traj_centre(t, k, c);
            double R = t->srad[c];
            a = pala_v(fmin(a.x, p.x - R), fmin(a.y, p.y - R), fmin(a.z, p.z - R));
            b = pala_v(fmax(b.x, p.x + R), fmax(b.y, p.y + R), fmax(b.z, p.z + R));
        }
    }
    if (t->n == 0) { a = pala_v(-1, -1, -1); b = pala_v(1, 1, 1); }
    if (t->container == PALA_CONTAINER_BOX) {
        pala_vec3 bl = t->box_lo, bh = t->box_hi;
        a.x = bl.x; a.y = bl.y; b.x = bh.x; b.y = bh.y;
        if (isfinite(bl.z) && isfinite(bh.z)) { a.z = bl.z; b.z = bh.z; }
    } else if (t->container == PALA_CONTAINER_CAVITY) {
        double R = t->cav_R;
        a = pala_v(t->cav_c.x - R, t->cav_c.y - R, t->cav_c.z - R);
        b = pala_v(t->cav_c.x + R, t->cav_c.y + R, t->cav_c.z + R);
        if (t->dim == 2) {   /* a circle: z as thick as the largest sphere */
            double m = 0;
            for (int c = 0; c < t->nshape; c++) m = fmax(m, t->srad[c]);
            a.z = -m; b.z = m;
        }
    }
    *lo = a;
    *hi = b;
}
