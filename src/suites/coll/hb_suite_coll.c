/* `coll`: what an MPI collective costs across NUMA nodes. The plan is one experiment per
 * operation, message size, communicator (the ranks of a package, of nodes within 1, 2 ... hops,
 * the world: hb_coll_groups.c) and, for rooted operations, root node; each node of the
 * communicator is a task (its ranks' buffers: on their own node, on --mem-node, or interleaved
 * over the communicator's nodes). The executor (mpi/hb_coll_exec.h) runs it on those ranks. */
#include "hb_suite_coll.h"

#include "hb_opt_doc.h"
#include "hb_comm_bg.h"
#include "hb_error.h"
#include "hb_launcher.h"
#include "hb_msg_schedule.h"
#include "hb_placement.h"
#include "hb_bytes.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

/* osu_allreduce's and osu_bcast's largest message by default. */
#define HB_COLL_DEFAULT_SIZE ((uint64_t)1 << 20)
#define HB_COLL_MIN_SIZE 8
/* Operations with a root: reduce and bcast. */
static bool coll_rooted(int op)
{
    return op == hb_coll_op_index("reduce") || op == hb_coll_op_index("bcast");
}

static bool coll_op_on(const struct hb_options *o, int op)
{
    return o->op_mask == 0 || (o->op_mask & (1u << op));
}

/* The launch's ranks, 0 when not launched or not said. */
static long coll_ranks(void)
{
    struct hb_launch l;
    return hb_launcher_launched(&l) ? l.ranks : 0;
}

/* A collective needs a second rank: a launch of one is refused before anything starts, its
 * dry run too; another machine's topology can only be dry-run. */
static int coll_check_ranks(const struct hb_suite_env *env)
{
    const struct hb_options *o = env->opts;
    struct hb_launch l;
    bool launched = hb_launcher_launched(&l);
    if ((o->dry_run && o->topology[0]) || (launched && l.ranks != 1)) return 0;
    const char *args = o->command_argv0_end;
    hb_error_set("coll needs two or more ranks (this launch has 1); run one rank per NUMA node: "
                 "mpirun --map-by numa --bind-to numa hopbench%s (on a machine of one node: "
                 "mpirun -np 2 hopbench%s)",
                 args ? args : " coll", args ? args : " coll");
    return -EINVAL;
}

/* --root: a rank of the launch, for reduce or bcast. */
static int coll_check_root(const struct hb_suite_env *env)
{
    const struct hb_options *o = env->opts;
    if (o->root < 0) return 0;
    if (!coll_op_on(o, hb_coll_op_index("reduce")) && !coll_op_on(o, hb_coll_op_index("bcast"))) {
        hb_error_set("--root %d: none of --op's operations has a root; --root applies to reduce "
                     "and bcast",
                     o->root);
        return -EINVAL;
    }
    long ranks = coll_ranks();
    if (ranks > 0 && o->root >= ranks) {
        hb_error_set("--root %d: this launch has %ld ranks; give a rank from 0 to %ld", o->root,
                     ranks, ranks - 1);
        return -EINVAL;
    }
    return 0;
}

/* --policy: bind (each rank's node, or --mem-node) or interleave (over the communicator's
 * nodes). */
static int coll_check_policy(const struct hb_options *o)
{
    if (!o->policy_set || o->policy == HB_POLICY_BIND) return 0;
    if (o->policy != HB_POLICY_INTERLEAVE) {
        hb_error_set("--policy %s: coll places buffers on each rank's node (bind, the default), "
                     "on --mem-node, or interleaved over the communicator's nodes (interleave)",
                     hb_placement_policy_name(o->policy));
        return -EINVAL;
    }
    if (o->mem_node >= 0) {
        hb_error_set("--policy interleave with --mem-node %d: interleave spreads the buffers over "
                     "the communicator's nodes; leave one of them out",
                     o->mem_node);
        return -EINVAL;
    }
    return 0;
}

/* Every size from 8 B to what an MPI count holds; the largest fits each node's buffers (an
 * alltoall's receive buffer holds a block from every rank). */
