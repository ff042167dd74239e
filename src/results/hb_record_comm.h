/* The measurement record of one comm pair (suite comm: two ranks, one metric, one message
 * size), built on rank 0 from what the two ends measured (mpi/hb_msg.h). */
#ifndef HB_RECORD_COMM_H
#define HB_RECORD_COMM_H

#include "hb_plan.h"
#include "hb_topo.h"

#include <jansson.h>
#include <stdint.h>

#define HB_COMM_NOTE_LEN 240

/* What a pair measured, as plain bytes (it travels from the sending end to rank 0). */
struct hb_comm_result {
    int status; /* 0, or -errno: the pair's measurement failed (note says why) */
    int src_rank, dst_rank;
    double src_pages_pct, dst_pages_pct; /* pages_on_target_pct of each end's buffers */
    uint64_t pages_checked;              /* both ends together */
    uint64_t iterations;                 /* per sample: exchanges (latency) or windows */
    int window;                          /* messages in flight per window (bandwidth) */
    int nsamples;                        /* samples_s of the record */
    double p50_us, p99_us, max_us;       /* latency: one-way, over every timed iteration */
    char timer[16];                      /* latency: what timed each exchange (hb_ticks_source) */
    double bytes_per_sample;             /* bandwidth: payload moved in one sample */
    double elapsed_s;
    char note[HB_COMM_NOTE_LEN];
};

/* Where the pair ran and how its messages travelled. */
struct hb_comm_origin {
    const char *src_host, *dst_host;
    const char *transport; /* hb_msg_transport's words */
    int src_cpu, dst_cpu;  /* where each end's messaging thread ran (-1: unknown) */
};

/* The record: the columns of every measurement record (hb_record_columns) for the sending end,
 * the plan's keys (src_node, dst_node, hops, message_bytes, src_mem_node, dst_mem_node), then
 * src_rank, dst_rank, src_host, dst_host, src_cpu, dst_cpu (thread_cpus: [src_cpu]),
 * iterations, window, p50_us, p99_us, max_us, timer and transport; hops and distance are null for
 * two hosts. samples: the nsamples sample times. New reference, NULL when out of memory. */
json_t *hb_record_comm(const struct hb_topo *t, const struct hb_experiment *e,
                       const struct hb_comm_result *r, const double *samples,
                       const struct hb_comm_origin *o);

#endif
