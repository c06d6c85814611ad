/* main.c: runs every test; the last line is `N passed, N failed`. */
#include "t.h"
#include <stdlib.h>

void test_rotation(void);
void test_builder(void);
void test_contact(void);
void test_dynamics(void);
void test_keys(void);
void test_scene(void);
void test_tools(void);
void test_order(void);
void test_import(void);
void test_neighbor(void);

int main(void)
{
    if (system("rm -rf build/tmp && mkdir -p build/tmp") != 0) return 1;
    test_rotation();
    test_builder();
    test_contact();
    test_dynamics();
    test_keys();
    test_scene();
    test_tools();
    test_order();
    test_import();
    test_neighbor();
    printf("%d passed, %d failed\n", t_passed, t_failed);
    return t_failed ? 1 : 0;
}
