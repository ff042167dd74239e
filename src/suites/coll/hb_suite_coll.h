/* coll (hb_suite_coll.c): MPI collectives over communicators of ranks chosen by hop class;
 * the groups it times (hb_coll_groups.c) and its derived records (hb_coll_derive.c). */
#ifndef HB_SUITE_COLL_H
#define HB_SUITE_COLL_H

#include "hb_suite_kit.h"

#include <stdbool.h>

/* One communicator of the plan: the CPU nodes whose ranks it holds, what class of placement
 * it stands for ("package", "hops-1", "hops-2" ..., "world") and the most hops between two of
 * its nodes. */
struct hb_coll_group {
    char cls[24];
    int span_hops; /* -1: unknown (no distances) */
    bool *on;      /* per node index: its ranks are members */
};

/* The groups of the nodes taking part: the ranks of one package (when a package holds two
 * CPU nodes or more and fewer than all), then for each hop class k from 1 the largest set of
 * nodes that lies within k hops of each other and spans exactly k (smaller than the world),
 * then the world; a set equal to an earlier one is left out. *out (hb_coll_groups_free) and
 * *n; 0 or -ENOMEM with a message. */
int hb_coll_groups(const struct hb_suite_env *env, struct hb_coll_group **out, int *n);
void hb_coll_groups_free(struct hb_coll_group *g, int n);

/* What coll uses instead of a working set, into the run record: "messages" ({"bytes": the
 * plan's message sizes, "buffers": where each rank's are, "send_buffer": "rewritten before
 * every iteration" or "reused (--clean-buffers)"}) and sizes.size_bytes. 0 or -ENOMEM. */
int hb_suite_coll_run_sizes(const struct hb_suite_env *env, const struct hb_plan *plan,
                            json_t *run);

/* For each operation, size and load timed in two placements or more: a
 * {"type":"coll_placement"} record of the best and the worst placement (communicator class,
 * root, buffers) by p50 latency, their ratio with its interval, and a verdict only where the
 * two are apart beyond the noise and pass the family of every such verdict of the run
 * (hb_family_rec.h). 0 or -ENOMEM. */
int hb_coll_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived);

/* One repeat of a coll experiment, in seconds, and its records (one). */
double hb_suite_coll_estimate(const struct hb_suite_env *env, const struct hb_experiment *e,
                              int *records);

#endif
