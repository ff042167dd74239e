/* The one-node suites: `lat`, `bw` and the quick default suite. */
#include "hb_suite_kit.h"
#include "hb_opt_doc.h"
#include "hb_suite_matrix.h"

#include "hb_error.h"
#include "hb_jsonl_read.h"
#include "hb_wil.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* What bw measures without --kernel. */
#define HB_BW_KERNELS "read"

/* Every kernel a default suite measures for bandwidth, in registry order. */
static const char *const hb_default_bw_kernels[] = {
    "read", "write", "write-nt", "copy", "copy-nt", "triad", "triad-nt", "memcpy", NULL,
};

static int hb_first_cpu_node(const struct hb_topo *t)
{
    for (int i = 0; i < t->nnodes; i++)
        if (t->nodes[i].has_cpus) return t->nodes[i].os_index;
    return -1;
}

/* The CPU and memory nodes the options name, checked; defaults: first CPU node, local. */
static int hb_local_nodes(const struct hb_suite_env *env, int *cpu, int *mem)
{
    const struct hb_options *o = env->opts;
    *cpu = o->cpu_node >= 0 ? o->cpu_node : hb_first_cpu_node(env->topo);
    int rc = hb_suite_check_cpu_node(env->topo, *cpu, "--cpu-node");
    if (rc) return rc;
    *mem = o->mem_node >= 0 ? o->mem_node : *cpu;
    if (o->policy_set && o->policy == HB_POLICY_WEIGHTED) return 0; /* bw checked its set */
    if (o->mem_node < 0 && !env->topo->nodes[hb_topo_node_index(env->topo, *cpu)].has_memory) {
        hb_err_set("node %d has no memory of its own: choose one with --mem-node", *cpu);
        return -EINVAL;
    }
    return hb_suite_check_mem_node(env->topo, *mem, "--mem-node");
}

/* stride: the chase stride of a latency kernel, 0 = the first --stride. */
static int hb_add_one(const struct hb_suite_env *env, struct hb_plan *out, const char *name,
                      const char *kernel, int cpu, int threads, enum hb_policy policy, int mem,
                      uint64_t bytes, uint64_t stride)
{
    struct hb_experiment e;
    int rc = hb_suite_single(env, &e, env->opts->command[0] ? env->opts->command : "default", name,
                             kernel, cpu, threads, policy, mem, bytes, stride);
    return rc ? rc : hb_plan_add(out, &e);
}

static int hb_lat_plan(const struct hb_suite_env *env, struct hb_plan *out, int cpu, int mem,
                       uint64_t bytes)
{
    const struct hb_options *o = env->opts;
    int rc = 0;
    /* A list of strides is a sweep, as lmbench's lat_mem_rd lets one choose; a list of chain
     * counts, multichase's parallel chases. */
    for (int i = 0; i < o->nstrides && rc == 0; i++)
        for (int c = 0; c < o->nchains && rc == 0; c++) {
            char name[HB_NAME_LEN], stride[32] = "", chains[32] = "";
            if (o->nstrides > 1)
                snprintf(stride, sizeof(stride), "-stride%llu", (unsigned long long)o->strides[i]);
            if (o->nchains > 1) snprintf(chains, sizeof(chains), "-chains%d", o->chains[c]);
            if (snprintf(name, sizeof(name), "lat-%d-%d%s%s", cpu, mem, stride, chains) >=
                (int)sizeof(name)) {
                hb_err_set("lat: the experiment name for stride %s and chains %s is too long",
                           stride, chains);
                return -EINVAL;
            }
            struct hb_experiment e;
            rc = hb_suite_single(env, &e, o->command[0] ? o->command : "default", name, "chase",
                                 cpu, 1, HB_POLICY_BIND, mem, bytes, o->strides[i]);
            if (rc == 0) {
                e.tasks[0].chase_chains = o->chains[c];
                rc = hb_plan_add(out, &e);
            }
        }
    return rc;
}

