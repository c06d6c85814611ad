/* test_tools.c: pala check / collect / sweep, run as the real program (./pala) on small
 * hand-written files in build/tmp/tools. */
#include "t.h"
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void test_tools(void);

#define DIR "build/tmp/tools"

/* T_CHECK for a command whose output is in `out`: the output is shown on failure only.
 * The format needs at least one argument. */
#define T_OUT(cond, fmt, ...) do { int ok_ = !!(cond); \
    t_record(ok_, __FILE__, __LINE__, fmt "%s%s", __VA_ARGS__, ok_ ? "" : "\n", \
             ok_ ? "" : out); } while (0)

/* Write text to DIR/name (the folder must exist). */
static void put(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, DIR "/%s", name);
    FILE *f = fopen(path, "w");
    T_CHECK(f != NULL, "create %s", path);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Number of lines of a file (-1 if unreadable). */
static int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    int n = 0, c;
    while ((c = fgetc(f)) != EOF) n += c == '\n';
    fclose(f);
    return n;
}

/* A reference energy log: comments, header, rows; E_kin is linear in time, so a run
 * sampled between the reference's rows must match it after interpolation. */
static const char ref_energy[] =
    "# pala energy log\n"
    "# scene: hand-written\n"
    "step\ttime\tE_kin\tE_rot\tE_contact\tE_field\tE_total\tdE_rel\n"
    "0\t0\t1\t0\t0\t-2\t-1\t0\n"
    "10\t0.1\t1.5\t0.1\t0\t-2.6\t-1\t0\n"
    "20\t0.2\t2\t0.2\t0.1\t-3.3\t-1\t0\n"
    "30\t0.3\t2.5\t0.3\t0.1\t-3.9\t-1\t0\n";

static void test_check(void)
{
    char out[8192];
    int rc;
    T_CHECK(t_sh(NULL, 0, "mkdir -p " DIR "/ref " DIR "/same") == 0, "mkdir");
    put("ref/energy.tsv", ref_energy);
    put("same/energy.tsv", ref_energy);

    rc = t_sh(out, sizeof out, "./pala check " DIR "/same " DIR "/ref");
    T_OUT(rc == 0, "check identical run folders: exit %d (want 0)", rc);
    T_OUT(strstr(out, "E_total") && strstr(out, "PASS"), "check prints columns and PASS (exit %d)", rc);

    /* Midpoints of the reference rows (linear quantities) plus a point after its end. */
    put("mid.tsv",
        "step\ttime\tE_kin\tE_rot\tE_contact\tE_field\tE_total\tdE_rel\n"
        "5\t0.05\t1.25\t0.05\t0\t-2.3\t-1\t0\n"
        "25\t0.25\t2.25\t0.25\t0.1\t-3.6\t-1\t0\n"
        "40\t0.4\t99\t99\t99\t99\t99\t0\n");
    rc = t_sh(out, sizeof out, "./pala check " DIR "/mid.tsv " DIR "/ref/energy.tsv");
    T_OUT(rc == 0, "check interpolates the reference, skips points past its end: exit %d",
            rc);

    /* E_kin off by 1e-3 at t = 0.2: beyond rtol 1e-6 of scale 2.5, within 1e-3. */
    put("off.tsv",
        "step\ttime\tE_kin\tE_rot\tE_contact\tE_field\tE_total\tdE_rel\n"
        "0\t0\t1\t0\t0\t-2\t-1\t0\n"
        "20\t0.2\t2.001\t0.2\t0.1\t-3.3\t-1\t0\n");
    rc = t_sh(out, sizeof out, "./pala check " DIR "/off.tsv " DIR "/ref");
    T_OUT(rc == 3, "check of a deviating run: exit %d (want 3)", rc);
    T_OUT(strstr(out, "FAIL") && strstr(out, "E_kin"), "check names the failing column (exit %d)", rc);
    rc = t_sh(out, sizeof out, "./pala check " DIR "/off.tsv " DIR "/ref --rtol 1e-3");
    T_OUT(rc == 0, "check with --rtol 1e-3: exit %d (want 0)", rc);
    rc = t_sh(out, sizeof out, "./pala check " DIR "/off.tsv " DIR "/ref --atol 2e-3");
    T_OUT(rc == 0, "check with --atol 2e-3: exit %d (want 0)", rc);
    rc = t_sh(out, sizeof out, "./pala check " DIR "/off.tsv " DIR "/ref --columns E_total,E_rot");
    T_OUT(rc == 0, "check --columns without E_kin: exit %d (want 0)", rc);

    rc = t_sh(out, sizeof out, "./pala check " DIR "/off.tsv " DIR "/ref --columns E_total,E_foo");
    T_OUT(rc == 1 && strstr(out, "E_foo") && strstr(out, "E_rot"),
            "missing column: exit %d (want 1), names it and lists the columns", rc);

    /* Malformed rows: line 4 (two comment lines, header, one good row) */
    put("badnum.tsv", "# c\n# c\nstep\ttime\tE_total\n0\t0\t-1\n1\t0.1\t-1x\n");
    rc = t_sh(out, sizeof out, "./pala check " DIR "/badnum.tsv " DIR "/ref");
    T_OUT(rc == 1 && strstr(out, "badnum.tsv:5:") && strstr(out, "E_total"),
            "non-numeric field: exit %d (want 1), message with file:line", rc);
    put("badcount.tsv", "step\ttime\tE_total\n0\t0\t-1\n1\t0.1\n");
    rc = t_sh(out, sizeof out, "./pala check " DIR "/badcount.tsv " DIR "/ref");
    T_OUT(rc == 1 && strstr(out, "badcount.tsv:3:"),
            "wrong field count: exit %d (want 1), message with file:line", rc);
    put("back.tsv", "step\ttime\tE_total\n0\t0.2\t-1\n1\t0.1\t-1\n");
    rc = t_sh(out, sizeof out, "./pala check " DIR "/back.tsv " DIR "/ref");
    T_OUT(rc == 1 && strstr(out, "back.tsv:3:"), "time going backwards: exit %d", rc);
    put("late.tsv", "step\ttime\tE_total\n0\t1\t-1\n1\t2\t-1\n");
    rc = t_sh(out, sizeof out, "./pala check " DIR "/late.tsv " DIR "/ref");
    T_OUT(rc == 1, "no common time range: exit %d (want 1)", rc);
    put("notime.tsv", "step\tE_total\n0\t-1\n");
    rc = t_sh(out, sizeof out, "./pala check " DIR "/notime.tsv " DIR "/ref");
    T_OUT(rc == 1 && strstr(out, "time"), "no time column: exit %d (want 1)", rc);
    put("nan.tsv", "step\ttime\tE_total\n0\t0\t-1\n1\t0.1\tnan\n");
    rc = t_sh(out, sizeof out, "./pala check " DIR "/nan.tsv " DIR "/ref");
    T_OUT(rc == 3, "a NaN energy fails the check: exit %d (want 3)", rc);
    rc = t_sh(out, sizeof out, "./pala check " DIR "/ref");
    T_CHECK(rc == 1, "check with one argument: exit %d (want 1)", rc);
    rc = t_sh(out, sizeof out, "./pala check " DIR "/nonexistent " DIR "/ref");
    T_CHECK(rc == 1, "check of a missing run: exit %d (want 1)", rc);
}

