/* fuzz.c: the fuzz targets of pala (docs/fuzzing.md).  One program, one target chosen at
 * build time:
 *   -DFUZZ_CONTROL     the control-file reader: the input is a control file, except lines
 *                      that start with "--set ", which become overrides; it is read and every
 *                      value checked (pala_scene_parse: no world is built, so no input can ask
 *                      for legitimately long work such as count = 1e8)
 *   -DFUZZ_LAMMPS      the LAMMPS importer: the input is a data file, imported into a world
 *                      of one material (density 1000) with 100 Monte Carlo samples per shape
 *   -DFUZZ_CHECKPOINT  the checkpoint reader: the input is the payload of checkpoint.bin (its
 *                      fields), given a valid header with the checksum recomputed so that every
 *                      mutation reaches the parser; read (pala_ckpt_read), and applied to the
 *                      world of tests/fuzz/ckpt-scene.txt (walls and contact history) and to that
 *                      of tests/fuzz/start-flow.txt (grains enter and leave), each of which then
 *                      takes two steps, as `pala resume` would
 *   -DFUZZ_TRAJ        the trajectory readers: the input is trajectory.bin if it starts with
 *                      its magic, else trajectory.txt, of a run folder; `pala snapshot` (wire
 *                      frames coloured by speed), `pala view` (at most 1 MB of frames) and
 *                      `pala export` (xyz, and vtk) read it
 *   -DFUZZ_TSV         the TSV readers: the input is energy.tsv, up to a line "==walls==", then
 *                      walls.tsv up to a line "==summary==", then summary.tsv, of a run folder
 *                      (with a small fixed trajectory.txt); `pala plot`, `pala check` (the run
 *                      against itself), `pala collect` and `pala view` read them
 *   -DFUZZ_START       a scene that starts from a frame of a run (start_from, start_time;
 *                      restart.c): the input is trajectory.bin if it starts with its magic, else
 *                      trajectory.txt, of a run folder that holds the checkpoint of the run that
 *                      wrote the seeds (tests/fuzz/start-v1.ckpt, or start-v2.ckpt for an input
 *                      of version 2); tests/fuzz/start-still.txt (no grain enters or leaves: the
 *                      numbers are closed up) and tests/fuzz/start-flow.txt (an outlet: they are
 *                      kept) start from its frame nearest to t = 2e-5 s and take two steps
 *   -DFUZZ_STARTCK     a scene that starts from a run's final state (start_from alone;
 *                      restart.c, pala_restart_import): the input is the payload of the run
 *                      folder's checkpoint.bin, given a valid header as for FUZZ_CHECKPOINT;
 *                      tests/fuzz/start-still.txt, tests/fuzz/start-flow.txt and, with its
 *                      contact history kept, tests/fuzz/ckpt-scene.txt start from it and
 *                      take two steps
 * Every output goes to a scratch folder of the process, whose size the input bounds.
 * Built for AFL++ (afl-clang-fast: persistent mode with the test case in shared memory) or
 * for libFuzzer (-DLIBFUZZER -fsanitize=fuzzer); without either, it runs each file named on
 * the command line once (the regression run of the corpus). */
#include "pala/pala.h"
#include "keys.h"
#include "lammps.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(FUZZ_CHECKPOINT) || defined(FUZZ_TRAJ) || defined(FUZZ_TSV) || defined(FUZZ_START) || defined(FUZZ_STARTCK)
#include "checkpoint.h"
#include "commands.h"
#include "traj.h"
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#define FUZZ_CLI 1
#endif

static char path[64];

#ifdef FUZZ_CLI
static char dir[64];   /* the scratch run folder of this process: path names its input file */

/* the scratch folder emptied (its files, and those of its subfolders vtk/ and plots/) */
static void clean_in(const char *d, int depth)
{
    DIR *dd = opendir(d);
    struct dirent *e;
    char p[400];
    while (dd && (e = readdir(dd))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(p, sizeof p, "%s/%s", d, e->d_name);
        if (unlink(p) != 0 && depth < 2) { clean_in(p, depth + 1); rmdir(p); }
    }
    if (dd) closedir(dd);
}
static void clean(void)
{
    clean_in(dir, 0);
    mkdir(dir, 0777);
}

