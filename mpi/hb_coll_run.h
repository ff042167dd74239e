/* One rank's part of a coll measurement: its buffers placed and verified, then the collective
 * timed iteration by iteration over a communicator, as osu_allreduce and osu_bcast time it
 * (each call timed alone, a barrier between calls), the send buffer rewritten before every
 * call unless clean. */
#ifndef HB_COLL_RUN_H
#define HB_COLL_RUN_H

#include "hb_placement.h"
#include "hb_record_coll.h"
#include "hb_topo.h"

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

struct hb_coll_job {
    const struct hb_topo *t;
    MPI_Comm comm;
    int op;       /* hb_coll_op_names index */
    size_t bytes; /* one message: each rank's block */
    int root;     /* communicator rank of the root of a rooted op, else -1 */
    enum hb_policy policy;
    const int *mem_nodes; /* OS indexes: [0] for bind, the set for interleave */
    int nmem_nodes;
    enum hb_pages pages;
    int reps; /* samples */
    double min_time_s;
    bool clean;
    bool allow_misplaced;
};

/* Run this rank's part; every rank of job->comm calls it. mine: this rank's own figures
 * (rank and node are the caller's). On the communicator's first rank, r gets the result
 * (ranks: the communicator's size, the figures over every rank) and per (room for r->ranks)
 * every rank's, samples r->nsamples sample times (room for job->reps). A rank whose buffers
 * fail fails them all: nothing is timed, r->status and note say which rank and why. */
void hb_coll_run(const struct hb_coll_job *job, struct hb_coll_rank *mine, struct hb_coll_result *r,
                 struct hb_coll_rank *per, double *samples);

#endif
