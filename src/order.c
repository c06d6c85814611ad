/* order.c: `pala order` (to be written). */
#include <stdio.h>
int pala_cmd_order(int argc, char **argv);
int pala_cmd_order(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "pala order: not yet implemented\n"); return 1; }
