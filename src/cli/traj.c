/* traj.c: reading trajectory.txt (docs/output-formats.md) and the same view of a running
 * world (traj.h). */
#include "traj.h"
#include "rundir.h"
#include <errno.h>
#include <limits.h>
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

static void count_pebbles(pala_traj *t)
{
    t->npeb = 0;
    for (int k = 0; k < t->n; k++) t->npeb += t->ncomp[t->tid[k]];
}

static void alloc_state(pala_traj *t)
{
    t->x = xcalloc((size_t)t->n, sizeof *t->x);
    t->r = xcalloc((size_t)t->n, sizeof *t->r);
    t->v = xcalloc((size_t)t->n, sizeof *t->v);
    t->w = xcalloc((size_t)t->n, sizeof *t->w);
    t->cap = t->n;
    count_pebbles(t);
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) { fprintf(stderr, "pala: out of memory\n"); exit(PALA_ERR_IO); }
    return p;
}

/* A variable trajectory: room for a frame of n grains (the arrays grow, never shrink). */
static void room(pala_traj *t, int n)
{
    if (n <= t->cap && t->id) return;
    size_t c = (size_t)(n > 2 * t->cap ? n : 2 * t->cap);
    t->x = xrealloc(t->x, c * sizeof *t->x);
    t->r = xrealloc(t->r, c * sizeof *t->r);
    t->v = xrealloc(t->v, c * sizeof *t->v);
    t->w = xrealloc(t->w, c * sizeof *t->w);
    t->tid = xrealloc(t->tid, c * sizeof *t->tid);
    t->id = xrealloc(t->id, c * sizeof *t->id);
    t->cap = (int)c;
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
    if (ver != PALA_TRAJ_BIN_VERSION && ver != PALA_TRAJ_BIN_VARIABLE) {
        char m[128];
        snprintf(m, sizeof m, "format version %u, this pala reads versions %u and %u", ver, PALA_TRAJ_BIN_VERSION, PALA_TRAJ_BIN_VARIABLE);
        return bad_bin(t, err, m);
    }
    struct stat st;
    if (fstat(fileno(t->f), &st) != 0 || hl < 20 || hl > (uint64_t)st.st_size - PALA_TRAJ_BIN_HEAD)
        return bad_bin(t, err, "the header's length runs past the end of the file (truncated?)");
    char *txt = malloc((size_t)hl);
    if (!txt) { fprintf(stderr, "pala: out of memory\n"); exit(PALA_ERR_IO); }
    if (fread(txt, 1, (size_t)hl, t->f) != (size_t)hl) { free(txt); return bad_bin(t, err, "the file ends inside its header"); }
    FILE *bin = t->f;
    t->data0 = PALA_TRAJ_BIN_HEAD + (long)hl;   /* the header's bytes bound its sizes (header_bytes) */
    t->f = fmemopen(txt, (size_t)hl, "r");
    if (!t->f) { fprintf(stderr, "pala: out of memory\n"); exit(PALA_ERR_IO); }
    int rc = read_header(t, err);
    fclose(t->f);
    free(txt);
    t->f = bin;
    if (rc) return rc;
    if (t->variable != (ver == PALA_TRAJ_BIN_VARIABLE)) return bad_bin(t, err, "the versions of the head and of the header differ");
    if (t->n != n) return bad_bin(t, err, "the grains of the head and of the header differ");
    t->binary = 1;
    t->fbuf = xcalloc(16 + 96 * (size_t)t->n, 1);
    return PALA_OK;
}

