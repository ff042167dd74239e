/* What suites share: the checks and task builders of hb_suite_kit.h. */
#include "hb_suite_kit.h"

#include "hb_error.h"
#include "hb_nodeset.h"
#include "hb_bytes.h"
#include "hb_topo_mem.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hb_suite_kit_check_cpu_node(const struct hb_topo *t, int os_index, const char *opt)
{
    int i = hb_topo_nodes_index(t, os_index);
    if (i >= 0 && t->nodes[i].has_cpus) return 0;
    char *valid = hb_topo_nodes_list(t, true, false);
    if (i < 0) {
        hb_error_set("%s %d: no such NUMA node; nodes with CPUs: %s", opt, os_index,
                     hb_text_or_oom(valid));
    } else {
        static const char *const why[] = {
            [HB_CPUS_NONE] = "has no CPUs (memory-only)",
            [HB_CPUS_NOT_ALLOWED] = "has CPUs, none allowed to this process",
            [HB_CPUS_SHARED] = "has no CPUs of its own (hwloc gives it another node's)"};
        enum hb_cpus_state s = t->nodes[i].cpus_state;
        hb_error_set("%s %d: node %d %s; nodes with CPUs: %s", opt, os_index, os_index,
                     s > HB_CPUS_OWN && s <= HB_CPUS_SHARED ? why[s] : why[HB_CPUS_NONE],
                     hb_text_or_oom(valid));
    }
    free(valid);
    return -EINVAL;
}

int hb_suite_kit_check_mem_node(const struct hb_topo *t, int os_index, const char *opt)
{
    int i = hb_topo_nodes_index(t, os_index);
    if (i >= 0 && t->nodes[i].has_memory) return 0;
    char *valid = hb_topo_nodes_list(t, false, true);
    if (i < 0)
        hb_error_set("%s %d: no such NUMA node; nodes with memory: %s", opt, os_index,
                     hb_text_or_oom(valid));
    else
        hb_error_set("%s %d: node %d has no memory; nodes with memory: %s", opt, os_index, os_index,
                     hb_text_or_oom(valid));
    free(valid);
    return -EINVAL;
}

int hb_suite_kit_check_threads(const struct hb_suite_env *env, int cpu_node, int threads)
{
    const struct hb_topo *t = env->topo;
    const struct hb_options *o = env->opts;
    const struct hb_node *n = &t->nodes[hb_topo_nodes_index(t, cpu_node)];
    if (threads <= n->ncpus) return 0;
    /* Past the node's CPUs only when the user's count is (a suite's own layout fits). */
    hb_error_set("%s%d is more than node %d has CPUs (%d); use 1-%d",
                 o->threads_from ? o->threads_from : "--threads ",
                 o->threads ? o->threads : threads, cpu_node, n->ncpus, n->ncpus);
    return -EINVAL;
}

int hb_suite_kit_check_fits(const struct hb_suite_env *env, int mem_node, uint64_t bytes,
                            int ntasks)
{
    return hb_suite_kit_check_fits_from(env, mem_node, bytes, ntasks, NULL);
}

int hb_suite_kit_check_fits_from(const struct hb_suite_env *env, int mem_node, uint64_t bytes,
                                 int ntasks, const char *size_from)
{
    const struct hb_topo *t = env->topo;
    const struct hb_node *n = &t->nodes[hb_topo_nodes_index(t, mem_node)];
    if (bytes <= n->mem_free_bytes) return 0;
    char all[32], fr[32], per[32];
    hb_bytes_format(bytes, all, sizeof(all));
    hb_bytes_format(n->mem_free_bytes, fr, sizeof(fr));
    char tasks[64] = "";
    if (ntasks > 1) snprintf(tasks, sizeof(tasks), " (%d tasks together)", ntasks);
    /* 4 significant digits can print both alike: then the bytes say which is more. */
    if (strcmp(all, fr) == 0) {
        snprintf(all, sizeof(all), "%llu bytes", (unsigned long long)bytes);
        snprintf(fr, sizeof(fr), "%llu bytes", (unsigned long long)n->mem_free_bytes);
    }
    /* Say which size it is: a --size nobody gave is not to blame. */
    if (size_from)
        hb_error_set("%s does not fit node %d: the plan puts %s there%s, %s free; choose a smaller "
                     "size",
                     size_from, mem_node, all, tasks, fr);
    else if (env->opts->size)
        hb_error_set("--size %s does not fit node %d: the plan puts %s there%s, %s free; choose a "
                     "smaller --size",
                     hb_bytes_format(env->opts->size, per, sizeof(per)), mem_node, all, tasks, fr);
    else
        hb_error_set("the default working set of %s does not fit node %d: the plan puts %s "
                     "there%s, %s free; give a smaller --size",
                     hb_bytes_format(env->default_bytes, per, sizeof(per)), mem_node, all, tasks,
                     fr);
    return -ENOMEM;
}

