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
#include "checkpoint.h"
#include "rundir.h"
#include <stdio.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <math.h>
#include <unistd.h>
#include <dirent.h>

static volatile sig_atomic_t g_stop;
static void on_signal(int sig) { g_stop = sig; }

/* The dispositions a run replaces, given back when it ends. */
typedef struct run_signals { struct sigaction in, term, hup; } run_signals;

/* From before the run touches its folder, a signal stops the run cleanly: the folder
 * gets its control file, logs and first checkpoint, and the loop stops after its first
 * steps (exit 4), where the default action would have left a folder without a checkpoint.
 * SIGHUP (a closed terminal or ssh session) stops it like SIGINT and SIGTERM; one the
 * caller ignores stays ignored: nohup.  (SIGINT, which a shell script ignores in its
 * background jobs, is still taken: kill -INT stops such a run cleanly.)  Before this, while
 * the scene loads and its grains are built, a signal ends pala the default way, having
 * written nothing. */
static void signals_take(run_signals *old)
{
    g_stop = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, &old->in);
    sigaction(SIGTERM, &sa, &old->term);
    sigaction(SIGHUP, &sa, &old->hup);
    if (old->hup.sa_handler == SIG_IGN) sigaction(SIGHUP, &old->hup, NULL);
}

static void signals_give_back(const run_signals *old)
{
    sigaction(SIGINT, &old->in, NULL);
    sigaction(SIGTERM, &old->term, NULL);
    sigaction(SIGHUP, &old->hup, NULL);
}

