/* checkpoint.c: the checkpoint of a run (checkpoint.h; the format is documented in
 * docs/output-formats.md, "checkpoint.bin").
 *
 *   header   "PALACKPT", u32 version, u32 byte-order mark 0x01020304 as written,
 *            u64 payload bytes, u64 FNV-1a 64 of the payload
 *   payload  fields: u16 name length, the name, u32 element size, u64 count, the bytes
 *
 * Numbers are stored in the machine's byte order; a reader of the other order refuses the
 * file (the mark reads 0x04030201).  A field is found by its name, so its place in the file
 * does not matter, and a field a reader does not know is ignored.  The world's state is the
 * table `fields` below: a new accumulator or array of the world (a field work, charges) is
 * one more row there. */
#define _DEFAULT_SOURCE
#include "checkpoint.h"
#include "rundir.h"
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

static const char magic[8] = {'P', 'A', 'L', 'A', 'C', 'K', 'P', 'T'};
enum { HEADER = 8 + 4 + 4 + 8 + 8 };
#define fnv pala_fnv1a
#define FNV0 PALA_FNV0

/* ---- the world's fields -------------------------------------------------------------- */
/* A field of the world: its name, element size, and where it is (count elements).  RESTORE
 * fields are copied into the world on resume; VERIFY fields must equal what the scene
 * built (the grains' templates and numbering: a changed scene or program is refused).  The
 * rows without a function stand for the fields the library names: the walls' state
 * (pala_world_wall_state), and in a world whose grains enter and leave the feeds' state
 * (pala_world_feed_state), whose grains are set first (pala_world_set_population). */
enum { RESTORE, VERIFY, WALLS, FEEDS };
typedef struct field {
    const char *name;
    int mode;
    size_t elem;
    void *(*at)(pala_world *w, long *count);
} field;

#define SCALAR(nm, member) static void *f_##nm(pala_world *w, long *n) { *n = 1; return &w->member; }
#define ARRAY(nm, member, cnt) static void *f_##nm(pala_world *w, long *n) { *n = (cnt); return w->member; }
SCALAR(t, t)
SCALAR(step, step)
SCALAR(dt, dt)
SCALAR(diss, diss)
SCALAR(g, g)
SCALAR(wfield, wfield)
ARRAY(x, x, w->n)
ARRAY(r, r, w->n)
ARRAY(v, v, w->n)
ARRAY(w, w, w->n)
ARRAY(acc, acc, w->n)
ARRAY(bacc, bacc, w->n)
ARRAY(tid, tid, w->n)
ARRAY(gid, gid, w->gid ? w->n : 0)
ARRAY(shape, shape, w->nshape)
ARRAY(shape_r, shape_r, w->nshape)

/* The templates as numbers (a struct's padding has no defined bytes): ncomp, comp0,
 * material, mass, three moments, bounding radius, volume. */
enum { TNUM = 9 };
static double *tbuf;
static void *f_templates(pala_world *w, long *n)
{
    tbuf = realloc(tbuf, (size_t)(w->ntmpl + 1) * TNUM * sizeof *tbuf);
    if (!tbuf) { *n = 0; return NULL; }
    for (int t = 0; t < w->ntmpl; t++) {
        const pala_template *p = &w->tmpl[t];
        double *d = tbuf + TNUM * t;
        d[0] = p->ncomp; d[1] = p->comp0; d[2] = p->material; d[3] = p->mass;
        d[4] = p->inertia[0]; d[5] = p->inertia[1]; d[6] = p->inertia[2]; d[7] = p->bound_radius; d[8] = p->volume;
    }
    *n = (long)w->ntmpl * TNUM;
    return tbuf;
}

