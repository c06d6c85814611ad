/* writers.c: the writers of a run folder (writer.h) and the functions that drive them.
 * Each format is described in docs/output-formats.md; the bytes written here are that
 * format, so a change to them is a change of the documented format. */
#define _DEFAULT_SOURCE   /* ftruncate */
#include "writer.h"
#include "export.h"
#include "contacts.h"
#include "measure.h"
#include "rundir.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The time of the current state as every file of a run prints it: step * dt, one
 * rounding (the library's w->t is a running sum of half steps, which drifts in the last
 * digits).  A run never changes dt, so this is the exact time of the step.  The last
 * state of an unstable run is half a step past its step (docs/physics.md, "Unstable
 * runs"), which w->t shows: then (step + 1/2) dt. */
double pala_output_time(const pala_world *w)
{
    double t = (double)w->step * w->dt;
    return fabs(w->t - t) > 0.25 * w->dt ? ((double)w->step + 0.5) * w->dt : t;
}
#include <unistd.h>

/* ---- energy.tsv: energies and contact diagnostics ------------------------------------ */

/* E_pair, W_field, E_in and E_out, and m_align are written only by worlds that have them
 * (pala_world_energy_terms). */
static void energy_open(FILE *f, pala_output *o)
{
    int terms = pala_world_energy_terms(o->w);
    fprintf(f, "step\ttime\tE_kin\tE_rot\tE_contact\tE_field\t%sE_total\tdE_rel\tE_diss\t%s%sdE_bal_rel\tcontacts\tmax_overlap%s\n",
            terms & PALA_TERM_PAIR ? "E_pair\t" : "", terms & PALA_TERM_WFIELD ? "W_field\t" : "",
            terms & PALA_TERM_WWALL ? (terms & PALA_TERM_FEED ? "W_walls\tE_in\tE_out\t" : "W_walls\t") : terms & PALA_TERM_FEED ? "E_in\tE_out\t" : "",
            terms & PALA_TERM_ALIGN ? "\tm_align" : "");
}

/* A row, and the statistics of E_total over the rows for summary.tsv.  The energy's
 * contact pass also sets the row's contacts and max_overlap. */
static void energy_frame(FILE *f, pala_output *o)
{
    pala_world *w = o->w;
    pala_energy_stats *es = &o->energy;
    pala_energy e = pala_world_energy(w);
    if (es->rows++ == 0) { es->initial = es->min = es->max = e.total; es->max_abs_rel = es->max_abs_bal = es->max_abs_drift = 0; }
    int terms = pala_world_energy_terms(w);
    /* relative to E_total(0), and to the energy brought in by grains that came since */
    double den = terms & PALA_TERM_FEED ? fabs(es->initial) + fabs(w->ein) : fabs(es->initial);
    if (den == 0) den = 1.0;   /* dE_rel of E_total(0) = 0: per joule */
    double rel = (e.total - es->initial) / den;
    double ww = terms & PALA_TERM_WWALL ? pala_world_wall_work(w) : 0;
    double sum = e.total + w->diss - w->wfield - ww;   /* docs/physics.md, "Energy accounting" */
    if (terms & PALA_TERM_FEED) sum += w->eout - w->ein;   /* "Grains that enter and leave" */
    double bal = (sum - es->initial) / den;
    if (e.total < es->min) es->min = e.total;
    if (e.total > es->max) es->max = e.total;
    if (fabs(rel) > es->max_abs_rel) es->max_abs_rel = fabs(rel);
    if (fabs(bal) > es->max_abs_bal || bal != bal) es->max_abs_bal = fabs(bal);
    if (fabs(sum - es->initial) > es->max_abs_drift || sum != sum) es->max_abs_drift = fabs(sum - es->initial);
    es->final = e.total;
    es->final_rel = rel;
    fprintf(f, "%ld\t%.17g\t%.16g\t%.16g\t%.16g\t%.16g\t", w->step, pala_output_time(w), e.kin, e.rot, e.contact, e.field);
    if (terms & PALA_TERM_PAIR) fprintf(f, "%.16g\t", e.inter);
    fprintf(f, "%.16g\t%.10g\t%.16g\t", e.total, rel, w->diss);
    if (terms & PALA_TERM_WFIELD) fprintf(f, "%.16g\t", w->wfield);
    if (terms & PALA_TERM_WWALL) fprintf(f, "%.16g\t", ww);
    if (terms & PALA_TERM_FEED) fprintf(f, "%.16g\t%.16g\t", w->ein, w->eout);
    fprintf(f, "%.10g\t%ld\t%.6g", bal, w->ncontact, w->worst_overlap);
    if (terms & PALA_TERM_ALIGN) fprintf(f, "\t%.6f", pala_world_dipole_alignment(w));
    fputc('\n', f);
}

/* ---- walls.tsv: momentum received by the walls, mean pressures ------------------------ */

/* The momentum columns of the world (pala_world_wall_columns), then a mean pressure column
 * p_... for each that is a normal momentum: its increase since the previous row over
 * (interval x area), 0 in the first row. */
static void walls_open(FILE *f, pala_output *o)
{
    const char *nm[PALA_MAX_WALL_COLUMNS];
    double val[PALA_MAX_WALL_COLUMNS], area[PALA_MAX_WALL_COLUMNS];
    int nc = pala_world_wall_columns(o->w, nm, val, PALA_MAX_WALL_COLUMNS);
    pala_world_wall_areas(o->w, area, PALA_MAX_WALL_COLUMNS);
    fprintf(f, "step\ttime");
    for (int i = 0; i < nc; i++) fprintf(f, "\t%s", nm[i]);
    for (int i = 0; i < nc; i++)
        if (area[i] > 0) fprintf(f, "\tp%s", nm[i] + 1);   /* P_xlo -> p_xlo */
    for (int i = 0; i < nc; i++)
        if (area[i] < 0) fprintf(f, "\t%c%s", nm[i][0] == 'L' ? 'T' : 'F', nm[i] + 1);   /* P_floor_x -> F_floor_x, L_ -> T_ */
    fputc('\n', f);
}

static void walls_frame(FILE *f, pala_output *o)
{
    const char *nm[PALA_MAX_WALL_COLUMNS];
    double val[PALA_MAX_WALL_COLUMNS], area[PALA_MAX_WALL_COLUMNS];
    pala_wall_prev *pv = &o->walls;
    int nc = pala_world_wall_columns(o->w, nm, val, PALA_MAX_WALL_COLUMNS);
    pala_world_wall_areas(o->w, area, PALA_MAX_WALL_COLUMNS);
    double dt = pv->rows ? o->w->t - pv->t : 0;
    fprintf(f, "%ld\t%.17g", o->w->step, pala_output_time(o->w));
    for (int i = 0; i < nc; i++) fprintf(f, "\t%.12g", val[i]);
    for (int i = 0; i < nc; i++)
        if (area[i] > 0) fprintf(f, "\t%.12g", dt > 0 ? (val[i] - pv->P[i]) / (dt * area[i]) + 0.0 : 0.0);
    for (int i = 0; i < nc; i++)   /* the mean force and torque over the interval */
        if (area[i] < 0) fprintf(f, "\t%.12g", dt > 0 ? (val[i] - pv->P[i]) / dt + 0.0 : 0.0);
    fputc('\n', f);
    for (int i = 0; i < nc; i++) pv->P[i] = val[i];
    pv->t = o->w->t;
    pv->rows++;
}

/* ---- flow.tsv: the grains that entered and left (worlds with inserters or outlets) ------ */

/* Per inserter its grains and their mass so far and the grains it is behind; per outlet its
 * grains and mass so far and, over the interval since the previous row, the rates at which
 * they left (the discharge rate in kg/s), 0 in the first row. */
static void flow_open(FILE *f, pala_output *o)
{
    pala_feed_report r;
    fprintf(f, "step\ttime\tgrains");
    for (int i = 0; pala_world_feed_report(o->w, i, &r) == 0; i++)
        if (r.outlet) fprintf(f, "\tout_%s\tout_mass_%s\trate_%s\tdischarge_%s", r.name, r.name, r.name, r.name);
        else fprintf(f, "\tin_%s\tin_mass_%s\tbehind_%s", r.name, r.name, r.name);
    fputc('\n', f);
}

static void flow_frame(FILE *f, pala_output *o)
{
    pala_flow_prev *pv = &o->flow;
    pala_feed_report r;
    double t = pala_output_time(o->w), dt = pv->rows ? t - pv->t : 0;
    fprintf(f, "%ld\t%.17g\t%d", o->w->step, t, o->w->n);
    for (int i = 0; pala_world_feed_report(o->w, i, &r) == 0 && i < PALA_MAX_FEEDS; i++) {
        if (r.outlet)
            fprintf(f, "\t%ld\t%.12g\t%.12g\t%.12g", r.count, r.mass, dt > 0 ? (r.count - pv->count[i]) / dt : 0.0,
                    dt > 0 ? (r.mass - pv->mass[i]) / dt + 0.0 : 0.0);
        else fprintf(f, "\t%ld\t%.12g\t%ld", r.count, r.mass, r.behind);
        pv->count[i] = (double)r.count;
        pv->mass[i] = r.mass;
    }
    fputc('\n', f);
    pv->t = t;
    pv->rows++;
}

static long flow_every(const pala_scene *sc)
{
    pala_feed_report r;
    return pala_world_feed_report(pala_scene_world((pala_scene *)sc), 0, &r) == 0 ? pala_scene_energy_every(sc) : -1;
}

/* ---- trajectory.txt: the templates once, then frames of the grains' state ------------- */

/* A world whose grains enter or leave (an inserter, an outlet): its trajectory is of
 * version 2, each frame with its count and each grain with its number and template. */
static int variable(const pala_world *w)
{
    pala_feed_report r;
    return pala_world_feed_report(w, 0, &r) == 0;
}

/* The numbers grains were given so far: the storage index of number i < numbers(w) is
 * stored(w, i), -1 for a grain that left. */
static int numbers(const pala_world *w) { return w->gid ? w->nid : w->n; }
static int stored(const pala_world *w, int i) { return w->gid ? w->inv[i] : i; }

/* the header of both forms: trajectory.txt's lines up to the template index of each grain */
static void traj_header(FILE *f, const pala_world *w)
{
    fprintf(f, "# pala trajectory %d\n", variable(w) ? 2 : 1);
    fprintf(f, "dimension %d\n", w->dim);
    /* the scene's geometry, so a reader needs no other file (docs/output-formats.md): the
     * container's kind and its line, the walls' columns, the line of each wall inside it */
    int c = 0;
    const char *k0 = pala_world_wall_kind(w, 0, &c);
    char line[512];
    fprintf(f, "container %s\n", k0 && c ? k0 : "none");
    if (k0 && c && pala_world_wall_line(w, 0, line, sizeof line) < (int)sizeof line) fprintf(f, "%s\n", line);
    const char *nm[PALA_MAX_WALL_COLUMNS];
    double val[PALA_MAX_WALL_COLUMNS];
    int nc = pala_world_wall_columns(w, nm, val, PALA_MAX_WALL_COLUMNS);
    fprintf(f, "walls %d", nc);
    if (k0 && c && w->walls[0].mat >= 0 && w->walls[0].mat < w->nmat) fprintf(f, " material %s", w->mat[w->walls[0].mat].name);
    if (nc > 0) fprintf(f, " columns");
    for (int i = 0; i < nc; i++) fprintf(f, " %s", nm[i]);
    fputc('\n', f);
    for (int i = c; i < w->nwalls; i++)
        if (pala_world_wall_line(w, i, line, sizeof line) < (int)sizeof line) fprintf(f, "%s\n", line);
    fprintf(f, "gravity %.17g %.17g %.17g\n", w->g.x, w->g.y, w->g.z);
    fprintf(f, "templates %d\n", w->ntmpl);
    for (int t = 0; t < w->ntmpl; t++) {
        const pala_template *tp = &w->tmpl[t];
        fprintf(f, "template %d %s ncomp %d mass %.17g inertia %.17g %.17g %.17g bound_radius %.17g volume %.17g volume_stderr %.6g\n",
                t, tp->name, tp->ncomp, tp->mass, tp->inertia[0], tp->inertia[1], tp->inertia[2], tp->bound_radius, tp->volume, tp->volume_stderr);
        for (int i = 0; i < tp->ncomp; i++) {
            pala_vec3 s = w->shape[tp->comp0 + i];
            const pala_arcrange *a = w->arc ? &w->arc[tp->comp0 + i] : NULL;
            if (a && a->ch >= -1) {   /* an arc (2D): its ends' directions, body frame, rad */
                double mid = atan2(a->my, a->mx), h = acos(a->ch);
                fprintf(f, "%.17g %.17g %.17g %.17g %.17g %.17g\n", s.x, s.y, s.z, w->shape_r[tp->comp0 + i], mid - h, mid + h);
            } else fprintf(f, "%.17g %.17g %.17g %.17g\n", s.x, s.y, s.z, w->shape_r[tp->comp0 + i]);
        }
    }
    if (variable(w)) {   /* each frame names its grains */
        fprintf(f, "grains variable\n");
        return;
    }
    fprintf(f, "grains %d\n", w->n);
    for (int i = 0; i < w->n; i++) {
        int k = w->gid ? w->inv[i] : i;
        fprintf(f, "%d%c", w->tid[k], i + 1 == w->n || (i + 1) % 32 == 0 ? '\n' : ' ');
    }
}

static void traj_open(FILE *f, pala_output *o) { traj_header(f, o->w); }

/* Grains in the order of the input (w->gid), not the order they are stored in.  Version 2
 * (grains enter and leave): the frame's count after its time, each grain's number and
 * template before its state. */
static void traj_frame(FILE *f, pala_output *o)
{
    const pala_world *w = o->w;
    int var = variable(w);
    if (var) fprintf(f, "frame %ld %.17g %d\n", w->step, pala_output_time(w), w->n);
    else fprintf(f, "frame %ld %.17g\n", w->step, pala_output_time(w));
    for (int i = 0; i < (var ? numbers(w) : w->n); i++) {
        int k = stored(w, i);
        if (k < 0) continue;
        if (var) fprintf(f, "%d %d ", i, w->tid[k]);
        pala_vec3 x = w->x[k], r = w->r[k], v = w->v[k], om = w->w[k];
        fprintf(f, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n",
                x.x, x.y, x.z, r.x, r.y, r.z, v.x, v.y, v.z, om.x, om.y, om.z);
    }
}

/* ---- trajectory.bin: the same header and frames, float64, little-endian ---------------- */

/* The layout (docs/output-formats.md, "trajectory.bin"): the magic "PALATRAJ", uint32
 * version 1, uint32 grains, uint64 H, then H bytes of trajectory.txt's header; per frame
 * int64 step, float64 time, and per grain (input order) 12 float64: x, r, v, omega. */
static void traj_bin_open(FILE *f, pala_output *o)
{
    char *h = NULL;
    size_t hl = 0;
    FILE *m = open_memstream(&h, &hl);
    if (!m) { fprintf(stderr, "pala: out of memory\n"); exit(PALA_ERR_IO); }
    traj_header(m, o->w);
    if (fclose(m) != 0 || !h) { fprintf(stderr, "pala: out of memory\n"); exit(PALA_ERR_IO); }
    unsigned char b[PALA_TRAJ_BIN_HEAD];
    memcpy(b, PALA_TRAJ_BIN_MAGIC, 8);
    pala_le32(b + 8, variable(o->w) ? PALA_TRAJ_BIN_VARIABLE : PALA_TRAJ_BIN_VERSION);
    pala_le32(b + 12, variable(o->w) ? 0 : (uint32_t)o->w->n);
    pala_le64(b + 16, (uint64_t)hl);
    fwrite(b, 1, sizeof b, f);
    fwrite(h, 1, hl, f);
    free(h);
}

/* A frame of 100,000 grains is 9.6 MB: packing it costs about a quarter of a step, and
 * handing it to the kernel (a copy into the page cache) more than half of one.  So the run's
 * thread only packs the frame and a thread of the writer's own writes it, while the run
 * steps on; two buffers: the next frame is packed while the last is written.  The bytes
 * and their order are those of a plain fwrite; the run waits for the last frame before it
 * flushes, measures (a checkpoint) or closes the file, and a write error is reported at
 * the next frame or flush (a full disk, exit 5). */
typedef struct pala_binq {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    FILE *f;
    unsigned char *buf[2];
    size_t cap[2], len;
    int fill;      /* the buffer the next frame is packed into; the thread writes the other */
    int pending;   /* a frame handed to the thread and not written yet */
    int quit, err, thread;
} pala_binq;

static void *binq_main(void *arg)
{
    pala_binq *q = arg;
    pthread_mutex_lock(&q->mu);
    for (;;) {
        while (!q->pending && !q->quit) pthread_cond_wait(&q->cv, &q->mu);
        if (!q->pending) break;
        const unsigned char *b = q->buf[q->fill ^ 1];
        size_t len = q->len;
        pthread_mutex_unlock(&q->mu);
        errno = 0;
        int bad = fwrite(b, 1, len, q->f) != len || fflush(q->f) != 0;
        int e = errno ? errno : EIO;
        pthread_mutex_lock(&q->mu);
        if (bad && !q->err) q->err = e;
        q->pending = 0;
        pthread_cond_broadcast(&q->cv);
    }
    pthread_mutex_unlock(&q->mu);
    return NULL;
}

static int traj_bin_sync(pala_output *o, int wait)
{
    pala_binq *q = o->binq;
    if (!q || !q->thread) return 0;
    pthread_mutex_lock(&q->mu);
    while (wait && q->pending) pthread_cond_wait(&q->cv, &q->mu);
    int e = q->err;
    pthread_mutex_unlock(&q->mu);
    return e;
}

static void traj_bin_close(FILE *f, pala_output *o)
{
    (void)f;
    pala_binq *q = o->binq;
    if (!q) return;
    if (q->thread) {
        pthread_mutex_lock(&q->mu);
        q->quit = 1;
        pthread_cond_broadcast(&q->cv);
        pthread_mutex_unlock(&q->mu);
        pthread_join(q->th, NULL);
        pthread_cond_destroy(&q->cv);
        pthread_mutex_destroy(&q->mu);
    }
    free(q->buf[0]);
    free(q->buf[1]);
    free(q);
    o->binq = NULL;
}

/* Grain k's x, r, v and omega as 12 little-endian float64 at p; returns the end. */
static unsigned char *pack_state(unsigned char *p, const pala_world *w, int k)
{
    const pala_vec3 v[4] = {w->x[k], w->r[k], w->v[k], w->w[k]};
    for (int j = 0; j < 4; j++, p += 24) {
        pala_le_double(p, v[j].x);
        pala_le_double(p + 8, v[j].y);
        pala_le_double(p + 16, v[j].z);
    }
    return p;
}

static void traj_bin_frame(FILE *f, pala_output *o)
{
    const pala_world *w = o->w;
    pala_binq *q = o->binq;
    if (!q) {   /* the first frame: the buffers, and the thread (without it, written here) */
        q = o->binq = calloc(1, sizeof *q);
        if (!q) { fprintf(stderr, "pala: out of memory\n"); exit(PALA_ERR_IO); }
        q->f = f;
        if (pthread_mutex_init(&q->mu, NULL) == 0) {
            if (pthread_cond_init(&q->cv, NULL) == 0) {
                sigset_t all, old;   /* the signals (a stop) go to the run's threads, not this one */
                sigfillset(&all);
                pthread_sigmask(SIG_BLOCK, &all, &old);
                q->thread = pthread_create(&q->th, NULL, binq_main, q) == 0;
                pthread_sigmask(SIG_SETMASK, &old, NULL);
                if (!q->thread) pthread_cond_destroy(&q->cv);
            }
            if (!q->thread) pthread_mutex_destroy(&q->mu);
        }
    }
    int var = variable(w);
    size_t len = var ? 24 + 104 * (size_t)w->n : 16 + 96 * (size_t)w->n;
    int k0 = q->fill;   /* not the buffer being written */
    if (q->cap[k0] < len) {
        free(q->buf[k0]);
        q->buf[k0] = malloc(len);
        if (!q->buf[k0]) { fprintf(stderr, "pala: out of memory\n"); exit(PALA_ERR_IO); }
        q->cap[k0] = len;
    }
    unsigned char *p = q->buf[k0];
    pala_le64(p, (uint64_t)(int64_t)w->step);
    pala_le_double(p + 8, pala_output_time(w));
    p += 16;
    if (var) {   /* version 2: the count, then per grain its number and template and its state */
        pala_le64(p, (uint64_t)w->n);
        p += 8;
        for (int i = 0; i < numbers(w); i++) {
            int k = stored(w, i);
            if (k < 0) continue;
            pala_le32(p, (uint32_t)i);
            pala_le32(p + 4, (uint32_t)w->tid[k]);
            p = pack_state(p + 8, w, k);
        }
    } else {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && !defined(PALA_TRAJ_BIN_PORTABLE)
    /* the host's doubles are the file's: copied as they are, the world read in the order
       it is stored (each grain's 96 bytes go to its input place): reading four arrays in
       order and writing one place per grain costs about half of gathering in input order */
    _Static_assert(sizeof(pala_vec3) == 24, "pala_vec3 is three doubles");
    for (int k = 0; k < w->n; k++) {
        unsigned char *d = p + 96 * (size_t)(w->gid ? w->gid[k] : k);
        memcpy(d, &w->x[k], 24);
        memcpy(d + 24, &w->r[k], 24);
        memcpy(d + 48, &w->v[k], 24);
        memcpy(d + 72, &w->w[k], 24);
    }
#else
    for (int i = 0; i < w->n; i++) p = pack_state(p, w, w->gid ? w->inv[i] : i);
#endif
    }
    if (!q->thread) { fwrite(q->buf[k0], 1, len, f); return; }
    pthread_mutex_lock(&q->mu);
    while (q->pending) pthread_cond_wait(&q->cv, &q->mu);   /* the last frame written */
    q->len = len;
    q->pending = 1;
    q->fill ^= 1;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
}

static long traj_txt_every(const pala_scene *sc) { return pala_scene_traj_binary(sc) ? -1 : pala_scene_traj_every(sc); }
static long traj_bin_every(const pala_scene *sc) { return pala_scene_traj_binary(sc) ? pala_scene_traj_every(sc) : -1; }

/* ---- trajectory.xyz and vtk/: the exports for OVITO and ParaView (export.c) ---------- */

static long xyz_every(const pala_scene *sc) { return pala_scene_xyz_every(sc) > 0 ? pala_scene_xyz_every(sc) : -1; }
static long vtk_every(const pala_scene *sc) { return pala_scene_vtk_every(sc) > 0 ? pala_scene_vtk_every(sc) : -1; }

/* the current state in input order, as `pala export` and `pala measure` read it from
 * trajectory.txt */
static const pala_traj *world_view(pala_output *o)
{
    if (!o->view) {
        o->view = malloc(sizeof *o->view);
        if (!o->view) { fprintf(stderr, "pala: out of memory\n"); exit(PALA_ERR_IO); }
        pala_traj_from_world(o->view, o->w);
    }
    pala_traj_take(o->view, o->w);
    return o->view;
}

static void xyz_open(FILE *f, pala_output *o) { (void)f; (void)o; }
static void xyz_frame(FILE *f, pala_output *o) { pala_xyz_frame(f, world_view(o)); }

static void vtk_dir(const pala_output *o, char *buf, size_t len) { snprintf(buf, len, "%s/vtk", o->dir); }

static void vtk_open(FILE *f, pala_output *o)
{
    char d[4200];
    vtk_dir(o, d, sizeof d);
    pala_vtk_pvd_begin(f);
    const pala_traj *t = world_view(o);
    if (pala_vtk_container(d, t)) fprintf(f, "<!-- container.vtp could not be written -->\n");
}

static void vtk_frame(FILE *f, pala_output *o)
{
    char d[4200];
    vtk_dir(o, d, sizeof d);
    if (pala_vtk_frame(d, world_view(o), o->vtk_binary, f, NULL, NULL))
        fprintf(f, "<!-- a frame could not be written -->\n");
}

/* vtk/NAME.pvd from the finished spheres.pvd: the same frames, each file NAME_STEP.vtp */
static void pvd_like(FILE *f, pala_output *o, const char *name)
{
    char p[4200], nm[64];
    snprintf(p, sizeof p, "%s/vtk/spheres.pvd", o->dir);
    snprintf(nm, sizeof nm, "vtk/%s.pvd", name);
    FILE *in = pala_fopen(p, "r");   /* not a device (a test's /dev/full) */
    FILE *out = in ? pala_output_fopen(o->dir, nm) : NULL;
    char line[1024];
    while (in && out && fgets(line, sizeof line, in)) {
        char *q = strstr(line, "file=\"spheres_");
        if (q) fprintf(out, "%.*sfile=\"%s_%s", (int)(q - line), line, name, q + strlen("file=\"spheres_"));
        else fputs(line, out);
    }
    if (in) fclose(in);
    if (!out || pala_output_fclose(out, o->dir, nm)) fprintf(f, "<!-- %s.pvd could not be written -->\n", name);
}

/* grains.pvd (and with arc grains outlines.pvd) lists the same frames as spheres.pvd: it is
 * written at the end from the finished spheres.pvd, so a resumed run (which cuts and
 * continues spheres.pvd) gets it whole too. */
static void vtk_close(FILE *f, pala_output *o)
{
    pala_vtk_pvd_end(f);
    fflush(f);
    pvd_like(f, o, "grains");
    if (world_view(o)->sarc) pvd_like(f, o, "outlines");
}

/* ---- contacts.tsv, contacts.bin, grains.tsv: the contacts (contacts.c) --------------------- */

static long contacts_every(const pala_scene *sc) { return pala_scene_contacts_every(sc) > 0 ? pala_scene_contacts_every(sc) : -1; }
static long contacts_tsv_every(const pala_scene *sc) { return pala_scene_contacts_binary(sc) ? -1 : contacts_every(sc); }
static long contacts_bin_every(const pala_scene *sc) { return pala_scene_contacts_binary(sc) ? contacts_every(sc) : -1; }
static long grains_every(const pala_scene *sc) { return pala_scene_grains_every(sc) > 0 ? pala_scene_grains_every(sc) : -1; }

/* the contacts of the current state, once per state for all three writers */
static const pala_contact_list *contacts_now(pala_output *o)
{
    pala_world *w = o->w;
    if (!o->clist) {
        o->clist = calloc(1, sizeof *o->clist);
        if (!o->clist) { fprintf(stderr, "pala: out of memory\n"); exit(PALA_ERR_IO); }
        o->clist_step = -1;
    }
    if (o->clist_step != w->step || o->clist_t != w->t) {
        if (pala_world_contact_list(w, o->clist) != PALA_OK) o->clist->n = 0;   /* a prepared world's list never fails */
        o->clist_step = w->step;
        o->clist_t = w->t;
    }
    return o->clist;
}

static void contacts_tsv_open(FILE *f, pala_output *o) { pala_contacts_tsv_open(f, o->w, contacts_now(o)->moments); }
static void contacts_tsv_frame(FILE *f, pala_output *o) { pala_contacts_tsv_frame(f, o->w, contacts_now(o)); }
static void contacts_bin_open(FILE *f, pala_output *o) { pala_contacts_bin_open(f, o->w, contacts_now(o)->moments); }
static void contacts_bin_frame(FILE *f, pala_output *o) { pala_contacts_bin_frame(f, o->w, contacts_now(o)); }
static void grains_open(FILE *f, pala_output *o) { (void)o; pala_grains_tsv_open(f); }
static void grains_frame(FILE *f, pala_output *o) { pala_grains_tsv_frame(f, o->w, contacts_now(o)); }

/* ---- measure-NAME.tsv: pala measure's quantities of a [measure NAME] section's region ----- */

/* A row: the quantities of the region at the current state, by the functions of `pala
 * measure` (measure.c, eqs. M1-M6) from the world's frame and its contact list, so both
 * give the same numbers from the same state.  The sides not given are the walls' box at
 * the row's time (moving walls: the region follows them). */
static void measure_frame(FILE *f, pala_output *o, int k)
{
    const pala_traj *t = world_view(o);
    const pala_contact_list *L = contacts_now(o);
    const pala_measure_spec *sp = &o->measure[k];
    if (!o->meas[k]) o->meas[k] = pala_meas_new(t);
    double lo[3], hi[3], q[PALA_MEAS_NQ];
    pala_meas_region(t, sp->set, sp->lo, sp->hi, lo, hi);
    pala_meas_frame(o->meas[k], L->c, L->n, 1, lo, hi, -1, 1, q);
    pala_meas_row(f, o->w->step, pala_output_time(o->w), q);
}

static void measure_open(FILE *f, pala_output *o) { (void)o; pala_meas_header(f); }
static long measure_every(const pala_scene *sc, int k)
{
    pala_measure_spec sp;
    return pala_scene_measure(sc, k, &sp) ? sp.every : -1;
}
/* the writers of sections 0 .. PALA_MAX_MEASURES - 1 (the table's rows take no argument) */
#define MEASURE_SLOT(k)                                                                      \
    static long measure_every##k(const pala_scene *sc) { return measure_every(sc, k); }     \
    static void measure_frame##k(FILE *f, pala_output *o) { measure_frame(f, o, k); }
MEASURE_SLOT(0) MEASURE_SLOT(1) MEASURE_SLOT(2) MEASURE_SLOT(3)
#undef MEASURE_SLOT
_Static_assert(PALA_MAX_MEASURES == 4, "a MEASURE_SLOT and a row of the table per [measure] section");

/* ---- the table ------------------------------------------------------------------------- */

/* At a step where several write, they write in this order.  energy.tsv comes first, as
 * it always has: its energy is a contact pass over the world (the neighbour list update,
 * the contact diagnostics, the wall sums), which the others have always followed. */
const pala_writer pala_writers[] = {
    {"energy.tsv", pala_scene_energy_every, energy_open, energy_frame, NULL, NULL, 0},
    {"walls.tsv", pala_scene_energy_every, walls_open, walls_frame, NULL, NULL, 0},
    {"flow.tsv", flow_every, flow_open, flow_frame, NULL, NULL, 0},
    {"trajectory.txt", traj_txt_every, traj_open, traj_frame, NULL, NULL, 0},
    {"trajectory.bin", traj_bin_every, traj_bin_open, traj_bin_frame, traj_bin_close, traj_bin_sync, 0},
    {"trajectory.xyz", xyz_every, xyz_open, xyz_frame, NULL, NULL, 0},
    {"vtk/spheres.pvd", vtk_every, vtk_open, vtk_frame, vtk_close, NULL, 0},
    {"contacts.tsv", contacts_tsv_every, contacts_tsv_open, contacts_tsv_frame, NULL, NULL, 0},
    {"contacts.bin", contacts_bin_every, contacts_bin_open, contacts_bin_frame, NULL, NULL, 0},
    {"grains.tsv", grains_every, grains_open, grains_frame, NULL, NULL, 0},
    {"measure-*", measure_every0, measure_open, measure_frame0, NULL, NULL, 1},
    {"measure-*", measure_every1, measure_open, measure_frame1, NULL, NULL, 2},
    {"measure-*", measure_every2, measure_open, measure_frame2, NULL, NULL, 3},
    {"measure-*", measure_every3, measure_open, measure_frame3, NULL, NULL, 4},
};
enum { NWRITERS = sizeof pala_writers / sizeof pala_writers[0] };
const int pala_nwriters = NWRITERS;
_Static_assert(NWRITERS <= PALA_MAX_WRITERS, "pala_writer_set has room for PALA_MAX_WRITERS files");

/* ---- driving them ---------------------------------------------------------------------- */

void pala_writer_key(int i, char *buf, size_t len)
{
    if (pala_writers[i].measure) snprintf(buf, len, "run.offset:%s#%d", pala_writers[i].file, pala_writers[i].measure);
    else snprintf(buf, len, "run.offset:%s", pala_writers[i].file);
}

/* A writer set for dir, not open yet: each writer's cadence (< 0: not asked for) and file. */
static void writers_init(pala_writer_set *ws, const char *dir, const pala_scene *sc, pala_world *w)
{
    memset(ws, 0, sizeof *ws);
    ws->out.w = w;
    ws->out.dir = dir;
    ws->out.vtk_binary = pala_scene_vtk_binary(sc);
    for (int i = 0; i < NWRITERS; i++) {
        ws->every[i] = pala_writers[i].every(sc);
        int k = pala_writers[i].measure - 1;
        if (k >= 0 && pala_scene_measure(sc, k, &ws->out.measure[k]))   /* the name: at most 31 letters, digits, _ and - */
            snprintf(ws->file[i], sizeof ws->file[i], "measure-%s.tsv", ws->out.measure[k].name);
        else snprintf(ws->file[i], sizeof ws->file[i], "%s", pala_writers[i].file);
    }
}

FILE *pala_output_fopen(const char *dir, const char *name)
{
    char p[4096 + 64];   /* dir is at most 4095 characters */
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = pala_fopen(p, "w");
    if (!f) fprintf(stderr, "pala: cannot write %s: %s\n", p, pala_strerror(errno));
    return f;
}

int pala_output_fclose(FILE *f, const char *dir, const char *name)
{
    int bad = ferror(f) != 0;
    bad |= fclose(f) != 0;
    if (bad) fprintf(stderr, "pala: writing %s/%s failed: %s; the file is incomplete\n", dir, name, strerror(errno ? errno : EIO));
    return bad;
}

int pala_writers_open(pala_writer_set *ws, const char *dir, const pala_scene *sc, pala_world *w)
{
    writers_init(ws, dir, sc, w);
    for (int i = 0; i < NWRITERS; i++) {
        if (ws->every[i] < 0) continue;   /* not asked for: no file */
        const char *sl = strchr(ws->file[i], '/');
        if (sl) {   /* its folder in the run folder */
            char p[4200];
            snprintf(p, sizeof p, "%s/%.*s", dir, (int)(sl - ws->file[i]), ws->file[i]);
            int e = 0;
            if (mkdir(p, 0777) != 0 && errno != EEXIST) fprintf(stderr, "pala: cannot create %s: %s\n", p, strerror(errno));
            else if ((e = pala_dir_check(p)) != 0) {   /* not written through a link to another folder */
                fprintf(stderr, "pala: cannot write into %s: %s\n", p, pala_strerror(e));
                while (i-- > 0) if (ws->f[i]) fclose(ws->f[i]);
                return PALA_ERR_IO;
            }
        }
        ws->f[i] = pala_output_fopen(dir, ws->file[i]);
        if (!ws->f[i]) {
            while (i-- > 0) if (ws->f[i]) fclose(ws->f[i]);
            return PALA_ERR_IO;
        }
    }
    return PALA_OK;
}

/* Check file i after a frame, flushing it if its last flush is 20 ms old (or always with
 * force): a write error (a full disk) is reported at once.  A flush per frame would cost
 * a system call per row of a small fast scene. */
static int checked_flush(pala_writer_set *ws, int i, int force)
{
    if (pala_writers[i].sync) {   /* a writer's thread: its errors so far, the file itself once it is idle */
        int e = pala_writers[i].sync(&ws->out, force);
        if (e) {
            fprintf(stderr, "pala: writing %s/%s failed: %s\n", ws->out.dir, ws->file[i], strerror(e));
            return 1;
        }
        if (!force) return 0;
    }
    double now = force ? 0 : pala_now();
    if (force || now - ws->flushed[i] >= 0.02) {
        if (fflush(ws->f[i]) != 0) errno = errno ? errno : EIO;
        ws->flushed[i] = force ? pala_now() : now;
    }
    if (!ferror(ws->f[i])) return 0;
    fprintf(stderr, "pala: writing %s/%s failed: %s\n", ws->out.dir, ws->file[i], strerror(errno));
    return 1;
}

static int checked(pala_writer_set *ws, int i) { return checked_flush(ws, i, 0); }

int pala_writers_start(pala_writer_set *ws)
{
    int bad = 0;
    for (int i = 0; i < NWRITERS; i++) if (ws->f[i]) pala_writers[i].open(ws->f[i], &ws->out);
    for (int i = 0; i < NWRITERS && !bad; i++) {
        if (!ws->f[i]) continue;   /* a writer not asked for */
        pala_writers[i].frame(ws->f[i], &ws->out);
        bad = checked(ws, i);
    }
    return bad;
}

long pala_writers_next(const pala_writer_set *ws, long s, long end)
{
    long next = end;
    for (int i = 0; i < NWRITERS; i++) {
        long ev = ws->every[i];
        if (ws->f[i] && ev > 0 && (s / ev + 1) * ev < next) next = (s / ev + 1) * ev;
    }
    return next;
}

int pala_writers_frame(pala_writer_set *ws, long s, int last)
{
    for (int i = 0; i < NWRITERS; i++)
        if (ws->f[i] && (last || (ws->every[i] > 0 && s % ws->every[i] == 0))) {
            pala_writers[i].frame(ws->f[i], &ws->out);
            if (checked(ws, i)) return 1;
        }
    return 0;
}

void pala_writers_flush(pala_writer_set *ws)
{
    for (int i = 0; i < NWRITERS; i++)
        if (ws->f[i]) {
            if (pala_writers[i].sync) pala_writers[i].sync(&ws->out, 1);
            fflush(ws->f[i]);
        }
}

int pala_writers_close(pala_writer_set *ws)
{
    int bad = 0;
    for (int i = 0; i < NWRITERS; i++) {
        if (!ws->f[i]) continue;
        if (pala_writers[i].sync && pala_writers[i].sync(&ws->out, 1)) bad = 1;   /* reported by pala_output_fclose */
        if (pala_writers[i].close) pala_writers[i].close(ws->f[i], &ws->out);
        bad |= pala_output_fclose(ws->f[i], ws->out.dir, ws->file[i]);
        ws->f[i] = NULL;
    }
    if (ws->out.view) { pala_traj_close(ws->out.view); free(ws->out.view); ws->out.view = NULL; }
    if (ws->out.clist) { pala_contact_list_free(ws->out.clist); free(ws->out.clist); ws->out.clist = NULL; }
    for (int k = 0; k < PALA_MAX_MEASURES; k++) { pala_meas_free(ws->out.meas[k]); ws->out.meas[k] = NULL; }
    return bad;
}

/* ---- continuing a run (pala resume) ------------------------------------------------------ */

int pala_writers_frame_rest(pala_writer_set *ws, long s)
{
    for (int i = 0; i < NWRITERS; i++)
        if (ws->f[i] && !(ws->every[i] > 0 && s % ws->every[i] == 0)) {
            pala_writers[i].frame(ws->f[i], &ws->out);
            if (checked(ws, i)) return 1;
        }
    return 0;
}

int pala_writers_offsets(pala_writer_set *ws, long *off)
{
    for (int i = 0; i < NWRITERS; i++) {
        off[i] = -1;   /* a writer not asked for */
        if (!ws->f[i]) continue;
        if (checked_flush(ws, i, 1)) return 1;
        /* on the disk before the checkpoint that names this length: after a power loss
         * the log is not shorter than the checkpoint says (pala resume would refuse it) */
        if (fsync(fileno(ws->f[i])) != 0 && errno != EINVAL) {
            fprintf(stderr, "pala: writing %s/%s failed: %s\n", ws->out.dir, ws->file[i], strerror(errno));
            return 1;
        }
        off[i] = ftell(ws->f[i]);
    }
    return 0;
}

/* 1 if the file f begins with its first line as the writer's open writes it now (f's
 * position is left at its end): a table's columns are this pala's. */
static int same_header(FILE *f, void (*open)(FILE *, pala_output *), pala_output *o)
{
    char *want = NULL, line[16384];
    size_t n = 0;
    FILE *m = open_memstream(&want, &n);
    if (!m) return 1;   /* (no memory to tell: not a refusal) */
    open(m, o);
    fclose(m);
    char *nl = want ? strchr(want, '\n') : NULL;
    if (nl) nl[1] = 0;
    int same = !want || (fseek(f, 0, SEEK_SET) == 0 && fgets(line, sizeof line, f) && !strcmp(line, want));
    free(want);
    fseek(f, 0, SEEK_END);
    return same;
}

int pala_writers_reopen(pala_writer_set *ws, const char *dir, const pala_scene *sc, pala_world *w, const long *off)
{
    writers_init(ws, dir, sc, w);
    for (int i = 0; i < NWRITERS; i++) {
        char p[4096 + 64];
        snprintf(p, sizeof p, "%s/%s", dir, ws->file[i]);
        if (ws->every[i] < 0) continue;   /* not asked for: no file */
        const char *sl = strchr(ws->file[i], '/');
        char sub[4200];
        snprintf(sub, sizeof sub, "%s/%.*s", dir, sl ? (int)(sl - ws->file[i]) : 0, ws->file[i]);
        int de = sl ? pala_dir_check(sub) : 0;   /* vtk/: a folder itself, not a link to one */
        FILE *f = de ? NULL : pala_fopen(p, "r+");
        int bad = !f, e = de ? de : errno;
        const char *why = bad ? pala_strerror(e) : NULL;
        /* a file that may not be written (a read-only folder or disk) is an I/O error; a
           missing, foreign or changed one bad input */
        int code = bad && (e == EACCES || e == EROFS || e == EPERM) ? PALA_ERR_IO : PALA_ERR_INPUT;
        if (f && off[i] < 0) { bad = 1; why = "the checkpoint holds no length for it (written by another version of pala)"; }
        else if (f && (fseek(f, 0, SEEK_END) != 0 || ftell(f) < off[i])) { bad = 1; why = "it is shorter than at the checkpoint (the run folder was changed)"; }
        else if (f && strstr(ws->file[i], ".tsv") && !same_header(f, pala_writers[i].open, &ws->out)) {   /* a table's columns are this pala's (walls.tsv's d_NAME came in session 31) */
            bad = 1;
            why = "its columns are not those this pala writes (written by another version of pala)";
        }
        if (bad) {
            fprintf(stderr, "pala resume: cannot continue %s: %s; %s\n", p, why,
                    code == PALA_ERR_IO ? "make the folder writable, or start a new run from it: pala run SCENE --set start_from=DIR -o NEWDIR"
                                        : "put the run's file back as the run left it, or start a new run from it: pala run SCENE --set start_from=DIR -o NEWDIR");
            if (f) fclose(f);
            while (i-- > 0) if (ws->f[i]) fclose(ws->f[i]);
            return code;
        }
        ws->f[i] = f;
    }
    /* every log checked before any is changed (a refusal leaves the folder as it was); then
     * anything after the checkpoint's bytes (the last frames of a stop, a line cut by a
     * kill) is cut off, and the run appends as if it had never stopped */
    for (int i = 0; i < NWRITERS; i++) {
        FILE *f = ws->f[i];
        if (f && (fflush(f) != 0 || ftruncate(fileno(f), off[i]) != 0 || fseek(f, off[i], SEEK_SET) != 0)) {
            fprintf(stderr, "pala resume: cannot continue %s/%s: %s\n", dir, ws->file[i], strerror(errno));
            for (int j = 0; j < NWRITERS; j++) if (ws->f[j]) { fclose(ws->f[j]); ws->f[j] = NULL; }
            return PALA_ERR_IO;
        }
    }
    return PALA_OK;
}