int pala_traj_open(pala_traj *t, const char *run, FILE *err)
{
    static char pathbuf[4200];
    memset(t, 0, sizeof *t);
    pala_world_init(&t->walls);
    struct stat st;
    if (stat(run, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(pathbuf, sizeof pathbuf, "%s/trajectory.txt", run);
        if (stat(pathbuf, &st) != 0) {   /* a run with trajectory_format = binary */
            snprintf(pathbuf, sizeof pathbuf, "%s/trajectory.bin", run);
            if (stat(pathbuf, &st) != 0) snprintf(pathbuf, sizeof pathbuf, "%s/trajectory.txt", run);
        }
    } else snprintf(pathbuf, sizeof pathbuf, "%s", run);
    t->path = pathbuf;
    t->f = pala_fopen(pathbuf, "r");
    if (!t->f) {
        fprintf(err, "pala: cannot read %s: %s; give a run folder (written by pala run) or its trajectory.txt or trajectory.bin\n", pathbuf, pala_strerror(errno));
        return PALA_ERR_INPUT;
    }
    char magic[8] = {0};
    size_t got = fread(magic, 1, 8, t->f);
    if (got == 8 && !memcmp(magic, PALA_TRAJ_BIN_MAGIC, 8)) return open_binary(t, err);
    if (got > 0 && got < 8 && !memcmp(magic, PALA_TRAJ_BIN_MAGIC, got)) return bad_bin(t, err, "the file ends inside its first 24 bytes");
    rewind(t->f);
    return read_header(t, err);
}

/* The bytes of the header being read: the file (trajectory.txt), or the text header of
 * trajectory.bin in memory.  Every count the header gives is bounded by them before
 * anything of that count is allocated: a template takes at least two lines (16 bytes),
 * a grain's template index two bytes. */
static long header_bytes(const pala_traj *t)
{
    struct stat st;
    int fd = fileno(t->f);
    if (fd >= 0) return fstat(fd, &st) == 0 ? (long)st.st_size : 0;
    return t->data0 - PALA_TRAJ_BIN_HEAD;
}

static int read_header(pala_traj *t, FILE *err)
{
    t->dim = 3;
    snprintf(t->container, sizeof t->container, "none");
    char *l = next_line(t);
    if (!l && t->line == 0) {   /* nothing to point at: no line 0 */
        fprintf(err, "%s: the file is empty (a run killed before it wrote its first frame?); is this a trajectory.txt written by pala run?\n", t->path);
        return PALA_ERR_INPUT;
    }
    if (!l || strncmp(l, "# pala trajectory", 17) != 0) return bad(t, err, "expected '# pala trajectory 1' on the first line");
    int version = atoi(l + 17);
    if (version > 2) return bad(t, err, "a trajectory of a later version than this pala reads (1 and 2)");
    t->variable = version == 2;   /* grains enter and leave: each frame names its grains */
    /* keyword lines up to `templates`; unknown keywords are skipped (later versions may add some) */
    for (;;) {
        if (!(l = next_line(t))) return bad(t, err, "the file ends before 'templates N'");
        char kw[64];
        int off = 0;
        if (sscanf(l, "%63s%n", kw, &off) != 1) continue;
        const char *a = l + off;
        if (!strcmp(kw, "dimension")) t->walls.dim = t->dim = atoi(a) == 2 ? 2 : 3;
        else if (!strcmp(kw, "container")) sscanf(a, "%31s", t->container);
        else if (!strcmp(kw, "gravity")) {
            char *e = (char *)a;
            t->g.x = strtod(e, &e); t->g.y = strtod(e, &e); t->g.z = strtod(e, &e);
        } else if (!strcmp(kw, "templates")) { t->ntmpl = atoi(a); break; }
        else if (pala_world_wall_read(&t->walls, l) < 0) return bad(t, err, "a wall's line that this pala cannot read");   /* a kind's line (container.h) */
    }
    long bytes = header_bytes(t);
    if (t->ntmpl < 1 || t->ntmpl > bytes / 16) return bad(t, err, "expected 'templates N' with N >= 1 (and N templates following)");
    t->tname = xcalloc((size_t)t->ntmpl, sizeof *t->tname);
    t->ncomp = xcalloc((size_t)t->ntmpl, sizeof *t->ncomp);
    t->comp0 = xcalloc((size_t)t->ntmpl, sizeof *t->comp0);
    t->bound = xcalloc((size_t)t->ntmpl, sizeof *t->bound);
    t->mass = xcalloc((size_t)t->ntmpl, sizeof *t->mass);
    t->volume = xcalloc((size_t)t->ntmpl, sizeof *t->volume);
    size_t cap = 64;
    t->shape = xcalloc(cap, sizeof *t->shape);
    t->srad = xcalloc(cap, sizeof *t->srad);
    int arcs_seen = 0;
    for (int i = 0; i < t->ntmpl; i++) {
        int idx, nc;
        char name[64];
        if (!(l = next_line(t)) || sscanf(l, "template %d %63s ncomp %d", &idx, name, &nc) != 3 || idx != i || nc < 1)
            return bad(t, err, "expected 'template I NAME ncomp N ...'");
        const char *br = strstr(l, "bound_radius ");
        t->bound[i] = br ? strtod(br + 13, NULL) : 0;
        const char *ms = strstr(l, " mass "), *vo = strstr(l, " volume ");
        t->mass[i] = ms ? strtod(ms + 6, NULL) : 0;
        t->volume[i] = vo ? strtod(vo + 8, NULL) : 0;
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
            double rad, a0 = 0, a1 = 0;
            int got = (l = next_line(t)) ? sscanf(l, "%lf %lf %lf %lf %lf %lf", &b.x, &b.y, &b.z, &rad, &a0, &a1) : 0;
            if (got != 4 && got != 6) return bad(t, err, "expected a component line 'bx by bz radius' (an arc's: and 'a0 a1')");
            if (got == 6 || t->sarc) {   /* arcs: the ends' directions of every component from now on */
                t->sarc = realloc(t->sarc, 2 * cap * sizeof *t->sarc);
                if (!t->sarc) { fprintf(stderr, "pala: out of memory\n"); exit(PALA_ERR_IO); }
                if (got == 6 && t->nshape > 0 && !arcs_seen) memset(t->sarc, 0, 2 * (size_t)t->nshape * sizeof *t->sarc);
                arcs_seen = 1;
                t->sarc[2 * t->nshape] = a0;
                t->sarc[2 * t->nshape + 1] = a1;
            }
            t->shape[t->nshape] = b;
            t->srad[t->nshape++] = rad;
        }
    }
    if (t->variable) {
        if (!(l = next_line(t)) || strncmp(l, "grains variable", 15)) return bad(t, err, "expected 'grains variable' (a trajectory of version 2)");
        t->n = 0;
        room(t, 0);
        return PALA_OK;
    }
    if (!(l = next_line(t)) || sscanf(l, "grains %d", &t->n) != 1 || t->n < 0 || t->n > bytes / 2)
        return bad(t, err, "expected 'grains N' (and N template indices following)");
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
    long npeb = 0;
    for (int k = 0; k < t->n; k++) npeb += t->ncomp[t->tid[k]];
    if (npeb > INT_MAX) return bad(t, err, "the grains have more than 2^31 component spheres in all");
    alloc_state(t);
    return PALA_OK;
}

