/* `comm`: what an MPI message costs between two ranks' NUMA nodes. The plan is one experiment
 * per ordered node pair, metric (latency, bandwidth, bibandwidth) and message size; the
 * executor (mpi/hb_msg.h) runs it for every pair of ranks on those nodes, one pair at a time. */
#include "hb_suite_comm.h"

#include "hb_placement.h"
#include "hb_opt_doc.h"
#include "hb_comm_bg.h"

#include "hb_error.h"
#include "hb_launcher.h"
#include "hb_bytes.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

/* osu_latency's and osu_bw's largest message by default. */
#define HB_COMM_DEFAULT_SIZE ((uint64_t)4 << 20)
#define HB_COMM_MIN_SIZE 8

/* The metrics and the name of what each end runs (the task's kernel). */
static const char *const comm_metrics[] = {"latency", "bandwidth", "bibandwidth", NULL};
static const char *const comm_kernels[] = {"pingpong", "window", "biwindow", NULL};

/* A run needs a second rank to talk to: refuse a launch of one before anything starts, its
 * dry run too (it checks what the run checks, under the same launch: rank 0 prints it);
 * another machine's topology can only be dry-run, and is planned for the ranks it will have. */
static int comm_check_ranks(const struct hb_suite_env *env)
{
    struct hb_launch l;
    bool launched = hb_launcher_launched(&l);
    if ((env->opts->dry_run && env->opts->topology[0]) || (launched && l.ranks != 1)) return 0;
    const char *args = env->opts->command_argv0_end;
    hb_error_set("comm needs two or more ranks (this launch has 1); run mpirun -np 2 "
                 "hopbench%s, or one rank per NUMA node: mpirun --map-by numa --bind-to numa "
                 "hopbench%s",
                 args ? args : " comm", args ? args : " comm");
    return -EINVAL;
}

/* --size: each message from 8 B to what an MPI count (an int) holds; the largest fits both
 * ends' buffers. */
static int comm_check_size(const struct hb_suite_env *env, uint64_t size, int mem_node)
{
    const struct hb_options *o = env->opts;
    for (int i = 0; i < o->nsizes || (i == 0 && o->nsizes == 0); i++) {
        uint64_t s = o->nsizes ? o->sizes[i] : size;
        char text[32];
        hb_bytes_format(s, text, sizeof(text));
        if (s < HB_COMM_MIN_SIZE || s > INT_MAX) {
            hb_error_set("--size %s: comm sends messages of 8 B up to --size (or the sizes of a "
                         "list); give 8 B to %d bytes (an MPI count is an int)",
                         text, INT_MAX);
            return -EINVAL;
        }
    }
    /* Each end holds a send and a receive buffer; with --mem-node both ends are there. */
    for (int i = 0; i < env->topo->nnodes; i++) {
        const struct hb_node *n = &env->topo->nodes[i];
        bool both = mem_node >= 0;
        if (!n->has_memory || (both && n->os_index != mem_node) ||
            (!both && !hb_suite_kit_node_on(env, i)))
            continue;
        if (hb_suite_kit_check_fits(env, n->os_index, (both ? 4 : 2) * size, both ? 2 : 1) != 0)
            return -EINVAL; /* a usage error: a smaller --size runs */
    }
    return 0;
}

/* The experiment of one node pair, metric and size; under --bg, idle (level 0) or loaded. */
static int comm_add(const struct hb_suite_env *env, struct hb_plan *out, int src, int dst,
                    int metric, uint64_t bytes, int level)
{
    const struct hb_topo *t = env->topo;
    int mem = env->opts->mem_node, src_os = t->nodes[src].os_index;
    int dst_os = t->nodes[dst].os_index;
    int src_mem = mem >= 0 ? mem : src_os, dst_mem = mem >= 0 ? mem : dst_os;
    struct hb_experiment e;
    char name[HB_NAME_LEN];
    snprintf(name, sizeof(name), "comm-%s-%d-%d-%llu%s%s", comm_metrics[metric], src_os, dst_os,
             (unsigned long long)bytes, level ? "-bg-" : "",
             level ? hb_options_bg_level_names[level] : "");
    hb_suite_kit_experiment(env, &e, "comm", name, comm_metrics[metric]);
    struct hb_task *task = hb_plan_experiment_task(&e);
    if (!task) return -ENOMEM;
    /* The sending end: one thread on src, its send and receive buffers bound to src_mem. */
    task->role = HB_ROLE_FG;
    task->cpu_node = src_os;
    task->threads = 1;
    snprintf(task->kernel, sizeof(task->kernel), "%s", comm_kernels[metric]);
    task->policy = HB_POLICY_BIND;
    task->mem_node = src_mem;
    task->pages = env->opts->pages;
    task->bytes = 2 * bytes;
    hb_plan_task_describe(t, task, "rw");
    int rc = hb_plan_param_int(&e, "src_node", src_os);
    if (rc == 0) rc = hb_plan_param_int(&e, "dst_node", dst_os);
    if (rc == 0) rc = hb_plan_param_int(&e, "hops", hb_topo_distances_hops(t, src, dst));
    if (rc == 0) rc = hb_plan_param_int(&e, "message_bytes", (long long)bytes);
    if (rc == 0) rc = hb_plan_param_int(&e, "src_mem_node", src_mem);
    if (rc == 0) rc = hb_plan_param_int(&e, "dst_mem_node", dst_mem);
    if (rc == 0 && env->opts->bg >= 0) rc = hb_comm_bg_add(env, &e, level);
    if (rc) {
        hb_plan_experiment_clear(&e);
        return rc;
    }
    return hb_plan_add(out, &e);
}

