/* The value names of the options that others read too: the parser (hb_cli.c) checks them,
 * the suites name their experiments and records with them. --format's are the sinks'
 * (hb_output.c). */
#include "hb_options.h"

#include <stddef.h>
#include <string.h>

const char *const hb_bg_level_names[] = {"idle", "low", "medium", "high", "very-high", NULL};
const char *const hb_subscription_names[] = {"under", "high", "full", NULL};
const char *const hb_mix_names[] = {"read", "write", "2:1", NULL};
const char *const hb_mode_names[] = {"rate", "single", NULL};
const char *const hb_coll_op_names[] = {"allreduce", "reduce",  "bcast", "allgather",
                                        "alltoall",  "barrier", NULL};

int hb_coll_op_index(const char *op)
{
    for (int k = 0; hb_coll_op_names[k]; k++)
        if (strcmp(hb_coll_op_names[k], op) == 0) return k;
    return -1;
}
