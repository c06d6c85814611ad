/* sweep.c: `pala sweep FILE --vary KEY=... ...` - prepare a parameter study
 * (docs/cli.md).
 *
 * Every combination of the varied values (Cartesian product, the first --vary varying
 * slowest) is validated against the control file, then DIR/ receives one empty run
 * folder per combination, jobs.txt (one ready shell command per line, absolute paths,
 * so any runner can execute the lines from anywhere), sweep.tsv (which values each run
 * folder got) and slurm.sh (a job array over jobs.txt).  Nothing is run here. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* strdup, getline, readlink */
#endif
#include "commands.h"
#include "rundir.h"
#include "pala/pala.h"
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_COMBOS 100000L   /* a runaway product is almost surely a typo */
#define MAX_NAME 100         /* longer run folder names fall back to run-0001 ... */
#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* One --vary: a key and its values as text (each also as "KEY=VALUE" for --set). */
typedef struct vary {
    char key[128];
    int n;
    char **val;
    char **kv;
    int fixed;     /* from --set: one value for every run, not part of folder names */
} vary;

static void usage(FILE *f)
{
    fprintf(f,
        "usage: pala sweep FILE --vary KEY=v1,v2,... [--vary KEY=lo:hi:n[:log]] ...\n"
        "                  [--set KEY=VALUE]... [-o DIR] [--force]\n"
        "  --vary KEY=v1,v2,...    these values, kept as written\n"
        "  --vary KEY=lo:hi:n      n values from lo to hi, both included, evenly spaced (:lin the same)\n"
        "  --vary KEY=lo:hi:n:log  the same, evenly spaced in log (lo, hi > 0)\n"
        "  --set KEY=VALUE         a fixed override for every run (e.g. --set end_time=0.01)\n"
        "  -o DIR    the sweep folder (default: FILE's base name without extension +\n"
        "            .sweep, in the current folder)\n"
        "  --force   reuse an existing DIR (existing run folders are kept)\n"
        "Every combination is validated; DIR gets one empty run folder per combination,\n"
        "jobs.txt (one `pala run` command per line), sweep.tsv and slurm.sh.\n"
        "exit status: 0 ok, 1 bad input or invalid combination, 5 cannot write\n");
}

static void free_vary(vary *v)
{
    for (int i = 0; i < v->n; i++) {
        free(v->val[i]);
        if (v->kv) free(v->kv[i]);
    }
    free(v->val);
    free(v->kv);
}

/* Append a copy of s[0..len) to v's values. */
static int add_value(vary *v, const char *s, size_t len)
{
    char **nv = realloc(v->val, ((size_t)v->n + 1) * sizeof *nv);
    if (!nv) return -1;
    v->val = nv;
    if (!(v->val[v->n] = malloc(len + 1))) return -1;
    memcpy(v->val[v->n], s, len);
    v->val[v->n++][len] = 0;
    return 0;
}

/* A complete number from s, or -1. */
static int parse_num(const char *s, double *out)
{
    char *end;
    double x = strtod(s, &end);
    if (end == s || *end || !isfinite(x)) return -1;
    *out = x;
    return 0;
}

/* Expand the range form lo:hi:n[:log] of spec into n values printed with %.6g.
 * The ends are exactly lo and hi; a linear value within round-off of zero is printed
 * as 0 (so -1:1:3 gives -1,0,1 and not 5.55e-17 in the middle). */
