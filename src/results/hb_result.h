/* What one task of one experiment produced on the rank that ran it: ranks send it to rank 0
 * as bytes (the fixed part, then its arrays), and rank 0 turns it into records. */
#ifndef HB_RESULT_H
#define HB_RESULT_H

#include "hb_placement.h"

#include <stdint.h>

#define HB_MAX_REPS 1000

struct hb_task_result {
    int ran;    /* 1 when a rank ran this task */
    int status; /* 0 ok, or a negative errno (note says why) */
    char note[320];
    int nsamples;
    double samples[HB_MAX_REPS]; /* seconds per kept sample */
    uint64_t sweeps_per_sample;
    uint64_t elements;          /* per array, all threads together */
    double bytes_per_sample;    /* bytes moved in one sample (kernel metadata, one place) */
    double bytes_wa_per_sample; /* the same under the write-allocate model (hb_kernel.h) */
    double loads_per_sample;    /* latency kernels: dependent loads per sample */
    double t_start, t_end;      /* span of the kept samples (fg) or of the load (bg), monotonic */
    double bg_bytes;            /* background: bytes moved while running (after calibration) */
    double bg_target_GBps;      /* background: the pace aimed at, all threads; 0 = unpaced */
    double elapsed_s;           /* allocation to release, on the rank */
    uint64_t pages_checked;     /* pages located, over all arrays of the task */
    double pages_on_target_pct; /* % of them on the intended node(s) */
    int npages_nodes;           /* entries of pages_on_node: the topology's nodes */
    uint64_t *pages_on_node;    /* per node index */
    int threads; /* threads the task ran with (whole_node tasks: this host's cores) */
    int threads_on_node;
    int nthread_cpus; /* entries of thread_cpus */
    int *thread_cpus; /* the CPU each thread ran on */
};

/* An empty result with room for nnodes page counts and `threads` CPUs: 0 or -ENOMEM with
 * a message. Free with hb_result_task_free (also after a failed init). */
int hb_result_task_init(struct hb_task_result *r, int nnodes, int threads);
void hb_result_task_free(struct hb_task_result *r);

#endif
