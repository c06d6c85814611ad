#include "commands.h"
int pala_cmd_view(int argc, char **argv) { (void)argc; (void)argv; return 1; }