#endif

#if defined(FUZZ_TRAJ) || defined(FUZZ_TSV) || defined(FUZZ_START)
#ifndef FUZZ_START
/* a command as the command line would call it (its argv written on) */
static int cmd(int (*f)(int, char **), const char *const *args)
{
    char *argv[16], buf[16][160];
    int n = 0;
    for (; args[n] && n < 16; n++) { snprintf(buf[n], sizeof buf[n], "%s", args[n]); argv[n] = buf[n]; }
    return f(n, argv);
}
#endif

static void put(const char *name, const unsigned char *d, size_t n)
{
    char p[160];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    if (!f) abort();
    fwrite(d, 1, n, f);
    fclose(f);
}

#if defined(FUZZ_TSV) || defined(FUZZ_START)
/* a file of the repository (the fixed part of an input), read once (kept to the end) */
static char *slurp(const char *p, size_t *n)
{
    FILE *f = fopen(p, "rb");
    if (!f) { perror(p); abort(); }
    char *b = malloc(1 << 16);
    if (!b) abort();
    *n = fread(b, 1, 1 << 16, f);
    fclose(f);
    return b;
}
#endif
#endif

#if defined(FUZZ_CHECKPOINT) || defined(FUZZ_STARTCK)
/* The payload d of n bytes as the scratch folder's checkpoint.bin, given a valid header
 * (checkpoint.c: magic, version, byte-order mark, length, FNV-1a 64 of the payload), so
 * that every mutation reaches the field parser instead of the checksum test. */
static void put_ckpt(const unsigned char *d, size_t n)
{
    unsigned char h[32];
    uint32_t ver = PALA_CKPT_VERSION, bom = 0x01020304u;
    uint64_t len = n, sum = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++) { sum ^= d[i]; sum *= 1099511628211ull; }
    memcpy(h, "PALACKPT", 8); memcpy(h + 8, &ver, 4); memcpy(h + 12, &bom, 4); memcpy(h + 16, &len, 8); memcpy(h + 24, &sum, 8);
    char p[160];
    snprintf(p, sizeof p, "%s/checkpoint.bin", dir);
    FILE *f = fopen(p, "wb");
    if (!f) abort();
    fwrite(h, 1, 32, f);
    fwrite(d, 1, n, f);
    fclose(f);
}
#endif

#ifdef FUZZ_CHECKPOINT
/* The seeds tests/fuzz/checkpoint/ckpt-scene.payload and flow.payload are the payloads of
 * runs of the two scenes (as the startck seeds: tests/fuzz/startck/ckpt-scene.payload and
 * v2.payload; tests/test_robust.c checks that both are still applied). */
static void checkpoint(const unsigned char *d, size_t n)
{
    put_ckpt(d, n);
    pala_ckpt *ck;
    pala_ckpt_run cr;
    FILE *devnull = fopen("/dev/null", "w");
    if (pala_ckpt_read(dir, &ck, &cr, devnull) == 0) {
        int np;
        double t;
        long step;
        pala_ckpt_where(ck, &np, &t, &step);
        (void)pala_ckpt_state_hash(ck);
        /* a world of fixed grains with contact history, and one whose grains enter and leave
         * (its feeds' state and the run's numbering: pala_world_set_population) */
        static const char *const scenes[2] = {"tests/fuzz/ckpt-scene.txt", "tests/fuzz/start-flow.txt"};
        for (int k = 0; k < 2; k++) {
            pala_scene *sc;
            if (pala_scene_load(scenes[k], 0, NULL, &sc, devnull) == 0) {
                pala_world *w = pala_scene_world(sc);
                if (pala_ckpt_apply(ck, w, devnull) == 0) {
                    pala_world_prepare(w);
                    int st = pala_world_steps(w, 2);
                    fprintf(stderr, "checkpoint applied to %s: step %ld, %d grains, two steps: %d\n", scenes[k], step, np, st);   /* FUZZ_VERBOSE */
                }
                pala_scene_free(sc);
            }
        }
        pala_ckpt_free(ck);
        pala_ckpt_run_free(&cr);
    }
    fclose(devnull);
}
#endif

