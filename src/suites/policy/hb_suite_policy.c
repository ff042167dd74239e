/* `policy`: what placement is worth for real work. Every workload runs under every policy:
 *   local       first touch by the threads that use the data (each thread its own slice)
 *   interleave  pages round-robin over every node with memory
 *   remote      strict bind to the node farthest from the CPU node (firmware distance) among
 *               those of the CPU node's own memory kind and tier (--tier picks another)
 *   one-node    strict bind of every task's memory to the first node with memory (node 0)
 *   os          no policy at all: the task's first thread initialises all its arrays, as a
 *               serial init loop would, and the kernel puts the pages where it likes (the
 *               CPU node of that thread unless it is short of memory or NUMA balancing moves
 *               them); any node is accepted and the record shows where they went. On a
 *               healthy idle machine os lands where local does, which is the point: it is
 *               the baseline that placement-unaware code gets.
 * in two modes: rate (a task on every CPU node, all its threads, each with its own data, at
 * the same time) and single (one task, on --cpu-node or the first CPU node).
 * With --intensity the workload is the intensity kernel at 1/8 .. 64 flops per byte under
 * local, remote and interleave. */
#include "hb_suite_policy.h"
#include "hb_opt_doc.h"

#include "hb_error.h"
#include "hb_bytes.h"
#include "hb_topo_mem.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define HB_POLICY_WORKLOADS "triad,read,gups,blur3,dgemm,fir,chase"

/* Local first: with one node with memory it is the only one planned. */
static const char *const study_placements[] = {"local",    "interleave", "remote",
                                               "one-node", "os",         NULL};
static const char *const intensity_policies[] = {"local", "remote", "interleave", NULL};

/* Intensities of the --intensity study: 1/8 .. 64 flops per byte, one per octave. */
#define HB_INTENSITY_LO 0.125
#define HB_INTENSITY_HI 64.0

/* May node index j hold remote memory for CPU node index ci? --tier names a kind (hwloc
 * subtype: DRAM, HBM, CXL-DRAM...) or a tier number; by default the CPU node's own kind and
 * tier, so a DRAM node's remote is DRAM, not GPU memory, another quadrant's MCDRAM or CXL. */
static bool policy_remote_ok(const struct hb_topo *t, const char *tier, int ci, int j)
{
    if (!t->nodes[j].has_memory) return false;
    if (!tier[0]) return hb_topo_mem_same_tier(t, ci, j);
    char *end = NULL;
    long n = strtol(tier, &end, 10);
    if (end != tier && *end == '\0') return hb_topo_mem_tier(t, j) == n;
    return strcasecmp(hb_topo_mem_kind(t, j), tier) == 0;
}

/* The memory node farthest from cpu by firmware distance among the allowed ones; ties go to
 * the first such node after cpu in node order, so rate mode spreads its remote traffic.
 * Itself when it is the only one of its kind. */
static int policy_farthest(const struct hb_suite_env *env, const char *tier, int cpu)
{
    const struct hb_topo *t = env->topo;
    int ci = hb_topo_nodes_index(t, cpu), best = -1;
    uint64_t best_d = 0;
    for (int k = 1; k <= t->nnodes; k++) {
        int j = (ci + k) % t->nnodes;
        if (!policy_remote_ok(t, tier, ci, j) || !hb_suite_kit_node_on(env, j)) continue;
        uint64_t d = t->distances ? hb_topo_distances_between(t, ci, j) : (j != ci);
        if (best < 0 || d > best_d) {
            best = j;
            best_d = d;
        }
    }
    return best < 0 ? cpu : t->nodes[best].os_index;
}

/* --tier must name something this machine has. */
static int policy_check_tier(const struct hb_topo *t, const char *tier)
{
    if (!tier[0]) return 0;
    for (int j = 0; j < t->nnodes; j++)
        if (policy_remote_ok(t, tier, 0, j)) return 0;
    json_t *tiers = hb_topo_mem_tiers(t);
    char *kinds = json_dumps(tiers, JSON_COMPACT);
    json_decref(tiers);
    hb_error_set("--tier '%s': no memory node of that kind or tier; this machine has %s", tier,
                 kinds ? kinds : "none");
    free(kinds);
    return -EINVAL;
}

