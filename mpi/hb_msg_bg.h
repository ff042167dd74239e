/* comm --bg at run time: while a loaded experiment's pair of ranks exchanges messages, one rank
 * on each load node (of the pair's hosts) runs the experiment's background task there with the
 * OpenMP team (omp/hb_team.h); its messaging thread is the team's thread 0. */
#ifndef HB_MSG_BG_H
#define HB_MSG_BG_H

#include "hb_plan.h"
#include "hb_topo.h"
#include "hb_world.h"

#include <jansson.h>
#include <stdbool.h>

/* What one rank's load did (node -1: this rank ran none). */
struct hb_msg_bg_got {
    int node;       /* OS index */
    int threads;    /* load threads: the node's cores in the rank's binding but the first */
    int status;     /* 0, or the load task's failure (note says why) */
    double GBps;    /* bytes read over the span all its threads ran, after calibration */
    char note[160]; /* the first part of the task's note */
};

/* Collective in effect (every rank gives the same answer from the world's tables): every load
 * node the plan names with --load-nodes (named) has a rank on it, else -EINVAL with one line
 * naming the node and the nodes ranks sit on (without `named`, the default nodes, a node
 * without a rank is simply not loaded); every rank on a load node is bound to two of its cores
 * or more, else -HB_EENV with a launch line that works (args: the command line without
 * argv[0]). Messages name `command` (comm, coll). */
int hb_msg_bg_check(const struct hb_world *w, const struct hb_topo *t, const struct hb_plan *plan,
                    bool named, const char *command, const char *args);

/* Whether e is a loaded experiment (it has background tasks). */
bool hb_msg_bg_loaded(const struct hb_experiment *e);

/* Collective: run body(ctx) on the ranks of pair (a, b) while every loading rank runs its
 * node's load; the load is running before body starts and stops after body has ended on
 * both ends. got (rank 0: w->size entries) receives every rank's hb_msg_bg_got. A team that
 * cannot run ends the job (hb_world_abort). */
void hb_msg_bg_around(const struct hb_world *w, const struct hb_topo *t,
                      const struct hb_experiment *e, int a, int b, bool allow_misplaced,
                      void (*body)(void *ctx), void *ctx, struct hb_msg_bg_got *got);

/* Rank 0: the load's columns of a loaded record (bg_hosts, bg_nodes, bg_threads, bg_GBps,
 * one entry per loading rank) from got; 0 or -ENOMEM. */
int hb_msg_bg_columns(const struct hb_world *w, const struct hb_msg_bg_got *got, json_t *rec);

#endif
