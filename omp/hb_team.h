/* The OpenMP team of one rank: runs the tasks of one experiment that belong to this rank's
 * node, with threads bound inside the node, and reports per-task results.
 *
 * Cross-rank coordination is handed in as hooks (the MPI layer's job); with no hooks the team
 * runs alone. Hooks are only ever called from the master thread (MPI_THREAD_FUNNELED). */
#ifndef HB_TEAM_H
#define HB_TEAM_H

#include "hb_placement.h"
#include "hb_plan.h"
#include "hb_result.h"

#include <stdbool.h>
#include <stdint.h>

struct hb_team_hooks {
    /* Every rank has its buffers placed and its background threads running: block until
     * all ranks are there. */
    void (*started)(void *ctx);
    /* This rank's foreground tasks are all done. */
    void (*fg_done)(void *ctx);
    /* Poll: have the foreground tasks of every rank finished? */
    bool (*all_fg_done)(void *ctx);
    void *ctx;
};

/* Run the tasks of e whose cpu_node is `node` (OS index). results[i] is filled for every
 * task i of e that runs here (others untouched). Returns 0 when everything ran (a task may
 * still carry a failed status: validation, placement), or a negative errno for what stops
 * the rank (-HB_EENV: a thread outside its node; -EINVAL, -ENOMEM...: see hb_error_msg()).
 * allow_misplaced: pages off target are reported, not failed. */
/* Every check the team makes before it runs, for the whole plan: tasks that fit their node
 * and do not share a thread, sizes that give every thread of every array data, reps in
 * range. The dry run and the run both call it before anything is measured, so they refuse
 * the same plans. 0 or -EINVAL with hb_error_msg() naming the experiment. */
int hb_team_tasks_plan_check(const struct hb_topo *t, const struct hb_plan *plan);

int hb_team_run(const struct hb_topo *t, const struct hb_experiment *e, int node,
                bool allow_misplaced, const struct hb_team_hooks *hooks,
                struct hb_task_result *results);

#endif