/* The experiment, and under --bg the same loaded right after it (drift falls on both). */
static int comm_add_both(const struct hb_suite_env *env, struct hb_plan *out, int src, int dst,
                         int metric, uint64_t bytes)
{
    int rc = comm_add(env, out, src, dst, metric, bytes, 0);
    int bg = env->opts->bg;
    return rc == 0 && bg >= 0 ? comm_add(env, out, src, dst, metric, bytes, bg + 1) : rc;
}

static int suite_comm_plan(const struct hb_suite_env *env, struct hb_plan *out)
{
    const struct hb_options *o = env->opts;
    const struct hb_topo *t = env->topo;
    uint64_t size = o->size ? o->size : HB_COMM_DEFAULT_SIZE;
    int rc = o->mem_node >= 0 ? hb_suite_kit_check_mem_node(t, o->mem_node, "--mem-node") : 0;
    if (rc == 0) rc = comm_check_size(env, size, o->mem_node);
    if (rc == 0) rc = hb_comm_bg_check(env);
    if (rc == 0) rc = comm_check_ranks(env);
    /* hugetlbfs pages that are not reserved fail a pair's allocation: checked before anything
     * runs, as lat and bw do, for one rank's send and receive buffers on each node. */
    for (int i = 0; rc == 0 && o->pages == HB_PAGES_HUGE && i < t->nnodes; i++) {
        int mem = o->mem_node >= 0 ? o->mem_node : t->nodes[i].os_index;
        if (t->nodes[i].has_cpus)
            rc = hb_placement_buf_check_huge(t, 2 * size, HB_POLICY_BIND, &mem, 1);
    }
    /* Sizes x4 from 8 B, and --size itself last when the steps miss it (16 sizes at most up
     * to an int's bytes); or a list's sizes. */
    uint64_t steps[HB_MAX_SIZE_LIST];
    int nsteps = 0;
    if (rc == 0 && o->nsizes > 1) {
        for (; nsteps < o->nsizes; nsteps++)
            steps[nsteps] = o->sizes[nsteps];
    } else if (rc == 0) {
        uint64_t b = HB_COMM_MIN_SIZE;
        for (; b <= size; b *= 4)
            steps[nsteps++] = b;
        if (b / 4 != size) steps[nsteps++] = size;
    }
    for (int src = 0; rc == 0 && src < t->nnodes; src++)
        for (int dst = 0; rc == 0 && dst < t->nnodes; dst++) {
            if (!t->nodes[src].has_cpus || !t->nodes[dst].has_cpus ||
                !hb_suite_kit_node_on(env, src) || !hb_suite_kit_node_on(env, dst))
                continue;
            for (int m = 0; rc == 0 && comm_metrics[m]; m++)
                for (int k = 0; rc == 0 && k < nsteps; k++)
                    rc = comm_add_both(env, out, src, dst, m, steps[k]);
        }
    return rc;
}

int hb_suite_comm_run_sizes(const struct hb_suite_env *env, const struct hb_plan *plan, json_t *run)
{
    const struct hb_options *o = env->opts;
    json_t *bytes = json_array();
    long long most = 0;
    for (int x = 0; bytes && x < plan->n; x++) {
        long long b = hb_plan_param_int_of(&plan->exps[x], "message_bytes", 0);
        size_t i, at = json_array_size(bytes);
        json_t *v;
        bool seen = false;
        json_array_foreach(bytes, i, v)
        {
            seen = seen || json_integer_value(v) == b;
            if (at == json_array_size(bytes) && json_integer_value(v) > b) at = i;
        }
        if (!seen && json_array_insert_new(bytes, at, json_integer(b)) != 0) {
            json_decref(bytes);
            bytes = NULL;
        }
        most = b > most ? b : most;
    }
    char buffers[160];
    if (o->mem_node >= 0)
        snprintf(buffers, sizeof(buffers),
                 "each end a send and a receive buffer of the message's size, on node %d "
                 "(--mem-node)",
                 o->mem_node);
    else
        snprintf(buffers, sizeof(buffers),
                 "each end a send and a receive buffer of the message's size, on its rank's node");
    json_t *sizes = json_object_get(run, "sizes");
    if (!bytes || json_object_set_new(run, "messages",
                                      json_pack("{s:o, s:s}", "bytes", bytes, "buffers", buffers)))
        return -ENOMEM;
    json_object_set_new(sizes, "size_bytes", json_integer(most));
    json_object_set_new(sizes, "size_source",
                        json_string(o->size ? "--size" : "comm's default largest message"));
    return 0;
}

/* The options of its own it takes, besides the run options (hb_opt_doc.h). */
static const int comm_takes[] = {OPT_SIZE, OPT_MEM_NODE,   OPT_NODES,   OPT_PAGES,
                                 OPT_BG,   OPT_LOAD_NODES, OPT_BG_RATE, OPT_FLEET_THRESHOLD,
                                 0};

/* The columns its annotate and derive read beyond those always kept (hb_suite_keep.c). */
static const char *const comm_reads[] = {"repeat_values", NULL};

const struct hb_suite hb_suite_comm = {
    .takes = comm_takes,
    .name = "comm",
    .help = "MPI message cost between ranks' NUMA nodes (under mpirun, two or more ranks): "
            "ping-pong latency (p50, p99, max), streaming and bidirectional bandwidth, 8 B to "
            "--size (default 4 MiB) x4, every ordered pair of ranks' nodes, one pair at a time; "
            "buffers on each rank's node or --mem-node; --bg: idle and under memory load",
    .plan = suite_comm_plan,
    .derive = hb_comm_derive,
    .reads = comm_reads,
    .estimate = hb_comm_estimate,
    .run_sizes = hb_suite_comm_run_sizes,
    .flags = HB_SUITE_MESSAGES | HB_SUITE_SIZE_LIST | HB_SUITE_DERIVE_ALL,
};