#if defined(FUZZ_START) || defined(FUZZ_STARTCK)
/* Each of the ns scenes started from the scratch folder (start_from, and the override at if
 * not NULL), then two steps; what: where the grains came from, for FUZZ_VERBOSE. */
static void start_scenes(const char *const *scenes, int ns, const char *at, const char *what)
{
    char from[160], at1[32] = "";
    snprintf(from, sizeof from, "start_from=%s", dir);
    if (at) snprintf(at1, sizeof at1, "%s", at);
    char *sets[2] = {from, at1};
    FILE *devnull = getenv("FUZZ_VERBOSE") ? stderr : fopen("/dev/null", "w");   /* the scenes' messages */
    for (int k = 0; k < ns; k++) {
        pala_scene *sc;
        if (pala_scene_load(scenes[k], at ? 2 : 1, sets, &sc, devnull) == 0) {
            pala_world *w = pala_scene_world(sc);
            int g = w->n, st = pala_world_steps(w, 2);
            fprintf(stderr, "started from the %s: %s, %d grains, two steps: %d, %d grains\n", what, scenes[k], g, st, w->n);   /* FUZZ_VERBOSE */
            pala_scene_free(sc);
        }
    }
    if (devnull != stderr) fclose(devnull);
}
#endif

#ifdef FUZZ_START
/* The input as the trajectory of a run folder with the checkpoint of the run of its version,
 * and the two scenes that start from it.  The seeds and checkpoints are the runs of the two
 * scenes themselves (a version-1 trajectory from start-still.txt, version 2 from
 * start-flow.txt, whose outlet removes grain 1 and whose inserter adds grains), made again by
 *   for s in still flow; do for f in text binary; do
 *     ./pala run tests/fuzz/start-$s.txt --set trajectory_format=$f -o /tmp/$s-$f --force; done; done
 *   cp /tmp/still-text/checkpoint.bin tests/fuzz/start-v1.ckpt; cp /tmp/flow-text/checkpoint.bin tests/fuzz/start-v2.ckpt
 *   cp /tmp/still-text/trajectory.txt tests/fuzz/start/v1.txt; cp /tmp/still-binary/trajectory.bin tests/fuzz/start/v1.bin
 *   cp /tmp/flow-text/trajectory.txt tests/fuzz/start/v2.txt; cp /tmp/flow-binary/trajectory.bin tests/fuzz/start/v2.bin
 * (when the checkpoint's format changes: tests/test_robust.c checks that the seeds still start). */
static void start(const unsigned char *d, size_t n)
{
    static char *ck[2];
    static size_t ckn[2];
    if (!ck[0]) { ck[0] = slurp("tests/fuzz/start-v1.ckpt", &ckn[0]); ck[1] = slurp("tests/fuzz/start-v2.ckpt", &ckn[1]); }
    int bin = n >= 8 && !memcmp(d, PALA_TRAJ_BIN_MAGIC, 8);
    int v2 = bin ? n > 8 && d[8] == 2 : n >= 19 && !memcmp(d, "# pala trajectory 2", 19);
    put(bin ? "trajectory.bin" : "trajectory.txt", d, n);
    put("checkpoint.bin", (const unsigned char *)ck[v2], ckn[v2]);
    static const char *const scenes[2] = {"tests/fuzz/start-still.txt", "tests/fuzz/start-flow.txt"};
    start_scenes(scenes, 2, "start_time=2e-5", "frame");
}
#endif