void pala_run_default_dir(const char *scene, char *buf, size_t len)
{
    const char *b = strrchr(scene, '/');
    b = b ? b + 1 : scene;
    const char *dot = strrchr(b, '.');
    int n = dot && dot != b ? (int)(dot - b) : (int)strlen(b);
    snprintf(buf, len, "%.*s.run", n, b);
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

/* The health of a run: E_total + E_diss - W_field - W_walls + E_out - E_in is constant up to
 * the time-discretisation error (docs/physics.md, "Energy accounting", "Grains that enter and
 * leave"); its largest drift in joules over the energy that flowed through the run
 * (|E_total(0)|, |E_diss|, |W_field|, |W_walls|, |E_in|, |E_out|) above this is a warning
 * (docs/physics.md, "Choosing dt"). */
#define PALA_BALANCE_WARN 0.01

/* The default number of threads: one per this many blocks of 256 grains (1,024 grains), at
 * most one per CPU (docs/cli.md, "--threads"). */
#define PALA_BLOCKS_PER_THREAD 4

/* The drift of the balance relative to the energy that flowed: the largest drift in joules
 * (writers.c); after a resume from a checkpoint without it, the largest |dE_bal_rel| times
 * its denominator |E_total(0)| + |E_in| at the end (at least each row's while E_in grows).
 * *drift and *flow in J. */
static double balance_health(const pala_world *w, const pala_energy_stats *es, double *drift, double *flow)
{
    double den = fabs(es->initial) + fabs(w->ein);   /* E_in = 0 without inserters */
    *drift = es->max_abs_drift >= 0 ? es->max_abs_drift : es->max_abs_bal * (den != 0 ? den : 1.0);
    *flow = fabs(es->initial) + fabs(w->diss) + fabs(w->wfield) + fabs(pala_world_wall_work(w)) + fabs(w->ein) + fabs(w->eout);
    return *flow > 0 ? *drift / *flow : es->max_abs_bal;
}

/* The warning, naming the run's folder, with the advice of the laws the scene uses: each time
 * scale of the check of dt (pala_world_dt_check) that dt resolves too coarsely, with the
 * dt it asks for; else to halve dt (the drift falls as dt^2). */
static void balance_warning(const pala_world *w, const pala_dt_report *r, const char *dir, double health, double drift, double flow)
{
    fprintf(stderr, "pala: warning: %s: the energy balance E_total + E_diss - W_field - W_walls + E_out - E_in drifted by up to %.3g J, %.3g of the "
            "%.3g J that flowed through the run (E_total(0), E_diss, W_field, W_walls, E_in, E_out; warning above %g): the time step %g s is too large "
            "for this scene's laws",
            dir, drift, health, flow, PALA_BALANCE_WARN, w->dt);
    int n = 0;
    for (int i = 0; i < r->n; i++)
        if (r->scale[i].verdict != PALA_DT_OK)
            fprintf(stderr, "%s %s = %.3g s, so dt should be at most %.3g s", n++ ? ";" : ":", r->scale[i].fix, r->scale[i].t, r->scale[i].dt_max);
    if (!n) fprintf(stderr, "; halve dt and compare (the drift falls as dt^2)");
    fprintf(stderr, " (docs/physics.md, \"Choosing dt\")\n");
}

/* The scene column of DIR/summary.tsv (the first cell of its row), or def. */
static void summary_scene(const char *dir, const char *def, char *buf, size_t len)
{
    char p[4200], line[4096];
    snprintf(buf, len, "%s", def);
    snprintf(p, sizeof p, "%s/summary.tsv", dir);
    FILE *f = fopen(p, "r");
    if (!f) return;
    int c;
    while ((c = getc(f)) != EOF && c != '\n') continue;   /* the header, however long */
    if (c == '\n' && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\t\n")] = 0;
        if (line[0]) snprintf(buf, len, "%s", line);
    }
    fclose(f);
}

/* An inserter's first shortfall, said (say) when it happens (flow.tsv counts them): seen[i]
 * holds the shortfalls of feed i known already. */
static void shortfall_news(const pala_world *w, long *seen, int say)
{
    pala_feed_report r;
    for (int i = 0; pala_world_feed_report(w, i, &r) == 0 && i < PALA_MAX_FEEDS; i++) {
        if (r.outlet || r.short_events <= seen[i]) continue;
        if (seen[i] == 0 && say)
            fprintf(stderr, "pala: warning: [group %s]: at t = %.6g s, %ld grain%s due found no room in the region (a grain's bounding sphere may "
                    "overlap neither the grains there nor the walls); they are tried again at each insertion; flow.tsv counts them (behind_%s)\n",
                    r.name, r.last_short, r.behind, r.behind == 1 ? "" : "s", r.name);
        seen[i] = r.short_events;
    }
}

/* At the end: each inserter that fell short, how far and when (never silent). */
static void shortfall_summary(const pala_world *w)
{
    pala_feed_report r;
    for (int i = 0; pala_world_feed_report(w, i, &r) == 0; i++) {
        if (r.outlet || r.short_events == 0) continue;
        fprintf(stderr, "pala: warning: [group %s]: inserted %ld grains; %ld insertion%s fell short (the first at t = %.6g s, the last at %.6g s, "
                "at most %ld grain%s behind)", r.name, r.count, r.short_events, r.short_events == 1 ? "" : "s", r.first_short, r.last_short, r.most_behind, r.most_behind == 1 ? "" : "s");
        if (r.behind > 0) fprintf(stderr, ", and %ld due never found room", r.behind);
        else fprintf(stderr, ", all placed later");
        fprintf(stderr, ": enlarge the region, lower the rate, or insert more often (insert_every)\n");
    }
}

/* pala resume: the checkpoint of the folder, the scene it names (unchanged since), its
 * overrides with the new run length.  Fills ck, cr and the scene; returns the exit code. */
static int resume_load(const pala_run_opts *o, pala_ckpt **ck, pala_ckpt_run *cr, pala_scene **sc)
{
    for (int i = 0; i < o->nset; i++)
        if (strncmp(o->sets[i], "steps=", 6) && strncmp(o->sets[i], "end_time=", 9)) {
            fprintf(stderr, "pala resume: --set '%s': a resumed run continues the same scene; only its length changes "
                    "(--set steps=N or --set end_time=T)\n", o->sets[i]);
            return PALA_ERR_INPUT;
        }
    if (pala_ckpt_read(o->resume, ck, cr, stderr)) return PALA_ERR_INPUT;
    /* the run's overrides, less its length when a new one is given */
    char **sets = calloc((size_t)(cr->nset + o->nset + 1), sizeof *sets);
    if (!sets) return PALA_ERR_IO;
    int n = 0;
    for (int i = 0; i < cr->nset; i++)
        if (!o->nset || (strncmp(cr->sets[i], "steps=", 6) && strncmp(cr->sets[i], "end_time=", 9))) sets[n++] = cr->sets[i];
    for (int i = 0; i < o->nset; i++) sets[n++] = o->sets[i];
    /* the checkpoints of this resume record these overrides (the new length with them) */
    char **kept = calloc((size_t)n + 1, sizeof *kept);
    for (int i = 0; kept && i < n; i++) kept[i] = strdup(sets[i]);
    pala_ckpt_run now;
    memset(&now, 0, sizeof now);
    /* the scene is gone (a run folder moved to another machine, its control file deleted):
     * the folder's control.txt, the effective control file, stands in for it, checked by
     * the effective settings alone */
    char own[4300];
    struct stat st;
    int gone = stat(cr->scene, &st) != 0 && errno == ENOENT;
    snprintf(own, sizeof own, "%s/control.txt", o->resume);
    if (gone) fprintf(stderr, "pala resume: %s, the run's scene, is gone: the run's own %s stands in for it\n", cr->scene, own);
    int rc = pala_scene_load(gone ? own : cr->scene, n, sets, sc, stderr);
    free(sets);
    if (rc) {
        const char *what = gone ? own : cr->scene;   /* the file that was read */
        if (o->nset) fprintf(stderr, "pala resume: the scene of the run, %s, with this resume's --set, does not load (above)\n", what);
        else fprintf(stderr, "pala resume: the scene of the run, %s, no longer loads (above)\n", what);
        for (int i = 0; kept && i < n; i++) free(kept[i]);
        free(kept);
        return rc;
    }
    if (pala_ckpt_hash_scene(&now, *sc, gone ? own : cr->scene, stderr)) rc = PALA_ERR_INPUT;
    else if (!gone && now.scene_hash != cr->scene_hash)
        fprintf(stderr, "pala resume: %s changed since the run (its checksum differs): a resume continues the scene it started; "
                "restore the file, or rerun the scene\n", cr->scene), rc = PALA_ERR_INPUT;
    else if (now.data_hash != cr->data_hash)
        fprintf(stderr, "pala resume: the lammps_data file of %s changed since the run; restore it, or rerun the scene\n", cr->scene), rc = PALA_ERR_INPUT;
    else if (cr->has_mesh_hash && now.mesh_hash != cr->mesh_hash)
        fprintf(stderr, "pala resume: a [wall]'s mesh file of %s changed since the run; restore it, or rerun the scene\n", cr->scene), rc = PALA_ERR_INPUT;
    else if (now.settings_hash != cr->settings_hash)
        fprintf(stderr, "pala resume: the effective settings of %s differ from the run's (another pala, or other defaults); rerun the scene\n", cr->scene), rc = PALA_ERR_INPUT;
    else if (pala_ckpt_apply(*ck, pala_scene_world(*sc), stderr)) rc = PALA_ERR_INPUT;
    if (rc) { pala_scene_free(*sc); *sc = NULL; }
    if (kept) {
        pala_ckpt_run_free(cr);
        cr->sets = kept;
        cr->nset = n;
    }
    return rc;
}

int pala_run_info(const char *dir)
{
    pala_ckpt *ck;
    pala_ckpt_run cr;
    if (pala_ckpt_read(dir, &ck, &cr, stderr)) return PALA_ERR_INPUT;
    int n;
    double t;
    long step;
    pala_ckpt_where(ck, &n, &t, &step);
    printf("%s/%s: version %d, step %ld of %ld (%s), t = %.17g s, %d grains, state hash 0x%016llx\n", dir, PALA_CKPT_FILE, PALA_CKPT_VERSION,
           step, cr.steps, cr.status == -1 ? "finished" : cr.status == PALA_INTERRUPTED ? "interrupted" : "running", t, n,
           (unsigned long long)pala_ckpt_state_hash(ck));
    printf("scene %s", cr.scene);
    for (int i = 0; i < cr.nset; i++) printf(" --set '%s'", cr.sets[i]);
    printf("\n");
    pala_ckpt_free(ck);
    pala_ckpt_run_free(&cr);
    return PALA_OK;
}

/* The run's control.txt, the effective control file, written whole to a temporary file
 * (tmp, which control_commit renames into place): one that cannot be written (a full disk)
 * stops the run before any file of the folder has changed: PALA_ERR_IO after a message. */
static int control_write(const pala_run_opts *o, pala_scene *sc, const char *dir, char *tmp, size_t len)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/control.txt", dir);
    pala_tmpname(tmp, len, path);
    FILE *fc = pala_output_fopen(dir, strrchr(tmp, '/') + 1);
    if (!fc) return PALA_ERR_IO;
    fprintf(fc, "# effective control file written by pala %s\n# command:", PALA_VERSION);
    for (int i = 0; i < o->cmdc; i++) fprintf(fc, " %s", o->cmdv[i]);
    fprintf(fc, "\n# rerun: pala run %s/control.txt -o NEWDIR\n", dir);
    pala_scene_write(sc, fc);
    int bad = ferror(fc) != 0;
    bad |= fclose(fc) != 0;
    if (!bad) return PALA_OK;
    fprintf(stderr, "pala: cannot write %s: %s; no step was taken and no file of the run changed\n", path, strerror(errno ? errno : EIO));
    unlink(tmp);
    return PALA_ERR_IO;
}

