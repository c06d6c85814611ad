/* main.c: the `pala` command line.  Only argument parsing and dispatch live here; the
 * work is in the commands (run.c, check.c, collect.c, sweep.c, order.c) and the library. */
#include "pala/pala.h"
#include "commands.h"
#include "run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <math.h>
#include <signal.h>

static const char *usage =
    "usage: pala COMMAND ...\n"
    "  pala run FILE [-o DIR] [--force] [--set KEY=VALUE]... [--threads N] [--quiet] [--progress S]\n"
    "                                run a scene into DIR (default: <scene name>.run)\n"
    "  pala resume RUN [--set steps=N | --set end_time=T] [--threads N] [--quiet] [--info]\n"
    "                                continue an interrupted run, or extend a finished one\n"
    "  pala check RUN REFERENCE [--columns A,B] [--rtol R] [--atol A]\n"
    "                                compare a run's energy.tsv with a reference curve\n"
    "  pala collect DIR... [-o table.tsv]   stack the summaries of many runs\n"
    "  pala sweep FILE --vary KEY=v1,v2,... [-o DIR]   write a parameter sweep's jobs\n"
    "  pala order FILE [--runs K] [--factor F] [--window T0:T1] [-o DIR]\n"
    "                                measure the integrator's order on a scene\n"
    "  pala export RUN --format xyz|vtk [--every K] [-o PATH]\n"
    "                                a run's frames for OVITO (xyz) or ParaView (vtk)\n"
    "  pala measure RUN [--region AXIS=LO:HI] [--window T0:T1] [--profile AXIS] [--angle]\n"
    "                                packing, coordination, stress, fabric, profiles, angle of repose\n"
    "  pala plot RUN [-o DIR]        SVG plots of the energies, errors, contacts, walls\n"
    "  pala snapshot RUN [--frame K|--time T] [--view x|y|z|iso] [--style solid|wire]\n"
    "                                an SVG picture of one frame\n"
    "  pala view RUN [-o FILE.html]  a self-contained HTML replay (planar or anaglyph stereo)\n"
    "  pala shape FILE.stl (--spheres N | --tolerance L) [--scale S]\n"
    "                                a closed mesh's exact solid and its clump of spheres\n"
    "  pala help [keys | KEY | SECTION]  this text, every control-file key, one key, or a section's keys\n"
    "  pala --version\n"
    "exit codes: 0 ok, 1 bad input, 2 unstable run, 3 check failed, 4 interrupted, 5 I/O error, 6 folder in use by another pala\n"
    "docs: docs/cli.md (commands), docs/control-file.md (keys)\n";

static const char *run_usage =
    "usage: pala run FILE [-o DIR] [--force] [--set KEY=VALUE]... [--threads N] [--quiet] [--progress SECONDS]\n"
    "  FILE               a control file (docs/control-file.md; pala help keys)\n"
    "  -o DIR, --output DIR  the run folder (default: <scene name>.run)\n"
    "  --force            overwrite the results of an earlier run in DIR\n"
    "  --set KEY=VALUE    override a key, e.g. --set dt=5e-7 or --set material.rubber.friction=0.3\n"
    "  --threads N        threads of the step (default: one per 1,024 grains, at most the CPUs\n"
    "                     this process may use; the results are the same bits for any N)\n"
    "  --quiet            no grain-type, mesh or dt-check lines, no progress line, no summary\n"
    "                     line on success\n"
    "  --progress S       a progress line to stderr every S seconds, also when stderr is not a\n"
    "                     terminal (batch jobs, Slurm logs); or set PALA_PROGRESS=S\n"
    "docs: docs/cli.md (pala run), docs/output-formats.md (the run folder)\n";

static const char *resume_usage =
    "usage: pala resume RUN [--set steps=N | --set end_time=T] [--threads N] [--quiet] [--info]\n"
    "  RUN                a run folder (pala run's DIR) with its checkpoint.bin\n"
    "  --set steps=N      go on to step N (a finished run: extend it); or --set end_time=T\n"
    "  --threads N        threads of the step (the results are the same bits for any N)\n"
    "  --quiet            no progress line, no summary line on success\n"
    "  --info             print what the checkpoint holds (step, time, grains, a hash of the state), run nothing\n"
    "docs: docs/cli.md (pala resume)\n";

static const char *shape_usage =
    "usage: pala shape FILE.stl (--spheres N | --tolerance L) [--scale S]\n"
    "  a closed STL mesh's exact volume, centre of mass and inertia, and its clump of N spheres\n"
    "  (or as few as keep its surface within L metres), as shape = mesh builds it\n"
    "docs: docs/cli.md (pala shape)\n";

/* Options of run and resume, empty, with room for argc overrides (NULL: out of memory). */
static char **run_opts_init(pala_run_opts *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    o->sets = calloc((size_t)argc, sizeof *o->sets);
    o->cmdc = argc;
    o->cmdv = argv;
    return o->sets;
}

