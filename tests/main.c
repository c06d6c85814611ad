/* main.c: the table of tests and the runner.
 *   build/run_tests          every test
 *   build/run_tests NAME...  the tests whose name contains one of the NAMEs
 *                            (`make test T=NAME`); a NAME no test contains lists the
 *                            names and exits with 2
 * The last line is `N passed, N failed` (`, N skipped` when a check was skipped). */
#include "t.h"
#include <signal.h>
#include <stdlib.h>
#include <string.h>

void test_rotation(void);
void test_builder(void);
void test_exact(void);
void test_contact(void);
void test_dynamics(void);
void test_keys(void);
void test_scene(void);
void test_pairs(void);
void test_checks(void);
void test_tools(void);
void test_order(void);
void test_import(void);
void test_neighbor(void);
void test_step(void);
void test_sizes(void);
void test_restart(void);
void test_centre(void);
void test_writers(void);
void test_export(void);
void test_export_python(void);
void test_trajbin(void);
void test_view(void);
void test_view_script(void);
void test_view_embed(void);
void test_pictures(void);
void test_run(void);
void test_symbols_prefix(void);
void test_symbols_no_exit(void);
void test_boundaries_tree(void);
void test_boundaries_script(void);
void test_design_modules_tree(void);
void test_design_modules_script(void);
void test_fields(void);
void test_history(void);
void test_stickslip(void);
void test_vectorise(void);
void test_portable(void);
void test_dashpot(void);
void test_drag(void);
void test_firstday(void);
void test_golden_box(void);
void test_matrix(void);
void test_hooke(void);
void test_arcs(void);
void test_golden_example(void);
void test_golden_beds(void);
void test_docs(void);
void test_pressure(void);
void test_membrane(void);
void test_walls(void);
void test_surface(void);
void test_mesh(void);
void test_meshclump(void);
void test_robust(void);
void test_hostile(void);
void test_output(void);
void test_checkpoint(void);
void test_heap(void);
void test_fractional(void);
void test_fracnormal(void);
void test_measure_geometry(void);
void test_measure_lattice(void);
void test_measure_gas(void);
void test_measure_column(void);
void test_measure_compression(void);
void test_measure_clumps(void);
void test_measure_angle(void);
void test_measure_section(void);
void test_measure_reader(void);
void test_measure_fmt17(void);
void test_contacts_output(void);
void test_feed(void);
void test_sort(void);
void test_orient(void);

static const struct {
    const char *name;
    void (*fn)(void);
} tests[] = {
    {"rotation", test_rotation},
    {"builder", test_builder},
    {"exact", test_exact},
    {"contact", test_contact},
    {"fractional", test_fractional},
    {"fracnormal", test_fracnormal},
    {"measure_geometry", test_measure_geometry},
    {"measure_lattice", test_measure_lattice},
    {"measure_gas", test_measure_gas},
    {"measure_column", test_measure_column},
    {"measure_compression", test_measure_compression},
    {"measure_clumps", test_measure_clumps},
    {"measure_angle", test_measure_angle},
    {"measure_section", test_measure_section},
    {"measure_reader", test_measure_reader},
    {"measure_fmt17", test_measure_fmt17},
    {"contacts_output", test_contacts_output},
    {"dynamics", test_dynamics},
    {"keys", test_keys},
    {"scene", test_scene},
    {"pairs", test_pairs},
    {"checks", test_checks},
    {"tools", test_tools},
    {"order", test_order},
    {"import", test_import},
    {"neighbor", test_neighbor},
    {"step", test_step},
    {"sizes", test_sizes},
    {"restart", test_restart},
    {"centre", test_centre},
    {"writers", test_writers},
    {"export", test_export},
    {"export_python", test_export_python},
    {"trajbin", test_trajbin},
    {"view", test_view},
    {"view_script", test_view_script},
    {"view_embed", test_view_embed},
    {"pictures", test_pictures},
    {"run", test_run},
    {"symbols_prefix", test_symbols_prefix},
    {"symbols_no_exit", test_symbols_no_exit},
    {"boundaries_tree", test_boundaries_tree},
    {"boundaries_script", test_boundaries_script},
    {"design_modules_tree", test_design_modules_tree},
    {"design_modules_script", test_design_modules_script},
    {"fields", test_fields},
    {"history", test_history},
    {"stickslip", test_stickslip},
    {"vectorise", test_vectorise},
    {"portable", test_portable},
    {"dashpot", test_dashpot},
    {"drag", test_drag},
    {"firstday", test_firstday},
    {"pressure", test_pressure},
    {"membrane", test_membrane},
    {"walls", test_walls},
    {"surface", test_surface},
    {"mesh", test_mesh},
    {"meshclump", test_meshclump},
    {"golden_box", test_golden_box},
    {"matrix", test_matrix},
    {"hooke", test_hooke},
    {"arcs", test_arcs},
    {"golden_example", test_golden_example},
    {"golden_beds", test_golden_beds},
    {"robust", test_robust},
    {"hostile", test_hostile},
    {"output", test_output},
    {"checkpoint", test_checkpoint},
    {"feed", test_feed},
    {"sort", test_sort},
    {"orient", test_orient},
    {"heap", test_heap},
    {"docs", test_docs},
};
enum { NTESTS = sizeof tests / sizeof tests[0] };

static int selected(const char *name, int nsel, char **sel)
{
    if (nsel == 0) return 1;
    for (int i = 0; i < nsel; i++)
        if (strstr(name, sel[i])) return 1;
    return 0;
}

int main(int argc, char **argv)
{
    /* the tests that stop a run by SIGHUP (test_output, test_checkpoint) test pala's own
     * handling: a harness started under nohup (SIGHUP ignored, which pala keeps, and which
     * no shell below could reset) gives them the default disposition again */
    signal(SIGHUP, SIG_DFL);
    for (int i = 1; i < argc; i++) {
        int found = 0;
        for (int k = 0; k < NTESTS; k++) found |= strstr(tests[k].name, argv[i]) != NULL;
        if (!found) {
            fprintf(stderr, "run_tests: no test name contains '%s'; the tests are:\n", argv[i]);
            for (int k = 0; k < NTESTS; k++) fprintf(stderr, "  %s\n", tests[k].name);
            return 2;
        }
    }
    if (system("rm -rf build/tmp && mkdir -p build/tmp") != 0) return 1;
    if (argc > 1) {
        printf("running:");
        for (int k = 0; k < NTESTS; k++)
            if (selected(tests[k].name, argc - 1, argv + 1)) printf(" %s", tests[k].name);
        printf("\n");
        fflush(stdout);
    }
    for (int k = 0; k < NTESTS; k++)
        if (selected(tests[k].name, argc - 1, argv + 1)) tests[k].fn();
    t_skip_report();
    if (t_skipped)
        printf("%d passed, %d failed, %d skipped\n", t_passed, t_failed, t_skipped);
    else
        printf("%d passed, %d failed\n", t_passed, t_failed);
    return t_failed ? 1 : 0;
}