/* The last frame is cut off (a run killed while writing it, or still writing it): the
 * frames before it are whole and are what there is.  Returns 0, the end. */
static int cut_off(pala_traj *t, FILE *err)
{
    if (t->frames) fprintf(err, "pala: %s: frame %ld is cut off at the end of the file (a run stopped while writing it, or still writing); "
                                "the %ld frames before it are read\n", t->path, t->frames, t->frames);
    else fprintf(err, "pala: %s: its first frame is cut off at the end of the file (a run stopped while writing it, or still writing)\n", t->path);
    return 0;
}

/* Frame of version 2: its head (step, time, count), then per grain its number, template and
 * state. */
static int next_binary_variable(pala_traj *t, FILE *err)
{
    unsigned char h[24];
    size_t got = fread(h, 1, sizeof h, t->f);
    if (got == 0 && feof(t->f)) return 0;
    uint64_t n = got == sizeof h ? pala_get_le64(h + 16) : 0;
    if (got != sizeof h && feof(t->f)) return cut_off(t, err);
    if (got != sizeof h) {
        fprintf(err, "%s: reading frame %ld failed: %s\n", t->path, t->frames, strerror(errno));
        return -1;
    }
    if (n > 0x7fffffff) {
        fprintf(err, "%s: frame %ld: its head says %llu grains; is this a trajectory.bin written by pala run?\n", t->path, t->frames, (unsigned long long)n);
        return -1;
    }
    room(t, (int)n);
    free(t->fbuf);
    t->fbuf = xcalloc(104 * (size_t)n + 1, 1);
    size_t len = 104 * (size_t)n;
    if (fread(t->fbuf, 1, len, t->f) != len) return cut_off(t, err);
    t->n = (int)n;
    t->step = (long)(int64_t)pala_get_le64(h);
    t->walls.t = t->time = pala_get_le_double(h + 8);
    const unsigned char *p = t->fbuf;
    for (int k = 0; k < t->n; k++, p += 104) {
        t->id[k] = (int)(pala_get_le64(p) & 0xffffffffu);
        t->tid[k] = (int)(pala_get_le64(p) >> 32);
        if (t->tid[k] < 0 || t->tid[k] >= t->ntmpl || (k > 0 && t->id[k] <= t->id[k - 1])) {
            fprintf(err, "%s: frame %ld: grain %d has template %d or number %d out of order; is this a trajectory.bin written by pala run?\n", t->path,
                    t->frames, k, t->tid[k], t->id[k]);
            return -1;
        }
        const unsigned char *q = p + 8;
        t->x[k] = pala_v(pala_get_le_double(q), pala_get_le_double(q + 8), pala_get_le_double(q + 16));
        t->r[k] = pala_v(pala_get_le_double(q + 24), pala_get_le_double(q + 32), pala_get_le_double(q + 40));
        t->v[k] = pala_v(pala_get_le_double(q + 48), pala_get_le_double(q + 56), pala_get_le_double(q + 64));
        t->w[k] = pala_v(pala_get_le_double(q + 72), pala_get_le_double(q + 80), pala_get_le_double(q + 88));
    }
    count_pebbles(t);
    t->frames++;
    return 1;
}

