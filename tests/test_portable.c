/* test_portable.c: the builds other than this machine's compile.  The loops on four grains
 * or four contacts at once (src/lib/vec4.h: gcc's and clang's vector extensions) are
 * spelled apart for the two compilers, and without AVX gcc and clang note that a vector of
 * 32 bytes passed by value changes the ABI, which -Werror makes an error: in session 22 the
 * portable build (make OPT=-O3) and clang broke so, and make test, which builds for this
 * machine with cc, passed.  `make portable-check` compiles the files that include vec4.h
 * with PORTCC and PORTOPT (the Makefile): here the portable build of cc, and with clang
 * (Debian: apt-get install clang) both that and the native one. */
#include "t.h"

void test_portable(void);

void test_portable(void)
{
    char out[2048];
    /* the errors alone: the ABI notes of a file that builds are not failures */
    const char *run = "make -s portable-check %s > %s/portable.log 2>&1; rc=$?; grep -i 'error' %s/portable.log | head -5; exit $rc";
    int rc = t_sh(out, sizeof out, run, "PORTOPT=-O3", t_tmpdir(), t_tmpdir());
    T_CHECK(rc == 0, "portable: the files of vec4.h build with cc -O3 (make OPT=-O3's flags, no -march): exit %d %s", rc, out);
    if (t_sh(NULL, 0, "command -v clang >/dev/null") != 0) {
        t_skip("portable: clang not installed (apt-get install clang): the files of vec4.h not built with clang");
        return;
    }
    const char *opt[2] = {"PORTCC=clang PORTOPT=-O3", "PORTCC=clang PORTOPT='-O3 -march=native'"};
    for (int i = 0; i < 2; i++) {
        rc = t_sh(out, sizeof out, run, opt[i], t_tmpdir(), t_tmpdir());
        T_CHECK(rc == 0, "portable: the files of vec4.h build (make portable-check %s): exit %d %s", opt[i], rc, out);
    }
}
