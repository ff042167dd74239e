#include "hb_suite.h"

#include "hb_c2c.h"
#include "hb_error.h"
#include "hb_nodeset.h"
#include "hb_size.h"
#include "hb_topo_mem.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hb_suite_check_cpu_node(const struct hb_topo *t, int os_index, const char *opt)
{
    int i = hb_topo_node_index(t, os_index);
    if (i >= 0 && t->nodes[i].has_cpus) return 0;
    char *valid = hb_topo_node_list(t, true, false);
    if (i < 0) {
        hb_err_set("%s %d: no such NUMA node; nodes with CPUs: %s", opt, os_index,
                   hb_text_or_oom(valid));
    } else {
        static const char *const why[] = {
            [HB_CPUS_NONE] = "has no CPUs (memory-only)",
            [HB_CPUS_NOT_ALLOWED] = "has CPUs, none allowed to this process",
            [HB_CPUS_SHARED] = "has no CPUs of its own (hwloc gives it another node's)"};
        enum hb_cpus_state s = t->nodes[i].cpus_state;
        hb_err_set("%s %d: node %d %s; nodes with CPUs: %s", opt, os_index, os_index,
                   s > HB_CPUS_OWN && s <= HB_CPUS_SHARED ? why[s] : why[HB_CPUS_NONE],
                   hb_text_or_oom(valid));
    }
    free(valid);
    return -EINVAL;
}

int hb_suite_check_mem_node(const struct hb_topo *t, int os_index, const char *opt)
{
    int i = hb_topo_node_index(t, os_index);
    if (i >= 0 && t->nodes[i].has_memory) return 0;
    char *valid = hb_topo_node_list(t, false, true);
    if (i < 0)
        hb_err_set("%s %d: no such NUMA node; nodes with memory: %s", opt, os_index,
                   hb_text_or_oom(valid));
    else
        hb_err_set("%s %d: node %d has no memory; nodes with memory: %s", opt, os_index, os_index,
                   hb_text_or_oom(valid));
    free(valid);
    return -EINVAL;
}

int hb_suite_check_threads(const struct hb_topo *t, int cpu_node, int threads)
{
    const struct hb_node *n = &t->nodes[hb_topo_node_index(t, cpu_node)];
    if (threads > n->ncpus) {
        hb_err_set("--threads %d is more than node %d has CPUs (%d); use 1-%d", threads, cpu_node,
                   n->ncpus, n->ncpus);
        return -EINVAL;
    }
    return 0;
}

int hb_suite_check_fits(const struct hb_suite_env *env, int mem_node, uint64_t bytes, int ntasks)
{
    const struct hb_topo *t = env->topo;
    const struct hb_node *n = &t->nodes[hb_topo_node_index(t, mem_node)];
    if (bytes <= n->mem_free_bytes) return 0;
    char all[32], fr[32], per[32];
    hb_size_format(bytes, all, sizeof(all));
    hb_size_format(n->mem_free_bytes, fr, sizeof(fr));
    char tasks[64] = "";
    if (ntasks > 1) snprintf(tasks, sizeof(tasks), " (%d tasks together)", ntasks);
    /* Say which size it is: a --size nobody gave is not to blame. */
    if (env->opts->size)
        hb_err_set("--size %s does not fit node %d: the plan puts %s there%s, %s free; choose a "
                   "smaller --size",
                   hb_size_format(env->opts->size, per, sizeof(per)), mem_node, all, tasks, fr);
    else
        hb_err_set("the default working set of %s does not fit node %d: the plan puts %s "
                   "there%s, %s free; give a smaller --size",
                   hb_size_format(env->default_bytes, per, sizeof(per)), mem_node, all, tasks, fr);
    return -ENOMEM;
}

/* Every experiment's strict binds (and first-touch sets on their own node) must fit each
 * node together, not just task by task. */