static const field fields[] = {
    {"world.t", RESTORE, sizeof(double), f_t},
    {"world.step", RESTORE, sizeof(long), f_step},
    {"world.diss", RESTORE, sizeof(double), f_diss},
    {NULL, WALLS, 0, NULL},     /* here the walls' state, as the library names it (pala_world_wall_state) */
    {NULL, FEEDS, 0, NULL},     /* the feeds' state (pala_world_feed_state): none in most worlds */
    {"world.wfield", RESTORE, sizeof(double), f_wfield},
    {"world.x", RESTORE, sizeof(pala_vec3), f_x},
    {"world.r", RESTORE, sizeof(pala_vec3), f_r},
    {"world.v", RESTORE, sizeof(pala_vec3), f_v},
    {"world.w", RESTORE, sizeof(pala_vec3), f_w},
    {"world.acc", RESTORE, sizeof(pala_vec3), f_acc},
    {"world.bacc", RESTORE, sizeof(pala_vec3), f_bacc},
    {"world.dt", VERIFY, sizeof(double), f_dt},
    {"world.g", VERIFY, sizeof(pala_vec3), f_g},
    {"world.tid", VERIFY, sizeof(int), f_tid},
    {"world.gid", VERIFY, sizeof(int), f_gid},
    {"world.templates", VERIFY, sizeof(double), f_templates},
    {"world.shape", VERIFY, sizeof(pala_vec3), f_shape},
    {"world.shape_r", VERIFY, sizeof(double), f_shape_r},
};
enum { NFIELDS = sizeof fields / sizeof fields[0] };

/* Field j of the library's state of kind mode (WALLS, FEEDS), as pala_world_wall_state. */
static void *state(pala_world *w, int mode, int j, const char **name, size_t *elem, long *count)
{
    return mode == WALLS ? pala_world_wall_state(w, j, name, elem, count) : pala_world_feed_state(w, j, name, elem, count);
}

/* ---- writing ---------------------------------------------------------------------------- */
typedef struct buf { unsigned char *p; size_t n, cap; int bad; } buf;

static void put(buf *b, const void *p, size_t n)
{
    if (b->bad) return;
    if (b->n + n > b->cap) {
        size_t c = b->cap ? b->cap : 4096;
        while (c < b->n + n) c *= 2;
        unsigned char *q = realloc(b->p, c);
        if (!q) { b->bad = 1; return; }
        b->p = q;
        b->cap = c;
    }
    if (n) memcpy(b->p + b->n, p, n);
    b->n += n;
}

static void put_field(buf *b, const char *name, size_t elem, long count, const void *data)
{
    uint16_t l = (uint16_t)strlen(name);
    uint32_t e = (uint32_t)elem;
    uint64_t c = (uint64_t)count;
    put(b, &l, sizeof l);
    put(b, name, l);
    put(b, &e, sizeof e);
    put(b, &c, sizeof c);
    put(b, data, elem * (size_t)count);
}

static void put_run(buf *b, const pala_ckpt_run *r, const pala_world *w)
{
    put_field(b, "run.scene", 1, (long)strlen(r->scene) + 1, r->scene);
    buf s = {0};
    for (int i = 0; i < r->nset; i++) put(&s, r->sets[i], strlen(r->sets[i]) + 1);
    put_field(b, "run.sets", 1, (long)s.n, s.p);
    free(s.p);
    put_field(b, "run.scene_hash", 8, 1, &r->scene_hash);
    put_field(b, "run.data_hash", 8, 1, &r->data_hash);
    put_field(b, "run.settings_hash", 8, 1, &r->settings_hash);
    put_field(b, "run.mesh_hash", 8, 1, &r->mesh_hash);
    put_field(b, "run.steps", sizeof(long), 1, &r->steps);
    put_field(b, "run.status", sizeof(int), 1, &r->status);
    put_field(b, "run.wall", sizeof(double), 1, &r->wall);
    const pala_energy_stats *e = &r->energy;
    double es[8] = {e->initial, e->final, e->min, e->max, e->final_rel, e->max_abs_rel, e->max_abs_bal, (double)e->rows};
    put_field(b, "run.energy_stats", sizeof(double), 8, es);
    put_field(b, "run.energy_drift", sizeof(double), 1, &e->max_abs_drift);
    /* the walls.tsv writer's previous row, for the mean pressures of the next interval */
    double wp[2 + PALA_MAX_WALL_COLUMNS] = {(double)r->walls.rows, r->walls.t};
    memcpy(wp + 2, r->walls.P, sizeof r->walls.P);
    const char *cn[PALA_MAX_WALL_COLUMNS];
    double cv[PALA_MAX_WALL_COLUMNS];
    int nwc = pala_world_wall_columns(w, cn, cv, PALA_MAX_WALL_COLUMNS);
    put_field(b, "run.walls_prev", sizeof(double), 2 + (nwc > PALA_CKPT_WALL_COLUMNS ? nwc : PALA_CKPT_WALL_COLUMNS), wp);
    /* flow.tsv's previous row, for its rates over the next interval */
    double fp[2 + 2 * PALA_MAX_FEEDS] = {(double)r->flow.rows, r->flow.t};
    memcpy(fp + 2, r->flow.count, sizeof r->flow.count);
    memcpy(fp + 2 + PALA_MAX_FEEDS, r->flow.mass, sizeof r->flow.mass);
    put_field(b, "run.flow_prev", sizeof(double), 2 + 2 * PALA_MAX_FEEDS, fp);
    for (int i = 0; i < pala_nwriters; i++) {
        char nm[128];
        pala_writer_key(i, nm, sizeof nm);
        put_field(b, nm, sizeof(long), 1, &r->offset[i]);
    }
}