static int next_binary(pala_traj *t, FILE *err)
{
    if (t->variable) return next_binary_variable(t, err);
    size_t len = 16 + 96 * (size_t)t->n, got = fread(t->fbuf, 1, len, t->f);
    if (got == 0 && feof(t->f)) return 0;
    if (got != len) return cut_off(t, err);
    const unsigned char *p = t->fbuf;
    t->step = (long)(int64_t)pala_get_le64(p);
    t->walls.t = t->time = pala_get_le_double(p + 8);
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
    if (t->binary && t->variable) {   /* from frame head to frame head; a frame cut off is not counted */
        struct stat st;
        long at = here;
        unsigned char h[24];
        if (fstat(fileno(t->f), &st) != 0) return t->frames;
        while (fseek(t->f, at, SEEK_SET) == 0 && fread(h, 1, sizeof h, t->f) == sizeof h) {
            uint64_t m = pala_get_le64(h + 16);
            if (m > 0x7fffffff || at + 24 + 104 * (long)m > (long)st.st_size) break;
            at += 24 + 104 * (long)m;
            n++;
        }
        fseek(t->f, here, SEEK_SET);
        return t->frames + n;
    }
    if (t->binary) {
        struct stat st;
        if (fstat(fileno(t->f), &st) == 0 && st.st_size > t->data0) n = (long)((st.st_size - t->data0) / (16 + 96 * (long)t->n));
        return n;
    }
    char *line = NULL;   /* the whole frames: a head, then as many whole lines as it has grains */
    size_t cap = 0;
    ssize_t len;
    long want = -1, got = 0;
    while ((len = getline(&line, &cap, t->f)) >= 0) {
        int whole = len > 0 && line[len - 1] == '\n';
        if (!strncmp(line, "frame ", 6) && whole) {
            long st, m = t->n;
            double tm;
            want = t->variable && sscanf(line, "frame %ld %lf %ld", &st, &tm, &m) != 3 ? -1 : m;
            got = 0;
        } else if (want >= 0 && whole) got++;
        if (want >= 0 && got == want) { n++; want = -1; }
    }
    free(line);
    fseek(t->f, here, SEEK_SET);
    return t->frames + n;
}

