/* run.c: `pala run`: builds the world from a control file, steps it, and writes the run
 * folder (docs/output-formats.md):
 *   control.txt     the effective control file (every key; overrides marked)
 *   energy.tsv      energies every energy_every steps
 *   walls.tsv       momentum received by the walls
 *   trajectory.txt  grain templates once, then frames of the grains' state
 *   summary.tsv     one row: parameters and key results (for `pala collect`)
 * The files written during the run are writers (writer.h, writers.c); this loop only asks
 * them when they write.  An unstable or interrupted run stops, writes its last rows,
 * flushes, and says why. */
#define _DEFAULT_SOURCE
#include "run.h"
#include "writer.h"
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

/* The files of a run folder: control.txt, the writers' files, summary.tsv; NULL past
 * the last. */
static const char *result_file(int i)
{
    if (i == 0) return "control.txt";
    if (i <= pala_nwriters) return pala_writers[i - 1].file;
    return i == pala_nwriters + 1 ? "summary.tsv" : NULL;
}

int pala_run_prepare_dir(const char *dir, int force, FILE *err)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) { fprintf(err, "pala: %s exists and is not a folder; choose another with -o\n", dir); return PALA_ERR_INPUT; }
        char p[4096];
        const char *name;
        for (int i = 0; (name = result_file(i)); i++) {
            snprintf(p, sizeof p, "%s/%s", dir, name);
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

int pala_run(const pala_run_opts *o)
{
    pala_scene *sc;
    int rc = pala_scene_load(o->scene, o->nset, o->sets, &sc, stderr);
    if (rc) return rc;
    pala_world *w = pala_scene_world(sc);
    int nth = o->threads > 0 ? o->threads : pala_cpu_count();
    if (nth > pala_world_max_threads(w)) nth = pala_world_max_threads(w);   /* work is split by blocks of grains */
    pala_world_set_threads(w, nth);   /* results do not depend on it */
    /* more threads asked than the scene has blocks: said before the run (not with --quiet,
     * so sweeps of small scenes are not flooded) and in the summary line */
    char asked[48] = "";
    if (o->threads > nth) snprintf(asked, sizeof asked, " (of %d asked)", o->threads);
    char dir[4096];
    if (o->outdir) snprintf(dir, sizeof dir, "%s", o->outdir);
    else pala_run_default_dir(o->scene, dir, sizeof dir);
    rc = pala_run_prepare_dir(dir, o->force, stderr);
    if (rc) { pala_scene_free(sc); return rc; }
    /* every file is created before any is written: one that cannot be leaves the others empty */
    FILE *fc = pala_output_fopen(dir, "control.txt");
    pala_writer_set logs;
    if (!fc || pala_writers_open(&logs, dir, sc, w) != PALA_OK) {
        if (fc) fclose(fc);
        pala_scene_free(sc);
        return PALA_ERR_IO;
    }
    fprintf(fc, "# effective control file written by pala %s\n# command:", PALA_VERSION);
    for (int i = 0; i < o->cmdc; i++) fprintf(fc, " %s", o->cmdv[i]);
    fprintf(fc, "\n# rerun: pala run %s/control.txt -o NEWDIR\n", dir);
    pala_scene_write(sc, fc);
    int werr = pala_output_fclose(fc, dir, "control.txt");
    if (!o->quiet) report_templates(w);
    if (asked[0] && !o->quiet)
        fprintf(stderr, "pala: --threads %d, but a step uses one thread per block of 256 grains: %d grains run on %d thread%s\n",
                o->threads, w->n, nth, nth == 1 ? "" : "s");

    long steps = pala_scene_steps(sc);
    pala_writers_start(&logs);
    double overlap0 = w->worst_overlap;   /* of the initial state (energy.tsv's first row) */
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
        /* run up to the next step a writer writes (or 64 steps, for the progress line and
         * Ctrl-C) in one call: the steps in between are chained (step.c) */
        long next = pala_writers_next(&logs, s, steps);
        if (s + 64 < next) next = s + 64;
        long before = w->step;
        int st = pala_world_steps(w, next - s);
        s += w->step - before;
        int last = s == steps || st != PALA_OK || g_stop;
        pala_writers_frame(&logs, s, last);
        if (st != PALA_OK) { status = st; break; }
        if (g_stop) { status = PALA_INTERRUPTED; break; }
        double tn = pala_now();
        if (tn - tflush > 1.0) { pala_writers_flush(&logs); tflush = tn; }
        if (tty && tn - tlast > 0.5) {
            double rate = (double)s / (tn - t0);
            fprintf(stderr, "\r%5.1f%%  step %ld/%ld  %.3g steps/s  ETA %.0f s   ", 100.0 * (double)s / (double)steps, s, steps, rate, (double)(steps - s) / rate);
            tlast = tn;
        }
    }
    double wall = pala_now() - t0;
    if (tty) fprintf(stderr, "\r%*s\r", 70, "");
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    werr |= pala_writers_close(&logs);
    const pala_energy_stats *es = &logs.out.energy;
    double gsps = wall > 0 ? (double)w->n * (double)w->step / wall : 0;
    /* summary.tsv: parameters, then results (names fixed: see docs/output-formats.md) */
    FILE *fs = pala_output_fopen(dir, "summary.tsv");
    if (fs) {
        const char *k, *v;
        fprintf(fs, "scene");
        for (int i = 0; pala_scene_setting(sc, i, &k, &v); i++) fprintf(fs, "\t%s", k);
        fprintf(fs, "\tstatus\texit_code\tsteps\tsim_time\twall_time\tgrain_steps_per_s\tE_total_initial\tE_total_final\tE_total_min\tE_total_max\tmax_abs_dE_rel\tE_dissipated\n");
        fprintf(fs, "%s", o->scene);
        for (int i = 0; pala_scene_setting(sc, i, &k, &v); i++) fprintf(fs, "\t%s", v);
        const char *sn = status == PALA_OK ? "ok" : status == PALA_UNSTABLE ? "unstable" : "interrupted";
        fprintf(fs, "\t%s\t%d\t%ld\t%.12g\t%.4g\t%.4g\t%.16g\t%.16g\t%.16g\t%.16g\t%.6g\t%.16g\n", sn, status, w->step, w->t, wall, gsps,
                es->initial, es->final, es->min, es->max, es->max_abs_rel, w->diss);
        werr |= pala_output_fclose(fs, dir, "summary.tsv");
    } else werr = 1;
    if (status == PALA_UNSTABLE) {
        fprintf(stderr, "pala: run stopped as unstable: %s\n", w->why[0] ? w->why : "runaway overlap; reduce dt");
        if (w->step <= 1 && overlap0 > 0.5 * w->max_overlap)   /* no time step is small enough for grains that start inside each other */
            fprintf(stderr, "pala: this happened at the first step, so the initial state probably overlaps already: "
                    "check the 'at' lines of placement = list groups (or the grains of lammps_data) for grains "
                    "closer than their radii allow; a smaller dt will not fix that\n");
        fprintf(stderr, "pala: logs up to step %ld are in %s/\n", w->step, dir);
    }
    else if (status == PALA_INTERRUPTED)
        fprintf(stderr, "pala: interrupted at step %ld of %ld; logs up to there are in %s/\n", w->step, steps, dir);
    if (!o->quiet || status != PALA_OK)
        printf("%s: %ld steps, %d grains, %d thread%s%s, %.3g s simulated in %.3g s wall, %.3g grain-steps/s, final dE_rel %.3g, max |dE_rel| %.3g -> %s/\n",
               o->scene, w->step, w->n, nth, nth == 1 ? "" : "s", asked, w->t, wall, gsps, es->final_rel, es->max_abs_rel, dir);
    pala_scene_free(sc);
    if (werr && status == PALA_OK) status = PALA_ERR_IO;   /* e.g. a full disk: never a silent success */
    return status;
}
