/* The coll executor: each experiment of a coll plan (an operation, a size, a communicator of
 * the ranks on its nodes, a root) runs on a communicator split from the world, while the other
 * ranks wait at a barrier; rank 0 makes the records (hb_record_coll.h). */
#ifndef HB_COLL_EXEC_H
#define HB_COLL_EXEC_H

#include "hb_exec.h"
#include "hb_plan.h"
#include "hb_world.h"

#include <stdbool.h>

/* Run a coll plan io->repeats times round the whole plan, as hb_exec_plan does: each record
 * merged over its repeats, emitted on rank 0. clean: --clean-buffers. Returns the exit code
 * every rank agrees on: 0, or 1 when a rank's buffers were not where asked or could not be
 * had (rank 0 has said which). */
int hb_coll_exec_plan(const struct hb_world *w, const struct hb_topo *t, const struct hb_plan *plan,
                      const struct hb_exec_io *io, bool clean);

#endif
