/* What the one-node suites (lat, bw and the default suite, hb_local_plan.h) plan alike. */
#include "hb_local_plan.h"

#include "hb_error.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int first_cpu_node(const struct hb_topo *t)
{
    for (int i = 0; i < t->nnodes; i++)
        if (t->nodes[i].has_cpus) return t->nodes[i].os_index;
    return -1;
}

/* The CPU and memory nodes the options name, checked; defaults: first CPU node, local. */
static int local_nodes(const struct hb_suite_env *env, int *cpu, int *mem)
{
    const struct hb_options *o = env->opts;
    *cpu = o->cpu_node >= 0 ? o->cpu_node : first_cpu_node(env->topo);
    int rc = hb_suite_kit_check_cpu_node(env->topo, *cpu, "--cpu-node");
    if (rc) return rc;
    *mem = o->mem_node >= 0 ? o->mem_node : *cpu;
    if (o->policy_set && o->policy == HB_POLICY_WEIGHTED) return 0; /* bw checked its set */
    if (o->mem_node < 0 && !env->topo->nodes[hb_topo_nodes_index(env->topo, *cpu)].has_memory) {
        hb_error_set("node %d has no memory of its own: choose one with --mem-node", *cpu);
        return -EINVAL;
    }
    return hb_suite_kit_check_mem_node(env->topo, *mem, "--mem-node");
}

/* stride: the chase stride of a latency kernel, 0 = the first --stride. */
static int add_one(const struct hb_suite_env *env, struct hb_plan *out, const char *name,
                   const char *kernel, int cpu, int threads, enum hb_policy policy, int mem,
                   uint64_t bytes, uint64_t stride)
{
    struct hb_experiment e;
    int rc = hb_suite_kit_single(env, &e, env->opts->command[0] ? env->opts->command : "default",
                                 name, kernel, cpu, threads, policy, mem, bytes, stride);
    return rc ? rc : hb_plan_add(out, &e);
}

int hb_local_plan_lat(const struct hb_suite_env *env, struct hb_plan *out, int cpu, int mem,
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
                hb_error_set("lat: the experiment name for stride %s and chains %s is too long",
                             stride, chains);
                return -EINVAL;
            }
            struct hb_experiment e;
            rc = hb_suite_kit_single(env, &e, o->command[0] ? o->command : "default", name, "chase",
                                     cpu, 1, HB_POLICY_BIND, mem, bytes, o->strides[i]);
            if (rc == 0) {
                e.tasks[0].chase_chains = o->chains[c];
                rc = hb_plan_add(out, &e);
            }
        }
    return rc;
}

int hb_local_plan_bw_kernel(const struct hb_suite_env *env, struct hb_plan *out, const char *kernel,
                            int cpu, int mem, int threads, uint64_t bytes)
{
    const struct hb_options *o = env->opts;
    enum hb_policy policy = o->policy_set ? o->policy : HB_POLICY_BIND;
    char name[HB_NAME_LEN];
    snprintf(name, sizeof(name), "bw-%s-%dt", kernel, threads);
    return add_one(env, out, name, kernel, cpu, threads, policy, mem, bytes, 0);
}

/* --kernel a,b,c, one experiment each. */
int hb_local_plan_bw(const struct hb_suite_env *env, struct hb_plan *out, int cpu, int mem,
                     uint64_t bytes)
{
    const struct hb_options *o = env->opts;
    const struct hb_node *n = &env->topo->nodes[hb_topo_nodes_index(env->topo, cpu)];
    int threads = o->threads ? o->threads : n->ncores;
    char list[sizeof(o->kernels)];
    snprintf(list, sizeof(list), "%s", o->kernels[0] ? o->kernels : HB_BW_KERNELS);
    char *save = NULL;
    for (char *k = strtok_r(list, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
        int rc = hb_local_plan_bw_kernel(env, out, k, cpu, mem, threads, bytes);
        if (rc) return rc;
    }
    return 0;
}

/* The nodes, threads and size the options give, checked, then the suite's own experiments. */
int hb_local_plan(const struct hb_suite_env *env, struct hb_plan *out, hb_local_plan_body body)
{
    const struct hb_options *o = env->opts;
    int cpu, mem;
    int rc = local_nodes(env, &cpu, &mem);
    if (rc) return rc;
    if (o->threads && (rc = hb_suite_kit_check_threads(env, cpu, o->threads))) return rc;
    uint64_t bytes = o->size ? o->size : env->default_bytes;
    return body(env, out, cpu, mem, bytes);
}
