/* test_design.c: the module table of docs/design.md matches the files, one line each,
 * checked by tests/design_modules.sh.  test_design_modules_tree runs it on this tree;
 * test_design_modules_script on small trees in build/tmp/design that it must pass or
 * fail. */
#include "t.h"
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

/* A tree under DIR/name: files given as "path", "text" pairs, NULL-terminated. */
static void tree(const char *name, const char *const *files)
{
    char path[512];
    t_sh(NULL, 0, "rm -rf " DIR "/%s && mkdir -p " DIR "/%s/src/lib " DIR "/%s/src/cli "
         DIR "/%s/include/pala " DIR "/%s/docs " DIR "/%s/tests", name, name, name, name,
         name, name);
    for (int i = 0; files[i]; i += 2) {
        snprintf(path, sizeof path, DIR "/%s/%s", name, files[i]);
        t_write(path, files[i + 1]);
    }
}

/* Run the script on DIR/name: its exit code must be want and its output hold each of the
 * NULL-terminated strings of has. */
static void expect(const char *name, int want, const char *const *has)
{
    int rc = t_sh(out, sizeof out, "sh tests/design_modules.sh " DIR "/%s", name);
    int ok = rc == want;
    for (int i = 0; has[i]; i++) ok = ok && strstr(out, has[i]) != NULL;
    T_CHECK(ok, "design_modules.sh on the %s tree: exit %d (want %d): %s", name, rc, want, out);
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
    tree("ok", ok);
    static const char *const ok_has[] = {"design: ok: the 5 files", "(line 9, 5 rows)", NULL};
    expect("ok", 0, ok_has);

    /* every kind of problem at once */
    static const char *const bad[] = {
        "src/lib/a.c", "", "src/lib/a.h", "", "src/lib/b.c", "", "src/lib/c.h", "",
        "src/cli/main.c", "", "include/pala/pala.h", "",
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
    tree("bad", bad);
    static const char *const bad_has[] = {
        "docs/design.md:4 names several modules on one line: src/lib/a, src/lib/b",
        "docs/design.md:5 names src/old.c, which does not exist",
        "docs/design.md:7 names src/cli/main.c, already named on line 6",
        "docs/design.md:8 names no file",
        "design: src/lib/c.h is not in the module table",
        NULL};
    expect("bad", 1, bad_has);

    static const char *const none[] = {"src/lib/a.c", "", "docs/design.md", "# Design\n", NULL};
    tree("none", none);
    static const char *const none_has[] = {"has no module table", NULL};
    expect("none", 1, none_has);
}
