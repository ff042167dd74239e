/* `check`: a node health check quick enough for Slurm's HealthCheckProgram (docs/running.md).
 * A fixed profile per NUMA node: idle latency (every node's chase at once: one thread each
 * barely loads the others), local read bandwidth with all of the node's cores, one remote
 * read per hop class from it, nearest and farthest, and the machine's total peak read (every
 * node's cores at once, peak's derived total). main fits the repeats into --max-time
 * (HB_SUITE_FIT_REPEATS); src/health judges the cells against a baseline, the history or
 * the peers of the run. */
#include "hb_suite_check.h"
#include "hb_suite_kit.h"
#include "hb_opt_doc.h"

#include "hb_error.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

extern const struct hb_suite hb_suite_peak;

/* The nodes whose cells check measures: CPUs and memory of their own. */
static bool check_node(const struct hb_suite_env *env, int i)
{
    const struct hb_node *n = &env->topo->nodes[i];
    return n->has_cpus && n->has_memory && hb_suite_kit_node_on(env, i);
}

static int check_add(const struct hb_suite_env *env, struct hb_plan *out, const char *name,
                     const char *kernel, int cpu, int threads, int mem, uint64_t bytes)
{
    struct hb_experiment e;
    int rc = hb_suite_kit_single(env, &e, "check", name, kernel, cpu, threads, HB_POLICY_BIND, mem,
                                 bytes, 0);
    return rc ? rc : hb_plan_add(out, &e);
}

/* One task on every checked node at once, each on its own memory: the chase on one thread
 * (latency: one thread barely loads the others), or read on every core (the peak). */
static int check_every_node(const struct hb_suite_env *env, struct hb_plan *out, const char *name,
                            const char *kernel, uint64_t bytes)
{
    bool latency = strcmp(kernel, "chase") == 0;
    struct hb_experiment e;
    hb_suite_kit_experiment(env, &e, "check", name, latency ? "latency" : "bandwidth");
    for (int i = 0; i < env->topo->nnodes; i++) {
        const struct hb_node *n = &env->topo->nodes[i];
        if (!check_node(env, i)) continue;
        struct hb_task *task = hb_plan_experiment_task(&e);
        int rc = task ? hb_suite_kit_task(env, task, n->os_index, 0, latency ? 1 : n->ncores,
                                          kernel, HB_POLICY_BIND, n->os_index, bytes)
                      : -ENOMEM;
        if (rc) {
            hb_plan_experiment_clear(&e);
            return rc;
        }
    }
    return hb_plan_add(out, &e);
}

/* From node index i: the first checked node of the nearest and of the farthest hop class
 * (one cell when they are the same class). */
static int check_remote(const struct hb_suite_env *env, struct hb_plan *out, int i, uint64_t bytes)
{
    const struct hb_topo *t = env->topo;
    int near = -1, far = -1;
    for (int j = 0; j < t->nnodes; j++) {
        int c = j == i || !check_node(env, j) ? -1 : hb_topo_distances_hops(t, i, j);
        if (c < 1) continue;
        if (near < 0 || c < hb_topo_distances_hops(t, i, near)) near = j;
        if (far < 0 || c > hb_topo_distances_hops(t, i, far)) far = j;
    }
    const struct hb_node *n = &t->nodes[i];
    int targets[2] = {near, far == near ? -1 : far};
    for (int k = 0; k < 2; k++) {
        if (targets[k] < 0) continue;
        int m = t->nodes[targets[k]].os_index;
        char name[HB_NAME_LEN];
        snprintf(name, sizeof(name), "%s-%d-%d", k ? HB_CHECK_FAR : HB_CHECK_NEAR, n->os_index, m);
        int rc = check_add(env, out, name, "read", n->os_index, n->ncores, m, bytes);
        if (rc) return rc;
    }
    return 0;
}

static int suite_check_plan(const struct hb_suite_env *env, struct hb_plan *out)
{
    const struct hb_topo *t = env->topo;
    uint64_t bytes = env->opts->size ? env->opts->size : env->default_bytes;
    int nodes = 0;
    for (int i = 0; i < t->nnodes; i++)
        nodes += check_node(env, i);
    if (nodes == 0) {
        hb_error_set("check: no NUMA node%s has both CPUs and memory of its own to check",
                     env->opts->nodes ? " of --nodes" : "");
        return -EINVAL;
    }
    int rc = check_every_node(env, out, HB_CHECK_LATENCY, "chase", bytes);
    for (int i = 0; i < t->nnodes && rc == 0; i++) {
        if (!check_node(env, i)) continue;
        char name[HB_NAME_LEN];
        snprintf(name, sizeof(name), "%s-%d", HB_CHECK_LOCAL, t->nodes[i].os_index);
        rc = check_add(env, out, name, "read", t->nodes[i].os_index, t->nodes[i].ncores,
                       t->nodes[i].os_index, bytes);
        if (rc == 0) rc = check_remote(env, out, i, bytes);
    }
    /* One node: its local read is the machine's total already. */
    if (rc == 0 && nodes > 1) rc = check_every_node(env, out, HB_CHECK_PEAK, "read", bytes);
    return rc;
}

/* The machine's total: peak's derived record over the peak experiment's records. */
static int suite_check_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived)
{
    json_t *peak = json_array();
    if (!peak) return -ENOMEM;
    size_t i;
    json_t *r;
    json_array_foreach(measured, i, r)
    {
        const char *exp = json_string_value(json_object_get(r, "experiment"));
        if (exp && strcmp(exp, HB_CHECK_PEAK) == 0) json_array_append(peak, r);
    }
    int rc = json_array_size(peak) ? hb_suite_peak.derive(env, peak, derived) : 0;
    json_decref(peak);
    return rc;
}

static const int check_takes[] = {OPT_SIZE,     OPT_PAGES,   OPT_NODES, OPT_THRESHOLD,
                                  OPT_BASELINE, OPT_HISTORY, 0};
/* Its repeats are its own: fitted into --max-time. */
static const int check_drops[] = {OPT_REPEAT, OPT_NOISE, 0};
/* peak's derive reads these (hb_suite_peak.c), the judge the repeats. */
static const char *const check_reads[] = {"fg_start_s", "fg_end_s", "repeat_values", NULL};

const struct hb_suite hb_suite_check = {
    .takes = check_takes,
    .drops = check_drops,
    .name = "check",
    .help = "node health check for Slurm: per NUMA node idle latency, local read with all "
            "cores, remote read nearest and farthest, and the total peak read, repeats fitted "
            "into --max-time; judged against --baseline, --history or the run's peers (exit 0 "
            "healthy, 1 degraded, 5 cannot tell)",
    .plan = suite_check_plan,
    .derive = suite_check_derive,
    .reads = check_reads,
    .flags = HB_SUITE_FIT_REPEATS,
};
