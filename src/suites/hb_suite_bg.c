/* Background load shared by hops, loaded and run: 40555's load levels and subscriptions. */
#include "hb_suite_kit.h"

#include "hb_error.h"
#include "hb_result.h"
#include "hb_bytes.h"

#include <errno.h>
#include <stdio.h>

void hb_suite_bg_level_pace(int level, double very_high, struct hb_task *task)
{
    /* 40555: low 0.5 GB/s ... very high 4 GB/s per thread, i.e. 1/8 ... 1 of very-high. */
    static const double fraction[] = {0.0, 0.125, 0.25, 0.5, 1.0};
    double f = level > 0 && level <= 4 ? fraction[level] : 0.0;
    task->bg_rate_GBps = very_high > 0.0 ? very_high * f : 0.0;
    /* Without --bg-rate the levels are shares of what the thread itself reaches unpaced;
     * all of it is simply unpaced. */
    task->bg_fraction = very_high > 0.0 || f >= 1.0 ? 0.0 : f;
}

/* Threads of node index i already taken by earlier tasks of e (they start at thread 0). */
static int threads_used(const struct hb_experiment *e, int os_index)
{
    int used = 0;
    for (int k = 0; k < e->ntasks; k++)
        if (e->tasks[k].cpu_node == os_index &&
            e->tasks[k].first_thread + e->tasks[k].threads > used)
            used = e->tasks[k].first_thread + e->tasks[k].threads;
    return used;
}

int hb_suite_bg_add_background(const struct hb_suite_env *env, struct hb_experiment *e,
                               int subscription, int level, uint64_t bytes_per_thread)
{
    const struct hb_topo *t = env->topo;
    for (int i = 0; i < t->nnodes; i++) {
        const struct hb_node *n = &t->nodes[i];
        if (!n->has_cpus || !n->has_memory || !hb_suite_kit_node_on(env, i)) continue;
        int used = threads_used(e, n->os_index);
        /* Under and high subscription leave foreground nodes alone, as 40555 does. */
        if (used > 0 && subscription < 2) continue;
        int want = subscription == 0 ? 1 : subscription == 1 ? n->ncpus - 1 : n->ncpus - used;
        if (want < 1) want = subscription == 1 && used == 0 ? 1 : 0;
        if (want == 0) continue;
        struct hb_task *task = hb_plan_experiment_task(e);
        if (!task) return -ENOMEM;
        uint64_t bytes = 0;
        int rc =
            hb_bytes_mul("background size per thread", bytes_per_thread, (uint64_t)want, &bytes);
        if (rc == 0)
            rc = hb_suite_kit_task(env, task, n->os_index, used, want, "read", HB_POLICY_BIND,
                                   n->os_index, bytes);
        if (rc) return rc;
        task->role = HB_ROLE_BG;
        hb_suite_bg_level_pace(level, env->opts->bg_rate_GBps, task);
    }
    return 0;
}
