/* test_membrane.c: placeholder */
#include "t.h"
void test_membrane(void);
void test_membrane(void) {}