/* control.txt into place (rc PALA_OK), or its temporary file removed */
static int control_commit(const char *tmp, const char *dir, int rc)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/control.txt", dir);
    if (rc == PALA_OK && rename(tmp, path) != 0) {
        fprintf(stderr, "pala: cannot write %s: %s\n", path, strerror(errno));
        rc = PALA_ERR_IO;
    }
    if (rc != PALA_OK) unlink(tmp);
    return rc;
}

int pala_run(const pala_run_opts *o)
{
    pala_scene *sc = NULL;
    pala_ckpt *ck = NULL;
    pala_ckpt_run cr;   /* the run's checkpoint data: read on resume, kept up to date */
    memset(&cr, 0, sizeof cr);
    int rc, lock = -1;   /* the run folder's lock (rundir.h), held to the end */
    if (o->resume) {
        struct stat st;   /* no folder there: a wrong argument (exit 1), not a failure to write */
        int there = stat(o->resume, &st) == 0, e = errno;
        if (!there || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "pala resume: %s is %s: give the folder of a run (pala run -o DIR)\n", o->resume,
                    !there && e == ENOENT ? "not there" : !there ? pala_strerror(e) : "not a folder");
            return PALA_ERR_INPUT;
        }
        if ((rc = pala_rundir_lock(o->resume, "resume", &lock, stderr)) != 0) return rc;
        rc = resume_load(o, &ck, &cr, &sc);
        if (rc) { pala_ckpt_free(ck); pala_ckpt_run_free(&cr); pala_rundir_unlock(lock); return rc; }
    } else {
        rc = pala_scene_load(o->scene, o->nset, o->sets, &sc, stderr);
        if (rc) return rc;
    }
    const char *scene = o->resume ? cr.scene : o->scene;
    pala_world *w = pala_scene_world(sc);
    long resumed_at = w->step;
    if (o->resume) {
        pala_world_prepare(w);   /* pebbles and the neighbour list of the restored state */
        long want = pala_scene_steps(sc);
        if (want <= w->step) {
            fprintf(stderr, "pala resume: %s is at step %ld of %ld already%s; to extend it, give more: --set steps=N (N > %ld) or --set end_time=T\n",
                    o->resume, w->step, want, cr.status == -1 ? " (finished)" : "", w->step);
            pala_ckpt_free(ck); pala_ckpt_run_free(&cr); pala_scene_free(sc); pala_rundir_unlock(lock);
            return PALA_ERR_INPUT;
        }
    }
    /* work is split by blocks of 256 grains: at most one thread per block; by default one per
     * PALA_BLOCKS_PER_THREAD blocks, so a small scene, whose step is as short as a few
     * fork-joins, runs on one thread, which no busy core can slow down */
    int nth = o->threads > 0 ? o->threads : pala_world_max_threads(w) / PALA_BLOCKS_PER_THREAD;
    if (o->threads <= 0 && nth > pala_cpu_count()) nth = pala_cpu_count();
    if (nth < 1) nth = 1;
    if (nth > pala_world_max_threads(w)) nth = pala_world_max_threads(w);
    w->threads_auto = o->threads <= 0;   /* a default: one thread while that is faster (threads.c, pala_team_adapt) */
    pala_world_set_threads(w, nth);   /* results do not depend on it */
    /* more threads asked than the scene has blocks: said before the run (not with --quiet,
     * so sweeps of small scenes are not flooded) and in the summary line, which also says
     * for which part of the steps the default count ran on one thread */
    char asked[128] = "";
    if (o->threads > nth) snprintf(asked, sizeof asked, " (of %d asked)", o->threads);
    run_signals old_sig;
    char dir[4096];
    if (o->resume) snprintf(dir, sizeof dir, "%s", o->resume);
    else if (o->outdir) snprintf(dir, sizeof dir, "%s", o->outdir);
    else pala_run_default_dir(o->scene, dir, sizeof dir);
    if (!o->resume) {
        /* the scene's identity, so a resume continues the same scene (checkpoint.h): read
         * before --force clears the folder, which may hold the control file itself */
        char *abs = realpath(o->scene, NULL);
        snprintf(cr.scene, sizeof cr.scene, "%s", abs ? abs : o->scene);
        free(abs);
        cr.nset = o->nset;
        cr.sets = calloc((size_t)o->nset + 1, sizeof *cr.sets);
        for (int i = 0; cr.sets && i < o->nset; i++) cr.sets[i] = strdup(o->sets[i]);
        if (!cr.sets || pala_ckpt_hash_scene(&cr, sc, o->scene, stderr)) { pala_ckpt_run_free(&cr); pala_scene_free(sc); return PALA_ERR_IO; }
        const char *from = pala_scene_get(sc, "start_from");
        struct stat a, b;
        if (from && *from && stat(from, &a) == 0 && stat(dir, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
            fprintf(stderr, "pala run: %s: start_from = %s is the folder this run writes (-o %s), which would replace the run it starts from; "
                            "give another -o\n", o->scene, from, dir);
            pala_ckpt_run_free(&cr); pala_scene_free(sc);
            return PALA_ERR_INPUT;
        }
        signals_take(&old_sig);
        rc = pala_folder_prepare(dir, &pala_run_folder, o->force, "run", &lock, stderr);
        if (rc) { signals_give_back(&old_sig); pala_ckpt_run_free(&cr); pala_scene_free(sc); return rc; }
    } else signals_take(&old_sig);
    /* control.txt is written to a temporary file first: one that cannot be written stops
     * the run before anything changed.  A new run puts it in place before it creates its
     * logs, so that a folder whose logs could not be created (a full disk, too many open
     * files) is still known as a run's folder (rundir.c) and --force may clear it.  A
     * resume first checks that it can write its checkpoint, then checks every log against
     * the checkpoint before it cuts any back (pala_writers_reopen), and puts control.txt in
     * place only then: a resume refused (a log that no longer matches: exit 1) leaves the
     * folder as it was.  A file that cannot be created (a read-only folder) is exit 5. */
    pala_writer_set logs;
    int werr = 0;
    char ctmp[4300];
    rc = o->resume ? pala_ckpt_probe(dir, stderr) : PALA_OK;   /* a resume: the folder takes new files */
    if (rc == PALA_OK) rc = control_write(o, sc, dir, ctmp, sizeof ctmp);
    int wrote = rc == PALA_OK;
    if (rc == PALA_OK && !o->resume) rc = control_commit(ctmp, dir, rc);   /* a new run: control.txt first */
    if (rc == PALA_OK) rc = o->resume ? pala_writers_reopen(&logs, dir, sc, w, cr.offset) : pala_writers_open(&logs, dir, sc, w);
    if (o->resume && wrote) {   /* a resume: control.txt once its logs are taken up, else left as it was */
        int rc2 = control_commit(ctmp, dir, rc);
        if (rc == PALA_OK && rc2 != PALA_OK) { pala_writers_close(&logs); rc = rc2; }
    }
    if (rc != PALA_OK) {
        signals_give_back(&old_sig);
        pala_ckpt_free(ck); pala_ckpt_run_free(&cr);
        pala_scene_free(sc);
        pala_rundir_unlock(lock);
        return rc;
    }
    /* the check of dt at the start (the scene refused a dt that is surely unstable): said
     * before the run, and the advice of a warning on the energy balance after it */
    pala_dt_report dr;
    const char *dck = pala_scene_get(sc, "dt_check");
    int dtc = !(dck && !strcmp(dck, "off")) && pala_world_dt_check(w, &dr) == PALA_OK;
    if (!dtc) memset(&dr, 0, sizeof dr);
    if (!o->quiet && !o->resume) {
        report_templates(w);
        if (pala_scene_report(sc)) fputs(pala_scene_report(sc), stdout);
        if (dtc) printf("%s\n", dr.line);
    }
    if (asked[0] && !o->quiet)
        fprintf(stderr, "pala: --threads %d, but a step uses one thread per block of 256 grains: %d grains run on %d thread%s\n",
                o->threads, w->n, nth, nth == 1 ? "" : "s");

    long steps = pala_scene_steps(sc), ckev = pala_scene_checkpoint_every(sc);
    double wall0 = cr.wall;   /* wall time of the run before this resume */
    /* progress: a line every `prog` seconds (batch logs), else the terminal's line */
    double prog = o->progress;
    const char *pe = getenv("PALA_PROGRESS");
    if (prog <= 0 && pe && atof(pe) > 0) prog = atof(pe);
    int tty = !o->quiet && isatty(2) && prog <= 0;
    double t0 = pala_now(), tlast = t0, tflush = t0;
    int status = PALA_OK;
    if (o->resume) { logs.out.energy = cr.energy; logs.out.walls = cr.walls; logs.out.flow = cr.flow; }
    else if (pala_writers_start(&logs)) status = PALA_ERR_IO;
    double overlap0 = w->worst_overlap;   /* of the initial state (energy.tsv's first row) */
    /* a checkpoint at the start: a run stopped by a full disk can always resume */
    if (status == PALA_OK && !o->resume) {
        cr.steps = steps; cr.status = 0; cr.wall = 0; cr.energy = logs.out.energy; cr.walls = logs.out.walls; cr.flow = logs.out.flow;
        if (pala_writers_offsets(&logs, cr.offset) || pala_ckpt_write(dir, w, &cr)) status = PALA_ERR_IO;
    }
    long s = w->step, seen[PALA_MAX_FEEDS];
    for (int i = 0; i < PALA_MAX_FEEDS; i++) seen[i] = 0;
    shortfall_news(w, seen, 0);   /* a resume: those of the run before the stop were said then */
    while (s < steps && status == PALA_OK) {
        /* run up to the next step a writer writes or a checkpoint is due (or 64 steps, for
         * the progress line and Ctrl-C) in one call: the steps in between are chained
         * (step.c), with the same bits as single steps */
        long next = pala_writers_next(&logs, s, steps);
        if (ckev > 0 && (s / ckev + 1) * ckev < next) next = (s / ckev + 1) * ckev;
        if (s + 64 < next) next = s + 64;
        long before = w->step;
        int st = pala_world_steps(w, next - s);
        s += w->step - before;
        shortfall_news(w, seen, 1);
        int stop = s == steps || st != PALA_OK || g_stop;
        /* the frames due at step s; then, at a checkpoint, the state with the files' lengths
         * and the statistics so far; then, at a stop, the last frames of the other writers,
         * which a resume cuts off again (the run continues as if never stopped) */
        if (pala_writers_frame(&logs, s, 0)) {   /* a full disk: stop now, not at the end */
            status = PALA_ERR_IO;
            fprintf(stderr, "pala: the run stopped at step %ld of %ld because its output could not be written\n", s, steps);
            break;
        }
        /* a folder deleted (or moved away) takes the files with it, whose writes still
         * succeed: noticed here, at least once per output interval */
        if (!pala_rundir_present(dir, lock)) {
            status = PALA_ERR_IO;
            fprintf(stderr, "pala: the run folder %s was deleted or replaced; the run stopped at step %ld of %ld (its output is lost)\n", dir, s, steps);
            signals_give_back(&old_sig);
            pala_writers_close(&logs);
            pala_scene_free(sc); pala_ckpt_free(ck); pala_ckpt_run_free(&cr);
            pala_rundir_unlock(lock);
            return status;
        }
        if (st != PALA_OK) status = st;   /* unstable: the state is not a step's end, no checkpoint */
        else if (g_stop) status = PALA_INTERRUPTED;
        if (status != PALA_UNSTABLE && (stop || (ckev > 0 && s % ckev == 0))) {
            cr.steps = steps;
            cr.status = status == PALA_INTERRUPTED ? PALA_INTERRUPTED : s == steps ? -1 : 0;
            cr.wall = wall0 + pala_now() - t0;
            cr.energy = logs.out.energy;
            cr.walls = logs.out.walls;
            cr.flow = logs.out.flow;
            if (pala_writers_offsets(&logs, cr.offset)) {
                status = PALA_ERR_IO;
                fprintf(stderr, "pala: the run stopped at step %ld of %ld because its output could not be written\n", s, steps);
            } else if (pala_ckpt_write(dir, w, &cr)) {
                status = PALA_ERR_IO;
                fprintf(stderr, "pala: the run stopped at step %ld of %ld because its checkpoint could not be written\n", s, steps);
            }
        }
        if (stop && status != PALA_ERR_IO && pala_writers_frame_rest(&logs, s)) {
            status = PALA_ERR_IO;
            fprintf(stderr, "pala: the last frames at step %ld could not be written\n", s);
        }
        if (stop) break;
        double tn = pala_now();
        if (tn - tflush > 1.0) { pala_writers_flush(&logs); tflush = tn; }
        if (prog > 0 && tn - tlast >= prog) {
            double rate = (double)(s - resumed_at) / (tn - t0);
            fprintf(stderr, "pala: %s: step %ld of %ld (%.1f%%), t = %.6g s, %.0f s elapsed, %.3g steps/s, ETA %.0f s\n", dir, s, steps,
                    100.0 * (double)s / (double)steps, (double)s * w->dt, tn - t0, rate, (double)(steps - s) / rate);
            tlast = tn;
        }
        if (tty && tn - tlast > 0.5) {
            double rate = (double)(s - resumed_at) / (tn - t0);
            fprintf(stderr, "\r%5.1f%%  step %ld/%ld  %.3g steps/s  ETA %.0f s   ", 100.0 * (double)s / (double)steps, s, steps, rate, (double)(steps - s) / rate);
            tlast = tn;
        }
    }
    double wall = pala_now() - t0;
    if (tty) fprintf(stderr, "\r%*s\r", 70, "");
    shortfall_summary(w);
    signals_give_back(&old_sig);
    werr |= pala_writers_close(&logs);
    const pala_energy_stats *es = &logs.out.energy;
    double drift, flow, health = balance_health(w, es, &drift, &flow);
    int unhealthy = !(health <= PALA_BALANCE_WARN);   /* NaN too */
    if (unhealthy && status != PALA_UNSTABLE) balance_warning(w, &dr, dir, health, drift, flow);
    double gsps = wall > 0 ? (double)w->n * (double)(w->step - resumed_at) / wall : 0;
    /* summary.tsv: parameters, then results (names fixed: see docs/output-formats.md); a
     * resumed run keeps the scene as the run named it (the checkpoint's is absolute, which
     * pala collect would show as a parameter that varies) */
    char prior_scene[4096];
    if (o->resume) summary_scene(dir, scene, prior_scene, sizeof prior_scene);
    FILE *fs = pala_output_fopen(dir, "summary.tsv");
    if (fs) {
        const char *k, *v;
        fprintf(fs, "scene");
        for (int i = 0; pala_scene_setting(sc, i, &k, &v); i++) fprintf(fs, "\t%s", k);
        /* a world whose grains enter and leave: the totals of its feeds */
        pala_feed_report r;
        long ins = 0, behind = 0, nshort = 0, rem = 0;
        double mrem = 0;
        int feeds = 0;
        for (; pala_world_feed_report(w, feeds, &r) == 0; feeds++)
            if (r.outlet) { rem += r.count; mrem += r.mass; }
            else { ins += r.count; behind += r.behind; nshort += r.short_events; }
        fprintf(fs, "\tstatus\texit_code\tsteps_done\tsim_time\twall_time\tgrain_steps_per_s\tE_total_initial\tE_total_final\tE_total_min\tE_total_max\tmax_abs_dE_rel\tE_dissipated\tmax_abs_dE_bal_rel\twarning%s\n",
                feeds ? "\tgrains\tinserted\tinsert_behind\tinsert_short\tremoved\tmass_removed" : "");
        fprintf(fs, "%s", o->resume ? prior_scene : o->scene);
        for (int i = 0; pala_scene_setting(sc, i, &k, &v); i++) fprintf(fs, "\t%s", v);
        const char *sn = status == PALA_OK ? "ok" : status == PALA_UNSTABLE ? "unstable" : status == PALA_ERR_IO ? "io_error" : "interrupted";
        fprintf(fs, "\t%s\t%d\t%ld\t%.17g\t%.4g\t%.4g\t%.16g\t%.16g\t%.16g\t%.16g\t%.6g\t%.16g\t%.6g\t%s", sn, status, w->step, pala_output_time(w),
                wall0 + wall, gsps, es->initial, es->final, es->min, es->max, es->max_abs_rel, w->diss, es->max_abs_bal,
                unhealthy ? (nshort ? "energy_balance,insert_short" : "energy_balance") : nshort ? "insert_short" : "-");
        if (feeds) fprintf(fs, "\t%d\t%ld\t%ld\t%ld\t%ld\t%.16g", w->n, ins, behind, nshort, rem, mrem);
        fputc('\n', fs);
        werr |= pala_output_fclose(fs, dir, "summary.tsv");
    } else werr = 1;
    if (status == PALA_UNSTABLE) {
        fprintf(stderr, "pala: run stopped as unstable: %s\n", pala_world_error(w)[0] ? pala_world_error(w) : "runaway overlap; reduce dt");
        if (w->step <= 1 && overlap0 > 0.5 * w->max_overlap)   /* no time step is small enough for grains that start inside each other */
            fprintf(stderr, "pala: this happened at the first step, so the initial state probably overlaps already: "
                    "check the 'at' lines of placement = list groups (or the grains of lammps_data) for grains "
                    "closer than their radii allow; a smaller dt will not fix that\n");
        fprintf(stderr, "pala: logs up to step %ld are in %s/\n", w->step, dir);
    }
    else if (status == PALA_INTERRUPTED)
        fprintf(stderr, "pala: interrupted at step %ld of %ld; logs up to there are in %s/; continue with: pala resume %s\n", w->step, steps, dir, dir);
    else if (status == PALA_ERR_IO) {
        char ckp[4200];
        snprintf(ckp, sizeof ckp, "%s/%s", dir, PALA_CKPT_FILE);
        if (access(ckp, F_OK) != 0)   /* control.txt holds the effective settings, the --set ones too */
            fprintf(stderr, "pala: no checkpoint could be written: once there is room again, run it anew: pala run %s/control.txt -o %s --force\n", dir, dir);
        else {   /* a resume that extended a run: its checkpoint may still say it ended, so its --set again */
            fprintf(stderr, "pala: once there is room again, continue from the last checkpoint with: pala resume %s", dir);
            for (int i = 0; o->resume && i < o->nset; i++) {
                fputs(" --set '", stderr);
                for (const char *c = o->sets[i]; *c; c++) *c == '\'' ? fputs("'\\''", stderr) : fputc(*c, stderr);
                fputc('\'', stderr);
            }
            fprintf(stderr, "\n");
        }
    }
    double single = pala_world_single_share(w);   /* a core held by another process: steps on one thread */
    if (nth > 1 && single >= 0.005 && strlen(asked) + 64 < sizeof asked)
        snprintf(asked + strlen(asked), sizeof asked - strlen(asked), " (one for %.0f %% of the steps: a core was busy)", 100 * single);
    char flows[96] = "";   /* grains that entered and left: the count is the last step's */
    long fin = 0, fout = 0;
    pala_feed_report fr;
    int nfeed = 0;
    for (; pala_world_feed_report(w, nfeed, &fr) == 0; nfeed++) *(fr.outlet ? &fout : &fin) += fr.count;
    if (nfeed) snprintf(flows, sizeof flows, " (%ld in, %ld out)", fin, fout);
    if (!o->quiet || status != PALA_OK)
        printf("%s: %ld steps%s, %d grains%s, %d thread%s%s, %.3g s simulated in %.3g s wall, %.3g grain-steps/s, final dE_rel %.3g, max |dE_rel| %.3g, max |dE_bal_rel| %.3g -> %s/\n",
               scene, w->step, o->resume ? " (resumed)" : "", w->n, flows, nth, nth == 1 ? "" : "s", asked, w->t, wall, gsps, es->final_rel, es->max_abs_rel, es->max_abs_bal, dir);
    pala_scene_free(sc);
    pala_ckpt_free(ck);
    pala_ckpt_run_free(&cr);
    pala_rundir_unlock(lock);
    if (werr && status == PALA_OK) status = PALA_ERR_IO;   /* e.g. a full disk: never a silent success */
    return status;
}