/* Three runs differing in dt only (friction constant); run c has one more parameter. */
static void test_collect(void)
{
    char out[8192];
    int rc;
    T_CHECK(t_sh(NULL, 0, "mkdir -p " DIR "/ca " DIR "/cb " DIR "/cc " DIR "/cd") == 0, "mkdir");
    put("ca/summary.tsv", "scene\tdt\tfriction\tstatus\tsteps_done\tE_total_final\n"
                          "my scene.txt\t1e-6\t0.3\tok\t1000\t-1.5\n");
    put("cb/summary.tsv", "scene\tdt\tfriction\tstatus\tsteps_done\tE_total_final\n"
                          "my scene.txt\t2e-6\t0.3\tok\t500\t-1.4\n");
    put("cc/summary.tsv", "scene\tdt\tfriction\tstatus\tsteps_done\tE_total_final\n"
                          "my scene.txt\t4e-6\t0.3\tunstable\t250\tnan\n");

    rc = t_sh(NULL, 0, "./pala collect " DIR "/ca " DIR "/cb/ " DIR "/cc -o " DIR "/table.tsv");
    T_CHECK(rc == 0, "collect three runs: exit %d (want 0)", rc);
    T_CHECK(count_lines(DIR "/table.tsv") == 4, "table has 4 lines (got %d)",
            count_lines(DIR "/table.tsv"));
    t_sh(out, sizeof out, "head -n 1 " DIR "/table.tsv");
    T_OUT(strcmp(out, "run\tdt\tstatus\tsteps_done\tE_total_final\n") == 0,
          "header: run, the varied dt, the results; not friction or scene%s", "");
    t_sh(out, sizeof out, "sed -n 3p " DIR "/table.tsv");
    T_OUT(strcmp(out, DIR "/cb\t2e-6\tok\t500\t-1.4\n") == 0, "second row%s", "");

    rc = t_sh(out, sizeof out, "./pala collect " DIR "/ca " DIR "/cb -o " DIR "/table.tsv");
    T_OUT(rc == 1, "collect refuses to overwrite without --force: exit %d", rc);
    rc = t_sh(out, sizeof out, "./pala collect " DIR "/ca " DIR "/cb -o " DIR "/table.tsv --force");
    T_CHECK(rc == 0 && count_lines(DIR "/table.tsv") == 3, "collect --force: exit %d", rc);

    rc = t_sh(out, sizeof out, "./pala collect --all " DIR "/ca " DIR "/cb");
    T_OUT(rc == 0 && starts_with(out, "run\tscene\tdt\tfriction\tstatus\t"),
            "collect --all keeps the constant columns: exit %d", rc);

    rc = t_sh(out, sizeof out, "./pala collect " DIR "/ca " DIR "/cd");
    T_OUT(rc == 1 && strstr(out, DIR "/cd"), "folder without summary.tsv: exit %d (want 1), "
            "named", rc);
}