/* Grain k's line of a text frame (pala_rows_parse's callback): 1 if it is not one; a bad
 * number or template of a variable frame leaves tid[k] = -1. */
static int grain_row(void *ctx, char *e, long k)
{
    pala_traj *t = ctx;
    if (t->variable) {   /* the grain's number and template first */
        long id = strtol(e, &e, 10), tp = strtol(e, &e, 10);
        if (tp < 0 || tp >= t->ntmpl || id < 0 || id > 0x7fffffff) { t->tid[k] = -1; return 1; }
        t->id[k] = (int)id;
        t->tid[k] = (int)tp;
    }
    double q[12];
    for (int i = 0; i < 12; i++) {
        char *e2;
        q[i] = strtod(e, &e2);
        if (e2 == e) return 1;
        e = e2;
    }
    t->x[k] = pala_v(q[0], q[1], q[2]);
    t->r[k] = pala_v(q[3], q[4], q[5]);
    t->v[k] = pala_v(q[6], q[7], q[8]);
    t->w[k] = pala_v(q[9], q[10], q[11]);
    return 0;
}

static int ends_line(const char *l) { size_t n = strlen(l); return n > 0 && l[n - 1] == '\n'; }

int pala_traj_next(pala_traj *t, FILE *err)
{
    if (t->binary) return next_binary(t, err);
    char *l = next_line(t);
    if (!l) return 0;
    if (!ends_line(l) && feof(t->f)) return cut_off(t, err);
    /* the frame's head is taken only once its rows are whole: a cut-off frame leaves the
     * last whole one as it was (its step, time and grains) */
    int n = t->n;
    long step;
    double time;
    if (t->variable ? sscanf(l, "frame %ld %lf %d", &step, &time, &n) != 3 || n < 0 : sscanf(l, "frame %ld %lf", &step, &time) != 2) {
        bad(t, err, t->variable ? "expected 'frame STEP TIME GRAINS'" : "expected 'frame STEP TIME'");
        return -1;
    }
    if (t->variable) room(t, n);
    /* the rows' text, then their numbers, by several threads on a large frame (par.h) */
    long line0 = t->line;
    long nr = pala_rows_read(&t->rows, t->f, n, &t->line);   /* short only at the end of the file, or a failed read */
    if (nr < n && ferror(t->f)) {
        fprintf(err, "%s:%ld: reading the file failed: %s\n", t->path, t->line, strerror(errno));
        return -1;
    }
    if (nr < n || (nr > 0 && feof(t->f) && !ends_line(t->rows.text + t->rows.off[nr - 1]))) return cut_off(t, err);
    t->step = step;
    t->walls.t = t->time = time;
    t->n = n;
    long k = pala_rows_parse(&t->rows, grain_row, t);
    for (long j = 1; t->variable && j < k; j++)
        if (t->id[j] <= t->id[j - 1]) { k = j; break; }
    if (k < t->n) {
        t->line = line0 + 1 + k;
        long id = t->variable ? strtol(t->rows.text + t->rows.off[k], NULL, 10) : 0;
        bad(t, err, t->variable && (t->tid[k] < 0 || (k > 0 && id <= t->id[k - 1]) || id < 0 || id > 0x7fffffff)
                        ? "expected 'NUMBER TEMPLATE x y z ...' with a template of the header and numbers increasing"
                        : "expected 12 numbers 'x y z rx ry rz vx vy vz wx wy wz'");
        return -1;
    }
    if (t->variable) count_pebbles(t);
    t->frames++;
    return 1;
}