/* The first node with memory that takes part (--nodes). */
static int policy_first_mem(const struct hb_suite_env *env)
{
    const struct hb_topo *t = env->topo;
    for (int i = 0; i < t->nnodes; i++)
        if (t->nodes[i].has_memory && hb_suite_kit_node_on(env, i)) return t->nodes[i].os_index;
    return -1;
}

/* Rate mode binds every CPU node's task to one node (one-node) or to a few (remote): without
 * --size each task gets the share that lets them fit there together. *busiest: the node most
 * tasks bind to (-1 when none shares), *count: how many. */
static uint64_t policy_rate_bytes(const struct hb_suite_env *env, const char *policy,
                                  uint64_t bytes, int *busiest, int *count)
{
    const struct hb_topo *t = env->topo;
    bool one_node = strcmp(policy, "one-node") == 0;
    *busiest = -1;
    *count = 0;
    if (env->opts->size || (!one_node && strcmp(policy, "remote") != 0)) return bytes;
    int *binds = calloc((size_t)t->nnodes, sizeof(int));
    if (!binds) return bytes; /* the sum check after planning says what does not fit */
    for (int i = 0; i < t->nnodes; i++) {
        if (!t->nodes[i].has_cpus || !hb_suite_kit_node_on(env, i)) continue;
        int target = one_node ? policy_first_mem(env)
                              : policy_farthest(env, env->opts->tier, t->nodes[i].os_index);
        int ti = hb_topo_nodes_index(t, target);
        if (ti >= 0) binds[ti]++;
    }
    for (int i = 0; i < t->nnodes; i++) {
        if (binds[i] < 2) continue;
        uint64_t share =
            t->nodes[i].mem_free_bytes / (uint64_t)binds[i] & ~(uint64_t)((1 << 20) - 1);
        if (share < bytes) {
            bytes = share;
            *busiest = t->nodes[i].os_index;
            *count = binds[i];
        }
    }
    free(binds);
    return bytes;
}

/* One task of the experiment under the named policy. */
static int policy_task(const struct hb_suite_env *env, struct hb_task *task, int cpu, int threads,
                       const char *kernel, const char *policy, uint64_t bytes)
{
    int rc;
    if (strcmp(policy, "interleave") == 0)
        rc = hb_suite_kit_task(env, task, cpu, 0, threads, kernel, HB_POLICY_INTERLEAVE, -1, bytes);
    else if (strcmp(policy, "remote") == 0)
        rc = hb_suite_kit_task(env, task, cpu, 0, threads, kernel, HB_POLICY_BIND,
                               policy_farthest(env, env->opts->tier, cpu), bytes);
    else if (strcmp(policy, "one-node") == 0)
        rc = hb_suite_kit_task(env, task, cpu, 0, threads, kernel, HB_POLICY_BIND,
                               policy_first_mem(env), bytes);
    else
        rc = hb_suite_kit_task(env, task, cpu, 0, threads, kernel, HB_POLICY_FIRSTTOUCH, -1, bytes);
    /* "os": the kernel may place pages on any node with memory, whatever its OS index. */
    if (rc == 0 && strcmp(policy, "os") == 0) {
        task->touch_master = 1;
        if (!(task->mem_nodes = hb_suite_kit_mem_nodes(env))) rc = -ENOMEM;
    }
    return rc;
}