int pala_ckpt_write(const char *dir, const pala_world *cw, const pala_ckpt_run *r)
{
    pala_world *w = (pala_world *)cw;   /* the field table hands out pointers; nothing is changed */
    buf b = {0};
    unsigned char zero[HEADER] = {0};
    put(&b, zero, HEADER);
    for (int i = 0; i < NFIELDS; i++) {
        long n;
        const char *nm;
        size_t elem;
        void *p;
        if (!fields[i].at)
            for (int j = 0; (p = state(w, fields[i].mode, j, &nm, &elem, &n)); j++) put_field(&b, nm, elem, n, p);
        else {
            p = fields[i].at(w, &n);
            put_field(&b, fields[i].name, fields[i].elem, p ? n : 0, p);
        }
    }
    long nh;
    double *hd = pala_world_history_get(w, &nh);   /* the contacts' springs (docs/physics.md, "Contact history") */
    if (hd) put_field(&b, "world.contacts", sizeof(double), nh, hd);
    free(hd);
    size_t nt;
    void *types = pala_world_grain_types(w, &nt);   /* for a scene that starts from the run (start_from) */
    put_field(&b, PALA_GRAIN_TYPES_FIELD, 1, (long)nt, types);
    free(types);
    put_run(&b, r, w);
    if (b.bad) { free(b.p); fprintf(stderr, "pala: out of memory for the checkpoint\n"); return 1; }
    uint32_t ver = PALA_CKPT_VERSION, bom = 0x01020304u;
    uint64_t len = b.n - HEADER, sum = fnv(FNV0, b.p + HEADER, len);
    memcpy(b.p, magic, 8);
    memcpy(b.p + 8, &ver, 4);
    memcpy(b.p + 12, &bom, 4);
    memcpy(b.p + 16, &len, 8);
    memcpy(b.p + 24, &sum, 8);
    char tmp[4300], path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, PALA_CKPT_FILE);
    pala_tmpname(tmp, sizeof tmp, path);   /* its own: two processes never share one */
    FILE *f = pala_fopen(tmp, "wb");
    int bad = !f;
    if (f) {
        bad |= fwrite(b.p, 1, b.n, f) != b.n;
        bad |= fflush(f) != 0;
        bad |= fsync(fileno(f)) != 0;
        bad |= fclose(f) != 0;
    }
    int e = errno;
    if (!bad && rename(tmp, path) != 0) { bad = 1; e = errno; }
    if (!bad) {   /* the rename itself on the disk (the folder's entry) */
        int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd >= 0) { fsync(fd); close(fd); }
    }
    free(b.p);
    if (bad) {
        unlink(tmp);
        fprintf(stderr, "pala: writing %s failed: %s; %s\n", path, pala_strerror(e),
                access(path, F_OK) == 0 ? "the previous checkpoint is kept" : "there is no checkpoint yet");
    }
    return bad;
}

