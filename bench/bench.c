/* bench.c: time pala_world_step on a scene, as LAMMPS times its run: load, nwarm steps
 * untimed, then nrun steps timed (pala_world_steps, as pala run between outputs).  Prints one line:
 *   <pebble-steps/s> <grain-steps/s> <peak RSS bytes per pebble> <pebbles> <grains>
 * usage: pala_bench SCENE NWARM NRUN THREADS [KEY=VALUE]...
 *
 * THREADS may be A/B/R: R rounds that each time nrun steps with A threads, then nrun
 * steps with B threads, on the same world (results do not depend on the thread count, so
 * it is one run); after each switch nwarm steps run untimed (the list is rebuilt and the
 * split between threads is balanced anew, at step 128).  The two runs of a round follow
 * each other within a second or two, so a slow spell of a shared machine hits both.
 * Prints one line per round:  <round> <rate with A> <rate with B> <B/A>  (pebble-steps/s). */
#include "pala/pala.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>


/* n steps; on an unstable run, the reason and exit 2 */
static void steps(pala_world *w, long n)
{
    if (n > 0 && pala_world_steps(w, n) != PALA_OK) { fprintf(stderr, "pala_bench: unstable: %s\n", pala_world_error(w)); exit(2); }
}

int main(int argc, char **argv)
{
    if (argc < 5) { fprintf(stderr, "usage: pala_bench SCENE NWARM NRUN THREADS [KEY=VALUE]...\n"); return 1; }
    long nwarm = atol(argv[2]), nrun = atol(argv[3]);
    pala_scene *s;
    if (pala_scene_load(argv[1], argc - 5, argv + 5, &s, stderr)) return 1;
    pala_world *w = pala_scene_world(s);
    int ta = 0, tb = 0, rounds = 0;
    if (sscanf(argv[4], "%d/%d/%d", &ta, &tb, &rounds) == 3 && ta > 0 && tb > 0 && rounds > 0) {
        for (int r = 1; r <= rounds; r++) {
            double rate[2];
            for (int i = 0; i < 2; i++) {
                pala_world_set_threads(w, i ? tb : ta);
                steps(w, nwarm);
                double t0 = pala_now();
                steps(w, nrun);
                rate[i] = (double)w->npeb * (double)nrun / (pala_now() - t0);
            }
            printf("%d %.4g %.4g %.4f\n", r, rate[0], rate[1], rate[1] / rate[0]);
            fflush(stdout);
        }
        pala_scene_free(s);
        return 0;
    }
    pala_world_set_threads(w, atoi(argv[4]));
    /* as `pala run` steps between outputs: pala_world_steps chains the steps */
    steps(w, nwarm);
    double t0 = pala_now();
    steps(w, nrun);
    double dt = pala_now() - t0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double rss = 1024.0 * (double)ru.ru_maxrss;
    printf("%.4g %.4g %.1f %d %d\n", (double)w->npeb * (double)nrun / dt, (double)w->n * (double)nrun / dt,
           rss / w->npeb, w->npeb, w->n);
    pala_scene_free(s);
    return 0;
}