void hb_suite_kit_say(const struct hb_suite_env *env, const char *fmt, ...)
{
    if (!env->note) return;
    if (ftell(env->note) > 0) fputs("; ", env->note);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(env->note, fmt, ap);
    va_end(ap);
}

bool hb_suite_kit_node_on(const struct hb_suite_env *env, int i)
{
    return !env->opts->nodes ||
           hwloc_bitmap_isset(env->opts->nodes, (unsigned)env->topo->nodes[i].os_index);
}

int hb_suite_kit_count_cpu_nodes(const struct hb_suite_env *env)
{
    int n = 0;
    for (int i = 0; i < env->topo->nnodes; i++)
        n += env->topo->nodes[i].has_cpus && hb_suite_kit_node_on(env, i);
    return n;
}

hwloc_bitmap_t hb_suite_kit_mem_nodes(const struct hb_suite_env *env)
{
    hwloc_bitmap_t set = hb_topo_nodeset(env->topo, false, true);
    if (set && env->opts->nodes) hwloc_bitmap_and(set, set, env->opts->nodes);
    if (!set) hb_error_set("out of memory for a set of %d nodes", env->topo->nnodes);
    return set;
}

/* --mem-node's nodes as a set (bw --policy weighted). */
static hwloc_bitmap_t suite_weighted_nodes(const struct hb_suite_env *env)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    for (int k = 0; set && k < env->opts->nmem_nodes; k++)
        hwloc_bitmap_set(set, (unsigned)env->opts->mem_nodes[k]);
    if (!set) hb_error_set("out of memory for a set of %d nodes", env->opts->nmem_nodes);
    return set;
}

void hb_suite_kit_experiment(const struct hb_suite_env *env, struct hb_experiment *e,
                             const char *suite, const char *name, const char *metric)
{
    memset(e, 0, sizeof(*e));
    snprintf(e->suite, sizeof(e->suite), "%s", suite);
    snprintf(e->name, sizeof(e->name), "%s", name);
    snprintf(e->metric, sizeof(e->metric), "%s", metric);
    e->reps = env->opts->reps;
    e->min_time_s = env->opts->min_time_s;
    e->seed = env->opts->seed;
}

int hb_suite_kit_task(const struct hb_suite_env *env, struct hb_task *task, int cpu_node,
                      int first_thread, int threads, const char *kernel, enum hb_policy policy,
                      int mem_node, uint64_t bytes)
{
    return hb_suite_kit_task_from(env, task, cpu_node, first_thread, threads, kernel, policy,
                                  mem_node, bytes, NULL, false);
}