int pala_ckpt_probe(const char *dir, FILE *err)
{
    char path[4200], tmp[4300];
    snprintf(path, sizeof path, "%s/%s", dir, PALA_CKPT_FILE);
    DIR *d = opendir(dir);   /* the temporary files of writers killed mid-write (the folder is locked: none is live) */
    for (struct dirent *e; d && (e = readdir(d));) {
        if (strncmp(e->d_name, PALA_CKPT_FILE ".tmp.", strlen(PALA_CKPT_FILE) + 5)) continue;
        snprintf(tmp, sizeof tmp, "%s/%s", dir, e->d_name);
        unlink(tmp);
    }
    if (d) closedir(d);
    pala_tmpname(tmp, sizeof tmp, path);
    FILE *f = pala_fopen(tmp, "wb");
    int e = errno;
    if (f) { fclose(f); unlink(tmp); return 0; }
    fprintf(err, "pala resume: %s: cannot create its next checkpoint there (%s): make the folder writable, then resume\n", dir, pala_strerror(e));
    return PALA_ERR_IO;
}

/* ---- reading ---------------------------------------------------------------------------- */
typedef pala_ckfield rfield;
struct pala_ckpt { pala_ckfile c; };

static const rfield *find(const pala_ckpt *c, const char *name) { return pala_ckfile_find(&c->c, name); }

/* The field name of element size elem, count elements if count >= 0; NULL (and a message)
 * if missing or of another shape. */
static const rfield *need(const pala_ckpt *c, const char *path, const char *name, size_t elem, long count, FILE *err)
{
    const rfield *f = find(c, name);
    if (!f) fprintf(err, "pala resume: %s has no field %s: it was written by another version of pala\n", path, name);
    else if (f->elem != elem || (count >= 0 && f->count != (uint64_t)count)) {
        fprintf(err, "pala resume: %s: field %s holds %llu elements of %u bytes, expected %ld of %zu\n", path, name,
                (unsigned long long)f->count, f->elem, count, elem);
        f = NULL;
    }
    return f;
}

void pala_ckpt_free(pala_ckpt *c)
{
    if (!c) return;
    pala_ckfile_free(&c->c);
    free(c);
}

void pala_ckpt_run_free(pala_ckpt_run *r)
{
    for (int i = 0; i < r->nset; i++) free(r->sets[i]);
    free(r->sets);
    r->sets = NULL;
    r->nset = 0;
}

/* a number of rows: whole, from 0 to 2^53 (every such double is a long exactly) */
static int rows_ok(double x) { return x >= 0 && x <= 9007199254740992.0 && x == floor(x); }