static int parse_range(vary *v, const char *spec)
{
    char buf[256], *part[5];
    int np = 0;
    if (strlen(spec) >= sizeof buf) {
        fprintf(stderr, "pala sweep: --vary %s=%s: range too long\n", v->key, spec);
        return -1;
    }
    strcpy(buf, spec);
    for (char *s = buf; s && np < 5;) {
        part[np++] = s;
        char *e = strchr(s, ':');
        if (e) *e = 0;
        s = e ? e + 1 : NULL;
    }
    double lo, hi;
    char *end;
    long n = np >= 3 ? strtol(part[2], &end, 10) : 0;
    int logsp = np == 4 && strcmp(part[3], "log") == 0;
    if (np < 3 || np > 4 || (np == 4 && !logsp && strcmp(part[3], "lin") != 0)
        || parse_num(part[0], &lo) || parse_num(part[1], &hi) || end == part[2] || *end
        || n < 2 || n > MAX_COMBOS) {
        fprintf(stderr, "pala sweep: --vary %s=%s: a range is lo:hi:n or lo:hi:n:log with "
                "numbers lo, hi and a count n >= 2 (e.g. --vary %s=0.1:0.5:5); for a list "
                "use commas\n", v->key, spec, v->key);
        return -1;
    }
    if (logsp && (lo <= 0 || hi <= 0)) {
        fprintf(stderr, "pala sweep: --vary %s=%s: log spacing needs lo > 0 and hi > 0\n",
                v->key, spec);
        return -1;
    }
    for (long i = 0; i < n; i++) {
        double f = (double)i / (double)(n - 1), x;
        if (i == 0) x = lo;
        else if (i == n - 1) x = hi;
        else if (logsp) x = exp(log(lo) + f * (log(hi) - log(lo)));
        else {
            x = lo + f * (hi - lo);
            if (fabs(x) < 1e-12 * fmax(fabs(lo), fabs(hi))) x = 0;
        }
        char t[64];
        int len = snprintf(t, sizeof t, "%.6g", x);
        if (add_value(v, t, (size_t)len)) return -1;
    }
    return 0;
}

/* Parse one --vary argument KEY=SPEC.  SPEC is a range when it has a ':' and no ','
 * (lo:hi:n[:log]), else a comma-separated list kept as text.  Values must be non-empty,
 * free of tabs and line breaks, and distinct. */
static int parse_vary(vary *v, const char *arg)
{
    memset(v, 0, sizeof *v);
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1]) {
        fprintf(stderr, "pala sweep: --vary '%s': write KEY=v1,v2,... or KEY=lo:hi:n "
                "(e.g. --vary dt=1e-6,2e-6)\n", arg);
        return -1;
    }
    size_t klen = (size_t)(eq - arg);
    if (klen >= sizeof v->key) {
        fprintf(stderr, "pala sweep: --vary: key too long: %.*s\n", (int)klen, arg);
        return -1;
    }
    memcpy(v->key, arg, klen);
    v->key[klen] = 0;
    const char *spec = eq + 1;
    if (strchr(spec, ':') && !strchr(spec, ',')) {
        if (parse_range(v, spec)) return -1;
    } else {
        for (const char *s = spec;;) {
            const char *e = strchr(s, ',');
            size_t len = e ? (size_t)(e - s) : strlen(s);
            if (len == 0) {
                fprintf(stderr, "pala sweep: --vary %s: empty value in '%s' (remove the "
                        "extra comma)\n", v->key, spec);
                return -1;
            }
            if (add_value(v, s, len)) return -1;
            if (!e) break;
            s = e + 1;
        }
    }
    for (int i = 0; i < v->n; i++) {
        if (strpbrk(v->val[i], "\t\r\n")) {
            fprintf(stderr, "pala sweep: --vary %s: values cannot contain tabs or line "
                    "breaks\n", v->key);
            return -1;
        }
        for (int j = 0; j < i; j++)
            if (strcmp(v->val[i], v->val[j]) == 0) {
                fprintf(stderr, "pala sweep: --vary %s: value '%s' appears twice%s\n", v->key,
                        v->val[i], strchr(spec, ':') && !strchr(spec, ',')
                        ? " (range values keep 6 significant digits; use fewer steps or a list)" : "");
                return -1;
            }
    }
    if (v->n <= 0 || !(v->kv = calloc((size_t)v->n, sizeof *v->kv))) return -1;
    for (int i = 0; i < v->n; i++) {
        size_t len = klen + 1 + strlen(v->val[i]) + 1;
        if (!(v->kv[i] = malloc(len))) return -1;
        snprintf(v->kv[i], len, "%s=%s", v->key, v->val[i]);
    }
    return 0;
}