void pala_traj_close(pala_traj *t)
{
    if (t->f) fclose(t->f);
    free(t->tname); free(t->ncomp); free(t->comp0); free(t->bound); free(t->mass); free(t->volume); free(t->shape); free(t->srad); free(t->sarc);
    free(t->tid); free(t->id); free(t->x); free(t->r); free(t->v); free(t->w); free(t->buf); free(t->fbuf);
    pala_rows_free(&t->rows);
    pala_world_free(&t->walls);
    memset(t, 0, sizeof *t);
}

void pala_traj_from_world(pala_traj *t, const pala_world *w)
{
    memset(t, 0, sizeof *t);
    t->dim = w->dim;
    int c = 0;
    const char *k0 = pala_world_wall_kind(w, 0, &c);
    snprintf(t->container, sizeof t->container, "%s", k0 && c ? k0 : "none");
    pala_world_init(&t->walls);
    pala_world_copy_walls(&t->walls, w);
    t->g = w->g;
    t->ntmpl = w->ntmpl;
    t->tname = xcalloc((size_t)w->ntmpl, sizeof *t->tname);
    t->ncomp = xcalloc((size_t)w->ntmpl, sizeof *t->ncomp);
    t->comp0 = xcalloc((size_t)w->ntmpl, sizeof *t->comp0);
    t->bound = xcalloc((size_t)w->ntmpl, sizeof *t->bound);
    t->mass = xcalloc((size_t)w->ntmpl, sizeof *t->mass);
    t->volume = xcalloc((size_t)w->ntmpl, sizeof *t->volume);
    t->nshape = w->nshape;
    t->shape = xcalloc((size_t)w->nshape, sizeof *t->shape);
    t->srad = xcalloc((size_t)w->nshape, sizeof *t->srad);
    memcpy(t->shape, w->shape, (size_t)w->nshape * sizeof *t->shape);
    memcpy(t->srad, w->shape_r, (size_t)w->nshape * sizeof *t->srad);
    if (w->arc) {   /* as the trajectory's header writes them (writers.c) */
        t->sarc = xcalloc(2 * (size_t)w->nshape, sizeof *t->sarc);
        for (int i = 0; i < w->nshape; i++) {
            if (w->arc[i].ch < -1) continue;
            double mid = atan2(w->arc[i].my, w->arc[i].mx), h = acos(w->arc[i].ch);
            t->sarc[2 * i] = mid - h;
            t->sarc[2 * i + 1] = mid + h;
        }
    }
    for (int i = 0; i < w->ntmpl; i++) {
        snprintf(t->tname[i], sizeof t->tname[i], "%s", w->tmpl[i].name);
        t->ncomp[i] = w->tmpl[i].ncomp;
        t->comp0[i] = w->tmpl[i].comp0;
        t->bound[i] = w->tmpl[i].bound_radius;
        t->mass[i] = w->tmpl[i].mass;
        t->volume[i] = w->tmpl[i].volume;
    }
    pala_feed_report r;
    t->variable = pala_world_feed_report(w, 0, &r) == 0;   /* grains enter or leave */
    t->n = t->variable ? 0 : w->n;
    t->tid = xcalloc((size_t)w->n, sizeof *t->tid);
    for (int i = 0; i < t->n; i++) t->tid[i] = w->tid[w->gid ? w->inv[i] : i];
    alloc_state(t);
}

