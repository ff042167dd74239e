/* comm --bg: the plan's loaded half. Every comm experiment runs idle and then loaded, so that
 * drift over the run falls on both alike; the load is hops's background read task. */
#include "hb_comm_bg.h"

#include "hb_error.h"
#include "hb_bytes.h"

#include <errno.h>
#include <stdbool.h>

/* What each load thread reads, hops's size per thread (past any last-level cache share). */
#define HB_COMM_BG_BYTES ((uint64_t)64 << 20)

/* A node that can carry the load beside a messaging rank: CPUs, memory and a core to spare. */
static bool comm_bg_can_load(const struct hb_node *n)
{
    return n->has_cpus && n->has_memory && n->ncores >= 2;
}

/* Node index i loads: named by --load-nodes, or by default every node that can. */
static bool comm_bg_loads(const struct hb_suite_env *env, int i)
{
    const struct hb_options *o = env->opts;
    const struct hb_node *n = &env->topo->nodes[i];
    if (!o->nload_nodes) return hb_suite_kit_node_on(env, i) && comm_bg_can_load(n);
    for (int k = 0; k < o->nload_nodes; k++)
        if (o->load_nodes[k] == n->os_index) return true;
    return false;
}

int hb_comm_bg_check(const struct hb_suite_env *env)
{
    const struct hb_options *o = env->opts;
    const struct hb_topo *t = env->topo;
    if (o->bg < 0 && o->nload_nodes) {
        hb_error_set(
            "--load-nodes %s: comm loads nodes only under --bg LEVEL (low, medium, high or "
            "very-high); add --bg or leave --load-nodes out",
            o->load_nodes_text);
        return -EINVAL;
    }
    if (o->bg < 0 && o->bg_rate_GBps > 0.0) {
        hb_error_set("--bg-rate %g: comm paces a load only under --bg LEVEL (low, medium, high or "
                     "very-high); add --bg or leave --bg-rate out",
                     o->bg_rate_GBps);
        return -EINVAL;
    }
    if (o->bg < 0) return 0;
    for (int k = 0; k < o->nload_nodes; k++) {
        int os = o->load_nodes[k], rc = hb_suite_kit_check_cpu_node(t, os, "--load-nodes");
        if (rc == 0) rc = hb_suite_kit_check_mem_node(t, os, "--load-nodes");
        if (rc) return rc;
        const struct hb_node *n = &t->nodes[hb_topo_nodes_index(t, os)];
        if (n->ncores < 2) {
            hb_error_set("--load-nodes %d: node %d has %d core, which the messages of its rank "
                         "use; comm --bg loads nodes of two cores or more",
                         os, os, n->ncores);
            return -EINVAL;
        }
    }
    /* Every load thread reads HB_COMM_BG_BYTES of its own: the most threads a rank runs fit. */
    bool any = false;
    for (int i = 0; i < t->nnodes; i++) {
        if (!comm_bg_loads(env, i)) continue;
        const struct hb_node *n = &t->nodes[i];
        uint64_t need = HB_COMM_BG_BYTES * (uint64_t)(n->ncores - 1);
        if (need > n->mem_free_bytes) {
            char a[32], f[32];
            hb_error_set("--bg %s: the load of node %d (64 MiB for each of %d threads, %s) does "
                         "not fit its free memory (%s); name nodes with room in --load-nodes",
                         hb_options_bg_level_names[o->bg + 1], n->os_index, n->ncores - 1,
                         hb_bytes_format(need, a, sizeof(a)),
                         hb_bytes_format(n->mem_free_bytes, f, sizeof(f)));
            return -EINVAL;
        }
        any = true;
    }
    if (any) return 0;
    hb_error_set("--bg %s: no node taking part has memory and two cores or more (one for a "
                 "rank's messages, one for the load), so none can carry the load%s",
                 hb_options_bg_level_names[o->bg + 1],
                 o->nodes ? "; choose such nodes with --nodes" : " (no node has)");
    return -EINVAL;
}

int hb_comm_bg_add(const struct hb_suite_env *env, struct hb_experiment *e, int level)
{
    const struct hb_topo *t = env->topo;
    int rc = hb_plan_param_str(e, "bg_level", hb_options_bg_level_names[level]);
    for (int i = 0; rc == 0 && level > 0 && i < t->nnodes; i++) {
        if (!comm_bg_loads(env, i)) continue;
        const struct hb_node *n = &t->nodes[i];
        /* Thread 0 is the messaging thread of the rank that runs the load; that rank runs one
         * thread per core of its binding on the node but the first (hb_msg_bg.h). */
        struct hb_task *task = hb_plan_experiment_task(e);
        if (!task) return -ENOMEM;
        rc = hb_suite_kit_task(env, task, n->os_index, 1, 1, "read", HB_POLICY_BIND, n->os_index,
                               HB_COMM_BG_BYTES);
        if (rc) return rc;
        task->role = HB_ROLE_BG;
        hb_suite_bg_level_pace(level, env->opts->bg_rate_GBps, task);
    }
    return rc;
}