static int hb_suite_check_totals(const struct hb_suite_env *env, const struct hb_plan *plan)
{
    const struct hb_topo *t = env->topo;
    for (int x = 0; x < plan->n; x++) {
        const struct hb_experiment *e = &plan->exps[x];
        for (int i = 0; i < t->nnodes; i++) {
            int os = t->nodes[i].os_index, n = 0;
            uint64_t sum = 0;
            for (int k = 0; k < e->ntasks; k++) {
                const struct hb_task *task = &e->tasks[k];
                if ((task->policy == HB_POLICY_BIND && task->mem_node == os) ||
                    (task->policy == HB_POLICY_FIRSTTOUCH && task->cpu_node == os)) {
                    sum += task->bytes;
                    n++;
                }
            }
            int rc = n > 1 ? hb_suite_check_fits(env, os, sum, n) : 0;
            if (rc) {
                /* Name the experiment: one-node or loaded piles many tasks on one node. */
                char *why = strdup(hb_err_msg());
                hb_err_set("%s: %s", e->name, why ? why : "does not fit");
                free(why);
                return rc;
            }
        }
    }
    return 0;
}

/* The suites that plan across nodes, so --nodes means something to them. */
static const char *const hb_suite_cross_node[] = {"matrix", "hops",  "loaded", "policy",
                                                  "peak",   "sweep", "c2c",    NULL};

int hb_suite_nodes(const struct hb_topo *t, const struct hb_options *o, hwloc_bitmap_t *out)
{
    *out = NULL;
    if (!o->nodes[0]) return 0;
    bool cross = false;
    for (int i = 0; hb_suite_cross_node[i] && !cross; i++)
        cross = strcmp(o->command, hb_suite_cross_node[i]) == 0;
    if (!cross) {
        hb_err_set("--nodes %s: %s measures the nodes of --cpu-node and --mem-node; --nodes "
                   "chooses nodes for matrix, hops, loaded, policy, peak, sweep and c2c",
                   o->nodes, o->command[0] ? o->command : "the default suite");
        return -EINVAL;
    }
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set) {
        hb_err_set("out of memory reading --nodes %s", o->nodes);
        return -ENOMEM;
    }
    int rc = hb_nodeset_parse("--nodes", o->nodes, set);
    int node, bad = -1;
    if (rc == 0) {
        hwloc_bitmap_foreach_begin(node, set) if (bad < 0 && hb_topo_node_index(t, node) < 0) bad =
            node;
        hwloc_bitmap_foreach_end();
    }
    if (rc == 0 && bad >= 0) {
        char *valid = hb_topo_node_list(t, false, false);
        hb_err_set("--nodes %s: node %d does not exist; valid nodes: %s", o->nodes, bad,
                   hb_text_or_oom(valid));
        free(valid);
        rc = -EINVAL;
    }
    /* Every cross-node suite runs on a CPU node against memory: both must be chosen. */
    for (int need_cpus = 1; rc == 0 && need_cpus >= 0; need_cpus--) {
        hwloc_bitmap_t have = hb_topo_nodeset(t, need_cpus, !need_cpus);
        bool none = have && !hwloc_bitmap_intersects(have, set);
        hwloc_bitmap_free(have);
        if (!none) continue;
        char *valid = hb_topo_node_list(t, need_cpus, !need_cpus);
        hb_err_set("--nodes %s: no node with %s among them; nodes with %s: %s", o->nodes,
                   need_cpus ? "CPUs" : "memory", need_cpus ? "CPUs" : "memory",
                   hb_text_or_oom(valid));
        free(valid);
        rc = -EINVAL;
    }
    if (rc) {
        hwloc_bitmap_free(set);
        return rc;
    }
    *out = set;
    return 0;
}

