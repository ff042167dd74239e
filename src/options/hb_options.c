/* The value names of the options that others read too: the parser (hb_cli.c) checks them,
 * the suites name their experiments and records with them. --format's are the sinks'
 * (hb_format.c). */
#include "hb_options.h"

#include <stddef.h>

const char *const hb_options_bg_level_names[] = {"idle", "low",       "medium",
                                                 "high", "very-high", NULL};
const char *const hb_options_subscription_names[] = {"under", "high", "full", NULL};
const char *const hb_options_mix_names[] = {"read", "write", "2:1", NULL};
const char *const hb_options_mode_names[] = {"rate", "single", NULL};
