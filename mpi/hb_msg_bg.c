/* comm's and coll's --bg at run time (hb_msg_bg.h): who loads which node for a pair, the load as a
 * team around the pair's exchanges, and what it achieved. */
#include "hb_msg_bg.h"

#include "hb_ranks.h"
#include "hb_error.h"
#include "hb_team.h"

#include <errno.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool hb_msg_bg_loaded(const struct hb_experiment *e)
{
    for (int k = 0; k < e->ntasks; k++)
        if (e->tasks[k].role == HB_ROLE_BG) return true;
    return false;
}

/* The nodes ranks sit on, as a list ("0-1,4"); NULL when out of memory. */
static char *msg_rank_nodes(const struct hb_world *w)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    char *text = NULL;
    for (int r = 0; set && r < w->size; r++)
        if (w->rank_node[r] >= 0) hwloc_bitmap_set(set, (unsigned)w->rank_node[r]);
    if (set && hwloc_bitmap_list_asprintf(&text, set) < 0) text = NULL;
    hwloc_bitmap_free(set);
    return text;
}

/* A rank on a load node needs a core for its messages and one for the load at least (with
 * several ranks there, the load gets what their messages leave, msg_bg_team). */
static int msg_check_bg_cores(const struct hb_world *w, const struct hb_topo *t, int node,
                              const char *command, const char *args)
{
    int i = hb_topo_nodes_index(t, node);
    for (int r = 0; i >= 0 && r < w->size; r++) {
        int have = w->rank_node[r] == node ? hb_world_cores_in(t, w->rank_cpus[r], i) : 2;
        if (have >= 2) continue;
        hb_error_set("rank %d (host %s) is bound to %d core of node %d (CPUs %s), but %s --bg "
                     "runs a rank's messages on one core and the load of its node on the others; "
                     "bind each rank to its node: mpirun --map-by numa --bind-to numa hopbench %s "
                     "(two ranks per node: --map-by ppr:2:numa)",
                     r, w->hosts[w->rank_host[r]], have, node, w->rank_cpus[r], command, args);
        return -HB_EENV;
    }
    return 0;
}

/* Rank 0: say where a node's ranks' messaging threads leave its load no core of its own (the
 * load then shares one, and its figures hold CPU contention besides memory traffic). */
static void msg_bg_say_shared(const struct hb_world *w, const struct hb_topo *t, int node,
                              const char *command)
{
    int i = hb_topo_nodes_index(t, node);
    for (int h = 0; i >= 0 && h < w->nhosts; h++) {
        int ranks = 0, first = -1;
        for (int r = 0; r < w->size; r++)
            if (w->rank_host[r] == h && w->rank_node[r] == node) {
                ranks++;
                first = first < 0 ? r : first;
            }
        int cores = first >= 0 ? hb_world_cores_in(t, w->rank_cpus[first], i) : 0;
        if (ranks > 1 && cores <= ranks)
            fprintf(stderr,
                    "hopbench: note: %s --bg: on host %s, node %d's %d ranks message from "
                    "%d of its %d cores; the load's thread shares a core with one of them, so "
                    "the loaded figures hold CPU contention besides memory traffic\n",
                    command, w->hosts[h], node, ranks, ranks < cores ? ranks : cores, cores);
    }
}

/* The nodes a load of the plan runs on (each once, however many experiments load it); NULL
 * when out of memory. */
static hwloc_bitmap_t msg_bg_nodes(const struct hb_plan *plan)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    for (int x = 0; set && x < plan->n; x++)
        for (int k = 0; k < plan->exps[x].ntasks; k++)
            if (plan->exps[x].tasks[k].role == HB_ROLE_BG)
                hwloc_bitmap_set(set, (unsigned)plan->exps[x].tasks[k].cpu_node);
    return set;
}

int hb_msg_bg_check(const struct hb_world *w, const struct hb_topo *t, const struct hb_plan *plan,
                    bool named, const char *command, const char *args)
{
    hwloc_bitmap_t loads = msg_bg_nodes(plan);
    if (!loads) {
        hb_error_set("out of memory listing the nodes --bg loads");
        return -ENOMEM;
    }
    int rc = 0, node;
    hwloc_bitmap_foreach_begin(node, loads)
    {
        bool seated = false;
        for (int r = 0; r < w->size && !seated; r++)
            seated = w->rank_node[r] == node;
        if (rc == 0 && (seated || !named)) {
            rc = msg_check_bg_cores(w, t, node, command, args);
            if (rc == 0 && w->rank == 0) msg_bg_say_shared(w, t, node, command);
        } else if (rc == 0) {
            char *nodes = msg_rank_nodes(w);
            hb_error_set("--load-nodes %d: no rank runs on node %d (ranks sit on node%s %s), and "
                         "the load of a node is run by a rank there; name nodes of ranks, or "
                         "launch one there (mpirun --map-by numa --bind-to numa)",
                         node, node, nodes && strpbrk(nodes, ",-") ? "s" : "",
                         nodes ? nodes : "(out of memory listing them)");
            free(nodes);
            rc = -EINVAL;
        }
    }
    hwloc_bitmap_foreach_end();
    hwloc_bitmap_free(loads);
    return rc;
}

/* The background task of e this rank runs for pair (a, b), or -1: the first rank on its
 * node of either end's host runs that node's load. */
