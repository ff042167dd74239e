/* The `lat` suite: idle pointer-chase latency from one CPU node to one memory node. */
#include "hb_local_plan.h"
#include "hb_opt_doc.h"

static int suite_lat_plan(const struct hb_suite_env *env, struct hb_plan *out)
{
    return hb_local_plan(env, out, hb_local_plan_lat);
}

/* The options of its own it takes, besides the run options (hb_opt_doc.h). */
static const int lat_takes[] = {OPT_CPU_NODE, OPT_MEM_NODE,  OPT_SIZE,   OPT_PAGES,
                                OPT_STRIDE,   OPT_TLB_GROUP, OPT_CHAINS, 0};

const struct hb_suite hb_suite_lat = {
    .takes = lat_takes,
    .name = "lat",
    .help = "idle pointer-chase latency from --cpu-node to --mem-node",
    .plan = suite_lat_plan,
    .flags = HB_SUITE_STRIDE_LIST | HB_SUITE_CHAINS_LIST,
};