/* Index of the value of vary k in combination c (mixed radix, last vary fastest). */
static int value_index(const vary *vs, int nv, long c, int k)
{
    for (int j = nv - 1; j > k; j--) c /= vs[j].n;
    return (int)(c % vs[k].n);
}

/* Fill sets[0..nv) with the "KEY=VALUE" strings of combination c. */
static void combination(const vary *vs, int nv, long c, char **sets)
{
    for (int k = 0; k < nv; k++) sets[k] = vs[k].kv[value_index(vs, nv, c, k)];
}

/* Name of the run folder of combination c: KEY=VALUE joined by '_', with characters
 * other than letters, digits and . _ = + - , replaced by '_' (no '/', no spaces, no
 * leading dot).  Returns the length, or -1 if longer than MAX_NAME. */
static int combo_name(const vary *vs, int nv, long c, char *name)
{
    char raw[4 * MAX_NAME];
    size_t n = 0;
    raw[0] = 0;
    for (int k = 0; k < nv; k++) {
        if (vs[k].fixed) continue;
        const char *kv = vs[k].kv[value_index(vs, nv, c, k)];
        size_t L = strlen(kv);
        if (n + L + 2 > sizeof raw) return -1;
        if (n) raw[n++] = '_';
        memcpy(raw + n, kv, L + 1);
        n += L;
    }
    if (n > MAX_NAME) return -1;
    for (size_t i = 0; i <= n; i++) {
        char ch = raw[i];
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')
                 || strchr("._=+-,", ch) != NULL;   /* strchr finds the final NUL too */
        name[i] = ok || ch == 0 ? ch : '_';
    }
    if (name[0] == '.') name[0] = '_';
    return (int)n;
}

/* Name every run folder: by combination, or run-0001 ... for all of them if any name
 * would be too long or two names would coincide after sanitising. */
static void name_runs(const vary *vs, int nv, long total, char (*names)[MAX_NAME + 1])
{
    int numbered = 0;
    for (long c = 0; c < total && !numbered; c++)
        numbered = combo_name(vs, nv, c, names[c]) < 0;
    for (long c = 0; c < total && !numbered; c++)
        for (long d = 0; d < c && !numbered; d++)
            numbered = strcmp(names[c], names[d]) == 0;
    if (!numbered) return;
    int width = total > 99999 ? 6 : total > 9999 ? 5 : 4;   /* total <= MAX_COMBOS */
    for (long c = 0; c < total; c++) snprintf(names[c], MAX_NAME + 1, "run-%0*ld", width, c + 1);
}

/* Absolute form of path p without resolving symbolic links (realpath is not in the
 * POSIX base this code is built against): the current folder is prepended to a
 * relative p, and "." components and repeated slashes are dropped.  Returns -1 if the
 * result does not fit. */
static int abs_path(const char *p, char *out, size_t len)
{
    char buf[PATH_MAX];
    if (p[0] == '/') {
        if (strlen(p) >= sizeof buf) return -1;
        strcpy(buf, p);
    } else {
        if (!getcwd(buf, sizeof buf)) return -1;
        size_t n = strlen(buf);
        if (n + 1 + strlen(p) >= sizeof buf) return -1;
        buf[n] = '/';
        strcpy(buf + n + 1, p);
    }
    size_t o = 0;
    for (const char *s = buf; *s;) {
        while (*s == '/') s++;
        size_t L = strcspn(s, "/");
        if (L == 0 || (L == 1 && s[0] == '.')) { s += L; continue; }
        if (o + 1 + L >= len) return -1;
        out[o++] = '/';
        memcpy(out + o, s, L);
        o += L;
        s += L;
    }
    if (o == 0) out[o++] = '/';
    out[o] = 0;
    return 0;
}

/* Write s single-quoted for the shell: ' becomes '\''. */
static void put_sq(const char *s, FILE *f)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'') fputs("'\\''", f);
        else fputc(*s, f);
    }
    fputc('\'', f);
}

