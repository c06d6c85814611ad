/* test_vectorise.c: every instantiation of the contact kernel's loop (contact.c,
 * drive_loop: one per family of laws and shape) vectorises.  gcc's report of the library's
 * build, build/lib/contact.vec (the Makefile's VECINFO), must name no loop at that line
 * that it left scalar.  A loop left scalar changes no output, only the speed, so no other
 * test sees it: on 879eade gcc's inlining limits had left 9 of the 52 scalar, and a select
 * written with && once left 16 of 60.  Skipped without a report (another compiler) or with
 * an empty one (a build without the vectoriser, as make sanitize's -O1). */
#include "t.h"
#include <stdio.h>
#include <string.h>

void test_vectorise(void);

void test_vectorise(void)
{
    char out[256], key[64], l[1024];
    int line = 0, vec = 0, scalar = 0, any = 0;
    int rc = t_sh(out, sizeof out, "awk '/^AI void drive_loop/ { f = 1 } f && /for \\(int i = 0; i < m; i\\+\\+\\)/ { print NR; exit }' src/lib/contact.c");
    T_CHECK(rc == 0 && sscanf(out, "%d", &line) == 1 && line > 0, "vectorise: the kernel's loop found in contact.c's drive_loop (line %s)", out);
    FILE *f = fopen("build/lib/contact.vec", "r");
    if (!f) {
        t_skip("vectorise: no build/lib/contact.vec (the compiler has no -fopt-info-vec; gcc has)");
        return;
    }
    snprintf(key, sizeof key, "contact.c:%d:", line);
    while (fgets(l, sizeof l, f)) {
        any = 1;
        if (!strstr(l, key)) continue;
        vec += strstr(l, "loop vectorized") != NULL;
        scalar += strstr(l, "couldn't vectorize loop") != NULL;
    }
    fclose(f);
    if (!any) {
        t_skip("vectorise: build/lib/contact.vec is empty (a build without the vectoriser, e.g. -O1)");
        return;
    }
    T_CHECK(vec > 0 && scalar == 0,
            "vectorise: every instantiation of the contact kernel's loop (contact.c:%d) vectorises: %d reports of a "
            "vectorised loop, %d of a loop left scalar (build/lib/contact.vec says why)", line, vec, scalar);
}