/* pala sweep on the ten-grain example: 3 values of dt. */
static void test_sweep(void)
{
    char out[8192];
    int rc = t_sh(out, sizeof out, "./pala sweep examples/paper-ten-grains.txt "
                  "--vary dt=1e-6,2e-6,4e-6 -o " DIR "/sw");
    T_OUT(rc == 0, "sweep over dt: exit %d (want 0)", rc);
    T_OUT(strstr(out, "xargs") && strstr(out, "parallel") && strstr(out, "sbatch"),
            "sweep prints how to run the jobs (exit %d)", rc);
    T_CHECK(is_dir(DIR "/sw/dt=1e-6") && is_dir(DIR "/sw/dt=2e-6") && is_dir(DIR "/sw/dt=4e-6"),
            "sweep made the 3 run folders");
    T_CHECK(count_lines(DIR "/sw/jobs.txt") == 3, "jobs.txt has 3 lines (got %d)",
            count_lines(DIR "/sw/jobs.txt"));
    T_CHECK(count_lines(DIR "/sw/sweep.tsv") == 4, "sweep.tsv has header + 3 rows (got %d)",
            count_lines(DIR "/sw/sweep.tsv"));
    t_sh(out, sizeof out, "sed -n 2p " DIR "/sw/jobs.txt");
    T_OUT(out[0] == '\'' && strstr(out, "' run '/") && strstr(out, "paper-ten-grains.txt'")
            && strstr(out, " --set 'dt=2e-6' -o '/") && strstr(out, "/sw/dt=2e-6' --threads 1 --quiet\n"),
          "jobs.txt line 2 is a quoted absolute command%s", "");

    rc = t_sh(out, sizeof out, "./pala sweep examples/paper-ten-grains.txt "
              "--vary dt=1e-6,2e-6 -o " DIR "/sw");
    T_OUT(rc == 1, "sweep refuses an existing folder: exit %d (want 1)", rc);

    rc = t_sh(out, sizeof out, "./pala sweep examples/paper-ten-grains.txt "
              "--vary no_such_key_xyz=1,2 -o " DIR "/sw2");
    T_OUT(rc == 1 && !is_dir(DIR "/sw2"), "sweep with an unknown key: exit %d (want 1), "
            "nothing created", rc);

    /* The range forms: lo:hi:n (values printed with %.6g) and lo:hi:n:log. */
    rc = t_sh(out, sizeof out, "./pala sweep examples/paper-ten-grains.txt "
              "--vary dt=1e-6:4e-6:4 -o " DIR "/sw4");
    T_OUT(rc == 0 && count_lines(DIR "/sw4/jobs.txt") == 4 && is_dir(DIR "/sw4/dt=3e-06"),
            "range form 1e-6:4e-6:4 gives 4 runs incl. dt=3e-06: exit %d", rc);
    rc = t_sh(out, sizeof out, "./pala sweep examples/paper-ten-grains.txt "
              "--vary dt=1e-7:1e-5:3:log -o " DIR "/sw5");
    T_OUT(rc == 0 && is_dir(DIR "/sw5/dt=1e-06"), "log range: exit %d", rc);
    rc = t_sh(out, sizeof out, "./pala sweep examples/paper-ten-grains.txt --vary dt=1:2 -o "
              DIR "/sw6");
    T_OUT(rc == 1, "malformed range: exit %d (want 1)", rc);
}

void test_tools(void)
{
    if (t_sh(NULL, 0, "mkdir -p " DIR) != 0) {
        T_CHECK(0, "cannot create " DIR);
        return;
    }
    test_check();
    test_collect();
    test_sweep();
}