int pala_ckpt_read(const char *dir, pala_ckpt **out, pala_ckpt_run *r, FILE *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, PALA_CKPT_FILE);
    memset(r, 0, sizeof *r);
    *out = NULL;
    pala_ckpt *c = calloc(1, sizeof *c);
    char why[256];
    int rc = c ? pala_ckfile_read(path, &c->c, why, sizeof why) : PALA_CKFILE_BAD;
    if (!c) snprintf(why, sizeof why, "out of memory");
    if (rc == PALA_CKFILE_OPEN) fprintf(err, "pala resume: cannot open %s: %s (a run folder written by pala run holds one)\n", path, why);
    else if (rc == PALA_CKFILE_VERSION)
        fprintf(err, "pala resume: %s: %s (%u; this pala reads version %d); rerun the scene instead\n", path, why, c->c.version, PALA_CKPT_VERSION);
    else if (rc == PALA_CKFILE_FIELDS) fprintf(err, "pala resume: %s: %s; refusing to continue from it\n", path, why);
    else if (rc) fprintf(err, "pala resume: %s: %s; refusing to continue from it (rerun the scene instead)\n", path, why);
    if (rc) {
        pala_ckpt_free(c);
        return 1;
    }
    /* the run's fields */
    const rfield *sc = need(c, path, "run.scene", 1, -1, err), *st = need(c, path, "run.sets", 1, -1, err);
    const rfield *h1 = need(c, path, "run.scene_hash", 8, 1, err), *h2 = need(c, path, "run.data_hash", 8, 1, err),
                 *h3 = need(c, path, "run.settings_hash", 8, 1, err), *ns = need(c, path, "run.steps", sizeof(long), 1, err),
                 *ss = need(c, path, "run.status", sizeof(int), 1, err), *wl = need(c, path, "run.wall", sizeof(double), 1, err),
                 *es = need(c, path, "run.energy_stats", sizeof(double), 8, err),
                 *wp = need(c, path, "run.walls_prev", sizeof(double), -1, err);
    int bad = !sc || !st || !h1 || !h2 || !h3 || !ns || !ss || !wl || !es || !wp;
    if (wp && (wp->count < 2 + PALA_CKPT_WALL_COLUMNS || wp->count > 2 + PALA_MAX_WALL_COLUMNS)) {
        fprintf(err, "pala resume: %s: run.walls_prev has %llu values, not 2 + %d to 2 + %d\n", path, (unsigned long long)wp->count,
                PALA_CKPT_WALL_COLUMNS, PALA_MAX_WALL_COLUMNS);
        bad = 1;
    }
    for (int i = 0; i < pala_nwriters && !bad; i++) {
        char nm[128];
        pala_writer_key(i, nm, sizeof nm);
        /* a writer added after the checkpoint was written (trajectory.bin) had no file then */
        const rfield *o = find(c, nm) ? need(c, path, nm, sizeof(long), 1, err) : NULL;
        if (!o) r->offset[i] = -1, bad = find(c, nm) != NULL;
        else memcpy(&r->offset[i], o->data, sizeof(long));
    }
    for (int i = 0; i < NFIELDS && !bad; i++)
        if (fields[i].at && !need(c, path, fields[i].name, fields[i].elem, -1, err)) bad = 1;
    if (!bad && (sc->count == 0 || sc->count > sizeof r->scene || sc->data[sc->count - 1] != 0 || (st->count && st->data[st->count - 1] != 0))) {
        fprintf(err, "pala resume: %s: the scene path or the overrides are malformed\n", path);
        bad = 1;
    }
    if (bad) { pala_ckpt_free(c); return 1; }
    memcpy(r->scene, sc->data, sc->count);
    for (size_t i = 0; i < st->count; i += strlen((const char *)st->data + i) + 1) {
        char **q = realloc(r->sets, (size_t)(r->nset + 1) * sizeof *q);
        char *s = strdup((const char *)st->data + i);
        if (!q || !s) { free(s); free(q ? q : r->sets); r->sets = NULL; r->nset = 0; pala_ckpt_free(c); return 1; }
        r->sets = q;
        r->sets[r->nset++] = s;
    }
    memcpy(&r->scene_hash, h1->data, 8);
    memcpy(&r->data_hash, h2->data, 8);
    memcpy(&r->settings_hash, h3->data, 8);
    const rfield *h4 = find(c, "run.mesh_hash");   /* (an older checkpoint has none: not compared) */
    r->has_mesh_hash = h4 && h4->elem == 8 && h4->count == 1;
    if (r->has_mesh_hash) memcpy(&r->mesh_hash, h4->data, 8);
    memcpy(&r->steps, ns->data, sizeof(long));
    memcpy(&r->status, ss->data, sizeof(int));
    memcpy(&r->wall, wl->data, sizeof(double));
    double e[8];
    memcpy(e, es->data, sizeof e);
    double pw[2 + PALA_MAX_WALL_COLUMNS] = {0};
    memcpy(pw, wp->data, (size_t)wp->count * sizeof(double));
    /* the row counts are doubles in the file: whole and in range before they become longs */
    if (!rows_ok(e[7]) || !rows_ok(pw[0])) {
        fprintf(err, "pala resume: %s: the row count of %s is not a whole number from 0 to 2^53; refusing to continue from it\n",
                path, rows_ok(e[7]) ? "walls.tsv" : "energy.tsv");
        pala_ckpt_run_free(r);
        pala_ckpt_free(c);
        return 1;
    }
    r->energy = (pala_energy_stats){(long)e[7], e[0], e[1], e[2], e[3], e[4], e[5], e[6], -1};
    /* not in checkpoints of builds before session 16: -1, unknown (run.c bounds it) */
    const rfield *ed = find(c, "run.energy_drift") ? need(c, path, "run.energy_drift", sizeof(double), 1, err) : NULL;
    if (ed) memcpy(&r->energy.max_abs_drift, ed->data, sizeof(double));
    else if (find(c, "run.energy_drift")) {
        pala_ckpt_run_free(r);
        pala_ckpt_free(c);
        return 1;
    }
    r->walls.rows = (long)pw[0];
    r->walls.t = pw[1];
    memcpy(r->walls.P, pw + 2, sizeof r->walls.P);
    const rfield *fw = find(c, "run.flow_prev");   /* not in checkpoints of builds before flow.tsv */
    if (fw && fw->elem == sizeof(double) && fw->count == 2 + 2 * PALA_MAX_FEEDS) {
        double fp[2 + 2 * PALA_MAX_FEEDS];
        memcpy(fp, fw->data, sizeof fp);
        if (!rows_ok(fp[0])) {   /* as energy.tsv's and walls.tsv's (a double no long may hold: found by the checkpoint target, session 26) */
            fprintf(err, "pala resume: %s: the row count of flow.tsv is not a whole number from 0 to 2^53; refusing to continue from it\n", path);
            pala_ckpt_run_free(r);
            pala_ckpt_free(c);
            return 1;
        }
        r->flow.rows = (long)fp[0];
        r->flow.t = fp[1];
        memcpy(r->flow.count, fp + 2, sizeof r->flow.count);
        memcpy(r->flow.mass, fp + 2 + PALA_MAX_FEEDS, sizeof r->flow.mass);
    }
    *out = c;
    return 0;
}