/* Write s for the shell, quoted only when it holds characters the shell would treat
 * specially (for the one-liners printed to the user). */
static void put_shell(const char *s, FILE *f)
{
    if (s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-+=,:@")])
        put_sq(s, f);
    else
        fputs(s, f);
}

/* DIR default: the base name of the scene file without its extension, plus .sweep. */
static void default_dir(const char *file, char *out, size_t len)
{
    const char *b = strrchr(file, '/');
    b = b ? b + 1 : file;
    const char *dot = strrchr(b, '.');
    int n = dot && dot != b ? (int)(dot - b) : (int)strlen(b);
    snprintf(out, len, "%.*s.sweep", n, b);
}

/* Whether folder p has no entries besides . and .. */
static int empty_dir(const char *p)
{
    DIR *d = opendir(p);
    if (!d) return 0;
    struct dirent *e;
    int empty = 1;
    while (empty && (e = readdir(d)))
        empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
    closedir(d);
    return empty;
}

/* Write jobs.txt: one complete `pala run` command per combination, every path absolute
 * and single-quoted, so the lines run from any folder and under any runner. */
static int write_jobs(FILE *f, const char *exe, const char *scene, const char *absdir,
                      const vary *vs, int nv, long total, char (*names)[MAX_NAME + 1])
{
    char *sets[64];
    char run[PATH_MAX + MAX_NAME + 2];
    for (long c = 0; c < total; c++) {
        combination(vs, nv, c, sets);
        put_sq(exe, f);
        fputs(" run ", f);
        put_sq(scene, f);
        for (int k = 0; k < nv; k++) {
            fputs(" --set ", f);
            put_sq(sets[k], f);
        }
        snprintf(run, sizeof run, "%s/%s", absdir, names[c]);
        fputs(" -o ", f);
        put_sq(run, f);
        /* one thread per run: a sweep runs many jobs side by side (xargs -P, a Slurm
         * array with --cpus-per-task=1), and "all cores" would oversubscribe them */
        fputs(" --threads 1 --quiet\n", f);
    }
    return ferror(f);
}

/* Write sweep.tsv: job (line of jobs.txt), run (folder inside DIR), each varied value. */
static int write_table(FILE *f, const vary *vs, int nv, long total,
                       char (*names)[MAX_NAME + 1])
{
    fputs("job\trun", f);
    for (int k = 0; k < nv; k++) fprintf(f, "\t%s", vs[k].key);
    fputc('\n', f);
    for (long c = 0; c < total; c++) {
        fprintf(f, "%ld\t%s", c + 1, names[c]);
        for (int k = 0; k < nv; k++) fprintf(f, "\t%s", vs[k].val[value_index(vs, nv, c, k)]);
        fputc('\n', f);
    }
    return ferror(f);
}

/* Write slurm.sh: a job array whose task i runs line i of jobs.txt. */
static int write_slurm(FILE *f, const char *absdir, const char *dirname, long total)
{
    fprintf(f, "#!/bin/sh\n"
               "# Slurm job array written by `pala sweep`: array task i runs line i of\n"
               "# jobs.txt.  Adjust the resources, then submit with: sbatch %s/slurm.sh\n"
               "#SBATCH --job-name=pala-", absdir);
    for (const char *s = dirname; *s; s++) fputc(strchr(" \t'\"", *s) ? '_' : *s, f);
    fprintf(f, "\n#SBATCH --array=1-%ld\n"
               "#SBATCH --ntasks=1\n"
               "#SBATCH --cpus-per-task=1\n"
               "#SBATCH --time=01:00:00\n", total);
    if (!strpbrk(absdir, " \t'\"%"))
        fprintf(f, "#SBATCH --output=%s/slurm-%%A_%%a.out\n", absdir);
    fputs("jobs=", f);
    put_sq(absdir, f);
    fputs("/jobs.txt\nsh -c \"$(sed -n \"${SLURM_ARRAY_TASK_ID}p\" \"$jobs\")\"\n", f);
    return ferror(f);
}

/* Open dir/name for writing (path gets the full name); PALA_ERR_IO on failure. */
static int write_file(const char *dir, const char *name, FILE **fp, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", dir, name);
    *fp = pala_fopen(path, "w");
    if (!*fp) {
        fprintf(stderr, "pala sweep: cannot write %s: %s\n", path, pala_strerror(errno));
        return PALA_ERR_IO;
    }
    return PALA_OK;
}

/* Close f; PALA_ERR_IO with a message if it or the writes before (bad) failed. */
static int close_file(FILE *f, int bad, const char *path)
{
    bad |= fclose(f) != 0;
    if (bad) fprintf(stderr, "pala sweep: error writing %s\n", path);
    return bad ? PALA_ERR_IO : PALA_OK;
}

/* Characters that plain xargs treats specially (it strips quotes and splits at blanks
 * before sh sees the line), so jobs.txt lines holding them need `xargs -d '\n'`. */
#define XARGS_SPECIAL " \t'\"\\"

/* Create DIR and the run folders, then write jobs.txt, sweep.tsv and slurm.sh.
 * *xargs_unsafe is set when a jobs.txt line holds XARGS_SPECIAL characters. */
static int prepare(const char *dir, int force, const char *scene, const vary *vs, int nv,
                   long total, char (*names)[MAX_NAME + 1], int *xargs_unsafe)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) {
            fprintf(stderr, "pala sweep: %s exists and is not a folder; choose another -o\n",
                    dir);
            return PALA_ERR_INPUT;
        }
        if (!force) {
            fprintf(stderr, "pala sweep: %s exists; add --force to reuse it or choose "
                    "another -o\n", dir);
            return PALA_ERR_INPUT;
        }
    } else if (mkdir(dir, 0777) != 0) {
        fprintf(stderr, "pala sweep: cannot create %s: %s\n", dir, strerror(errno));
        return PALA_ERR_IO;
    }
    char absdir[PATH_MAX], exe[PATH_MAX], path[PATH_MAX + MAX_NAME + 2];
    if (abs_path(dir, absdir, sizeof absdir) != 0) {
        fprintf(stderr, "pala sweep: path too long: %s\n", dir);
        return PALA_ERR_IO;
    }
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        fprintf(stderr, "pala sweep: warning: cannot find the pala executable "
                "(/proc/self/exe); jobs.txt calls `pala` from PATH\n");
        strcpy(exe, "pala");
    } else {
        exe[n] = 0;
    }
    *xargs_unsafe = strpbrk(exe, XARGS_SPECIAL) || strpbrk(scene, XARGS_SPECIAL)
                    || strpbrk(absdir, XARGS_SPECIAL);
    for (int k = 0; k < nv; k++)
        for (int i = 0; i < vs[k].n; i++)
            *xargs_unsafe |= strpbrk(vs[k].kv[i], XARGS_SPECIAL) != NULL;
    long nonempty = 0;
    for (long c = 0; c < total; c++) {
        snprintf(path, sizeof path, "%s/%s", absdir, names[c]);
        if (mkdir(path, 0777) == 0) continue;
        if (errno != EEXIST || stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "pala sweep: cannot create %s: %s\n", path,
                    errno == EEXIST ? "a file of that name exists" : strerror(errno));
            return PALA_ERR_IO;
        }
        nonempty += !empty_dir(path);
    }
    if (nonempty)
        fprintf(stderr, "pala sweep: warning: %ld run folder%s in %s already hold output; "
                "`pala run` will refuse %s (delete %s first for a fresh sweep)\n", nonempty,
                nonempty == 1 ? "" : "s", dir, nonempty == 1 ? "it" : "them", dir);
    FILE *f;
    int rc;
    if ((rc = write_file(absdir, "jobs.txt", &f, path, sizeof path))) return rc;
    if ((rc = close_file(f, write_jobs(f, exe, scene, absdir, vs, nv, total, names), path)))
        return rc;
    if ((rc = write_file(absdir, "sweep.tsv", &f, path, sizeof path))) return rc;
    if ((rc = close_file(f, write_table(f, vs, nv, total, names), path))) return rc;
    const char *b = strrchr(absdir, '/');
    if ((rc = write_file(absdir, "slurm.sh", &f, path, sizeof path))) return rc;
    return close_file(f, write_slurm(f, absdir, b ? b + 1 : absdir, total), path);
}