void hb_suite_say(const struct hb_suite_env *env, const char *fmt, ...)
{
    if (!env->note || !env->note_len) return;
    size_t used = strlen(env->note);
    if (used && used + 2 < env->note_len) {
        memcpy(env->note + used, "; ", 3);
        used += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    if (used < env->note_len) vsnprintf(env->note + used, env->note_len - used, fmt, ap);
    va_end(ap);
}

bool hb_suite_node_on(const struct hb_suite_env *env, int i)
{
    return !env->nodes || hwloc_bitmap_isset(env->nodes, (unsigned)env->topo->nodes[i].os_index);
}

int hb_suite_count_cpu_nodes(const struct hb_suite_env *env)
{
    int n = 0;
    for (int i = 0; i < env->topo->nnodes; i++)
        n += env->topo->nodes[i].has_cpus && hb_suite_node_on(env, i);
    return n;
}

hwloc_bitmap_t hb_suite_mem_nodes(const struct hb_suite_env *env)
{
    hwloc_bitmap_t set = hb_topo_nodeset(env->topo, false, true);
    if (set && env->nodes) hwloc_bitmap_and(set, set, env->nodes);
    if (!set) hb_err_set("out of memory for a set of %d nodes", env->topo->nnodes);
    return set;
}

void hb_suite_experiment(const struct hb_suite_env *env, struct hb_experiment *e, const char *suite,
                         const char *name, const char *metric)
{
    memset(e, 0, sizeof(*e));
    snprintf(e->suite, sizeof(e->suite), "%s", suite);
    snprintf(e->name, sizeof(e->name), "%s", name);
    snprintf(e->metric, sizeof(e->metric), "%s", metric);
    e->reps = env->opts->reps;
    e->min_time_s = env->opts->min_time_s;
    e->seed = env->opts->seed;
}

int hb_suite_task(const struct hb_suite_env *env, struct hb_task *task, int cpu_node,
                  int first_thread, int threads, const char *kernel, enum hb_policy policy,
                  int mem_node, uint64_t bytes)
{
    const struct hb_topo *t = env->topo;
    struct hb_kernel_ref k;
    int rc = env->lookup(kernel, &k);
    if (rc) return rc;
    memset(task, 0, sizeof(*task));
    task->role = HB_ROLE_FG;
    task->cpu_node = cpu_node;
    task->first_thread = first_thread;
    task->threads = threads;
    snprintf(task->kernel, sizeof(task->kernel), "%s", kernel);
    task->policy = policy;
    task->mem_node = policy == HB_POLICY_BIND ? mem_node : -1;
    task->pages = env->opts->pages;
    task->bytes = bytes;
    /* Interleave spreads over every node with memory taking part, whatever its OS index. */
    if (policy == HB_POLICY_INTERLEAVE && !(task->mem_nodes = hb_suite_mem_nodes(env)))
        return -ENOMEM;
    if ((rc = hb_suite_check_threads(t, cpu_node, first_thread + threads))) return rc;
    if (policy == HB_POLICY_BIND && (rc = hb_suite_check_fits(env, mem_node, bytes, 1))) return rc;
    if (policy == HB_POLICY_FIRSTTOUCH && (rc = hb_suite_check_fits(env, cpu_node, bytes, 1)))
        return rc;
    if (task->pages == HB_PAGES_HUGE) {
        int *nodes = NULL;
        int n = hb_task_mem_nodes(task, &nodes);
        rc = n < 0 ? n : hb_buf_check_huge(t, bytes, policy, nodes, n);
        free(nodes);
        if (rc) return rc;
    }
    hb_task_describe(t, task, k.access);
    if (k.latency) {
        task->chase_group_bytes = env->opts->tlb_group;
        return hb_suite_chase_stride(task, env->opts->strides[0]);
    }
    return 0;
}

int hb_suite_chase_stride(struct hb_task *task, uint64_t stride)
{
    task->chase_stride = stride;
    int rc = hb_chase_check_group(task->chase_group_bytes, stride);
    return rc ? rc
              : hb_chase_check_fits(stride, task->bytes / (uint64_t)task->threads, task->threads);
}

static int hb_suite_plan_one(const struct hb_suite_env *env, struct hb_plan *out)
{
    const char *cmd = env->opts->command;
    if (strcmp(cmd, "matrix") == 0) return hb_suite_matrix_plan(env, out);
    if (strcmp(cmd, "hops") == 0) return hb_suite_hops_plan(env, out);
    if (strcmp(cmd, "loaded") == 0) return hb_suite_loaded_plan(env, out);
    if (strcmp(cmd, "run") == 0) return hb_suite_run_plan(env, out);
    if (strcmp(cmd, "policy") == 0) return hb_suite_policy_plan(env, out);
    if (strcmp(cmd, "sweep") == 0) return hb_suite_sweep_plan(env, out);
    if (strcmp(cmd, "peak") == 0) return hb_suite_peak_plan(env, out);
    if (strcmp(cmd, "c2c") == 0) return hb_c2c_plan(env, out);
    return hb_suite_local_plan(env, out);
}

int hb_suite_plan(const struct hb_suite_env *env, struct hb_plan *out)
{
    const char *cmd = env->opts->command;
    if (env->opts->nstrides > 1 && strcmp(cmd, "lat") != 0 && strcmp(cmd, "sweep") != 0) {
        hb_err_set("--stride with %d values: a list of strides is swept by lat and sweep; give "
                   "%s one stride",
                   env->opts->nstrides, cmd[0] ? cmd : "the default suite");
        return -EINVAL;
    }
    int rc = hb_suite_plan_one(env, out);
    return rc ? rc : hb_suite_check_totals(env, out);
}

void hb_suite_tiers_note(const struct hb_suite_env *env, const char *suite, json_t *derived)
{
    json_t *tiers = hb_mem_tiers(env->topo);
    bool memonly = false;
    for (int i = 0; i < env->topo->nnodes; i++)
        memonly = memonly || (env->topo->nodes[i].has_memory && !env->topo->nodes[i].has_cpus);
    if (memonly || json_array_size(tiers) > 1)
        json_array_append_new(
            derived, json_pack("{s:s, s:s, s:o}", "type", "tiers", "suite", suite, "tiers", tiers));
    else
        json_decref(tiers);
}

int hb_suite_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived)
{
    const char *cmd = env->opts->command;
    /* The cross-node suites say how they grouped memory of other kinds or tiers. */
    if (cmd[0] == '\0' || strcmp(cmd, "matrix") == 0 || strcmp(cmd, "hops") == 0 ||
        strcmp(cmd, "policy") == 0)
        hb_suite_tiers_note(env, cmd[0] ? cmd : "matrix", derived);
    if (strcmp(cmd, "matrix") == 0 || cmd[0] == '\0')
        return hb_suite_matrix_derive(env, measured, derived);
    if (strcmp(cmd, "hops") == 0 || strcmp(cmd, "run") == 0)
        return hb_suite_hops_derive(env, measured, derived);
    if (strcmp(cmd, "loaded") == 0) return hb_suite_loaded_derive(env, measured, derived);
    if (strcmp(cmd, "policy") == 0) return hb_suite_policy_derive(env, measured, derived);
    if (strcmp(cmd, "peak") == 0) return hb_suite_peak_derive(env, measured, derived);
    if (strcmp(cmd, "c2c") == 0) return hb_c2c_derive(env, measured, derived);
    return 0;
}

void hb_suite_annotate(const struct hb_suite_env *env, const json_t *measured, json_t *rec)
{
    const char *cmd = env->opts->command;
    if (strcmp(cmd, "hops") == 0 || strcmp(cmd, "run") == 0)
        hb_suite_hops_annotate(measured, rec);
    else if (strcmp(cmd, "loaded") == 0)
        hb_suite_loaded_annotate(rec);
}

const char *hb_suite_note(const struct hb_suite_env *env)
{
    if (hb_topo_count_cpu_nodes(env->topo) > 1 || hb_topo_count_mem_nodes(env->topo) > 1)
        return NULL;
    return "this machine has one NUMA node: the cross-node studies (matrix, hops, loaded, "
           "policy) need a multi-node machine; there run: mpirun -np <nodes> --map-by numa "
           "--bind-to numa hopbench matrix (or jobs/hopbench-mpirun.sh matrix)";
}
