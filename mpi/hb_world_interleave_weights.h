/* Weighted interleave's weights over the ranks of a run (hb_interleave_weights.h): set once per
 * host before anything is touched, put back once every rank is done. */
#ifndef HB_WORLD_INTERLEAVE_WEIGHTS_H
#define HB_WORLD_INTERLEAVE_WEIGHTS_H

#include "hb_plan.h"
#include "hb_world.h"

/* Collective: each host's first rank applies weights[k] to nodes[k] (or, without root, reads
 * the current ones); it prints its own failure. 0, or -HB_EENV on every rank when any host
 * failed (nothing left changed there). */
int hb_world_interleave_weights_apply(const struct hb_world *w, const int *nodes,
                                      const int *weights, int n);

/* Collective, before experiment e runs: when it carries its own weights (suite keys
 * "weights" and "weight_nodes", policy --weights auto), each host's first rank sets them
 * (the previous experiment's go back first); a failure ends the job. */
void hb_world_interleave_weights_experiment(const struct hb_world *w,
                                            const struct hb_experiment *e);

/* Collective: after the run, each host's first rank puts its weights back. */
void hb_world_interleave_weights_restore(const struct hb_world *w);

#endif
