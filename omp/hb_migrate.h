/* Page migration (the migrate suite), run in this process beside the pinned pairs: how long
 * the kernel takes to move a buffer's pages from one memory node to another, timed on a
 * thread bound to a chosen CPU node, with move_pages(2) or mbind(2) MPOL_MF_MOVE. An
 * experiment is one task of kernel "migrate" (mem_node: the source) with the suite keys
 * dst_node and method. */
#ifndef HB_MIGRATE_H
#define HB_MIGRATE_H

#include "hb_plan.h"
#include "hb_result.h"
#include "hb_topo.h"

#include <stdbool.h>

/* Is e a migration (its one task names kernel "migrate")? */
bool hb_migrate_is(const struct hb_experiment *e);

/* The dry run's and the run's checks: one one-thread task on a CPU node, source and
 * destination nodes with memory and different, a known method, reps in range. 0 or -EINVAL
 * naming the experiment. */
int hb_migrate_check(const struct hb_topo *t, const struct hb_experiment *e);

/* Run e: the buffer first-touched on the source, then e->reps timed moves to the
 * destination, each after an untimed move back. Fills *r (samples in seconds per move of the
 * whole buffer, bytes_per_sample, where the pages are after the last move, the thread's
 * CPU). 0 when it ran (r->status says whether every page moved: -HB_EVALIDATE with r->note);
 * -errno when it could not start. */
int hb_migrate_run(const struct hb_topo *t, const struct hb_experiment *e,
                   struct hb_task_result *r);

#endif
