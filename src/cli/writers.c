/* writers.c: the writers of a run folder (writer.h) and the functions that drive them.
 * Each format is described in docs/output-formats.md; the bytes written here are that
 * format, so a change to them is a change of the documented format. */
#define _DEFAULT_SOURCE   /* ftruncate */
#include "writer.h"
#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

/* ---- energy.tsv: energies and contact diagnostics ------------------------------------ */

static void energy_open(FILE *f, pala_output *o)
{
    (void)o;
    fprintf(f, "step\ttime\tE_kin\tE_rot\tE_contact\tE_field\tE_total\tdE_rel\tE_diss\tdE_bal_rel\tcontacts\tmax_overlap\n");
}

/* A row, and the statistics of E_total over the rows for summary.tsv.  The energy's
 * contact pass also sets the row's contacts and max_overlap. */
static void energy_frame(FILE *f, pala_output *o)
{
    pala_world *w = o->w;
    pala_energy_stats *es = &o->energy;
    pala_energy e = pala_world_energy(w);
    if (es->rows++ == 0) { es->initial = es->min = es->max = e.total; es->max_abs_rel = es->max_abs_bal = 0; }
    double den = es->initial != 0 ? fabs(es->initial) : 1.0;   /* dE_rel of E_total(0) = 0: per joule */
    double rel = (e.total - es->initial) / den;
    double bal = (e.total + w->diss - es->initial) / den;
    if (e.total < es->min) es->min = e.total;
    if (e.total > es->max) es->max = e.total;
    if (fabs(rel) > es->max_abs_rel) es->max_abs_rel = fabs(rel);
    if (fabs(bal) > es->max_abs_bal || bal != bal) es->max_abs_bal = fabs(bal);
    es->final = e.total;
    es->final_rel = rel;
    fprintf(f, "%ld\t%.12g\t%.16g\t%.16g\t%.16g\t%.16g\t%.16g\t%.10g\t%.16g\t%.10g\t%ld\t%.6g\n", w->step, w->t,
            e.kin, e.rot, e.contact, e.field, e.total, rel, w->diss, bal, w->ncontact, w->worst_overlap);
}

/* ---- walls.tsv: momentum received by the walls --------------------------------------- */

enum { MAX_WALL_COLUMNS = 8 };   /* a box in 3D has 6 */

static void walls_open(FILE *f, pala_output *o)
{
    const char *nm[MAX_WALL_COLUMNS];
    double val[MAX_WALL_COLUMNS];
    int nc = pala_world_wall_columns(o->w, nm, val, MAX_WALL_COLUMNS);
    fprintf(f, "step\ttime");
    for (int i = 0; i < nc; i++) fprintf(f, "\t%s", nm[i]);
    fputc('\n', f);
}

static void walls_frame(FILE *f, pala_output *o)
{
    const char *nm[MAX_WALL_COLUMNS];
    double val[MAX_WALL_COLUMNS];
    int nc = pala_world_wall_columns(o->w, nm, val, MAX_WALL_COLUMNS);
    fprintf(f, "%ld\t%.12g", o->w->step, o->w->t);
    for (int i = 0; i < nc; i++) fprintf(f, "\t%.12g", val[i]);
    fputc('\n', f);
}

/* ---- trajectory.txt: the templates once, then frames of the grains' state ------------- */

static void traj_open(FILE *f, pala_output *o)
{
    const pala_world *w = o->w;
    fprintf(f, "# pala trajectory 1\n");
    fprintf(f, "dimension %d\n", w->dim);
    fprintf(f, "templates %d\n", w->ntmpl);
    for (int t = 0; t < w->ntmpl; t++) {
        const pala_template *tp = &w->tmpl[t];
        fprintf(f, "template %d %s ncomp %d mass %.17g inertia %.17g %.17g %.17g bound_radius %.17g volume %.17g volume_stderr %.6g\n",
                t, tp->name, tp->ncomp, tp->mass, tp->inertia[0], tp->inertia[1], tp->inertia[2], tp->bound_radius, tp->volume, tp->volume_stderr);
        for (int i = 0; i < tp->ncomp; i++) {
            pala_vec3 s = w->shape[tp->comp0 + i];
            fprintf(f, "%.17g %.17g %.17g %.17g\n", s.x, s.y, s.z, w->shape_r[tp->comp0 + i]);
        }
    }
    fprintf(f, "grains %d\n", w->n);
    for (int i = 0; i < w->n; i++) {
        int k = w->gid ? w->inv[i] : i;
        fprintf(f, "%d%c", w->tid[k], i + 1 == w->n || (i + 1) % 32 == 0 ? '\n' : ' ');
    }
}

/* Grains in the order of the input (w->gid), not the order they are stored in. */
static void traj_frame(FILE *f, pala_output *o)
{
    const pala_world *w = o->w;
    fprintf(f, "frame %ld %.17g\n", w->step, w->t);
    for (int i = 0; i < w->n; i++) {
        int k = w->gid ? w->inv[i] : i;
        pala_vec3 x = w->x[k], r = w->r[k], v = w->v[k], om = w->w[k];
        fprintf(f, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n",
                x.x, x.y, x.z, r.x, r.y, r.z, v.x, v.y, v.z, om.x, om.y, om.z);
    }
}

/* ---- the table ------------------------------------------------------------------------- */

/* At a step where several write, they write in this order.  energy.tsv comes first, as
 * it always has: its energy is a contact pass over the world (the neighbour list update,
 * the contact diagnostics, the wall sums), which the others have always followed. */
