/* Automatic NUMA balancing watched (the balance suite), run in this process beside the pinned
 * pairs: a buffer first touched on one node, its policy then dropped, while threads bound to
 * another node stream over it; at a fixed interval the share of its pages on the threads'
 * node and the bandwidth are sampled, until the kernel has brought the pages over or the
 * time runs out. An experiment is one foreground task of the read kernel (policy bind:
 * mem_node is where the pages are first touched) with the suite keys max_time_s and
 * interval_s. */
#ifndef HB_BALANCE_H
#define HB_BALANCE_H

#include "hb_plan.h"
#include "hb_result.h"
#include "hb_topo.h"

#include <jansson.h>
#include <stdbool.h>

/* The local share the series must reach, and keep for HB_BALANCE_HELD samples in a row,
 * to count as converged. */
#define HB_BALANCE_TARGET_PCT 90.0
#define HB_BALANCE_HELD 3
/* A series has at least this many samples, converged or not, time allowing. */
#define HB_BALANCE_MIN_POINTS 5

/* Is e a balance experiment (suite "balance")? */
bool hb_balance_is(const struct hb_experiment *e);

/* The dry run's and the run's checks: one foreground read task, its threads on a CPU
 * node with memory, first touch on another node with memory, every thread with data, the
 * interval and the time in range. 0 or -EINVAL naming the experiment. */
int hb_balance_check(const struct hb_topo *t, const struct hb_experiment *e);

/* Run e: first touch on mem_node, the bind dropped, then the kernel on cpu_node's threads
 * while the series is sampled. Fills *r (samples: seconds per sweep of the whole buffer in
 * each interval that ended with HB_BALANCE_TARGET_PCT or more of the pages local; where the pages
 * are at the end, against cpu_node; the threads' CPUs) and *keys with the suite's record keys
 * (series, time_to_90pct_s and why it is null, vmstat_moved, numa_balancing, interval_s,
 * page_bytes). 0 when it ran (r->status says whether the kernel's data checked out); -errno when it
 * could not start. */
int hb_balance_run(const struct hb_topo *t, const struct hb_experiment *e, struct hb_task_result *r,
                   json_t **keys);

#endif