void pala_traj_take(pala_traj *t, const pala_world *w)
{
    t->step = w->step;
    double t0 = (double)w->step * w->dt;   /* as trajectory.txt prints it (writers.c) */
    t->walls.t = t->time = fabs(w->t - t0) > 0.25 * w->dt ? ((double)w->step + 0.5) * w->dt : t0;
    if (t->variable) room(t, w->n);
    int m = 0;
    for (int i = 0; i < (t->variable && w->gid ? w->nid : w->n); i++) {
        int k = w->gid ? w->inv[i] : i;
        if (k < 0) continue;   /* a grain that left */
        t->x[m] = w->x[k]; t->r[m] = w->r[k]; t->v[m] = w->v[k]; t->w[m] = w->w[k];
        if (t->variable) { t->id[m] = i; t->tid[m] = w->tid[k]; }
        m++;
    }
    if (t->variable) {
        t->n = m;
        count_pebbles(t);
    }
    t->frames++;
}

int pala_traj_shapes(const pala_traj *t, pala_draw *out, int max)
{
    int n = 0;
    for (int i = 0; i < t->walls.nwalls; i++) n += pala_world_wall_draw(&t->walls, i, out + n, max - n);
    return n;
}

pala_vec3 pala_traj_centre(const pala_traj *t, int k, int c)
{
    return pala_vadd(t->x[k], pala_rot_apply(t->r[k], t->shape[c]));
}

pala_vec3 pala_traj_comp_sphere(const pala_traj *t, int k, int c, double *R)
{
    pala_vec3 p = pala_traj_centre(t, k, c);
    *R = t->srad[c];
    if (!pala_traj_is_arc(t, c)) return p;
    double mid = 0.5 * (t->sarc[2 * c] + t->sarc[2 * c + 1]), h = 0.5 * (t->sarc[2 * c + 1] - t->sarc[2 * c]);
    if (h > 0.5 * PALA_PI) return p;   /* as the neighbour list's (docs/physics.md, "Arc grains") */
    pala_vec3 m = pala_rot_apply(t->r[k], pala_v(cos(mid), sin(mid), 0));
    p = pala_vaxpy(p, *R * cos(h), m);
    *R *= sin(h);
    return p;
}

int pala_traj_arcs(const pala_traj *t, int k, pala_vec3 *pts, double *rad, double *span, int max)
{
    const int c0 = t->comp0[t->tid[k]], nc = t->ncomp[t->tid[k]];
    if (!pala_traj_is_arc(t, c0) || nc > max) return 0;
    for (int i = 0; i < nc; i++) {
        const int c = c0 + i;
        double a0 = t->sarc[2 * c];
        pts[i] = pala_vadd(pala_traj_centre(t, k, c), pala_vscale(t->srad[c], pala_rot_apply(t->r[k], pala_v(cos(a0), sin(a0), 0))));
        rad[i] = t->srad[c];
        span[i] = t->sarc[2 * c + 1] - a0;
    }
    return nc;
}

pala_vec3 pala_traj_comp_velocity(const pala_traj *t, int k, pala_vec3 centre)
{
    return pala_vadd(t->v[k], pala_vcross(t->w[k], pala_vsub(centre, t->x[k])));
}

void pala_traj_grain_bounds(const pala_traj *t, pala_vec3 *lo, pala_vec3 *hi)
{
    pala_vec3 a = pala_v(HUGE_VAL, HUGE_VAL, HUGE_VAL), b = pala_v(-HUGE_VAL, -HUGE_VAL, -HUGE_VAL);
    for (int k = 0; k < t->n; k++) {
        const int t0 = t->comp0[t->tid[k]], nc = t->ncomp[t->tid[k]];
        for (int c = t0; c < t0 + nc; c++) {
            pala_vec3 p = pala_traj_is_arc(t, c) ? t->x[k] : pala_traj_centre(t, k, c);   /* an arc: within the grain's bound */
            double R = pala_traj_is_arc(t, c) ? t->bound[t->tid[k]] : t->srad[c];
            a = pala_v(fmin(a.x, p.x - R), fmin(a.y, p.y - R), fmin(a.z, p.z - R));
            b = pala_v(fmax(b.x, p.x + R), fmax(b.y, p.y + R), fmax(b.z, p.z + R));
        }
    }
    if (t->n == 0) { a = pala_v(-1, -1, -1); b = pala_v(1, 1, 1); }
    *lo = a;
    *hi = b;
}