const pala_writer pala_writers[] = {
    {"energy.tsv", pala_scene_energy_every, energy_open, energy_frame, NULL},
    {"walls.tsv", pala_scene_energy_every, walls_open, walls_frame, NULL},
    {"trajectory.txt", pala_scene_traj_every, traj_open, traj_frame, NULL},
};
enum { NWRITERS = sizeof pala_writers / sizeof pala_writers[0] };
const int pala_nwriters = NWRITERS;
_Static_assert(NWRITERS <= PALA_MAX_WRITERS, "pala_writer_set has room for PALA_MAX_WRITERS files");

/* ---- driving them ---------------------------------------------------------------------- */

FILE *pala_output_fopen(const char *dir, const char *name)
{
    char p[4096 + 64];   /* dir is at most 4095 characters */
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    if (!f) fprintf(stderr, "pala: cannot write %s: %s\n", p, strerror(errno));
    return f;
}

int pala_output_fclose(FILE *f, const char *dir, const char *name)
{
    int bad = ferror(f) != 0;
    bad |= fclose(f) != 0;
    if (bad) fprintf(stderr, "pala: writing %s/%s failed (disk full?); the file is incomplete\n", dir, name);
    return bad;
}

int pala_writers_open(pala_writer_set *ws, const char *dir, const pala_scene *sc, pala_world *w)
{
    memset(ws, 0, sizeof *ws);
    ws->out.w = w;
    ws->out.dir = dir;
    for (int i = 0; i < NWRITERS; i++) {
        ws->every[i] = pala_writers[i].every(sc);
        ws->f[i] = pala_output_fopen(dir, pala_writers[i].file);
        if (!ws->f[i]) {
            while (i-- > 0) fclose(ws->f[i]);
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
    double now = force ? 0 : pala_now();
    if (force || now - ws->flushed[i] >= 0.02) {
        if (fflush(ws->f[i]) != 0) errno = errno ? errno : EIO;
        ws->flushed[i] = force ? pala_now() : now;
    }
    if (!ferror(ws->f[i])) return 0;
    fprintf(stderr, "pala: writing %s/%s failed: %s\n", ws->out.dir, pala_writers[i].file, strerror(errno));
    return 1;
}

static int checked(pala_writer_set *ws, int i) { return checked_flush(ws, i, 0); }

int pala_writers_start(pala_writer_set *ws)
{
    int bad = 0;
    for (int i = 0; i < NWRITERS; i++) pala_writers[i].open(ws->f[i], &ws->out);
    for (int i = 0; i < NWRITERS && !bad; i++) {
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
        if (ev > 0 && (s / ev + 1) * ev < next) next = (s / ev + 1) * ev;
    }
    return next;
}

int pala_writers_frame(pala_writer_set *ws, long s, int last)
{
    for (int i = 0; i < NWRITERS; i++)
        if (last || (ws->every[i] > 0 && s % ws->every[i] == 0)) {
            pala_writers[i].frame(ws->f[i], &ws->out);
            if (checked(ws, i)) return 1;
        }
    return 0;
}

void pala_writers_flush(pala_writer_set *ws)
{
    for (int i = 0; i < NWRITERS; i++) fflush(ws->f[i]);
}

int pala_writers_close(pala_writer_set *ws)
{
    int bad = 0;
    for (int i = 0; i < NWRITERS; i++) {
        if (pala_writers[i].close) pala_writers[i].close(ws->f[i], &ws->out);
        bad |= pala_output_fclose(ws->f[i], ws->out.dir, pala_writers[i].file);
        ws->f[i] = NULL;
    }
    return bad;
}

/* ---- continuing a run (pala resume) ------------------------------------------------------ */

int pala_writers_frame_rest(pala_writer_set *ws, long s)
{
    for (int i = 0; i < NWRITERS; i++)
        if (!(ws->every[i] > 0 && s % ws->every[i] == 0)) {
            pala_writers[i].frame(ws->f[i], &ws->out);
            if (checked(ws, i)) return 1;
        }
    return 0;
}

int pala_writers_offsets(pala_writer_set *ws, long *off)
{
    for (int i = 0; i < NWRITERS; i++) {
        if (checked_flush(ws, i, 1)) return 1;
        off[i] = ftell(ws->f[i]);
    }
    return 0;
}

int pala_writers_reopen(pala_writer_set *ws, const char *dir, const pala_scene *sc, pala_world *w, const long *off)
{
    memset(ws, 0, sizeof *ws);
    ws->out.w = w;
    ws->out.dir = dir;
    for (int i = 0; i < NWRITERS; i++) {
        char p[4096 + 64];
        snprintf(p, sizeof p, "%s/%s", dir, pala_writers[i].file);
        ws->every[i] = pala_writers[i].every(sc);
        FILE *f = fopen(p, "r+");
        int bad = !f;
        const char *why = bad ? strerror(errno) : NULL;
        if (f && (fseek(f, 0, SEEK_END) != 0 || ftell(f) < off[i])) { bad = 1; why = "it is shorter than at the checkpoint (the run folder was changed)"; }
        /* anything after the checkpoint's bytes (the last frames of a stop, a line cut by a
         * kill) is cut off, then the run appends as if it had never stopped */
        if (!bad && (fflush(f) != 0 || ftruncate(fileno(f), off[i]) != 0 || fseek(f, off[i], SEEK_SET) != 0)) { bad = 1; why = strerror(errno); }
        if (bad) {
            fprintf(stderr, "pala resume: cannot continue %s: %s\n", p, why);
            if (f) fclose(f);
            while (i-- > 0) fclose(ws->f[i]);
            return PALA_ERR_IO;
        }
        ws->f[i] = f;
    }
    return PALA_OK;
}
