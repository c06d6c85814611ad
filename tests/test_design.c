/* test_design.c: the module table of docs/design.md matches the files, one line each,
 * checked by tests/design_modules.sh.  test_design_modules_tree runs it on this tree;
 * test_design_modules_script on small trees in build/tmp/design that it must pass or
 * fail. */
#include "t.h"
#include <stdio.h>
#include <string.h>

void test_design_modules_tree(void);
void test_design_modules_script(void);

#define DIR "build/tmp/design"

static char out[16384];

void test_design_modules_tree(void)
{
    int rc = t_sh(out, sizeof out, "sh tests/design_modules.sh .");
    if (rc != 0) printf("%s", out);      /* one problem a line, above the FAIL */
    T_CHECK(rc == 0, "tests/design_modules.sh: every file under src/ and include/pala/ is on "
            "its own line of the module table of docs/design.md, and every name there exists "
            "(exit %d%s): %s", rc, rc ? ", the problems are above" : "",
            rc ? "tests/design_modules.sh prints them" : out);
}

void test_design_modules_script(void)
{
    t_sh(NULL, 0, "mkdir -p " DIR);
    /* a table before the module table (first column not `file`), a .c and its .h on one
     * row, a folder, prose naming a file that does not exist */
    static const char *const ok[] = {
        "src/lib/a.c", "", "src/lib/a.h", "", "src/lib/b.c", "",
        "src/cli/main.c", "", "include/pala/pala.h", "",
        "docs/design.md",
        "# Design\n\n| key | meaning |\n|---|---|\n| `src/nothing.c` | not the module table |\n\n"
        "## The file list\n\n"
        "| file | holds |\n"
        "|---|---|\n"
        "| `include/pala/pala.h` | the public header |\n"
        "| `src/lib/a.c`, `src/lib/a.h` | module a, with `a_thing` in the second column |\n"
        "| `src/lib/b.c` | module b |\n"
        "| `src/cli/main.c` | the program |\n"
        "| `tests/` | the tests |\n"
        "\nText after the table naming `src/gone.c`.\n",
        NULL};
    t_tree(DIR "/ok", ok);
    static const char *const ok_has[] = {"design: ok: the 5 files", "(line 9, 5 rows)", NULL};
    t_script("tests/design_modules.sh", DIR "/ok", 0, ok_has);

    /* every kind of problem at once */
    static const char *const bad[] = {
        "src/lib/a.c", "", "src/lib/a.h", "", "src/lib/b.c", "", "src/lib/c.h", "",
        "src/cli/main.c", "", "src/cli/page.css", "", "include/pala/pala.h", "",
        "docs/design.md",
        "| file | holds |\n"
        "|---|---|\n"
        "| `include/pala/pala.h` | the public header |\n"
        "| `src/lib/a.c`, `src/lib/a.h`, `src/lib/b.c` | two modules |\n"
        "| `src/old.c` | moved away |\n"
        "| `src/cli/main.c` | the program |\n"
        "| `src/cli/main.c` | the program again |\n"
        "| no name | |\n",
        NULL};
    t_tree(DIR "/bad", bad);
    static const char *const bad_has[] = {
        "docs/design.md:4 names several modules on one line: src/lib/a, src/lib/b",
        "docs/design.md:5 names src/old.c, which does not exist",
        "docs/design.md:7 names src/cli/main.c, already named on line 6",
        "docs/design.md:8 names no file",
        "design: src/lib/c.h is not in the module table",
        "design: src/cli/page.css is not in the module table",
        NULL};
    t_script("tests/design_modules.sh", DIR "/bad", 1, bad_has);

    static const char *const none[] = {"src/lib/a.c", "", "docs/design.md", "# Design\n", NULL};
    t_tree(DIR "/none", none);
    static const char *const none_has[] = {"has no module table", NULL};
    t_script("tests/design_modules.sh", DIR "/none", 1, none_has);
}
