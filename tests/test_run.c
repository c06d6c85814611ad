/* test_run.c: what `pala run` tells the user about its threads: asking --threads for more
 * than the scene's blocks of 256 grains can use is said once before the run and in the
 * summary line; --quiet says nothing on success; the default (all cores) is never a
 * complaint. */
#include "t.h"
#include <string.h>

void test_run(void);

#define DIR "build/tmp/run"
#define TEN "./pala run examples/paper-ten-grains.txt --set steps=10 --force -o " DIR

/* How often needle occurs in s. */
static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

void test_run(void)
{
    char out[8192];
    int rc = t_sh(out, sizeof out, TEN " --threads 2");
    T_CHECK(rc == 0 && count(out, "--threads 2, but") == 1 && count(out, "10 grains run on 1 thread") == 1,
            "--threads 2 on 10 grains: one note (exit %d) %s", rc, out);
    T_CHECK(strstr(out, "10 grains, 1 thread (of 2 asked),") != NULL, "--threads 2 on 10 grains: the summary line says so %s", out);

    rc = t_sh(out, sizeof out, TEN " --threads 2 --quiet");
    T_CHECK(rc == 0 && out[0] == 0, "--threads 2 --quiet on 10 grains: no output (exit %d) %s", rc, out);
    rc = t_sh(out, sizeof out, TEN " --threads 2 --quiet --set dt=1 --set dt_check=warn");
    T_CHECK(rc == 2 && strstr(out, "1 thread (of 2 asked)") && !strstr(out, "--threads 2, but"),
            "--threads 2 --quiet, unstable: the summary line says so, no note (exit %d) %s", rc, out);

    rc = t_sh(out, sizeof out, TEN);
    T_CHECK(rc == 0 && !strstr(out, "asked") && !strstr(out, "--threads"), "no --threads (all cores): no note %s", out);
    rc = t_sh(out, sizeof out, TEN " --threads 1");
    T_CHECK(rc == 0 && !strstr(out, "asked") && !strstr(out, "--threads"), "--threads 1: no note %s", out);

    /* --help of every command; --progress and PALA_PROGRESS in a pipe (not a terminal) */
    rc = t_sh(out, sizeof out, "./pala run --help");
    T_CHECK(rc == 0 && strstr(out, "usage: pala run FILE") && strstr(out, "--progress"), "pala run --help: exit 0 and the options (%d) %s", rc, out);
    const char *cmds[] = {"resume", "check", "collect", "sweep", "order", "export", "measure", "plot", "snapshot", "view", "shape", "help"};
    for (int i = 0; i < 12; i++) {
        rc = t_sh(out, sizeof out, "./pala %s --help", cmds[i]);
        T_CHECK(rc == 0 && strstr(out, "usage: pala "), "pala %s --help: exit 0 and its usage (%d)", cmds[i], rc);
    }
    rc = t_sh(out, sizeof out, "./pala run examples/settling-box.txt --set end_time=0.01 -o " DIR "/progress --force --quiet --progress 0.001 2>&1 | cat");
    T_CHECK(rc == 0 && count(out, ": step ") >= 2 && strstr(out, "ETA"), "--progress 0.001 into a pipe: progress lines (%d) %.300s", rc, out);
    rc = t_sh(out, sizeof out, "PALA_PROGRESS=0.001 ./pala run examples/settling-box.txt --set end_time=0.01 -o " DIR "/progress --force --quiet 2>&1 | cat");
    T_CHECK(rc == 0 && count(out, ": step ") >= 2, "PALA_PROGRESS=0.001 into a pipe: progress lines (%d) %.300s", rc, out);
    rc = t_sh(out, sizeof out, "./pala run examples/settling-box.txt --progress 0 -o " DIR "/progress --force");
    T_CHECK(rc == 1 && strstr(out, "--progress needs"), "--progress 0: exit 1 and says what it needs (%d) %s", rc, out);
}
