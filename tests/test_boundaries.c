/* test_boundaries.c: the library's boundaries (docs/design.md), checked by
 * tests/boundaries.sh: no file of src/lib includes a command-line header (src/cli/), and
 * the modules of src/lib do not include each other in a circle.  test_boundaries_tree
 * runs it on this tree; test_boundaries_script on small trees in build/tmp/boundaries
 * that it must pass or fail. */
#include "t.h"
#include <string.h>

void test_boundaries_tree(void);
void test_boundaries_script(void);

#define DIR "build/tmp/boundaries"

static char out[16384];

void test_boundaries_tree(void)
{
    int rc = t_sh(out, sizeof out, "sh tests/boundaries.sh .");
    T_CHECK(rc == 0, "tests/boundaries.sh: src/lib includes no src/cli header and its modules "
            "include no circle (exit %d): %s", rc, out);
}

void test_boundaries_script(void)
{
    t_sh(NULL, 0, "mkdir -p " DIR);
    /* a diamond a -> b, c -> d, a module including its own header, public and system
     * headers, a quoted name that is no file of the tree, the command line including
     * the library: no problem */
    static const char *const clean[] = {
        "include/pala/pala.h", "",
        "src/lib/a.c", "#include <stdio.h>\n#include \"pala/pala.h\"\n#include \"a.h\"\n"
                       "#include \"b.h\"\n#include \"c.h\"\n",
        "src/lib/a.h", "#include \"pala/pala.h\"\n",
        "src/lib/b.h", "#include \"d.h\"\n",
        "src/lib/c.c", "#include \"d.h\"\n#include \"config.h\"\n",
        "src/lib/c.h", "",
        "src/lib/d.h", "",
        "src/cli/main.c", "#include \"run.h\"\n#include \"a.h\"\n",
        "src/cli/run.h", "#include \"d.h\"\n",
        NULL};
    t_tree(DIR "/clean", clean);
    static const char *const clean_has[] = {"boundaries: ok", "4 dependencies", NULL};
    t_script("tests/boundaries.sh", DIR "/clean", 0, clean_has);

    /* a -> b -> c -> a through .c and .h files, and x <-> y */
    static const char *const cycle[] = {
        "src/lib/a.c", "#include \"b.h\"\n",
        "src/lib/a.h", "",
        "src/lib/b.h", "#include \"c.h\"\n",
        "src/lib/c.c", "#include \"a.h\"\n",
        "src/lib/c.h", "",
        "src/lib/x.h", "#include \"y.h\"\n",
        "src/lib/y.c", "#include \"x.h\"\n",
        "src/lib/y.h", "",
        NULL};
    t_tree(DIR "/cycle", cycle);
    static const char *const cycle_has[] = {
        "circle: a -> b -> c -> a", "src/lib/a.c:1 includes \"b.h\"",
        "src/lib/b.h:1 includes \"c.h\"", "src/lib/c.c:1 includes \"a.h\"",
        "circle: x -> y -> x", NULL};
    t_script("tests/boundaries.sh", DIR "/cycle", 1, cycle_has);

    /* src/lib including a header of src/cli, by name and by path */
    static const char *const cli[] = {
        "src/lib/a.c", "#include \"a.h\"\n\n#include \"run.h\"\n",
        "src/lib/a.h", "#include \"../cli/commands.h\"\n",
        "src/cli/run.h", "",
        "src/cli/commands.h", "",
        NULL};
    t_tree(DIR "/cli", cli);
    static const char *const cli_has[] = {
        "src/lib/a.c:3 includes \"run.h\", a header of the command line", "src/cli/run.h)",
        "src/lib/a.h:1 includes \"../cli/commands.h\", a header of the command line", NULL};
    t_script("tests/boundaries.sh", DIR "/cli", 1, cli_has);
}