static int coll_check_sizes(const struct hb_suite_env *env, const uint64_t *steps, int n)
{
    for (int i = 0; i < n; i++) {
        char text[32];
        hb_bytes_format(steps[i], text, sizeof(text));
        if (steps[i] < HB_COLL_MIN_SIZE || steps[i] > INT_MAX) {
            hb_error_set("--size %s: coll times messages of 8 B up to --size (or the sizes of a "
                         "list); give 8 B to %d bytes (an MPI count is an int)",
                         text, INT_MAX);
            return -EINVAL;
        }
    }
    long ranks = coll_ranks();
    uint64_t most = steps[n - 1] * (uint64_t)(ranks > 1 ? ranks + 1 : 3);
    for (int i = 0; i < env->topo->nnodes; i++) {
        const struct hb_node *nd = &env->topo->nodes[i];
        int mem = env->opts->mem_node;
        if (!nd->has_memory || (mem >= 0 && nd->os_index != mem) ||
            (mem < 0 && !hb_suite_kit_node_on(env, i)))
            continue;
        if (hb_suite_kit_check_fits(env, nd->os_index, most, 1) != 0) return -EINVAL;
    }
    return 0;
}

/* Sizes x4 from 8 B and --size last when the steps miss it, or a list's sizes. */
static int coll_steps(const struct hb_options *o, uint64_t *steps)
{
    int n = 0;
    if (o->nsizes > 1) {
        for (; n < o->nsizes; n++)
            steps[n] = o->sizes[n];
        return n;
    }
    uint64_t size = o->size ? o->size : HB_COLL_DEFAULT_SIZE, b = HB_COLL_MIN_SIZE;
    for (; b <= size && n < HB_MAX_SIZE_LIST - 1; b *= 4)
        steps[n++] = b;
    if (n == 0 || steps[n - 1] != size) steps[n++] = size;
    return n;
}

/* The experiment of one operation, size, group and root (node index, -1: none or --root);
 * under --bg, idle (level 0) or loaded. */
static int coll_add(const struct hb_suite_env *env, struct hb_plan *out, int op, uint64_t bytes,
                    const struct hb_coll_group *g, int root, int level)
{
    const struct hb_topo *t = env->topo;
    const struct hb_options *o = env->opts;
    struct hb_experiment e;
    char name[HB_NAME_LEN], rname[24] = "";
    if (root >= 0) snprintf(rname, sizeof(rname), "-root%d", t->nodes[root].os_index);
    if (root < 0 && coll_rooted(op)) snprintf(rname, sizeof(rname), "-rank%d", o->root);
    snprintf(name, sizeof(name), "coll-%s-%llu-%s%s%s%s", hb_coll_op_names[op],
             (unsigned long long)bytes, g->cls, rname, level ? "-bg-" : "",
             level ? hb_options_bg_level_names[level] : "");
    hb_suite_kit_experiment(env, &e, "coll", name, "latency");
    int rc = 0;
    for (int i = 0; rc == 0 && i < t->nnodes; i++) {
        if (!g->on[i]) continue;
        struct hb_task *task = hb_plan_experiment_task(&e);
        if (!task) rc = -ENOMEM;
        if (rc) break;
        task->role = HB_ROLE_FG;
        task->cpu_node = t->nodes[i].os_index;
        task->threads = 1;
        snprintf(task->kernel, sizeof(task->kernel), "%s", hb_coll_op_names[op]);
        task->pages = o->pages;
        task->bytes = bytes;
        bool interleave = o->policy_set && o->policy == HB_POLICY_INTERLEAVE;
        task->policy = interleave ? HB_POLICY_INTERLEAVE : HB_POLICY_BIND;
        task->mem_node = interleave ? -1 : o->mem_node >= 0 ? o->mem_node : task->cpu_node;
        if (interleave) {
            task->mem_nodes = hwloc_bitmap_alloc();
            for (int j = 0; task->mem_nodes && j < t->nnodes; j++)
                if (g->on[j] && t->nodes[j].has_memory)
                    hwloc_bitmap_set(task->mem_nodes, (unsigned)t->nodes[j].os_index);
            if (!task->mem_nodes) rc = -ENOMEM;
        }
        hb_plan_task_describe(t, task, "rw");
    }
    const char *placement = o->policy_set && o->policy == HB_POLICY_INTERLEAVE ? "interleave"
                            : o->mem_node >= 0                                 ? "mem-node"
                                                                               : "own-node";
    if (rc == 0) rc = hb_plan_param_str(&e, "op", hb_coll_op_names[op]);
    if (rc == 0) rc = hb_plan_param_int(&e, "message_bytes", (long long)bytes);
    if (rc == 0) rc = hb_plan_param_str(&e, "coll_class", g->cls);
    if (rc == 0)
        rc = g->span_hops >= 0 ? hb_plan_param_int(&e, "span_hops", g->span_hops)
                               : hb_plan_param_null(&e, "span_hops");
    if (rc == 0)
        rc = root >= 0 ? hb_plan_param_int(&e, "root_node", t->nodes[root].os_index)
                       : hb_plan_param_null(&e, "root_node");
    if (rc == 0) rc = hb_plan_param_int(&e, "root_rank_opt", coll_rooted(op) ? o->root : -1);
    if (rc == 0) rc = hb_plan_param_str(&e, "buffers", placement);
    if (rc == 0 && o->bg >= 0) rc = hb_comm_bg_add(env, &e, level);
    if (rc) {
        if (rc == -ENOMEM) hb_error_set("out of memory planning coll");
        hb_plan_experiment_clear(&e);
        return rc;
    }
    return hb_plan_add(out, &e);
}

