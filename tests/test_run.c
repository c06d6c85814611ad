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
    rc = t_sh(out, sizeof out, TEN " --threads 2 --quiet --set dt=1");
    T_CHECK(rc == 2 && strstr(out, "1 thread (of 2 asked)") && !strstr(out, "--threads 2, but"),
            "--threads 2 --quiet, unstable: the summary line says so, no note (exit %d) %s", rc, out);

    rc = t_sh(out, sizeof out, TEN);
    T_CHECK(rc == 0 && !strstr(out, "asked") && !strstr(out, "--threads"), "no --threads (all cores): no note %s", out);
    rc = t_sh(out, sizeof out, TEN " --threads 1");
    T_CHECK(rc == 0 && !strstr(out, "asked") && !strstr(out, "--threads"), "--threads 1: no note %s", out);
}