void pala_traj_bounds(const pala_traj *t, pala_vec3 *lo, pala_vec3 *hi)
{
    pala_vec3 a, b;
    pala_traj_grain_bounds(t, &a, &b);
    pala_draw d[PALA_TRAJ_SHAPES];
    int nd = pala_traj_shapes(t, d, PALA_TRAJ_SHAPES);
    double sl[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, sh[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int i = 0; i < nd; i++) {
        if (d[i].guide) continue;
        pala_vec3 p[4];
        int np = 0;
        if (d[i].shape == PALA_DRAW_BOX) { p[0] = d[i].p[0]; p[1] = d[i].p[1]; np = 2; }
        else if (d[i].shape == PALA_DRAW_QUAD) { for (np = 0; np < 4; np++) p[np] = d[i].p[np]; }
        else if (d[i].shape == PALA_DRAW_SPHERE) {
            double R = d[i].r, m = t->dim == 2 ? 0 : R;
            for (int c = 0; t->dim == 2 && c < t->nshape; c++) m = fmax(m, t->srad[c]);   /* a circle: as thick as the largest sphere */
            p[0] = pala_v(d[i].p[0].x - R, d[i].p[0].y - R, t->dim == 2 ? -m : d[i].p[0].z - R);
            p[1] = pala_v(d[i].p[0].x + R, d[i].p[0].y + R, t->dim == 2 ? m : d[i].p[0].z + R);
            np = 2;
        }
        for (int j = 0; j < np; j++) {
            const double q[3] = {p[j].x, p[j].y, p[j].z};
            for (int ax = 0; ax < 3; ax++) { sl[ax] = fmin(sl[ax], q[ax]); sh[ax] = fmax(sh[ax], q[ax]); }
        }
    }
    /* an axis the shapes bound replaces the spheres' */
    if (isfinite(sl[0]) && isfinite(sh[0])) { a.x = sl[0]; b.x = sh[0]; }
    if (isfinite(sl[1]) && isfinite(sh[1])) { a.y = sl[1]; b.y = sh[1]; }
    if (isfinite(sl[2]) && isfinite(sh[2])) { a.z = sl[2]; b.z = sh[2]; }
    *lo = a;
    *hi = b;
}

typedef struct tname_at { const char *name; int i; } tname_at;
static int by_tname(const void *a, const void *b)
{
    const tname_at *p = a, *q = b;
    int c = strcmp(p->name, q->name);
    return c ? c : (p->i > q->i) - (p->i < q->i);
}

int *pala_traj_name_colours(const pala_traj *t)
{
    int n = t->ntmpl, *col = xcalloc((size_t)n, sizeof *col), *first = xcalloc((size_t)n, sizeof *first);
    tname_at *v = xcalloc((size_t)n, sizeof *v);
    for (int i = 0; i < n; i++) v[i] = (tname_at){t->tname[i], i};
    qsort(v, (size_t)n, sizeof *v, by_tname);   /* a name's templates together, the first first */
    for (int k = 0; k < n; k++) first[v[k].i] = k && !strcmp(v[k].name, v[k - 1].name) ? first[v[k - 1].i] : v[k].i;
    for (int i = 0, next = 0; i < n; i++) col[i] = first[i] == i ? next++ : col[first[i]];
    free(v);
    free(first);
    return col;
}

int pala_traj_kinds(const pala_traj *t, int *kind)
{
    int *col = pala_traj_name_colours(t), n = 0;
    for (int i = 0; i < t->ntmpl; i++) {
        kind[i] = col[i];
        n = col[i] + 1 > n ? col[i] + 1 : n;
    }
    free(col);
    return n;
}
