/* placeholder, replaced below */
#include "cli.h"
static int run(int argc, char **argv) { (void)argc; (void)argv; return 0; }
const struct cli_cmd cmd_simulate = { "simulate", "simulate", "simulate", run };