/* Tell the user how to run the sweep and gather the results.  Plain xargs would mangle
 * quoted paths with blanks or quotes in them; then the GNU -d '\n' form is shown. */
static void print_howto(const char *dir, long total, int nv, const vary *vs,
                        int xargs_unsafe)
{
    printf("pala sweep: %ld run%s prepared in %s/ (", total, total == 1 ? "" : "s", dir);
    for (int k = 0; k < nv; k++) printf("%s%s: %d value%s", k ? ", " : "", vs[k].key,
                                        vs[k].n, vs[k].n == 1 ? "" : "s");
    printf(")\n  %s/jobs.txt has one command per run, %s/sweep.tsv the values of each "
           "run folder\nrun them 2 at a time:    xargs%s -P 2 -I{} sh -c {} < ", dir, dir,
           xargs_unsafe ? " -d '\\n'" : "");
    put_shell(dir, stdout);
    printf("/jobs.txt\nor with GNU parallel:    parallel < ");
    put_shell(dir, stdout);
    printf("/jobs.txt\nor as a Slurm job array: sbatch ");
    put_shell(dir, stdout);
    printf("/slurm.sh\nthen gather the results: pala collect ");
    put_shell(dir, stdout);
    printf("/*/ -o ");
    put_shell(dir, stdout);
    printf("/table.tsv\n");
}

