/* `run FILE`: the experiments of a scenario file (src/suites/run/hb_run_scenario.h), checked
 * against the topology with the line and column of the offending label. */
#include "hb_suite_hops.h"
#include "hb_opt_doc.h"

#include "hb_error.h"
#include "hb_nodeset.h"
#include "hb_result.h"
#include "hb_bytes.h"
#include "hb_run_scenario.h"
#include "hb_version.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 40555 uses a 64 MB array per thread. */
#define HB_RUN_BYTES ((uint64_t)64 << 20)

/* The kernel a label's access runs when the line gives no kernel=. */
static const char *run_access_kernel(const char *access)
{
    return strcmp(access, "r") == 0 ? "read" : strcmp(access, "w") == 0 ? "write" : "copy";
}

static const char *run_access_words(const char *access)
{
    return strcmp(access, "r") == 0   ? "only reads"
           : strcmp(access, "w") == 0 ? "only writes"
                                      : "reads and writes";
}

static int run_check_nodes(const struct hb_topo *t, const char *file, const struct hb_scn_task *st)
{
    int ci = hb_topo_nodes_index(t, st->node);
    if (ci < 0 || !t->nodes[ci].has_cpus) {
        char *valid = hb_topo_nodes_list(t, true, false);
        hb_error_set("%s:%d:%d: node %d %s; nodes with CPUs: %s", file, st->line, st->col, st->node,
                     ci < 0 ? "does not exist" : "has no CPUs", hb_text_or_oom(valid));
        free(valid);
        return -EINVAL;
    }
    int mi = hb_topo_nodes_index(t, st->mem_node);
    if (mi < 0 || !t->nodes[mi].has_memory) {
        char *valid = hb_topo_nodes_list(t, false, true);
        hb_error_set("%s:%d:%d: memory node %d %s; nodes with memory: %s", file, st->line, st->col,
                     st->mem_node, mi < 0 ? "does not exist" : "has no memory",
                     hb_text_or_oom(valid));
        free(valid);
        return -EINVAL;
    }
    return 0;
}

/* First free thread of a node: after every earlier task of the experiment there. */
static int run_next_thread(const struct hb_experiment *e, int node)
{
    int used = 0;
    for (int k = 0; k < e->ntasks; k++)
        if (e->tasks[k].cpu_node == node && e->tasks[k].first_thread + e->tasks[k].threads > used)
            used = e->tasks[k].first_thread + e->tasks[k].threads;
    return used;
}

