/* run.c: `pala run`: builds the world from a control file, steps it, and writes the run
 * folder (docs/output-formats.md):
 *   control.txt     the effective control file (every key; overrides marked)
 *   energy.tsv      energies every energy_every steps
 *   walls.tsv       momentum received by the walls
 *   trajectory.txt  grain templates once, then frames of the grains' state
 *   summary.tsv     one row: parameters and key results (for `pala collect`)
 * An unstable or interrupted run stops, writes its last rows, flushes, and says why. */
#define _DEFAULT_SOURCE
#include "run.h"
#include <math.h>
#include <stdio.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>

static volatile sig_atomic_t g_stop;
static void on_signal(int sig) { g_stop = sig; }

void pala_run_default_dir(const char *scene, char *buf, size_t len)
{
    const char *b = strrchr(scene, '/');
    b = b ? b + 1 : scene;
    const char *dot = strrchr(b, '.');
    int n = dot && dot != b ? (int)(dot - b) : (int)strlen(b);
    snprintf(buf, len, "%.*s.run", n, b);
}

static const char *const result_files[] = {"control.txt", "energy.tsv", "walls.tsv", "trajectory.txt", "summary.tsv"};
enum { NRESULT = sizeof result_files / sizeof result_files[0] };

int pala_run_prepare_dir(const char *dir, int force, FILE *err)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) { fprintf(err, "pala: %s exists and is not a folder; choose another with -o\n", dir); return PALA_ERR_INPUT; }
        char p[4096];
        for (int i = 0; i < NRESULT; i++) {
            snprintf(p, sizeof p, "%s/%s", dir, result_files[i]);
            if (access(p, F_OK) == 0) {
                if (!force) {
                    fprintf(err, "pala: %s holds the results of an earlier run; choose another folder with -o DIR, or add --force to overwrite it\n", dir);
                    return PALA_ERR_INPUT;
                }
                if (unlink(p) != 0) { fprintf(err, "pala: cannot remove %s: %s\n", p, strerror(errno)); return PALA_ERR_IO; }
            }
        }
        return PALA_OK;
    }
    /* mkdir -p */
    char p[4096];
    snprintf(p, sizeof p, "%s", dir);
    for (char *q = p + 1; *q; q++)
        if (*q == '/') { *q = 0; mkdir(p, 0777); *q = '/'; }
    if (mkdir(p, 0777) != 0 && errno != EEXIST) { fprintf(err, "pala: cannot create %s: %s\n", dir, strerror(errno)); return PALA_ERR_IO; }
    return PALA_OK;
}

static FILE *open_out(const char *dir, const char *name)
{
    char p[4096 + 64];   /* dir is at most 4095 characters */
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    if (!f) fprintf(stderr, "pala: cannot write %s: %s\n", p, strerror(errno));
    return f;
}

/* Close an output file; a write error anywhere in it (full disk...) is reported. */
static int close_checked(FILE *f, const char *dir, const char *name)
{
    int bad = ferror(f) != 0;
    bad |= fclose(f) != 0;
    if (bad) fprintf(stderr, "pala: writing %s/%s failed (disk full?); the file is incomplete\n", dir, name);
    return bad;
}

