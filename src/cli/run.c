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
#include <math.h>
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

/* The health of a run: E_total + E_diss is constant up to the time-discretisation error
 * (docs/physics.md, "Energy accounting"); a worst |dE_bal_rel| above this is a warning
 * (docs/physics.md, "Choosing dt"). */
#define PALA_BALANCE_WARN 0.01

/* The warning, with the advice: for friction, the rate (7/2) mu g / nu at which a rolling
 * contact damps its slip (docs/physics.md, "Choosing dt"), against dt. */
static void balance_warning(const pala_world *w, double bal)
{
    fprintf(stderr, "pala: warning: the energy balance E_total + E_diss drifted by up to %.3g of E_total(0) (max |dE_bal_rel|, "
            "warning above %g): the time step %g s is too large for this scene's contacts", bal, PALA_BALANCE_WARN, w->dt);
    double g = pala_vnorm(w->g), rate = 0;
    for (int i = 0; i < w->nmat * w->nmat; i++)
        if (w->pm[i].mu > 0 && w->pm[i].nu > 0) rate = fmax(rate, 3.5 * w->pm[i].mu * g / w->pm[i].nu);
    if (rate * w->dt > 0.2)
        fprintf(stderr, "; with friction, a rolling contact damps its slip at (7/2) mu g / nu = %.3g 1/s, so dt should be at most "
                "0.2 / that = %.3g s (docs/physics.md, \"Choosing dt\")", rate, 0.2 / rate);
    else fprintf(stderr, "; reduce dt (docs/physics.md, \"Choosing dt\")");
    fprintf(stderr, "\n");
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
    int status = pala_writers_start(&logs) ? PALA_ERR_IO : PALA_OK;
    double overlap0 = w->worst_overlap;   /* of the initial state (energy.tsv's first row) */
    g_stop = 0;
    /* SIGHUP (a closed terminal or ssh session) stops the run like SIGINT and SIGTERM */
    struct sigaction sa, old_int, old_term, old_hup;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGHUP, &sa, &old_hup);
    int tty = !o->quiet && isatty(2);
    double t0 = pala_now(), tlast = t0, tflush = t0;
    long s = 0;
    while (s < steps && status == PALA_OK) {
        /* run up to the next step a writer writes (or 64 steps, for the progress line and
         * Ctrl-C) in one call: the steps in between are chained (step.c) */
        long next = pala_writers_next(&logs, s, steps);
        if (s + 64 < next) next = s + 64;
        long before = w->step;
        int st = pala_world_steps(w, next - s);
        s += w->step - before;
        int last = s == steps || st != PALA_OK || g_stop;
        if (pala_writers_frame(&logs, s, last)) {   /* a full disk: stop now, not at the end */
            status = PALA_ERR_IO;
            fprintf(stderr, "pala: the run stopped at step %ld of %ld because its output could not be written\n", s, steps);
            break;
        }
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
    sigaction(SIGHUP, &old_hup, NULL);
    werr |= pala_writers_close(&logs);
    const pala_energy_stats *es = &logs.out.energy;
    int unhealthy = !(es->max_abs_bal <= PALA_BALANCE_WARN);   /* NaN too */
    if (unhealthy && status != PALA_UNSTABLE) balance_warning(w, es->max_abs_bal);
    double gsps = wall > 0 ? (double)w->n * (double)w->step / wall : 0;
    /* summary.tsv: parameters, then results (names fixed: see docs/output-formats.md) */
    FILE *fs = pala_output_fopen(dir, "summary.tsv");
    if (fs) {
        const char *k, *v;
        fprintf(fs, "scene");
        for (int i = 0; pala_scene_setting(sc, i, &k, &v); i++) fprintf(fs, "\t%s", k);
        fprintf(fs, "\tstatus\texit_code\tsteps_done\tsim_time\twall_time\tgrain_steps_per_s\tE_total_initial\tE_total_final\tE_total_min\tE_total_max\tmax_abs_dE_rel\tE_dissipated\tmax_abs_dE_bal_rel\twarning\n");
        fprintf(fs, "%s", o->scene);
        for (int i = 0; pala_scene_setting(sc, i, &k, &v); i++) fprintf(fs, "\t%s", v);
        const char *sn = status == PALA_OK ? "ok" : status == PALA_UNSTABLE ? "unstable" : status == PALA_ERR_IO ? "io_error" : "interrupted";
        fprintf(fs, "\t%s\t%d\t%ld\t%.12g\t%.4g\t%.4g\t%.16g\t%.16g\t%.16g\t%.16g\t%.6g\t%.16g\t%.6g\t%s\n", sn, status, w->step, w->t, wall, gsps,
                es->initial, es->final, es->min, es->max, es->max_abs_rel, w->diss, es->max_abs_bal, unhealthy ? "energy_balance" : "-");
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
        printf("%s: %ld steps, %d grains, %d thread%s%s, %.3g s simulated in %.3g s wall, %.3g grain-steps/s, final dE_rel %.3g, max |dE_rel| %.3g, max |dE_bal_rel| %.3g -> %s/\n",
               o->scene, w->step, w->n, nth, nth == 1 ? "" : "s", asked, w->t, wall, gsps, es->final_rel, es->max_abs_rel, es->max_abs_bal, dir);
    pala_scene_free(sc);
    if (werr && status == PALA_OK) status = PALA_ERR_IO;   /* e.g. a full disk: never a silent success */
    return status;
}