/* A world whose grains enter and leave: its grains as the checkpoint's (their count, numbers
 * and templates), before their state is put back. */
static int population(const pala_ckpt *c, pala_world *w, FILE *err)
{
    const rfield *t = need(c, "the checkpoint", "world.tid", sizeof(int), -1, err), *g = need(c, "the checkpoint", "world.gid", sizeof(int), -1, err),
                 *ni = need(c, "the checkpoint", "world.nid", sizeof(int), 1, err);
    if (!t || !g || !ni) return 1;
    if ((g->count && g->count != t->count) || t->count > 0x7fffffff) {
        fprintf(err, "pala resume: the checkpoint's grains are malformed (%llu templates, %llu numbers)\n", (unsigned long long)t->count, (unsigned long long)g->count);
        return 1;
    }
    int n = (int)t->count, nid;
    int *tid = malloc((size_t)(n + 1) * sizeof *tid), *gid = g->count ? malloc((size_t)n * sizeof *gid) : NULL;
    if (!tid || (g->count && !gid)) { free(tid); free(gid); fprintf(err, "pala resume: out of memory for the grains\n"); return 1; }
    memcpy(tid, t->data, (size_t)n * sizeof *tid);
    if (gid) memcpy(gid, g->data, (size_t)n * sizeof *gid);
    memcpy(&nid, ni->data, sizeof nid);
    int bad = pala_world_set_population(w, n, nid, tid, gid);
    free(tid); free(gid);
    if (bad) fprintf(err, "pala resume: %s; rerun the scene instead\n", pala_world_error(w));
    return bad;
}

/* A world whose grains were stored in a new order during the run (pala_world_resort, key
 * sort_every): the checkpoint holds the scene's grains, each number with its template, in
 * another order, which the world takes before its state is put back.  0: not so (the checks
 * of pala_ckpt_apply then say what differs), 1: the world took it, -1: refused. */