#ifdef FUZZ_STARTCK
/* The input as the payload of a run folder's checkpoint.bin (no trajectory), and three
 * scenes that start from the run's final state: start_from alone reads the checkpoint's
 * grain types, grains and contact history (restart.c).  The seeds are the payloads (the
 * files past their 32-byte header) of tests/fuzz/start-v1.ckpt, start-v2.ckpt and of a run
 * of tests/fuzz/ckpt-scene.txt, made again by
 *   tail -c +33 tests/fuzz/start-v1.ckpt > tests/fuzz/startck/v1.payload (v2 the same)
 *   ./pala run tests/fuzz/ckpt-scene.txt -o /tmp/cks && tail -c +33 /tmp/cks/checkpoint.bin > tests/fuzz/startck/ckpt-scene.payload */
static void startck(const unsigned char *d, size_t n)
{
    put_ckpt(d, n);
    static const char *const scenes[3] = {"tests/fuzz/start-still.txt", "tests/fuzz/start-flow.txt", "tests/fuzz/ckpt-scene.txt"};
    start_scenes(scenes, 3, NULL, "checkpoint");
}
#endif

static void one(const unsigned char *data, size_t n)
{
#ifdef FUZZ_CLI
    clean();
#endif
#ifdef FUZZ_CHECKPOINT
    checkpoint(data, n);
    return;
#elif defined(FUZZ_START)
    start(data, n);
    return;
#elif defined(FUZZ_STARTCK)
    startck(data, n);
    return;
#elif defined(FUZZ_TRAJ)
    /* the binary form if the input starts with its magic (traj.h) */
    put(n >= 8 && !memcmp(data, PALA_TRAJ_BIN_MAGIC, 8) ? "trajectory.bin" : "trajectory.txt", data, n);
    char out[160], vo[160], xo[160], ko[160];
    snprintf(out, sizeof out, "%s/s.svg", dir); snprintf(vo, sizeof vo, "%s/v.html", dir);
    snprintf(xo, sizeof xo, "%s/t.xyz", dir); snprintf(ko, sizeof ko, "%s/vtk", dir);
    cmd(pala_cmd_snapshot, (const char *const[]){"snapshot", dir, "--style", "wire", "--colour", "speed", "-o", out, NULL});
    cmd(pala_cmd_snapshot, (const char *const[]){"snapshot", dir, "--time", "1e300", "--view", "iso", "-o", out, NULL});
    cmd(pala_cmd_view, (const char *const[]){"view", dir, "--max-mb", "1", "-o", vo, NULL});
    cmd(pala_cmd_export, (const char *const[]){"export", dir, "--format", "xyz", "-o", xo, NULL});
    cmd(pala_cmd_export, (const char *const[]){"export", dir, "--format", "vtk", "--every", "3", "-o", ko, NULL});
    return;
#elif defined(FUZZ_TSV)
    /* energy.tsv ==walls== walls.tsv ==summary== summary.tsv */
    static const char *const names[3] = {"energy.tsv", "walls.tsv", "summary.tsv"}, *const marks[2] = {"\n==walls==\n", "\n==summary==\n"};
    size_t at = 0;
    for (int k = 0; k < 3; k++) {
        const unsigned char *e = NULL;
        if (k < 2)
            for (size_t i = at; i + strlen(marks[k]) <= n && !e; i++)
                if (!memcmp(data + i, marks[k], strlen(marks[k]))) e = data + i;
        size_t end = e ? (size_t)(e - data) + 1 : n;
        put(names[k], data + at, end - at);
        at = e ? end + strlen(marks[k]) - 1 : n;
    }
    static size_t tn;
    static const char *tt;
    if (!tt) tt = slurp("tests/fuzz/traj/ckpt-scene.txt", &tn);
    put("trajectory.txt", (const unsigned char *)tt, tn);
    char out[160], vo[160];
    snprintf(out, sizeof out, "%s/plots", dir); snprintf(vo, sizeof vo, "%s/v.html", dir);
    mkdir(out, 0777);
    cmd(pala_cmd_plot, (const char *const[]){"plot", dir, "-o", out, NULL});
    cmd(pala_cmd_check, (const char *const[]){"check", dir, dir, NULL});
    cmd(pala_cmd_check, (const char *const[]){"check", dir, dir, "--columns", "time,E_total,step", "--rtol", "0", NULL});
    cmd(pala_cmd_collect, (const char *const[]){"collect", dir, dir, "--all", NULL});
    cmd(pala_cmd_view, (const char *const[]){"view", dir, "-o", vo, NULL});
    return;
#endif
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    char *sets[16];
    char *copy = NULL;
    int nset = 0;
#ifdef FUZZ_CONTROL
    /* "--set " lines are overrides (at most 16), the rest is the file */
    copy = malloc(n + 1);
    if (!copy) abort();
    memcpy(copy, data, n);
    copy[n] = 0;
    size_t i = 0;
    while (i < n) {
        size_t e = i;
        while (e < n && data[e] != '\n') e++;
        if (e - i > 6 && !memcmp(data + i, "--set ", 6) && nset < 16 && memchr(data + i, 0, e - i) == NULL) {
            copy[e] = 0;
            sets[nset++] = copy + i + 6;
        } else fwrite(data + i, 1, e - i + (e < n), f);
        i = e + 1;
    }
#else
    fwrite(data, 1, n, f);
#endif
    fclose(f);
    FILE *devnull = fopen("/dev/null", "w");
#ifdef FUZZ_CONTROL
    pala_scene_parse(path, nset, sets, devnull);
#else
    (void)sets; (void)nset;
    pala_world w;
    pala_world_init(&w);
    pala_material m = {.name = "m", .rho = 1000, .E = 1e7, .sigma = 0.3, .delta = 1, .mu = 0, .nu = 0.001};
    int mat = pala_world_add_material(&w, &m);
    char err[512];
    double box[6];
    pala_lammps_box(path, box, err, sizeof err);
    pala_lammps_import(&w, path, mat, 100, err, sizeof err);
    pala_world_free(&w);
#endif
    fclose(devnull);
    free(copy);
}