static int hb_bw_kernel(const struct hb_suite_env *env, struct hb_plan *out, const char *kernel,
                        int cpu, int mem, int threads, uint64_t bytes)
{
    const struct hb_options *o = env->opts;
    enum hb_policy policy = o->policy_set ? o->policy : HB_POLICY_BIND;
    char name[HB_NAME_LEN];
    snprintf(name, sizeof(name), "bw-%s-%dt", kernel, threads);
    return hb_add_one(env, out, name, kernel, cpu, threads, policy, mem, bytes, 0);
}

/* --kernel a,b,c, one experiment each. */
static int hb_bw_plan(const struct hb_suite_env *env, struct hb_plan *out, int cpu, int mem,
                      uint64_t bytes)
{
    const struct hb_options *o = env->opts;
    const struct hb_node *n = &env->topo->nodes[hb_topo_node_index(env->topo, cpu)];
    int threads = o->threads ? o->threads : n->ncores;
    char list[sizeof(o->kernels)];
    snprintf(list, sizeof(list), "%s", o->kernels[0] ? o->kernels : HB_BW_KERNELS);
    char *save = NULL;
    for (char *k = strtok_r(list, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
        int rc = hb_bw_kernel(env, out, k, cpu, mem, threads, bytes);
        if (rc) return rc;
    }
    return 0;
}

/* Topology is printed by the caller; here: latency, then every bandwidth kernel with one
 * thread and with every core of the node. */
static int hb_default_plan(const struct hb_suite_env *env, struct hb_plan *out, int cpu, int mem,
                           uint64_t bytes)
{
    const struct hb_options *o = env->opts;
    const struct hb_node *n = &env->topo->nodes[hb_topo_node_index(env->topo, cpu)];
    int rc = hb_lat_plan(env, out, cpu, mem, bytes);
    int counts[2] = {1, o->threads ? o->threads : n->ncores};
    for (int c = 0; c < 2 && rc == 0; c++) {
        if (c == 1 && counts[1] == counts[0]) break;
        for (int k = 0; hb_default_bw_kernels[k] && rc == 0; k++)
            rc = hb_bw_kernel(env, out, hb_default_bw_kernels[k], cpu, mem, counts[c], bytes);
    }
    return rc;
}

typedef int (*hb_local_body)(const struct hb_suite_env *env, struct hb_plan *out, int cpu, int mem,
                             uint64_t bytes);

/* The nodes, threads and size the options give, checked, then the suite's own experiments. */
static int hb_local_plan(const struct hb_suite_env *env, struct hb_plan *out, hb_local_body body)
{
    const struct hb_options *o = env->opts;
    int cpu, mem;
    int rc = hb_local_nodes(env, &cpu, &mem);
    if (rc) return rc;
    if (o->threads && (rc = hb_suite_check_threads(env, cpu, o->threads))) return rc;
    uint64_t bytes = o->size ? o->size : env->default_bytes;
    return body(env, out, cpu, mem, bytes);
}

/* On a machine with several CPU nodes the default suite measures the matrix too. */
static int hb_suite_default_plan(const struct hb_suite_env *env, struct hb_plan *out)
{
    int rc = hb_local_plan(env, out, hb_default_plan);
    if (rc == 0 && hb_topo_count_cpu_nodes(env->topo) > 1) rc = hb_suite_matrix_plan(env, out);
    return rc;
}

/* --policy weighted: --mem-node's nodes hold memory and this kernel has the policy (another
 * machine's topology only plans). Without root the kernel's own weights will be used. */
static int hb_bw_check_weighted(const struct hb_suite_env *env)
{
    const struct hb_options *o = env->opts;
    for (int k = 0; k < o->nmem_nodes; k++) {
        int rc = hb_suite_check_mem_node(env->topo, o->mem_nodes[k], "--mem-node");
        if (rc) return rc;
    }
    if (!env->topo->is_this_system) return 0;
    int rc = hb_wil_check("--policy weighted");
    if (rc == 0 && !hb_wil_writable())
        hb_suite_say(env, "bw: not root, so --weights cannot be set: the kernel's current "
                          "weights are used (the records say weights_set false)");
    return rc;
}

/* The weights in force during the run (hb_wil.h), the share of pages they give each node and
 * whether hopbench set them, beside each weighted record's pages_share_pct. */
static void hb_bw_annotate(const struct hb_suite_env *env, const json_t *measured, json_t *rec)
{
    (void)env;
    (void)measured;
    const struct hb_wil_state *w = hb_wil_current();
    if (!w || strcmp(hb_rec_str(rec, "policy", ""), "weighted") != 0) return;
    json_t *weights = json_object(), *share = json_object();
    long sum = 0;
    for (int k = 0; k < w->n; k++)
        sum += w->weights[k];
    for (int k = 0; k < w->n && sum > 0; k++) {
        char key[16];
        snprintf(key, sizeof(key), "%d", w->nodes[k]);
        json_object_set_new(weights, key, json_integer(w->weights[k]));
        json_object_set_new(share, key,
                            json_real(round(10000.0 * w->weights[k] / (double)sum) / 100.0));
    }
    json_object_set_new(rec, "weights", weights);
    json_object_set_new(rec, "weights_set", json_boolean(w->set));
    json_object_set_new(rec, "weights_share_pct", share);
}

static int hb_suite_bw_plan(const struct hb_suite_env *env, struct hb_plan *out)
{
    const struct hb_options *o = env->opts;
    if (o->policy_set && o->policy == HB_POLICY_WEIGHTED) {
        int rc = hb_bw_check_weighted(env);
        if (rc) return rc;
    } else if (o->policy_set && o->policy != HB_POLICY_BIND && o->mem_node >= 0) {
        /* A policy that places the pages itself leaves no node to bind them to. */
        hb_err_set("bw --policy %s places the pages itself (%s): --mem-node %d contradicts it; "
                   "give one or the other",
                   hb_policy_name(o->policy),
                   o->policy == HB_POLICY_INTERLEAVE ? "over every node with memory"
                                                     : "where each thread first touches them",
                   o->mem_node);
        return -EINVAL;
    }
    return hb_local_plan(env, out, hb_bw_plan);
}

static int hb_suite_lat_plan(const struct hb_suite_env *env, struct hb_plan *out)
{
    return hb_local_plan(env, out, hb_lat_plan);
}

/* The options of its own it takes, besides the run options (hb_opt_doc.h). */
static const int hb_default_takes[] = {OPT_CPU_NODE, OPT_MEM_NODE, OPT_THREADS,   OPT_SIZE,
                                       OPT_PAGES,    OPT_STRIDE,   OPT_TLB_GROUP, 0};

const struct hb_suite hb_suite_default = {
    .takes = hb_default_takes,
    .name = "",
    .help = "quick default suite: topology, latency, bandwidth of every kernel",
    .plan = hb_suite_default_plan,
    .derive = hb_suite_matrix_derive,
    .reads = hb_matrix_reads,
    .derive_end = hb_suite_matrix_derive_end,
    .tiers = "matrix",
};

/* The options of its own it takes, besides the run options (hb_opt_doc.h). */
static const int hb_bw_takes[] = {
    OPT_KERNEL, OPT_CPU_NODE, OPT_MEM_NODE,  OPT_POLICY, OPT_WEIGHTS, OPT_THREADS, OPT_SIZE,
    OPT_PAGES,  OPT_STRIDE,   OPT_TLB_GROUP, 0};

const struct hb_suite hb_suite_bw = {
    .takes = hb_bw_takes,
    .kernels = HB_BW_KERNELS,
    .name = "bw",
    .help = "bandwidth of --kernel on --cpu-node to --mem-node or --policy (weighted: "
            "--weights over --mem-node's nodes)",
    .plan = hb_suite_bw_plan,
    .annotate = hb_bw_annotate,
};

/* The options of its own it takes, besides the run options (hb_opt_doc.h). */
static const int hb_lat_takes[] = {OPT_CPU_NODE, OPT_MEM_NODE,  OPT_SIZE,   OPT_PAGES,
                                   OPT_STRIDE,   OPT_TLB_GROUP, OPT_CHAINS, 0};

const struct hb_suite hb_suite_lat = {
    .takes = hb_lat_takes,
    .name = "lat",
    .help = "idle pointer-chase latency from --cpu-node to --mem-node",
    .plan = hb_suite_lat_plan,
    .flags = HB_SUITE_STRIDE_LIST | HB_SUITE_CHAINS_LIST,
};
