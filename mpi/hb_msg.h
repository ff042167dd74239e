/* The comm executor: each experiment of a comm plan (a node pair, a metric, a message size)
 * runs for every ordered pair of ranks on those nodes, one pair at a time while the other
 * ranks wait at a barrier; rank 0 makes the records (hb_record_comm.h). */
#ifndef HB_MSG_H
#define HB_MSG_H

#include "hb_exec.h"
#include "hb_plan.h"
#include "hb_world.h"

#include <jansson.h>

/* comm's and coll's launch: two or more ranks, each bound inside one NUMA node (several may
 * share a node). Same answer on every rank; -HB_EENV, or -EINVAL for a launch of one rank,
 * with one line that names the command, says what was found and gives a launch line that
 * works (`args`: the command line without argv[0]). */
int hb_msg_check_layout(const struct hb_world *w, const char *command, const char *args);

/* Run a comm plan io->repeats times round the whole plan, as hb_exec_plan does: each
 * record merged over its repeats, emitted on rank 0. Returns the exit code every rank agrees
 * on: 0, or 1 when a pair's buffers were not where asked or could not be had (rank 0 has said
 * which). */
int hb_msg_exec_plan(const struct hb_world *w, const struct hb_topo *t, const struct hb_plan *plan,
                     const struct hb_exec_io *io);

#endif