static int run_task(const struct hb_suite_env *env, const char *file, struct hb_experiment *e,
                    const struct hb_scn_task *st)
{
    const struct hb_topo *t = env->topo;
    const struct hb_options *o = env->opts;
    int rc = run_check_nodes(t, file, st);
    if (rc) return rc;
    const struct hb_node *n = &t->nodes[hb_topo_nodes_index(t, st->node)];
    int first = st->thread, threads = 1;
    if (first < 0) {
        first = run_next_thread(e, st->node);
        threads = n->ncpus - first;
    }
    if (threads < 1 || first + threads > n->ncpus) {
        hb_error_set("%s:%d:%d: thread %d of node %d: the node has %d CPUs (threads 0-%d)%s", file,
                     st->line, st->col, first, st->node, n->ncpus, n->ncpus - 1,
                     st->thread < 0 ? ", all taken by earlier lines" : "");
        return -EINVAL;
    }
    const char *kernel = st->kernel[0] ? st->kernel : run_access_kernel(st->access);
    struct hb_kernel_ref k;
    if (env->lookup(kernel, &k)) {
        hb_error_set("%s:%d:%d: unknown kernel '%s'; see hopbench --help for the kernels", file,
                     st->line, st->col, kernel);
        return -EINVAL;
    }
    /* The label's access is what the record's label says the task does: with kernel= it must
     * be the kernel's, or the record would call a read a write. */
    if (strcmp(k.access, st->access) != 0) {
        hb_error_set("%s:%d:%d: expected access %s for kernel=%s, which %s, got '%s' (without "
                     "kernel=, access %s runs %s)",
                     file, st->line, st->access_col, k.access, kernel, run_access_words(k.access),
                     st->access, st->access, run_access_kernel(st->access));
        return -EINVAL;
    }
    /* Messages about the size name where it came from: the line's size=, --size or the
     * default, each per thread. */
    uint64_t per = st->size ? st->size : o->size ? o->size : HB_RUN_BYTES;
    char size_from[sizeof(((struct hb_task *)0)->size_from)];
    int col = st->size ? st->size_col : st->col;
    if (st->size)
        snprintf(size_from, sizeof(size_from), "%s:%d:%d: size=%s", file, st->line, col,
                 st->size_text);
    else if (o->size)
        snprintf(size_from, sizeof(size_from), "%s:%d:%d: --size %llu", file, st->line, col,
                 (unsigned long long)o->size);
    else
        snprintf(size_from, sizeof(size_from), "%s:%d:%d: the default size of 64 MiB", file,
                 st->line, col);
    struct hb_task *task = hb_plan_experiment_task(e);
    if (!task) return -ENOMEM;
    uint64_t bytes = 0;
    if ((rc = hb_bytes_mul(size_from, per, (uint64_t)threads, &bytes)) ||
        (rc = hb_suite_kit_task_from(env, task, st->node, first, threads, kernel, HB_POLICY_BIND,
                                     st->mem_node, bytes, size_from, true))) {
        /* Every message names the line; those that name the size start with it already. */
        char at[300];
        snprintf(at, sizeof(at), "%s:%d:", file, st->line);
        if (strncmp(hb_error_msg(), at, strlen(at)) != 0) {
            char *msg = strdup(hb_error_msg());
            hb_error_set("%s:%d:%d: %s", file, st->line, col, msg ? msg : "out of memory");
            free(msg);
        }
        return rc;
    }
    if (st->bg) {
        task->role = HB_ROLE_BG;
        if (st->rate >= 0.0)
            task->bg_rate_GBps = st->rate;
        else
            hb_suite_bg_level_pace(st->level, o->bg_rate_GBps, task);
    }
    return 0;
}

static int suite_run_plan(const struct hb_suite_env *env, struct hb_plan *out)
{
    struct hb_scenario s;
    int rc = hb_run_scenario_load(env->opts->operand, &s);
    for (int x = 0; rc == 0 && x < s.n; x++) {
        const struct hb_scn_exp *se = &s.exps[x];
        struct hb_experiment e;
        hb_suite_kit_experiment(env, &e, "run", se->name, "bandwidth");
        const char *level = NULL;
        for (int i = 0; rc == 0 && i < se->ntasks; i++) {
            rc = run_task(env, s.file, &e, &se->tasks[i]);
            if (se->tasks[i].bg && se->tasks[i].level)
                level = hb_options_bg_level_names[se->tasks[i].level];
        }
        bool any_bg = false;
        for (int i = 0; i < e.ntasks; i++)
            any_bg |= e.tasks[i].role == HB_ROLE_BG;
        if (rc == 0) rc = hb_plan_param_str(&e, "case", "scenario");
        if (rc == 0)
            rc = hb_plan_param_str(&e, "bg_level", level ? level : any_bg ? "custom" : "idle");
        if (rc == 0)
            rc = hb_plan_add(out, &e);
        else
            hb_plan_experiment_clear(&e);
    }
    hb_run_scenario_free(&s);
    return rc;
}

/* The options of its own it takes, besides the run options (hb_opt_doc.h). */
static const int suite_run_takes[] = {OPT_SIZE,      OPT_PAGES,   OPT_STRIDE,
                                      OPT_TLB_GROUP, OPT_BG_RATE, 0};

const struct hb_suite hb_suite_run = {
    .takes = suite_run_takes,
    .name = "run",
    .args = "FILE",
    .args_need =
        "a scenario FILE: hopbench run FILE (examples in " HB_DATADIR "/hopbench/scenarios)",
    .help = "the experiments of a scenario file (examples in {datadir}/hopbench/scenarios)",
    .plan = suite_run_plan,
    .annotate = hb_hops_derive_annotate,
    .derive = hb_hops_derive,
    .reads = hb_suite_hops_reads,
    .refers = hb_hops_derive_refers,
};