static int cmd_run(int argc, char **argv)
{
    pala_run_opts o;
    char **sets = run_opts_init(&o, argc, argv);
    if (!sets) return PALA_ERR_IO;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            if (++i == argc || !argv[i][0]) { fprintf(stderr, "pala run: -o needs a folder name, e.g. -o runs/first\n"); free(sets); return PALA_ERR_INPUT; }
            o.outdir = argv[i];
        } else if (!strcmp(a, "--set")) {
            if (++i == argc) { fprintf(stderr, "pala run: --set needs KEY=VALUE, e.g. --set dt=1e-6\n"); free(sets); return PALA_ERR_INPUT; }
            sets[o.nset++] = argv[i];
        } else if (!strncmp(a, "--set=", 6)) {
            sets[o.nset++] = argv[i] + 6;
        } else if (!strcmp(a, "--threads") || !strncmp(a, "--threads=", 10)) {
            char *end = NULL;
            const char *v = a[9] == '=' ? a + 10 : ++i < argc ? argv[i] : NULL;
            long n = v ? strtol(v, &end, 10) : 0;
            if (!v || *end || n < 1 || n > 1024) { fprintf(stderr, "pala run: --threads needs a number of threads from 1 to 1024, e.g. --threads 2\n"); free(sets); return PALA_ERR_INPUT; }
            o.threads = (int)n;
        } else if (!strcmp(a, "--progress") || !strncmp(a, "--progress=", 11)) {
            char *end = NULL;
            const char *v = a[10] == '=' ? a + 11 : ++i < argc ? argv[i] : NULL;
            double sec = v ? strtod(v, &end) : 0;
            if (!v || *end || !(sec > 0)) { fprintf(stderr, "pala run: --progress needs an interval in seconds > 0, e.g. --progress 60\n"); free(sets); return PALA_ERR_INPUT; }
            o.progress = sec;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) { fputs(run_usage, stdout); free(sets); return 0; }
        else if (!strcmp(a, "--force")) o.force = 1;
        else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) o.quiet = 1;
        else if (a[0] == '-' && a[1]) { fprintf(stderr, "pala run: unknown option '%s'\n%s", a, usage); free(sets); return PALA_ERR_INPUT; }
        else if (!o.scene) o.scene = a;
        else { fprintf(stderr, "pala run: one control file only (got '%s' and '%s')\n", o.scene, a); free(sets); return PALA_ERR_INPUT; }
    }
    if (!o.scene) { fprintf(stderr, "pala run: which control file? e.g. pala run examples/paper-ten-grains.txt\n"); free(sets); return PALA_ERR_INPUT; }
    signal(SIGPIPE, SIG_IGN);   /* see cmd_resume */
    int rc = pala_run(&o);
    free(sets);
    return rc;
}

/* pala resume RUN [--set steps=N | --set end_time=T] [--threads N] [--quiet] */
static int cmd_resume(int argc, char **argv)
{
    pala_run_opts o;
    char **sets = run_opts_init(&o, argc, argv);
    if (!sets) return PALA_ERR_IO;
    int rc = PALA_OK, info = 0;
    for (int i = 1; i < argc && !rc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--set")) {
            if (++i == argc) { fprintf(stderr, "pala resume: --set needs steps=N or end_time=T\n"); rc = PALA_ERR_INPUT; }
            else sets[o.nset++] = argv[i];
        } else if (!strncmp(a, "--set=", 6)) sets[o.nset++] = argv[i] + 6;
        else if (!strcmp(a, "--threads") || !strncmp(a, "--threads=", 10)) {
            char *end = NULL;
            const char *v = a[9] == '=' ? a + 10 : ++i < argc ? argv[i] : NULL;
            long n = v ? strtol(v, &end, 10) : 0;
            if (!v || *end || n < 1 || n > 1024) { fprintf(stderr, "pala resume: --threads needs a number of threads from 1 to 1024\n"); rc = PALA_ERR_INPUT; }
            else o.threads = (int)n;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) o.quiet = 1;
        else if (!strcmp(a, "--info")) info = 1;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) { fputs(resume_usage, stdout); free(sets); return 0; }
        else if (a[0] == '-' && a[1]) { fprintf(stderr, "pala resume: unknown option '%s'\n%s", a, resume_usage); rc = PALA_ERR_INPUT; }
        else if (!o.resume) o.resume = a;
        else { fprintf(stderr, "pala resume: one run folder only (got '%s' and '%s')\n", o.resume, a); rc = PALA_ERR_INPUT; }
    }
    if (!rc && !o.resume) { fprintf(stderr, "pala resume: which run folder? e.g. pala resume settling-box.run\n"); rc = PALA_ERR_INPUT; }
    /* a run's standard output or error closed (pala run ... | head) is a failed write
     * (EPIPE): the run goes on to its end with its files and exits 5, not killed mid-way
     * by SIGPIPE without a checkpoint.  The other commands die quietly on it, as filters do
     * (pala help keys | head) */
    if (!rc && !info) signal(SIGPIPE, SIG_IGN);
    if (!rc) rc = info ? pala_run_info(o.resume) : pala_run(&o);
    free(sets);
    return rc;
}