/* The experiment, and under --bg the same loaded right after it (drift falls on both). */
static int coll_add_both(const struct hb_suite_env *env, struct hb_plan *out, int op,
                         uint64_t bytes, const struct hb_coll_group *g, int root)
{
    int rc = coll_add(env, out, op, bytes, g, root, 0);
    int bg = env->opts->bg;
    return rc == 0 && bg >= 0 ? coll_add(env, out, op, bytes, g, root, bg + 1) : rc;
}

/* One group's experiments: every operation and size; a rooted one once per member node as
 * root (or once with --root); a barrier once. */
static int coll_add_group(const struct hb_suite_env *env, struct hb_plan *out,
                          const struct hb_coll_group *g, const uint64_t *steps, int nsteps)
{
    const struct hb_options *o = env->opts;
    int rc = 0;
    for (int op = 0; rc == 0 && op < HB_COLL_OPS; op++) {
        if (!coll_op_on(o, op)) continue;
        bool barrier = op == hb_coll_op_index("barrier");
        for (int k = 0; rc == 0 && k < (barrier ? 1 : nsteps); k++) {
            uint64_t bytes = barrier ? 0 : steps[k];
            if (!coll_rooted(op) || o->root >= 0) {
                rc = coll_add_both(env, out, op, bytes, g, -1);
                continue;
            }
            for (int r = 0; rc == 0 && r < env->topo->nnodes; r++)
                if (g->on[r]) rc = coll_add_both(env, out, op, bytes, g, r);
        }
    }
    return rc;
}

static int suite_coll_plan(const struct hb_suite_env *env, struct hb_plan *out)
{
    const struct hb_options *o = env->opts;
    const struct hb_topo *t = env->topo;
    uint64_t steps[HB_MAX_SIZE_LIST];
    int nsteps = coll_steps(o, steps);
    int rc = o->mem_node >= 0 ? hb_suite_kit_check_mem_node(t, o->mem_node, "--mem-node") : 0;
    if (rc == 0) rc = coll_check_policy(o);
    if (rc == 0) rc = coll_check_sizes(env, steps, nsteps);
    if (rc == 0) rc = hb_comm_bg_check(env);
    if (rc == 0) rc = coll_check_ranks(env);
    if (rc == 0) rc = coll_check_root(env);
    for (int i = 0; rc == 0 && o->pages == HB_PAGES_HUGE && i < t->nnodes; i++) {
        int mem = o->mem_node >= 0 ? o->mem_node : t->nodes[i].os_index;
        if (t->nodes[i].has_cpus)
            rc = hb_placement_buf_check_huge(t, 2 * steps[nsteps - 1], HB_POLICY_BIND, &mem, 1);
    }
    struct hb_coll_group *g = NULL;
    int ng = 0;
    if (rc == 0) rc = hb_coll_groups(env, &g, &ng);
    for (int k = 0; rc == 0 && k < ng; k++)
        rc = coll_add_group(env, out, &g[k], steps, nsteps);
    hb_coll_groups_free(g, ng);
    return rc;
}