static int reordered(const pala_ckpt *c, pala_world *w, FILE *err)
{
    const rfield *t = find(c, "world.tid"), *g = find(c, "world.gid");
    int n = w->n;
    if (!t || !g || n < 1 || !w->gid || t->elem != sizeof(int) || g->elem != sizeof(int) || t->count != (uint64_t)n ||
        g->count != (uint64_t)n)
        return 0;
    int *tid = malloc((size_t)n * sizeof *tid), *gid = malloc((size_t)n * sizeof *gid);
    unsigned char *seen = calloc((size_t)n, 1);
    int ok = tid && gid && seen, moved = 0;
    if (ok) { memcpy(tid, t->data, (size_t)n * sizeof *tid); memcpy(gid, g->data, (size_t)n * sizeof *gid); }
    for (int k = 0; ok && k < n; k++) {   /* number gid[k]: the scene's grain of that number, once, of its template */
        int i = gid[k], ks = i >= 0 && i < w->nid ? w->inv[i] : -1;
        ok = ks >= 0 && !seen[ks] && w->tid[ks] == tid[k];
        if (ok) seen[ks] = 1;
        moved |= ks != k;
    }
    int r = ok && moved;
    if (r && pala_world_set_population(w, n, w->nid, tid, gid)) {
        fprintf(err, "pala resume: %s; rerun the scene instead\n", pala_world_error(w));
        r = -1;
    }
    free(tid); free(gid); free(seen);
    return r;
}

int pala_ckpt_apply(const pala_ckpt *c, pala_world *w, FILE *err)
{
    const rfield *hc = find(c, "world.contacts");
    if (pala_world_keeps_contacts(w) && (!hc || hc->elem != sizeof(double))) {
        fprintf(err, "pala resume: this scene's contacts keep a history (a tangential, rolling or torsion spring), and the "
                "checkpoint does not hold it (written by an older pala): rerun the scene instead\n");
        return 1;
    }
    /* first every VERIFY field and the shape of the walls' and feeds' state, then the state:
     * a refused world is left as built (but for its grains, when they enter and leave) */
    const char *nm;
    size_t elem;
    long n;
    void *p;
    for (int m = WALLS; m <= FEEDS; m++)
        for (int j = 0; (p = state(w, m, j, &nm, &elem, &n)); j++)
            if (!need(c, "the checkpoint", nm, elem, n, err)) return 1;
    int feeds = pala_world_feed_state(w, 0, &nm, &elem, &n) != NULL;
    if (feeds && population(c, w, err)) return 1;
    int moved = feeds ? 0 : reordered(c, w, err);
    if (moved < 0) return 1;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < NFIELDS; i++) {
            if (!fields[i].at) {
                for (int j = 0; pass == 1 && (p = state(w, fields[i].mode, j, &nm, &elem, &n)); j++) memcpy(p, find(c, nm)->data, (size_t)n * elem);
                continue;
            }
            if ((fields[i].mode == VERIFY) != (pass == 0)) continue;
            const rfield *f = find(c, fields[i].name);
            p = fields[i].at(w, &n);
            if (f->count != (uint64_t)n || (n && memcmp(p, f->data, (size_t)n * fields[i].elem))) {
                if (pass == 0)
                    fprintf(err, "pala resume: the scene builds another world than the checkpoint's (%s differs: %s); "
                            "the control file, a file it reads, or pala itself changed since the run: rerun the scene instead\n",
                            fields[i].name, f->count != (uint64_t)n ? "another count" : "other values");
                else if (f->count != (uint64_t)n) {
                    fprintf(err, "pala resume: the checkpoint has %llu values of %s, the world %ld\n", (unsigned long long)f->count, fields[i].name, n);
                    return 1;
                }
                if (pass == 0) return 1;
            }
            if (pass == 1 && n) memcpy(p, f->data, (size_t)n * fields[i].elem);
        }
    if ((feeds || moved) && pala_world_prepare(w)) {   /* set up for its grains, before their contacts' states */
        fprintf(err, "pala resume: the checkpoint's grains do not fit the scene: %s; rerun the scene instead\n", pala_world_error(w));
        return 1;
    }
    if (hc) {   /* copied out: the file's bytes need not be aligned for doubles */
        double *d = malloc(hc->count ? (size_t)hc->count * sizeof *d : 1);
        if (!d) { fprintf(err, "pala resume: out of memory for the contacts' states\n"); return 1; }
        memcpy(d, hc->data, (size_t)hc->count * sizeof *d);
        int bad = pala_world_history_set(w, d, (long)hc->count);
        free(d);
        if (bad) { fprintf(err, "pala resume: %s; rerun the scene instead\n", pala_world_error(w)); return 1; }
    }
    return 0;
}