static int msg_bg_task(const struct hb_world *w, const struct hb_experiment *e, int a, int b)
{
    int host = w->rank_host[w->rank];
    if (w->node < 0 || (host != w->rank_host[a] && host != w->rank_host[b])) return -1;
    for (int r = 0; r < w->rank; r++)
        if (w->rank_host[r] == host && w->rank_node[r] == w->node) return -1;
    for (int k = 0; k < e->ntasks; k++)
        if (e->tasks[k].role == HB_ROLE_BG && e->tasks[k].cpu_node == w->node) return k;
    return -1;
}

/* The team's hooks: the load runs on every loading rank, then the pair's body, then the
 * load stops. Every rank meets the same two barriers, loading or not. */
struct hb_msg_bg_body {
    void (*body)(void *ctx);
    void *ctx;
};

static void msg_bg_started(void *c)
{
    struct hb_msg_bg_body *b = c;
    hb_ranks_barrier();
    b->body(b->ctx);
}

static void msg_bg_fg_done(void *c)
{
    (void)c;
    /* The ranks outside the pair wait here while it runs: asleep, off its CPUs. */
    hb_ranks_barrier_idle();
}

static bool msg_bg_all_done(void *c)
{
    (void)c;
    return true;
}

/* Run task k of e as this rank's load around the body; what it did into *got. */
static void msg_bg_team(const struct hb_world *w, const struct hb_topo *t,
                        const struct hb_experiment *e, int k, bool allow_misplaced,
                        struct hb_msg_bg_body *body, struct hb_msg_bg_got *got)
{
    int i = hb_topo_nodes_index(t, w->node);
    struct hb_task task = e->tasks[k];
    /* The cores of its binding but those of the node's messaging threads: the first (this
     * rank's, the node's lowest) and the last ones (the others', hb_msg_core_own). */
    int below = 0, ranks = hb_world_node_ranks(w, &below);
    int threads = hb_world_cores_in(t, w->cpus, i) - ranks;
    if (threads > t->nodes[i].ncpus - 1) threads = t->nodes[i].ncpus - 1;
    if (threads < 1) threads = 1;
    task.bytes = task.bytes / (uint64_t)task.threads * (uint64_t)threads;
    task.threads = threads;
    struct hb_experiment one = *e;
    one.ntasks = 1;
    one.task_cap = 1;
    one.tasks = &task;
    struct hb_task_result res;
    memset(&res, 0, sizeof(res));
    struct hb_team_hooks hooks = {msg_bg_started, msg_bg_fg_done, msg_bg_all_done, body};
    int rc = hb_team_run(t, &one, w->node, allow_misplaced, &hooks, &res);
    if (rc) {
        char msg[600];
        snprintf(msg, sizeof(msg), "experiment %s, load on node %d: %s", e->name, w->node,
                 hb_error_msg());
        hb_world_abort(w, hb_error_exit_code(rc), msg);
    }
    double span = res.t_end - res.t_start;
    got->node = w->node;
    got->threads = threads;
    got->status = res.status;
    got->GBps = span > 0.0 ? res.bg_bytes / span / 1e9 : 0.0;
    snprintf(got->note, sizeof(got->note), "%.159s", res.note);
    hb_result_task_free(&res);
}

void hb_msg_bg_around(const struct hb_world *w, const struct hb_topo *t,
                      const struct hb_experiment *e, int a, int b, bool allow_misplaced,
                      void (*body)(void *ctx), void *ctx, struct hb_msg_bg_got *got)
{
    struct hb_msg_bg_got mine;
    memset(&mine, 0, sizeof(mine));
    mine.node = -1;
    struct hb_msg_bg_body around = {body, ctx};
    int k = msg_bg_task(w, e, a, b);
    if (k >= 0) {
        msg_bg_team(w, t, e, k, allow_misplaced, &around, &mine);
    } else {
        msg_bg_started(&around);
        msg_bg_fg_done(&around);
    }
    MPI_Gather(&mine, (int)sizeof(mine), MPI_BYTE, got, (int)sizeof(mine), MPI_BYTE, 0,
               MPI_COMM_WORLD);
}

int hb_msg_bg_columns(const struct hb_world *w, const struct hb_msg_bg_got *got, json_t *rec)
{
    json_t *hosts = json_array(), *nodes = json_array(), *threads = json_array(),
           *gbps = json_array();
    int rc = hosts && nodes && threads && gbps ? 0 : -ENOMEM;
    for (int r = 0; rc == 0 && r < w->size; r++) {
        if (got[r].node < 0) continue;
        rc |= json_array_append_new(hosts, json_string(w->hosts[w->rank_host[r]]));
        rc |= json_array_append_new(nodes, json_integer(got[r].node));
        rc |= json_array_append_new(threads, json_integer(got[r].threads));
        rc |= json_array_append_new(gbps, json_real(got[r].GBps));
    }
    if (rc == 0) rc |= json_object_set(rec, "bg_hosts", hosts);
    if (rc == 0) rc |= json_object_set(rec, "bg_nodes", nodes);
    if (rc == 0) rc |= json_object_set(rec, "bg_threads", threads);
    if (rc == 0) rc |= json_object_set(rec, "bg_GBps", gbps);
    json_decref(hosts);
    json_decref(nodes);
    json_decref(threads);
    json_decref(gbps);
    return rc ? -ENOMEM : 0;
}