int hb_suite_kit_task_from(const struct hb_suite_env *env, struct hb_task *task, int cpu_node,
                           int first_thread, int threads, const char *kernel, enum hb_policy policy,
                           int mem_node, uint64_t bytes, const char *size_from, bool per_thread)
{
    const struct hb_topo *t = env->topo;
    struct hb_kernel_ref k;
    int rc = env->lookup(kernel, &k);
    if (rc) return rc;
    memset(task, 0, sizeof(*task));
    if (size_from) {
        snprintf(task->size_from, sizeof(task->size_from), "%s", size_from);
        task->size_per_thread = per_thread;
    }
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
    if (policy == HB_POLICY_INTERLEAVE && !(task->mem_nodes = hb_suite_kit_mem_nodes(env)))
        return -ENOMEM;
    /* Weighted interleave spreads over --mem-node's nodes (their weights are the kernel's). */
    if (policy == HB_POLICY_WEIGHTED && !(task->mem_nodes = suite_weighted_nodes(env)))
        return -ENOMEM;
    if ((rc = hb_suite_kit_check_threads(env, cpu_node, first_thread + threads))) return rc;
    if (policy == HB_POLICY_BIND &&
        (rc = hb_suite_kit_check_fits_from(env, mem_node, bytes, 1, size_from)))
        return rc;
    if (policy == HB_POLICY_FIRSTTOUCH &&
        (rc = hb_suite_kit_check_fits_from(env, cpu_node, bytes, 1, size_from)))
        return rc;
    if (task->pages == HB_PAGES_HUGE) {
        int *nodes = NULL;
        int n = hb_plan_task_mem_nodes(task, &nodes);
        rc = n < 0 ? n : hb_placement_buf_check_huge(t, bytes, policy, nodes, n);
        free(nodes);
        if (rc) return rc;
    }
    hb_plan_task_describe(t, task, k.access);
    if (k.latency) {
        task->chase_group_bytes = env->opts->tlb_group;
        task->chase_chains = env->opts->chains[0];
        return hb_suite_kit_chase_stride(task, env->opts->strides[0]);
    }
    return 0;
}

int hb_suite_kit_single(const struct hb_suite_env *env, struct hb_experiment *e, const char *suite,
                        const char *name, const char *kernel, int cpu, int threads,
                        enum hb_policy policy, int mem, uint64_t bytes, uint64_t stride)
{
    struct hb_kernel_ref k;
    int rc = env->lookup(kernel, &k);
    if (rc) return rc;
    hb_suite_kit_experiment(env, e, suite, name, k.latency ? "latency" : "bandwidth");
    struct hb_task *task = hb_plan_experiment_task(e);
    rc = task ? hb_suite_kit_task(env, task, cpu, 0, threads, kernel, policy, mem, bytes) : -ENOMEM;
    if (rc == 0 && k.latency && stride) rc = hb_suite_kit_chase_stride(task, stride);
    if (rc) hb_plan_experiment_clear(e);
    return rc;
}

int hb_suite_kit_chase_stride(struct hb_task *task, uint64_t stride)
{
    task->chase_stride = stride;
    int rc = hb_chase_check_group(task->chase_group_bytes, stride);
    if (rc) return rc;
    uint64_t per = task->bytes / (uint64_t)task->threads;
    if (!task->size_from[0] || per >= stride)
        return hb_chase_check_fits(stride, per, task->threads);
    /* Not --size's fault: name the size that is too small, in its own terms. */
    char s[32], b[32], need[32];
    hb_error_set("%s is smaller than one --stride (%s) per thread: each thread gets %s; choose a "
                 "smaller --stride or a size of at least %s%s",
                 task->size_from, hb_bytes_format(stride, s, sizeof(s)),
                 hb_bytes_format(per, b, sizeof(b)),
                 hb_bytes_format(task->size_per_thread ? stride : stride * (uint64_t)task->threads,
                                 need, sizeof(need)),
                 task->size_per_thread ? " per thread" : "");
    return -EINVAL;
}

void hb_suite_kit_tiers_note(const struct hb_suite_env *env, const char *suite, json_t *derived)
{
    json_t *tiers = hb_topo_mem_tiers(env->topo);
    bool memonly = false;
    for (int i = 0; i < env->topo->nnodes; i++)
        memonly = memonly || (env->topo->nodes[i].has_memory && !env->topo->nodes[i].has_cpus);
    if (memonly || json_array_size(tiers) > 1)
        json_array_append_new(
            derived, json_pack("{s:s, s:s, s:o}", "type", "tiers", "suite", suite, "tiers", tiers));
    else
        json_decref(tiers);
}
