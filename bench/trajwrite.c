/* trajwrite.c: the cost of one trajectory frame, text (trajectory.txt) and binary
 * (trajectory.bin), against the cost of one step, timed in one process on the same world
 * (bench/trajectory_write.sh runs it on the lattice of bench/scale.sh).
 * usage: traj_bench SCENE DIR FRAMES STEPS [KEY=VALUE]...
 * Loads SCENE, runs 5 steps untimed, then R = 5 rounds of: STEPS steps (one thread),
 * FRAMES text frames and FRAMES binary frames written to DIR/trajectory.txt and
 * DIR/trajectory.bin through the writers' own functions (writers.c).  Each is timed in
 * wall and in thread CPU time; prints the median per step and per frame over the rounds. */
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
    double stw[R], stc[R], fw[2][R], fc[2][R];
    for (int r = 0; r < R; r++) {
        double t0 = pala_now(), c0 = cpu();
        if (pala_world_steps(w, nsteps) != PALA_OK) { fprintf(stderr, "traj_bench: unstable\n"); return 2; }
        stw[r] = (pala_now() - t0) / nsteps;
        stc[r] = (cpu() - c0) / nsteps;
        for (int k = 0; k < 2; k++) {
            long b0 = ftell(f[k]);
            t0 = pala_now(); c0 = cpu();
            for (int i = 0; i < frames; i++) wr[k]->frame(f[k], &o);
            fflush(f[k]);
            fw[k][r] = (pala_now() - t0) / frames;
            fc[k][r] = (cpu() - c0) / frames;
            bytes[k] = (ftell(f[k]) - b0) / frames;
        }
    }
    for (int k = 0; k < 2; k++) fclose(f[k]);
    free(o.bin);
    double sw = median(stw, R), sc = median(stc, R);
    printf("%d grains, %d spheres; medians of %d rounds of %d steps and %d frames of each form\n", w->n, w->npeb, R, nsteps, frames);
    printf("step          wall %8.2f ms  cpu %8.2f ms\n", 1e3 * sw, 1e3 * sc);
    for (int k = 0; k < 2; k++) {
        double a = median(fw[k], R), b = median(fc[k], R);
        printf("%-14s wall %8.2f ms  cpu %8.2f ms  = %6.2f steps (cpu)  %ld bytes a frame\n", k ? "binary frame" : "text frame", 1e3 * a, 1e3 * b, b / sc, bytes[k]);
    }
    pala_scene_free(s);
    return 0;
}