int hb_suite_coll_run_sizes(const struct hb_suite_env *env, const struct hb_plan *plan, json_t *run)
{
    const struct hb_options *o = env->opts;
    json_t *bytes = json_array();
    long long most = 0;
    for (int x = 0; bytes && x < plan->n; x++) {
        long long b = hb_plan_param_int_of(&plan->exps[x], "message_bytes", 0);
        size_t i;
        json_t *v;
        bool seen = b == 0; /* the barrier's */
        json_array_foreach(bytes, i, v) seen = seen || json_integer_value(v) == b;
        if (!seen && json_array_append_new(bytes, json_integer(b))) {
            json_decref(bytes);
            bytes = NULL;
        }
        most = b > most ? b : most;
    }
    char buffers[200];
    if (o->policy_set && o->policy == HB_POLICY_INTERLEAVE)
        snprintf(buffers, sizeof(buffers),
                 "each rank a send and a receive buffer, interleaved over the communicator's "
                 "nodes");
    else if (o->mem_node >= 0)
        snprintf(buffers, sizeof(buffers),
                 "each rank a send and a receive buffer on node %d (--mem-node)", o->mem_node);
    else
        snprintf(buffers, sizeof(buffers), "each rank a send and a receive buffer on its own node");
    json_t *sizes = json_object_get(run, "sizes");
    if (!bytes ||
        json_object_set_new(run, "messages",
                            json_pack("{s:o, s:s, s:s}", "bytes", bytes, "buffers", buffers,
                                      "send_buffer",
                                      o->clean_buffers ? "reused (--clean-buffers)"
                                                       : "rewritten before every iteration")))
        return -ENOMEM;
    json_object_set_new(sizes, "size_bytes", json_integer(most));
    json_object_set_new(sizes, "size_source",
                        json_string(o->size ? "--size" : "coll's default largest message"));
    return 0;
}

double hb_suite_coll_estimate(const struct hb_suite_env *env, const struct hb_experiment *e,
                              int *records)
{
    (void)env;
    *records = 1;
    double bytes = (double)hb_plan_param_int_of(e, "message_bytes", 0);
    int ranks = e->ntasks > 1 ? e->ntasks : 2;
    /* A modest shared-memory rate: a few microseconds, then the bytes at 2 GB/s a rank, and
     * the communicator set up and gathered around it. */
    double iteration = 3e-6 * ranks + bytes * ranks / 2e9;
    return 0.02 + hb_msg_schedule_s(iteration, e->reps, e->min_time_s);
}

/* The options of its own it takes, besides the run options (hb_opt_doc.h). */
static const int coll_takes[] = {OPT_SIZE,  OPT_MEM_NODE,   OPT_POLICY,  OPT_NODES,
                                 OPT_PAGES, OPT_OP,         OPT_ROOT,    OPT_CLEAN_BUFFERS,
                                 OPT_BG,    OPT_LOAD_NODES, OPT_BG_RATE, 0};

/* The columns its derive reads beyond those always kept (hb_suite_keep.c). */
static const char *const coll_reads[] = {"repeat_values", NULL};

const struct hb_suite hb_suite_coll = {
    .takes = coll_takes,
    .name = "coll",
    .help = "MPI collectives across NUMA nodes (under mpirun, two or more ranks): allreduce, "
            "reduce, bcast, allgather, alltoall, barrier from 8 B to --size (default 1 MiB) x4, "
            "over the ranks of a package, of nodes 1, 2 ... hops apart and the world, each node "
            "as root of reduce and bcast; p50, p99, max, the slowest rank and each rank's time "
            "by hops from the root; buffers on each rank's node, --mem-node or --policy "
            "interleave, rewritten every iteration unless --clean-buffers; the collective "
            "component the MPI library chose",
    .plan = suite_coll_plan,
    .derive = hb_coll_derive,
    .reads = coll_reads,
    .estimate = hb_suite_coll_estimate,
    .run_sizes = hb_suite_coll_run_sizes,
    .flags = HB_SUITE_MESSAGES | HB_SUITE_COLLECTIVES | HB_SUITE_SIZE_LIST,
};