/* Trajectory header: the templates once (docs/output-formats.md). */
static void traj_header(FILE *f, const pala_world *w)
{
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

/* Grains in the order of the input (w->gid). */
static void traj_frame(FILE *f, const pala_world *w)
{
    fprintf(f, "frame %ld %.17g\n", w->step, w->t);
    for (int i = 0; i < w->n; i++) {
        int k = w->gid ? w->inv[i] : i;
        pala_vec3 x = w->x[k], r = w->r[k], v = w->v[k], o = w->w[k];
        fprintf(f, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n",
                x.x, x.y, x.z, r.x, r.y, r.z, v.x, v.y, v.z, o.x, o.y, o.z);
    }
}

/* The builder's results (eqs. 31-33), with the Monte Carlo standard error of the volume. */
static void report_templates(const pala_world *w)
{
    for (int t = 0; t < w->ntmpl && t < 4; t++) {
        const pala_template *tp = &w->tmpl[t];
        printf("grain type %s: %d component%s, volume %.6g m^3", tp->name, tp->ncomp, tp->ncomp == 1 ? "" : "s", tp->volume);
        if (tp->mc_samples) printf(" +- %.2g (Monte Carlo, %ld samples)", tp->volume_stderr, tp->mc_samples);
        else printf(" (exact)");
        printf(", mass %.6g kg, principal moments %.4g %.4g %.4g kg m^2, bounding radius %.6g m\n",
               tp->mass, tp->inertia[0], tp->inertia[1], tp->inertia[2], tp->bound_radius);
    }
    if (w->ntmpl > 4) printf("... and %d more grain shapes (all in trajectory.txt)\n", w->ntmpl - 4);
}

typedef struct estats { double e0, emin, emax, maxrel, last, lastrel; } estats;

static void energy_row(FILE *f, FILE *fw, pala_world *w, estats *es, int first)
{
    pala_energy e = pala_world_energy(w);
    if (first) { es->e0 = es->emin = es->emax = e.total; es->maxrel = 0; }
    double den = es->e0 != 0 ? fabs(es->e0) : 1.0;
    double rel = (e.total - es->e0) / den;
    double bal = (e.total + w->diss - es->e0) / den;
    if (e.total < es->emin) es->emin = e.total;
    if (e.total > es->emax) es->emax = e.total;
    if (fabs(rel) > es->maxrel) es->maxrel = fabs(rel);
    es->last = e.total;
    es->lastrel = rel;
    fprintf(f, "%ld\t%.12g\t%.16g\t%.16g\t%.16g\t%.16g\t%.16g\t%.10g\t%.16g\t%.10g\t%ld\t%.6g\n", w->step, w->t,
            e.kin, e.rot, e.contact, e.field, e.total, rel, w->diss, bal, w->ncontact, w->worst_overlap);
    fprintf(fw, "%ld\t%.12g", w->step, w->t);
    const char *nm[8];
    double val[8];
    int nc = pala_world_wall_columns(w, nm, val, 8);
    for (int i = 0; i < nc; i++) fprintf(fw, "\t%.12g", val[i]);
    fputc('\n', fw);
}

int pala_run(const pala_run_opts *o)
{
    pala_scene *sc;
    int rc = pala_scene_load(o->scene, o->nset, o->sets, &sc, stderr);
    if (rc) return rc;
    pala_world *w = pala_scene_world(sc);
    int nth = o->threads > 0 ? o->threads : pala_cpu_count();
    if (nth > pala_world_max_threads(w)) nth = pala_world_max_threads(w);   /* work is split by blocks of grains */
    pala_world_set_threads(w, nth);   /* results do not depend on it */
    char dir[4096];
    if (o->outdir) snprintf(dir, sizeof dir, "%s", o->outdir);
    else pala_run_default_dir(o->scene, dir, sizeof dir);
    rc = pala_run_prepare_dir(dir, o->force, stderr);
    if (rc) { pala_scene_free(sc); return rc; }
    FILE *fc = open_out(dir, "control.txt"), *fe = open_out(dir, "energy.tsv"), *fw = open_out(dir, "walls.tsv"),
         *ft = open_out(dir, "trajectory.txt");
    if (!fc || !fe || !fw || !ft) {
        FILE *all[4] = {fc, fe, fw, ft};
        for (int i = 0; i < 4; i++) if (all[i]) fclose(all[i]);
        pala_scene_free(sc);
        return PALA_ERR_IO;
    }
    fprintf(fc, "# effective control file written by pala %s\n# command:", PALA_VERSION);
    for (int i = 0; i < o->cmdc; i++) fprintf(fc, " %s", o->cmdv[i]);
    fprintf(fc, "\n# rerun: pala run %s/control.txt -o NEWDIR\n", dir);
    pala_scene_write(sc, fc);
    int werr = close_checked(fc, dir, "control.txt");
    fprintf(fe, "step\ttime\tE_kin\tE_rot\tE_contact\tE_field\tE_total\tdE_rel\tE_diss\tdE_bal_rel\tcontacts\tmax_overlap\n");
    fprintf(fw, "step\ttime");
    {
        const char *nm[8];
        double val[8];
        int nc = pala_world_wall_columns(w, nm, val, 8);
        for (int i = 0; i < nc; i++) fprintf(fw, "\t%s", nm[i]);
    }
    fputc('\n', fw);
    traj_header(ft, w);
    if (!o->quiet) report_templates(w);

    long steps = pala_scene_steps(sc), eev = pala_scene_energy_every(sc), tev = pala_scene_traj_every(sc);
    estats es;
    energy_row(fe, fw, w, &es, 1);
    traj_frame(ft, w);
    g_stop = 0;
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    int tty = !o->quiet && isatty(2);
    double t0 = pala_now(), tlast = t0, tflush = t0;
    int status = PALA_OK;
    long s = 0;
    while (s < steps) {
        /* run up to the next step whose state is written (or 64 steps, for the progress
         * line and Ctrl-C) in one call: the steps in between are chained (integrator.c) */
        long next = steps;
        if (eev > 0 && (s / eev + 1) * eev < next) next = (s / eev + 1) * eev;
        if (tev > 0 && (s / tev + 1) * tev < next) next = (s / tev + 1) * tev;
        if (s + 64 < next) next = s + 64;
        long before = w->step;
        int st = pala_world_steps(w, next - s);
        s += w->step - before;
        int last = s == steps || st != PALA_OK || g_stop;
        if ((eev > 0 && s % eev == 0) || last) energy_row(fe, fw, w, &es, 0);
        if ((tev > 0 && s % tev == 0) || last) traj_frame(ft, w);
        if (st != PALA_OK) { status = st; break; }
        if (g_stop) { status = PALA_INTERRUPTED; break; }
        double tn = pala_now();
        if (tn - tflush > 1.0) { fflush(fe); fflush(fw); fflush(ft); tflush = tn; }
        if (tty && tn - tlast > 0.5) {
            double rate = (double)s / (tn - t0);
            fprintf(stderr, "\r%5.1f%%  step %ld/%ld  %.3g steps/s  ETA %.0f s   ", 100.0 * (double)s / (double)steps, s, steps, rate, (double)(steps - s) / rate);
            tlast = tn;
        }
    }
    if (s > steps) s = steps;
    double wall = pala_now() - t0;
    if (tty) fprintf(stderr, "\r%*s\r", 70, "");
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    werr |= close_checked(fe, dir, "energy.tsv") | close_checked(fw, dir, "walls.tsv") | close_checked(ft, dir, "trajectory.txt");
    double gsps = wall > 0 ? (double)w->n * (double)w->step / wall : 0;
    /* summary.tsv: parameters, then results (names fixed: see docs/output-formats.md) */
    FILE *fs = open_out(dir, "summary.tsv");
    if (fs) {
        const char *k, *v;
        fprintf(fs, "scene");
        for (int i = 0; pala_scene_setting(sc, i, &k, &v); i++) fprintf(fs, "\t%s", k);
        fprintf(fs, "\tstatus\texit_code\tsteps\tsim_time\twall_time\tgrain_steps_per_s\tE_total_initial\tE_total_final\tE_total_min\tE_total_max\tmax_abs_dE_rel\tE_dissipated\n");
        fprintf(fs, "%s", o->scene);
        for (int i = 0; pala_scene_setting(sc, i, &k, &v); i++) fprintf(fs, "\t%s", v);
        const char *sn = status == PALA_OK ? "ok" : status == PALA_UNSTABLE ? "unstable" : "interrupted";
        fprintf(fs, "\t%s\t%d\t%ld\t%.12g\t%.4g\t%.4g\t%.16g\t%.16g\t%.16g\t%.16g\t%.6g\t%.16g\n", sn, status, w->step, w->t, wall, gsps,
                es.e0, es.last, es.emin, es.emax, es.maxrel, w->diss);
        werr |= close_checked(fs, dir, "summary.tsv");
    } else werr = 1;
    if (status == PALA_UNSTABLE) {
        fprintf(stderr, "pala: run stopped as unstable: %s\n", w->why[0] ? w->why : "runaway overlap; reduce dt");
        if (w->step <= 1)   /* no time step is small enough for grains that start inside each other */
            fprintf(stderr, "pala: this happened at the first step, so the initial state probably overlaps already: "
                    "check the 'at' lines of placement = list groups (or the grains of lammps_data) for grains "
                    "closer than their radii allow; a smaller dt will not fix that\n");
        fprintf(stderr, "pala: logs up to step %ld are in %s/\n", w->step, dir);
    }
    else if (status == PALA_INTERRUPTED)
        fprintf(stderr, "pala: interrupted at step %ld of %ld; logs up to there are in %s/\n", w->step, steps, dir);
    if (!o->quiet || status != PALA_OK)
        printf("%s: %ld steps, %d grains, %d thread%s, %.3g s simulated in %.3g s wall, %.3g grain-steps/s, final dE_rel %.3g, max |dE_rel| %.3g -> %s/\n",
               o->scene, w->step, w->n, nth, nth == 1 ? "" : "s", w->t, wall, gsps, es.lastrel, es.maxrel, dir);
    pala_scene_free(sc);
    if (werr && status == PALA_OK) status = PALA_ERR_IO;   /* e.g. a full disk: never a silent success */
    return status;
}
