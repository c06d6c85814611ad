/* fuzz.c: the fuzz targets of pala (docs/fuzzing.md).  One program, two targets chosen at
 * build time:
 *   -DFUZZ_CONTROL  the control-file reader: the input is a control file, except lines
 *                   that start with "--set ", which become overrides; it is read and every
 *                   value checked (pala_scene_parse: no world is built, so no input can ask
 *                   for legitimately long work such as count = 1e8)
 *   -DFUZZ_LAMMPS   the LAMMPS importer: the input is a data file, imported into a world
 *                   of one material (density 1000) with 100 Monte Carlo samples per shape
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

static char path[64];

static void one(const unsigned char *data, size_t n)
{
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
#ifdef __AFL_FUZZ_TESTCASE_LEN
    (void)argc; (void)argv;
    __AFL_INIT();
    snprintf(path, sizeof path, "/tmp/pala-fuzz-%ld", (long)getpid());
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
    return 0;
}
#endif
