/* The measurement record of one coll experiment (an MPI collective over a communicator of
 * ranks, one operation, size and root), built on rank 0 from what the communicator's ranks
 * measured (mpi/hb_coll_exec.h). */
#ifndef HB_RECORD_COLL_H
#define HB_RECORD_COLL_H

#include "hb_plan.h"
#include "hb_record_comm.h"
#include "hb_topo.h"

#include <jansson.h>
#include <stdint.h>

/* What the communicator measured, as plain bytes (from its first rank to rank 0). */
struct hb_coll_result {
    int status;                    /* 0, or -errno: a rank's buffers failed (note says which) */
    int ranks;                     /* the communicator's */
    int root_rank;                 /* world rank of the root (rooted ops), else -1 */
    int ref_rank;                  /* world rank the hops are counted from: the root or the first */
    uint64_t iterations;           /* timed per sample */
    int nsamples;                  /* samples_s of the record */
    double p50_us, p99_us, max_us; /* over every timed iteration of its slowest rank's time */
    double mean_us;                /* the ranks' mean times averaged (what osu_* prints as Avg) */
    double pages_pct;              /* the least of every rank's pages_on_target_pct */
    uint64_t pages_checked;        /* every rank's together */
    char timer[16];
    double elapsed_s;
    char note[HB_COMM_NOTE_LEN];
};

/* One rank of the communicator. */
struct hb_coll_rank {
    int rank;       /* world rank */
    int node;       /* OS index of its node */
    int host;       /* its host's index (hops join only nodes of one host) */
    double mean_us; /* its mean time per iteration */
    double max_us;  /* its longest iteration */
    double pages_pct;
};

/* Where it ran and what the library used: the record's host and the collective component
 * and algorithm (hb_coll_mpit.h's words; "unknown" when the library does not say). */
struct hb_coll_origin {
    const char *host;
    const char *component, *algorithm, *component_source;
};

/* The record: the columns of every measurement record (cpu_node and mem_node of the
 * reference rank; mem_nodes: every rank's buffer node), the plan's keys (op, message_bytes,
 * coll_class, span_hops, root_node, buffers), then ranks, nodes (its ranks' node numbers),
 * root_rank, ref_rank, p50_us,
 * p99_us, max_us, mean_us, slowest_rank, slowest_us, per_rank (rank, node, hops from the
 * reference: null on another host, mean_us, max_us, pages_on_target_pct), hop_split (per hop
 * distance from the reference: ranks, median and max of their mean_us), iterations, timer,
 * send_buffer, coll_component, coll_algorithm, coll_component_source. New reference, NULL when out
 * of memory. */
json_t *hb_record_coll(const struct hb_topo *t, const struct hb_experiment *e,
                       const struct hb_coll_result *r, const struct hb_coll_rank *per,
                       const double *samples, bool clean, const struct hb_coll_origin *o);

#endif
