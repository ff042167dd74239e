/* The quick default suite: latency, then every bandwidth kernel on one thread and on every
 * core of the first CPU node; with several CPU nodes, the matrix too. */
#include "hb_local_plan.h"
#include "hb_opt_doc.h"
#include "hb_suite_matrix.h"

/* Every kernel a default suite measures for bandwidth, in registry order. */
static const char *const default_bw_kernels[] = {
    "read", "write", "write-nt", "copy", "copy-nt", "triad", "triad-nt", "memcpy", NULL,
};

/* Topology is printed by the caller; here: latency, then every bandwidth kernel with one
 * thread and with every core of the node. */
static int default_plan(const struct hb_suite_env *env, struct hb_plan *out, int cpu, int mem,
                        uint64_t bytes)
{
    const struct hb_options *o = env->opts;
    const struct hb_node *n = &env->topo->nodes[hb_topo_nodes_index(env->topo, cpu)];
    int rc = hb_local_plan_lat(env, out, cpu, mem, bytes);
    int counts[2] = {1, o->threads ? o->threads : n->ncores};
    for (int c = 0; c < 2 && rc == 0; c++) {
        if (c == 1 && counts[1] == counts[0]) break;
        for (int k = 0; default_bw_kernels[k] && rc == 0; k++)
            rc = hb_local_plan_bw_kernel(env, out, default_bw_kernels[k], cpu, mem, counts[c],
                                         bytes);
    }
    return rc;
}

/* On a machine with several CPU nodes the default suite measures the matrix too. */
static int suite_default_plan(const struct hb_suite_env *env, struct hb_plan *out)
{
    int rc = hb_local_plan(env, out, default_plan);
    if (rc == 0 && hb_topo_nodes_count_cpu_nodes(env->topo) > 1)
        rc = hb_suite_matrix_plan(env, out);
    return rc;
}

/* The options of its own it takes, besides the run options (hb_opt_doc.h). */
static const int default_takes[] = {OPT_CPU_NODE, OPT_MEM_NODE, OPT_THREADS,   OPT_SIZE,
                                    OPT_PAGES,    OPT_STRIDE,   OPT_TLB_GROUP, 0};

const struct hb_suite hb_suite_default = {
    .takes = default_takes,
    .name = "",
    .help = "quick default suite: topology, latency, bandwidth of every kernel",
    .plan = suite_default_plan,
    .derive = hb_suite_matrix_derive,
    .reads = hb_suite_matrix_reads,
    .derive_end = hb_suite_matrix_derive_end,
    .tiers = "matrix",
};
