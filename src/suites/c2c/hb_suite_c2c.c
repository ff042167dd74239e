/* The c2c plan: which pairs of CPUs, which kernel, where the line lives. */
#include "hb_suite_c2c.h"
#include "hb_opt_doc.h"

#include "hb_error.h"
#include "hb_launcher.h"
#include "hb_timer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One thread of a pair on `cpu`: its node, its place in the node's CPU list. */
static void c2c_task(const struct hb_topo *t, struct hb_task *task, int cpu, const char *kernel,
                     int home)
{
    int ni = hb_topo_nodes_of_cpu(t, cpu);
    const struct hb_node *n = &t->nodes[ni];
    memset(task, 0, sizeof(*task));
    task->role = HB_ROLE_FG;
    task->cpu_node = n->os_index;
    for (int k = 0; k < n->ncpus; k++)
        if (n->cpus[k] == cpu) task->first_thread = k;
    task->threads = 1;
    snprintf(task->kernel, sizeof(task->kernel), "%s", kernel);
    task->policy = HB_POLICY_BIND;
    task->mem_node = home;
    task->pages = HB_PAGES_4K;
    task->bytes = HB_C2C_BYTES;
    hb_plan_task_describe(t, task, "rw");
}

/* Append the experiment of a pair: writer on a, reader on b, the line on home. Its keys:
 * home, cpus, study, and for a matrix cell axis and pair (NULL: none). */
static int c2c_add(const struct hb_suite_env *env, struct hb_plan *out, const char *name,
                   const char *kernel, int a, int b, int home, const char *study, const char *axis,
                   const int *pair)
{
    static const char *const homes[] = {"", "writer", "reader"};
    struct hb_experiment e;
    hb_suite_kit_experiment(env, &e, "c2c", name, "latency");
    /* A task pointer moves when the next is added: each is filled before the next. */
    for (int i = 0; i < 2; i++) {
        struct hb_task *task = hb_plan_experiment_task(&e);
        if (!task) {
            hb_plan_experiment_clear(&e);
            return -ENOMEM;
        }
        c2c_task(env->topo, task, i == 0 ? a : b, kernel, home);
    }
    int h = env->opts->c2c_home;
    const long long cpus[2] = {a, b}, cell[2] = {pair ? pair[0] : 0, pair ? pair[1] : 0};
    int rc = hb_plan_param_str(
        &e, "home", h == HB_C2C_HOME_WRITER || h == HB_C2C_HOME_READER ? homes[-h] : "node");
    if (rc == 0) rc = hb_plan_param_ints(&e, "cpus", cpus, 2);
    if (rc == 0) rc = hb_plan_param_str(&e, "study", study);
    if (rc == 0 && axis) rc = hb_plan_param_str(&e, "axis", axis);
    if (rc == 0 && pair) rc = hb_plan_param_ints(&e, "pair", cell, 2);
    if (rc) {
        hb_plan_experiment_clear(&e);
        return rc;
    }
    return hb_plan_add(out, &e);
}

static int c2c_plan_matrix(const struct hb_suite_env *env, struct hb_plan *out, bool cores)
{
    int *ids = NULL;
    int n = hb_c2c_pairs_ids(env, cores, &ids), rc = n < 0 ? n : 0;
    for (int r = 0; rc == 0 && r < n; r++)
        for (int k = 0; rc == 0 && k < n; k++) {
            int a, b, home;
            if (hb_c2c_pairs_cell(env->topo, env->opts->c2c_home, cores, ids, r, k, &a, &b, &home))
                continue; /* the matrix record says why */
            char name[HB_NAME_LEN];
            hb_c2c_pairs_cell_name(name, sizeof(name), cores, ids[r], ids[k]);
            const int pair[2] = {ids[r], ids[k]};
            rc = c2c_add(env, out, name, "pingpong", a, b, home, "pingpong",
                         cores ? "core" : "node", pair);
        }
    free(ids);
    return rc;
}

/* -EINVAL when this process is one of several ranks (c2c runs in one) or --home names a
 * node without memory; -HB_EENV when the machine has no pair of CPUs. */
static int c2c_plan(const struct hb_suite_env *env, struct hb_plan *out)
{
    const struct hb_topo *t = env->topo;
    const struct hb_options *o = env->opts;
    int rc = hb_launcher_refuse_ranks("c2c", false);
    if (rc == 0 && o->c2c_home >= 0) rc = hb_suite_kit_check_mem_node(t, o->c2c_home, "--home");
    if (rc == 0) rc = c2c_plan_matrix(env, out, false);
    if (rc == 0 && o->c2c_cores) rc = c2c_plan_matrix(env, out, true);
    /* False sharing on different nodes when there are several: where a shared line hurts
     * most. Locks on one node and across two. */
    static const struct {
        const char *kernel;
        int cross; /* 1 cross-node, 0 same-node, -1 cross-node when there is a second node */
    } studies[] = {{"fs_shared", -1}, {"fs_padded", -1}, {"spinlock", 0},
                   {"mutex", 0},      {"spinlock", 1},   {"mutex", 1}};
    for (size_t s = 0; rc == 0 && s < sizeof(studies) / sizeof(studies[0]); s++) {
        bool cross =
            studies[s].cross < 0 ? hb_suite_kit_count_cpu_nodes(env) > 1 : studies[s].cross;
        int a, b, home;
        if (hb_c2c_pairs_pick(env, cross, &a, &b, &home)) continue; /* a record says why */
        char name[HB_NAME_LEN];
        hb_c2c_pairs_study_name(name, sizeof(name), studies[s].kernel, cross);
        rc = c2c_add(env, out, name, studies[s].kernel, a, b, home,
                     studies[s].kernel[0] == 'f' ? "false_sharing" : "lock", NULL, NULL);
    }
    if (rc == 0 && out->n == 0) {
        int a, b, home;
        char why[256];
        hb_c2c_pairs_pick(env, false, &a, &b, &home);
        snprintf(why, sizeof(why), "%s", hb_error_msg());
        hb_error_set("c2c: no pair of CPUs to measure on this machine (%s)", why);
        return -HB_EENV;
    }
    return rc;
}

/* The options of its own it takes, besides the run options (hb_opt_doc.h). */
static const int c2c_takes[] = {OPT_NODES, OPT_CORES, OPT_HOME, 0};

/* The columns its annotate and derive read beyond those always kept (hb_suite_keep.c). */
static const char *const c2c_reads[] = {"pages_on_target_pct", "reps",       "sweeps_per_sample",
                                        "t_median_s",          "lat_ns_min", NULL};

/* One repeat of a pair (omp/hb_pair.c): a pilot of up to a fifth of --min-time, a warm-up
 * sample and --reps samples of --min-time, the two threads started for each; about. */
#define HB_C2C_EST_PAIR_S 0.04
static double c2c_estimate(const struct hb_suite_env *env, const struct hb_experiment *e,
                           int *records)
{
    (void)env;
    *records = 1; /* the pair's two threads make one record (the writer's) */
    return (e->reps + 1) * hb_timer_min_sample(e->min_time_s) + HB_C2C_EST_PAIR_S;
}

const struct hb_suite hb_suite_c2c = {
    .takes = c2c_takes,
    .name = "c2c",
    .help = "one process, two pinned threads: cache-line ping-pong latency per node pair "
            "(--cores: per core pair), false sharing, lock hand-off",
    .plan = c2c_plan,
    .derive = hb_c2c_derive,
    .reads = c2c_reads,
    .estimate = c2c_estimate,
    .flags = HB_SUITE_ONE_PROCESS | HB_SUITE_CACHES,
};