/* Out of memory anywhere in the library: the program's exit code for it (docs/cli.md). */
static void nomem(size_t bytes)
{
    fprintf(stderr, "pala: out of memory (asked for %zu bytes)\n", bytes);
    exit(PALA_ERR_IO);
}

static int dispatch(int argc, char **argv);

/* pala shape FILE.stl (--spheres N | --tolerance L) [--scale S] */
static int cmd_shape(int argc, char **argv)
{
    const char *file = NULL;
    double scale = 1, tol = 0;
    long n = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char *end = NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { fputs(shape_usage, stdout); return 0; }
        if ((!strcmp(a, "--spheres") || !strcmp(a, "--tolerance") || !strcmp(a, "--scale")) && i + 1 < argc) {
            const char *v = argv[++i];
            double x = strtod(v, &end);
            int count = !strcmp(a, "--spheres");
            if (end == v || *end || !(x > 0) || (count && (x != floor(x) || x > 64))) {
                fprintf(stderr, "pala shape: %s %s: expected %s\n", a, v, count ? "an integer 1 .. 64" : "a number > 0");
                return PALA_ERR_INPUT;
            }
            if (count) n = (long)x;
            else if (!strcmp(a, "--tolerance")) tol = x;
            else scale = x;
        } else if (a[0] == '-' || file) {
            fprintf(stderr, "pala shape: unexpected '%s'\n%s", a, shape_usage);
            return PALA_ERR_INPUT;
        } else
            file = a;
    }
    if (!file || (n > 0) == (tol > 0)) {
        fputs(shape_usage, stderr);
        return PALA_ERR_INPUT;
    }
    return pala_mesh_shape(file, scale, (int)n, tol, stdout, stderr);
}

/* Every command: output lost on the way to standard output (a full disk, > /dev/full) is
 * an I/O error, never a silent success. */
int main(int argc, char **argv)
{
    int rc = dispatch(argc, argv);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "pala: writing standard output failed: %s\n", strerror(errno));
        if (rc == PALA_OK || rc == PALA_CHECK_FAILED) rc = PALA_ERR_IO;
    }
    return rc;
}

static int dispatch(int argc, char **argv)
{
    pala_set_nomem_handler(nomem);
    /* a file-size limit (ulimit -f) is a failed write (EFBIG) that the writers report with
     * the file and exit 5, a run's files kept, not a signal that kills without a word */
    signal(SIGXFSZ, SIG_IGN);
    if (argc < 2) { fputs(usage, stderr); return PALA_ERR_INPUT; }
    const char *c = argv[1];
    if (!strcmp(c, "run")) return cmd_run(argc - 1, argv + 1);
    if (!strcmp(c, "resume")) return cmd_resume(argc - 1, argv + 1);
    if (!strcmp(c, "check")) return pala_cmd_check(argc - 1, argv + 1);
    if (!strcmp(c, "collect")) return pala_cmd_collect(argc - 1, argv + 1);
    if (!strcmp(c, "sweep")) return pala_cmd_sweep(argc - 1, argv + 1);
    if (!strcmp(c, "order")) return pala_cmd_order(argc - 1, argv + 1);
    if (!strcmp(c, "export")) return pala_cmd_export(argc - 1, argv + 1);
    if (!strcmp(c, "measure")) return pala_cmd_measure(argc - 1, argv + 1);
    if (!strcmp(c, "plot")) return pala_cmd_plot(argc - 1, argv + 1);
    if (!strcmp(c, "snapshot")) return pala_cmd_snapshot(argc - 1, argv + 1);
    if (!strcmp(c, "view")) return pala_cmd_view(argc - 1, argv + 1);
    if (!strcmp(c, "shape")) return cmd_shape(argc - 1, argv + 1);
    if (!strcmp(c, "--version") || !strcmp(c, "version")) { printf("pala %s\n", PALA_VERSION); return 0; }
    if (!strcmp(c, "help") || !strcmp(c, "--help") || !strcmp(c, "-h")) {
        if (argc < 3 || !strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")) { fputs(usage, stdout); return 0; }
        if (!strcmp(argv[2], "keys")) { pala_scene_help_keys(stdout); return 0; }
        if (pala_scene_help_key(argv[2], stdout) == 0) return 0;
        fprintf(stderr, "pala help: no key or section '%s'; `pala help keys` lists every key\n", argv[2]);
        return PALA_ERR_INPUT;
    }
    fprintf(stderr, "pala: unknown command '%s'\n%s", c, usage);
    return PALA_ERR_INPUT;
}