#ifdef LIBFUZZER
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t n);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t n)
{
    if (!path[0]) snprintf(path, sizeof path, "/tmp/pala-fuzz-%ld", (long)getpid());
#ifdef FUZZ_CLI
    if (!dir[0]) snprintf(dir, sizeof dir, "/tmp/pala-fuzz-%ld.run", (long)getpid());
#endif
    one(data, n);
    return 0;
}
#else
#ifdef __AFL_FUZZ_TESTCASE_LEN
__AFL_FUZZ_INIT();
#endif
int main(int argc, char **argv)
{
    snprintf(path, sizeof path, "/tmp/pala-fuzz-%ld", (long)getpid());
#ifdef FUZZ_CLI
    /* the commands' messages and tables: not the fuzzer's output */
    snprintf(dir, sizeof dir, "/tmp/pala-fuzz-%ld.run", (long)getpid());
    int nul = open("/dev/null", O_WRONLY);
    if (nul < 0) abort();
    if (!getenv("FUZZ_VERBOSE")) { dup2(nul, 1); dup2(nul, 2); }
    close(nul);
#endif
#ifdef __AFL_FUZZ_TESTCASE_LEN
    (void)argc; (void)argv;
    __AFL_INIT();
    snprintf(path, sizeof path, "/tmp/pala-fuzz-%ld", (long)getpid());
#ifdef FUZZ_CLI
    snprintf(dir, sizeof dir, "/tmp/pala-fuzz-%ld.run", (long)getpid());
#endif
    unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
    while (__AFL_LOOP(10000)) one(buf, (size_t)__AFL_FUZZ_TESTCASE_LEN);
#else
    /* each file once: the corpus as a regression test */
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) { perror(argv[i]); return 1; }
        static unsigned char buf[1 << 20];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        one(buf, n);
    }
#endif
    unlink(path);
#ifdef FUZZ_CLI
    clean_in(dir, 0);
    rmdir(dir);
#endif
    return 0;
}
#endif