static int policy_add(const struct hb_suite_env *env, struct hb_plan *out, const char *mode,
                      const char *kernel, double param, const char *policy, int single_cpu)
{
    const struct hb_options *o = env->opts;
    const struct hb_topo *t = env->topo;
    struct hb_kernel_ref k;
    int rc = env->lookup(kernel, &k);
    if (rc) return rc;
    uint64_t bytes = o->size ? o->size : env->default_bytes;
    int busiest, count;
    if (single_cpu < 0) bytes = policy_rate_bytes(env, policy, bytes, &busiest, &count);
    struct hb_experiment e;
    char name[HB_NAME_LEN], wl[40];
    if (param > 0.0)
        snprintf(wl, sizeof(wl), "%s@%g", kernel, param);
    else
        snprintf(wl, sizeof(wl), "%s", kernel);
    snprintf(name, sizeof(name), "policy-%s-%s-%s", mode, wl, policy);
    hb_suite_kit_experiment(env, &e, "policy", name, k.latency ? "latency" : "bandwidth");
    rc = hb_plan_param_str(&e, "workload", kernel);
    if (rc == 0) rc = hb_plan_param_str(&e, "policy", policy);
    if (rc == 0) rc = hb_plan_param_str(&e, "mode", mode);
    if (rc == 0 && param > 0.0) rc = hb_plan_param_num(&e, "intensity", param);
    /* Which kind of memory "remote" is: the CPU node's own unless --tier chose. */
    if (rc == 0 && strcmp(policy, "remote") == 0) {
        int first = single_cpu >= 0 ? single_cpu : -1;
        for (int i = 0; first < 0 && i < t->nnodes; i++)
            if (t->nodes[i].has_cpus) first = t->nodes[i].os_index;
        int far = hb_topo_nodes_index(t, policy_farthest(env, o->tier, first));
        rc = hb_plan_param_str(&e, "remote_kind", hb_topo_mem_kind(t, far));
        if (rc == 0)
            rc = hb_plan_param_str(&e, "remote_rule",
                                   o->tier[0] ? "--tier" : "same kind and tier as the CPU node");
    }
    if (rc) return rc;
    for (int i = 0; i < t->nnodes; i++) {
        int cpu = t->nodes[i].os_index;
        if (!t->nodes[i].has_cpus || !hb_suite_kit_node_on(env, i) ||
            (single_cpu >= 0 && cpu != single_cpu))
            continue;
        /* Latency wants one dependent stream; everything else every core of the node. */
        int threads = k.latency ? 1 : o->threads ? o->threads : t->nodes[i].ncores;
        struct hb_task *task = hb_plan_experiment_task(&e);
        rc = task ? policy_task(env, task, cpu, threads, kernel, policy, bytes) : -ENOMEM;
        if (rc) break;
        task->param = param;
    }
    if (rc) {
        hb_plan_experiment_clear(&e);
        return rc;
    }
    return hb_plan_add(out, &e);
}

