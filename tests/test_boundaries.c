/* test_boundaries.c: the library's boundaries (docs/design.md), checked by
 * tests/boundaries.sh: no file of src/lib includes a command-line header (src/cli/), the
 * modules of src/lib do not include each other in a circle, none includes a module of a
 * higher layer, and docs/design.md lists the layers of the script's table.  test_boundaries_tree
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
    /* a diamond step -> force_pass, integrator -> threads (down the layers), a module
     * including its own header, public and system headers, a quoted name that is no file
     * of the tree, the command line including the library, and this tree's
     * docs/design.md: no problem */
    static const char *const clean[] = {
        "include/pala/pala.h", "",
        "src/lib/step.c", "#include <stdio.h>\n#include \"pala/pala.h\"\n#include \"step.h\"\n"
                          "#include \"force_pass.h\"\n#include \"integrator.h\"\n",
        "src/lib/step.h", "#include \"pala/pala.h\"\n",
        "src/lib/force_pass.h", "#include \"threads.h\"\n",
        "src/lib/integrator.c", "#include \"threads.h\"\n#include \"config.h\"\n",
        "src/lib/integrator.h", "",
        "src/lib/threads.h", "",
        "src/cli/main.c", "#include \"run.h\"\n#include \"step.h\"\n",
        "src/cli/run.h", "#include \"threads.h\"\n",
        NULL};
    t_tree(DIR "/clean", clean);
    t_sh(NULL, 0, "cp docs/design.md " DIR "/clean/docs/");
    static const char *const clean_has[] = {"boundaries: ok", "4 dependencies", "none includes a higher layer",
                                            "docs/design.md lists the same layers", NULL};
    t_script("tests/boundaries.sh", DIR "/clean", 0, clean_has);

    /* contact -> container -> membrane -> contact through .c and .h files, and
     * field <-> centre (one layer: only the circles are wrong) */
    static const char *const cycle[] = {
        "src/lib/contact.c", "#include \"container.h\"\n",
        "src/lib/contact.h", "",
        "src/lib/container.h", "#include \"membrane.h\"\n",
        "src/lib/membrane.c", "#include \"contact.h\"\n",
        "src/lib/membrane.h", "",
        "src/lib/field.h", "#include \"centre.h\"\n",
        "src/lib/centre.c", "#include \"field.h\"\n",
        "src/lib/centre.h", "",
        NULL};
    t_tree(DIR "/cycle", cycle);
    static const char *const cycle_has[] = {
        "circle: contact -> container -> membrane -> contact", "src/lib/contact.c:1 includes \"container.h\"",
        "src/lib/container.h:1 includes \"membrane.h\"", "src/lib/membrane.c:1 includes \"contact.h\"",
        "circle: centre -> field -> centre", NULL};
    t_script("tests/boundaries.sh", DIR "/cycle", 1, cycle_has);

    /* src/lib including a header of src/cli, by name and by path */
    static const char *const cli[] = {
        "src/lib/world.c", "#include \"world.h\"\n\n#include \"run.h\"\n",
        "src/lib/world.h", "#include \"../cli/commands.h\"\n",
        "src/cli/run.h", "",
        "src/cli/commands.h", "",
        NULL};
    t_tree(DIR "/cli", cli);
    static const char *const cli_has[] = {
        "src/lib/world.c:3 includes \"run.h\", a header of the command line", "src/cli/run.h)",
        "src/lib/world.h:1 includes \"../cli/commands.h\", a header of the command line", NULL};
    t_script("tests/boundaries.sh", DIR "/cli", 1, cli_has);

    /* up the layers: a pure piece including a concept, a concept the force pass; a module
     * without a layer; a docs/design.md whose list disagrees with the script's table */
    static const char *const up[] = {
        "src/lib/grain.h", "#include \"pala/pala.h\"\n#include \"integrator.h\"\n",
        "src/lib/integrator.h", "",
        "src/lib/neighbor.c", "#include \"force_pass.h\"\n",
        "src/lib/force_pass.h", "",
        "src/lib/extra.c", "#include \"grain.h\"\n",
        "docs/design.md", "# Design\n\n## Layers\n\n2. the entry points: `step.c`;\n3. the force pass `force_pass.c`,\n"
                          "   and `grain.c`;\n5. the pure pieces: `grain.h`, `ghost.c`.\n\n## The step\n\n1. `rng.c`\n",
        NULL};
    t_tree(DIR "/up", up);
    static const char *const up_has[] = {
        "src/lib/grain.h:2 includes \"integrator.h\": grain (layer 5) includes integrator, of the higher layer 4",
        "src/lib/neighbor.c:1 includes \"force_pass.h\": neighbor (layer 4) includes force_pass, of the higher layer 3",
        "src/lib/extra.c: module extra has no layer",
        "docs/design.md:8 puts grain in layer 5, line 7 in layer 3",
        "docs/design.md:7 puts grain in layer 3, tests/boundaries.sh in layer 5",
        "docs/design.md:8 puts ghost in layer 5; tests/boundaries.sh gives it none",
        "docs/design.md, \"Layers\", names no file of module rng (layer 5 in tests/boundaries.sh)", NULL};
    t_script("tests/boundaries.sh", DIR "/up", 1, up_has);
}