static int nfixed(const vary *vs, int nv)
{
    int n = 0;
    for (int k = 0; k < nv; k++) n += vs[k].fixed;
    return n;
}

/* Parse the command line, expand and validate every combination, then write DIR. */
int pala_cmd_sweep(int argc, char **argv)
{
    const char *file = NULL, *dir = NULL;
    int force = 0, nv = 0, opts_done = 0, rc = PALA_OK;
    vary *vs = calloc((size_t)argc, sizeof *vs);
    if (!vs) return PALA_ERR_IO;
    for (int i = 1; i < argc && rc == PALA_OK; i++) {
        const char *a = argv[i];
        if (!opts_done && a[0] == '-' && a[1]) {
            const char *val = NULL;
            int fixed = 0;
            if (strcmp(a, "--") == 0) opts_done = 1;
            else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
                usage(stdout);
                free(vs);
                return PALA_OK;
            } else if (strcmp(a, "--force") == 0) force = 1;
            else if (strncmp(a, "--vary=", 7) == 0) val = a + 7;
            else if (strncmp(a, "--set=", 6) == 0) { val = a + 6; fixed = 1; }
            else if (strcmp(a, "--vary") == 0 || strcmp(a, "--set") == 0 || strcmp(a, "-o") == 0
                     || strcmp(a, "--output") == 0) {
                if (i + 1 == argc) {
                    fprintf(stderr, "pala sweep: %s needs a value\n", a);
                    rc = PALA_ERR_INPUT;
                } else if (strcmp(a, "--vary") == 0) val = argv[++i];
                else if (strcmp(a, "--set") == 0) { val = argv[++i]; fixed = 1; }
                else if (!argv[++i][0]) {
                    fprintf(stderr, "pala sweep: %s needs a folder name, e.g. -o sweeps/dt\n", a);
                    rc = PALA_ERR_INPUT;
                } else dir = argv[i];
            } else {
                fprintf(stderr, "pala sweep: unknown option '%s' (see pala sweep --help)\n", a);
                rc = PALA_ERR_INPUT;
            }
            if (val && fixed && (strchr(val, ',') || !strchr(val, '='))) {
                fprintf(stderr, "pala sweep: --set '%s': give one KEY=VALUE (use --vary for several values)\n", val);
                rc = PALA_ERR_INPUT;
                val = NULL;
            }
            if (val) {
                if (parse_vary(&vs[nv], val)) {
                    free_vary(&vs[nv]);
                    rc = PALA_ERR_INPUT;
                } else if (fixed && vs[nv].n != 1) {
                    fprintf(stderr, "pala sweep: --set '%s': one value only (use --vary for several)\n", val);
                    free_vary(&vs[nv]);
                    rc = PALA_ERR_INPUT;
                } else {
                    vs[nv].fixed = fixed;
                    for (int k = 0; k < nv; k++)
                        if (strcmp(vs[k].key, vs[nv].key) == 0) {
                            fprintf(stderr, "pala sweep: %s is varied twice; give all its "
                                    "values in one --vary\n", vs[nv].key);
                            rc = PALA_ERR_INPUT;
                        }
                    nv++;
                }
            }
            continue;
        }
        if (file) {
            fprintf(stderr, "pala sweep: unexpected argument '%s'; one control file only\n", a);
            rc = PALA_ERR_INPUT;
        }
        file = a;
    }
    long total = 1;
    if (rc == PALA_OK && !file) {
        fprintf(stderr, "pala sweep: no control file given, e.g. pala sweep scene.txt "
                "--vary dt=1e-6,2e-6\n");
        rc = PALA_ERR_INPUT;
    } else if (rc == PALA_OK && nv == nfixed(vs, nv)) {
        fprintf(stderr, "pala sweep: nothing to vary; add --vary KEY=v1,v2,... or "
                "--vary KEY=lo:hi:n\n");
        rc = PALA_ERR_INPUT;
    } else if (rc == PALA_OK && nv > 64) {
        fprintf(stderr, "pala sweep: at most 64 --vary options\n");
        rc = PALA_ERR_INPUT;
    }
    for (int k = 0; k < nv && rc == PALA_OK; k++) {
        total *= vs[k].n;
        if (total > MAX_COMBOS) {
            fprintf(stderr, "pala sweep: more than %ld combinations; vary fewer values\n",
                    MAX_COMBOS);
            rc = PALA_ERR_INPUT;
        }
    }

    char scene[PATH_MAX], defdir[PATH_MAX];
    struct stat st;
    if (rc == PALA_OK && stat(file, &st) != 0) {
        fprintf(stderr, "pala sweep: cannot open control file %s: %s\n", file,
                strerror(errno));
        rc = PALA_ERR_INPUT;
    } else if (rc == PALA_OK && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "pala sweep: %s is a folder; give the control file\n", file);
        rc = PALA_ERR_INPUT;
    } else if (rc == PALA_OK && abs_path(file, scene, sizeof scene) != 0) {
        fprintf(stderr, "pala sweep: path too long: %s\n", file);
        rc = PALA_ERR_INPUT;
    }
    /* Validate every combination before creating anything. */
    char *sets[64];
    for (long c = 0; c < total && rc == PALA_OK; c++) {
        combination(vs, nv, c, sets);
        if (pala_scene_validate(file, nv, sets, stderr) != 0) {
            fprintf(stderr, "pala sweep: combination %ld of %ld is invalid:", c + 1, total);
            for (int k = 0; k < nv; k++) fprintf(stderr, " %s", sets[k]);
            fprintf(stderr, "; nothing was created\n");
            rc = PALA_ERR_INPUT;
        }
    }
    char (*names)[MAX_NAME + 1] = NULL;
    if (rc == PALA_OK && !(names = malloc((size_t)total * sizeof *names))) rc = PALA_ERR_IO;
    if (rc == PALA_OK) {
        if (!dir) {
            default_dir(file, defdir, sizeof defdir);
            dir = defdir;
        }
        name_runs(vs, nv, total, names);
        int unsafe = 0;
        rc = prepare(dir, force, scene, vs, nv, total, names, &unsafe);
        if (rc == PALA_OK) print_howto(dir, total, nv, vs, unsafe);
    }
    free(names);
    for (int k = 0; k < nv; k++) free_vary(&vs[k]);
    free(vs);
    return rc;
}
