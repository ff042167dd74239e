/* The balance suite: how fast the kernel's automatic NUMA balancing brings misplaced pages
 * to the threads that use them, sampled as a series in this process (omp/hb_balance.h). */
#include "hb_suite_kit.h"
#include "hb_opt_doc.h"

#include "hb_error.h"
#include "hb_strf.h"
#include "hb_jsonl_read.h"
#include "hb_launcher.h"
#include "hb_vmstat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The bandwidth kernel the threads run: it reads every page, so every page takes NUMA
 * hinting faults from the threads' node. */
#define HB_BALANCE_KERNEL "read"
/* The sampling interval: a quarter of a second, or max-time / 400 when that is longer, so a
 * series holds at most 400 points. */
#define HB_BALANCE_INTERVAL_S 0.25
#define HB_BALANCE_MAX_POINTS 400

/* Balancing has to be on to be watched; hopbench never turns it on itself. Only this
 * machine's setting counts (a dry run for another topology plans without it). */
static int balance_check_on(const struct hb_topo *t)
{
    int mode = 0;
    if (!t->is_this_system) return 0;
    int rc = hb_vmstat_numa_balancing_mode(&mode);
    if (rc) return rc == -ENOENT ? -HB_EENV : rc;
    if (mode) return 0;
    hb_error_set("balance watches automatic NUMA balancing, which is off (numa_balancing is 0 in "
                 "/proc/sys/kernel/numa_balancing); hopbench never changes it: turn it on with "
                 "'sysctl kernel.numa_balancing=1' (2 for memory tiering) and run again");
    return -EINVAL;
}

/* The CPU node (--cpu-node, default the first with CPUs) and the node the pages start on
 * (--mem-node, default the first other node with memory), checked. */
static int balance_nodes(const struct hb_suite_env *env, int *cpu, int *mem)
{
    const struct hb_topo *t = env->topo;
    const struct hb_options *o = env->opts;
    *cpu = o->cpu_node;
    for (int i = 0; i < t->nnodes && *cpu < 0; i++)
        if (t->nodes[i].has_cpus) *cpu = t->nodes[i].os_index;
    if (o->mem_node >= 0 && o->mem_node == *cpu) {
        hb_error_set("balance needs --mem-node other than --cpu-node (both are %d): the pages "
                     "must start away from the threads for NUMA balancing to move them",
                     *cpu);
        return -EINVAL;
    }
    int rc = hb_suite_kit_check_cpu_node(t, *cpu, "--cpu-node");
    if (rc == 0) rc = hb_suite_kit_check_mem_node(t, *cpu, "--cpu-node");
    *mem = o->mem_node;
    for (int i = 0; i < t->nnodes && *mem < 0; i++)
        if (t->nodes[i].has_memory && t->nodes[i].os_index != *cpu) *mem = t->nodes[i].os_index;
    if (rc == 0) rc = hb_suite_kit_check_mem_node(t, *mem, "--mem-node");
    return rc;
}

static int balance_plan(const struct hb_suite_env *env, struct hb_plan *out)
{
    const struct hb_options *o = env->opts;
    int cpu = -1, mem = -1, rc = hb_launcher_refuse_ranks("balance", false);
    if (rc == 0) rc = balance_nodes(env, &cpu, &mem);
    if (rc == 0 && o->pages == HB_PAGES_HUGE) {
        hb_error_set("balance: --pages huge: NUMA balancing never moves hugetlbfs pages; use 4k "
                     "or thp");
        rc = -EINVAL;
    }
    if (rc == 0 && o->threads) rc = hb_suite_kit_check_threads(env, cpu, o->threads);
    if (rc == 0) rc = balance_check_on(env->topo);
    if (rc) return rc;
    const struct hb_node *n = &env->topo->nodes[hb_topo_nodes_index(env->topo, cpu)];
    uint64_t bytes = o->size ? o->size : env->default_bytes;
    double every = o->max_time_s / HB_BALANCE_MAX_POINTS;
    every = every > HB_BALANCE_INTERVAL_S ? every : HB_BALANCE_INTERVAL_S;
    char name[HB_NAME_LEN];
    snprintf(name, sizeof(name), "balance-%d-%d", cpu, mem);
    struct hb_experiment e;
    rc = hb_suite_kit_single(env, &e, "balance", name, HB_BALANCE_KERNEL, cpu,
                             o->threads ? o->threads : n->ncores, HB_POLICY_BIND, mem, bytes, 0);
    if (rc) return rc;
    /* One sample as long as the longest wait: what the plan's estimate then reads. */
    e.reps = 1;
    e.min_time_s = o->max_time_s;
    rc = hb_plan_param_num(&e, "max_time_s", o->max_time_s);
    if (rc == 0) rc = hb_plan_param_num(&e, "interval_s", every);
    if (rc) {
        hb_plan_experiment_clear(&e);
        return rc;
    }
    return hb_plan_add(out, &e);
}

/* A note per record for people (the table shows notes, not series): when the pages came
 * local, or how far they got. */
static int balance_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived)
{
    (void)env;
    size_t i;
    json_t *rec;
    json_array_foreach(measured, i, rec)
    {
        const json_t *t90 = json_object_get(rec, "time_to_90pct_s");
        json_t *moved =
            json_object_get(json_object_get(rec, "vmstat_moved"), "numa_pages_migrated");
        char *text = NULL;
        if (json_is_number(t90))
            text = hb_strf("%s: 90%% of the pages on node %lld after %.2f s (%zu samples; "
                           "numa_pages_migrated %lld)",
                           hb_jsonl_read_str(rec, "experiment", ""),
                           (long long)hb_jsonl_read_num(rec, "cpu_node", -1),
                           json_number_value(t90), json_array_size(json_object_get(rec, "series")),
                           (long long)json_integer_value(moved));
        else if (json_is_string(json_object_get(rec, "time_to_90pct_why")))
            text = hb_strf("%s: %s", hb_jsonl_read_str(rec, "experiment", ""),
                           hb_jsonl_read_str(rec, "time_to_90pct_why", ""));
        json_t *note =
            text ? json_pack("{s:s, s:s, s:s}", "type", "note", "suite", "balance", "text", text)
                 : NULL;
        free(text);
        if (note) json_array_append_new(derived, note);
    }
    return 0;
}

/* The options of its own it takes, besides the run options (hb_opt_doc.h). */
static const int balance_takes[] = {
    OPT_CPU_NODE, OPT_MEM_NODE, OPT_THREADS, OPT_SIZE, OPT_PAGES, OPT_MAX_TIME, 0};

/* A sample lasts the sampling interval and the run --max-time: --reps and --min-time would do
 * nothing. */
static const int balance_drops[] = {OPT_REPS, OPT_MIN_TIME, 0};

const struct hb_suite hb_suite_balance = {
    .takes = balance_takes,
    .drops = balance_drops,
    .name = "balance",
    .help = "one process: how fast automatic NUMA balancing brings pages first touched on "
            "--mem-node to threads on --cpu-node, as a series of the local share and the "
            "bandwidth",
    .plan = balance_plan,
    .derive = balance_derive,
    .flags = HB_SUITE_ONE_PROCESS,
    .needs_mem_nodes = 2,
    .needs_why = "starts the pages on one and runs the threads on another",
};