static int suite_policy_plan(const struct hb_suite_env *env, struct hb_plan *out)
{
    const struct hb_options *o = env->opts;
    const struct hb_topo *t = env->topo;
    int single_cpu = o->cpu_node;
    if (single_cpu < 0)
        for (int i = 0; i < t->nnodes && single_cpu < 0; i++)
            if (t->nodes[i].has_cpus && hb_suite_kit_node_on(env, i))
                single_cpu = t->nodes[i].os_index;
    int rc = hb_suite_kit_check_cpu_node(t, single_cpu, "--cpu-node");
    if (rc || (rc = policy_check_tier(t, o->tier))) return rc;
    if (o->weights_auto) return hb_policy_weights_plan(env, out, single_cpu);
    if (o->nmem_nodes) {
        hb_error_set("policy takes --mem-node only with --weights auto (the pair to weigh)");
        return -EINVAL;
    }
    /* One node with memory: every placement would put the pages there, so only local runs
     * (each workload's speed), and the plan says why before anything runs. */
    int nmem = 0, mem = policy_first_mem(env);
    for (int i = 0; i < t->nnodes; i++)
        nmem += t->nodes[i].has_memory && hb_suite_kit_node_on(env, i);
    bool local_only = nmem < 2;
    if (local_only)
        hb_suite_kit_say(env,
                         "policy: one node with memory%s: only the local placement runs (each "
                         "workload's speed on node %d); interleave, remote, one-node and os would "
                         "put every page on node %d too, so the gains over them need two or more "
                         "nodes with memory",
                         o->nodes ? " among --nodes" : "", mem, mem);
    /* Said once: rate mode's shared targets take a smaller share per task. */
    for (int p = 0; study_placements[p] && o->mode != 1 && !(local_only && p > 0); p++) {
        int busiest, count;
        uint64_t share =
            policy_rate_bytes(env, study_placements[p], env->default_bytes, &busiest, &count);
        char a[32], b[32];
        if (busiest >= 0)
            hb_suite_kit_say(
                env,
                "policy: rate mode binds %d tasks to node %d under %s: %s each, not %s, "
                "so they fit together (--size sets it)",
                count, busiest, study_placements[p], hb_bytes_format(share, a, sizeof(a)),
                hb_bytes_format(env->default_bytes, b, sizeof(b)));
    }
    char list[sizeof(o->kernels)];
    snprintf(list, sizeof(list), "%s", o->kernels[0] ? o->kernels : HB_POLICY_WORKLOADS);
    if (o->intensity && o->kernels[0] && strcmp(o->kernels, "intensity") != 0) {
        hb_error_set("--intensity runs the intensity kernel only, not --kernel %s; drop --kernel",
                     o->kernels);
        return -EINVAL;
    }
    for (int m = 0; hb_options_mode_names[m]; m++) {
        if (o->mode >= 0 && o->mode != m) continue;
        int cpu = strcmp(hb_options_mode_names[m], "single") == 0 ? single_cpu : -1;
        if (o->intensity) {
            for (double x = HB_INTENSITY_LO; x <= HB_INTENSITY_HI; x *= 2.0)
                for (int p = 0; intensity_policies[p] && !(local_only && p > 0); p++)
                    if ((rc = policy_add(env, out, hb_options_mode_names[m], "intensity", x,
                                         intensity_policies[p], cpu)))
                        return rc;
            continue;
        }
        char work[sizeof(list)], *save = NULL;
        snprintf(work, sizeof(work), "%s", list);
        for (char *k = strtok_r(work, ",", &save); k; k = strtok_r(NULL, ",", &save))
            for (int p = 0; study_placements[p] && !(local_only && p > 0); p++)
                if ((rc = policy_add(env, out, hb_options_mode_names[m], k,
                                     strcmp(k, "intensity") == 0 ? 1.0 : 0.0, study_placements[p],
                                     cpu)))
                    return rc;
    }
    return 0;
}

/* The options of its own it takes, besides the run options (hb_opt_doc.h). */
static const int policy_takes[] = {
    OPT_KERNEL, OPT_CPU_NODE,  OPT_THREADS,  OPT_SIZE,    OPT_PAGES,
    OPT_STRIDE, OPT_TLB_GROUP, OPT_NODES,    OPT_MODE,    OPT_INTENSITY,
    OPT_TIER,   OPT_THRESHOLD, OPT_MEM_NODE, OPT_WEIGHTS, 0};

/* The columns its annotate and derive read beyond those always kept (hb_suite_keep.c). */
static const char *const policy_reads[] = {"pages_share_pct", "repeat_values", NULL};

const struct hb_suite hb_suite_policy = {
    .takes = policy_takes,
    .kernels = HB_POLICY_WORKLOADS,
    .name = "policy",
    .help = "workloads x placement policies (local, interleave, remote, one-node, os) in rate and "
            "single mode, and the NUMA gain table (one node with memory: local placement only, "
            "no gain); --weights auto: the weighted-interleave weights that give the most "
            "bandwidth over a pair of memory nodes",
    .plan = suite_policy_plan,
    .derive = hb_policy_derive,
    .reads = policy_reads,
    .tiers = "policy",
};
