/* The --level names the parser knows, as hb_cli.c defines them, for the fuzz build that
 * leaves out the CLI (and its getopt and version header). */
#include "hb_options.h"

#include <stddef.h>

const char *const hb_options_bg_level_names[] = {"idle", "low",       "medium",
                                                 "high", "very-high", NULL};
