/* trajwrite.c: the cost of one trajectory frame, text (trajectory.txt) and binary
 * (trajectory.bin), against the cost of one step, timed in one process on the same world
 * (bench/trajectory_write.sh runs it on the lattice of bench/scale.sh).
 * usage: traj_bench SCENE DIR FRAMES STEPS [KEY=VALUE]...
 * Loads SCENE, runs 5 steps untimed, then R = 5 rounds of: STEPS steps (one thread),
 * FRAMES text frames written to DIR/trajectory.txt, and FRAMES binary frames to
 * DIR/trajectory.bin each followed by STEPS steps, as in a run (through the writers' own
 * functions, writers.c).  A binary frame is written by a thread of its own while the run
 * steps on: timed are the run thread's share (packing the frame, in thread CPU time, and
 * any wait for the writer at the end, in wall time) and the writer thread's CPU time (the
 * process's minus the run thread's).  Prints the medians per step and per frame. */
#include "writer.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double pcpu(void)   /* the process's CPU time: every thread */
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
static double median(double *v, int n) { qsort(v, (size_t)n, sizeof *v, cmp); return v[n / 2]; }

static const pala_writer *writer(const char *file)
{
    for (int i = 0; i < pala_nwriters; i++) if (!strcmp(pala_writers[i].file, file)) return &pala_writers[i];
    fprintf(stderr, "traj_bench: no writer %s\n", file);
    exit(1);
}

int main(int argc, char **argv)
{
    if (argc < 5) { fprintf(stderr, "usage: traj_bench SCENE DIR FRAMES STEPS [KEY=VALUE]...\n"); return 1; }
    const char *dir = argv[2];
    int frames = atoi(argv[3]), nsteps = atoi(argv[4]);
    pala_scene *s;
    if (pala_scene_load(argv[1], argc - 5, argv + 5, &s, stderr)) return 1;
    pala_world *w = pala_scene_world(s);
    pala_world_set_threads(w, 1);
    if (pala_world_steps(w, 5) != PALA_OK) { fprintf(stderr, "traj_bench: unstable\n"); return 2; }
    const pala_writer *wr[2] = {writer("trajectory.txt"), writer("trajectory.bin")};
    FILE *f[2];
    long bytes[2] = {0, 0};
    pala_output o = {.w = w, .dir = dir};
    for (int k = 0; k < 2; k++) {
        char p[4200];
        snprintf(p, sizeof p, "%s/%s", dir, wr[k]->file);
        if (!(f[k] = fopen(p, "w"))) { perror(p); return 1; }
        wr[k]->open(f[k], &o);
    }
    enum { R = 5 };
    double stw[R], stc[R], fw[R], fc[R], bmain[R], bwait[R], bwriter[R], bstep[R];
    for (int r = 0; r < R; r++) {
        double t0 = pala_now(), c0 = cpu();
        if (pala_world_steps(w, nsteps) != PALA_OK) { fprintf(stderr, "traj_bench: unstable\n"); return 2; }
        stw[r] = (pala_now() - t0) / nsteps;
        stc[r] = (cpu() - c0) / nsteps;
        long b0 = ftell(f[0]);
        t0 = pala_now(); c0 = cpu();
        for (int i = 0; i < frames; i++) wr[0]->frame(f[0], &o);
        fflush(f[0]);
        fw[r] = (pala_now() - t0) / frames;
        fc[r] = (cpu() - c0) / frames;
        bytes[0] = (ftell(f[0]) - b0) / frames;
        /* binary: each frame, then the steps the writer thread works beside */
        if (wr[1]->sync) wr[1]->sync(&o, 1);
        b0 = ftell(f[1]);
        double p0 = pcpu(), m0 = cpu(), fm = 0, sc = 0;
        for (int i = 0; i < frames; i++) {
            double a = cpu();
            wr[1]->frame(f[1], &o);
            double b = cpu();
            fm += b - a;
            if (pala_world_steps(w, nsteps) != PALA_OK) { fprintf(stderr, "traj_bench: unstable\n"); return 2; }
            sc += cpu() - b;
        }
        double tw = pala_now();
        if (wr[1]->sync) wr[1]->sync(&o, 1);
        fflush(f[1]);
        bwait[r] = (pala_now() - tw) / frames;
        bwriter[r] = ((pcpu() - p0) - (cpu() - m0)) / frames;
        bmain[r] = fm / frames;
        bstep[r] = sc / (frames * nsteps);
        bytes[1] = (ftell(f[1]) - b0) / frames;
    }
    if (wr[1]->close) wr[1]->close(f[1], &o);
    for (int k = 0; k < 2; k++) fclose(f[k]);
    double sw = median(stw, R), sc = median(stc, R);
    printf("%d grains, %d spheres; medians of %d rounds of %d steps and %d frames of each form\n", w->n, w->npeb, R, nsteps, frames);
    printf("step                        wall %8.2f ms  cpu %8.2f ms\n", 1e3 * sw, 1e3 * sc);
    double a = median(fw, R), b = median(fc, R);
    printf("text frame                  wall %8.2f ms  cpu %8.2f ms  = %6.2f steps (cpu)  %ld bytes a frame\n", 1e3 * a, 1e3 * b, b / sc, bytes[0]);
    double m = median(bmain, R), wt = median(bwait, R), wc = median(bwriter, R), bs = median(bstep, R);
    printf("binary frame, run's thread  cpu %8.2f ms + wait %5.2f ms = %6.2f steps; writer thread cpu %5.2f ms (total %.2f ms = %.2f steps)  %ld bytes a frame\n",
           1e3 * m, 1e3 * wt, (m + wt) / sc, 1e3 * wc, 1e3 * (m + wc), (m + wc) / sc, bytes[1]);
    printf("step beside the writer      cpu %8.2f ms\n", 1e3 * bs);
    pala_scene_free(s);
    return 0;
}