uint64_t pala_ckpt_state_hash(const pala_ckpt *c)
{
    /* the world's fields in the file's order (the table's, the walls' state in its place)
     * but those pala_ckpt_apply verifies and the grain types, then the contacts */
    uint64_t h = FNV0;
    for (int i = 0; i < c->c.nf; i++) {
        const rfield *f = &c->c.f[i];
        int restore = f->nlen > 6 && !memcmp(f->name, "world.", 6) && !(f->nlen == 14 && !memcmp(f->name, "world.contacts", 14)) &&
                      f != pala_ckfile_find(&c->c, PALA_GRAIN_TYPES_FIELD);   /* what start_from needs, not state */
        for (int j = 0; j < NFIELDS && restore; j++)
            if (fields[j].mode == VERIFY && f->nlen == strlen(fields[j].name) && !memcmp(f->name, fields[j].name, f->nlen)) restore = 0;
        if (restore) h = fnv(h, f->data, (size_t)(f->elem * f->count));
    }
    const rfield *f = find(c, "world.contacts");
    if (f) h = fnv(h, f->data, (size_t)(f->elem * f->count));
    return h;
}

void pala_ckpt_where(const pala_ckpt *c, int *n, double *t, long *step)
{
    const rfield *x = find(c, "world.x"), *tt = find(c, "world.t"), *s = find(c, "world.step"), *d = find(c, "world.dt");
    double dt;
    *n = x->count > INT_MAX ? INT_MAX : (int)x->count;
    memcpy(t, tt->data, sizeof *t);
    memcpy(step, s->data, sizeof *step);
    memcpy(&dt, d->data, sizeof dt);
    /* the time as energy.tsv writes it, step x dt (pala_output_time), not the sum of the
     * steps' dt, which has gathered round-off */
    if (fabs(*t - (double)*step * dt) <= 0.25 * dt) *t = (double)*step * dt;
}

/* ---- the scene's identity --------------------------------------------------------------- */
static int hash_file(const char *path, uint64_t *h, FILE *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(err, "pala: cannot read %s: %s\n", path, strerror(errno)); return 1; }
    unsigned char b[65536];
    size_t k;
    *h = FNV0;
    while ((k = fread(b, 1, sizeof b, f)) > 0) *h = fnv(*h, b, k);
    int bad = ferror(f);
    fclose(f);
    if (bad) fprintf(err, "pala: cannot read %s\n", path);
    return bad;
}

int pala_ckpt_hash_scene(pala_ckpt_run *r, const pala_scene *sc, const char *scene_path, FILE *err)
{
    if (hash_file(scene_path, &r->scene_hash, err)) return 1;
    const char *data = pala_scene_get(sc, "lammps_data");
    r->data_hash = 0;
    if (data && hash_file(data, &r->data_hash, err)) return 1;
    /* each [wall]'s mesh file (its path resolved: resolve_paths, scene.c); a grain's mesh
     * shows in its template, which the checkpoint holds */
    const char *k, *v;
    r->mesh_hash = 0;
    for (int i = 0; pala_scene_setting(sc, i, &k, &v); i++) {
        size_t L = strlen(k);
        uint64_t fh;
        if (strncmp(k, "wall.", 5) || L < 10 || strcmp(k + L - 5, ".file") || !*v) continue;
        if (hash_file(v, &fh, err)) return 1;
        r->mesh_hash = fnv(r->mesh_hash ? r->mesh_hash : FNV0, &fh, sizeof fh);
    }
    r->has_mesh_hash = 1;
    /* every effective setting but the run length, which a resume may change */
    uint64_t h = FNV0;
    for (int i = 0; pala_scene_setting(sc, i, &k, &v); i++) {
        if (!strcmp(k, "steps") || !strcmp(k, "end_time")) continue;
        h = fnv(h, k, strlen(k) + 1);
        h = fnv(h, v, strlen(v) + 1);
    }
    r->settings_hash = h;
    return 0;
}
