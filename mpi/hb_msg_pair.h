/* One end of a comm measurement: two ranks exchange messages (ping-pong, a window of
 * non-blocking sends as osu_bw does, or both ways at once as osu_bibw does) from buffers
 * bound to a chosen node, with warm-up and an iteration count sized from --min-time. */
#ifndef HB_MSG_PAIR_H
#define HB_MSG_PAIR_H

#include "hb_msg_schedule.h"
#include "hb_placement.h"
#include "hb_record_comm.h"
#include "hb_topo.h"

#include <stdbool.h>
#include <stddef.h>

enum hb_msg_metric { HB_MSG_LATENCY, HB_MSG_BANDWIDTH, HB_MSG_BIBANDWIDTH };

struct hb_msg_job {
    const struct hb_topo *t;
    int peer;    /* the other end's rank */
    bool sender; /* the src end: it drives the exchange, times it and fills the result */
    enum hb_msg_metric metric;
    size_t bytes; /* one message */
    int mem_node; /* this end's buffers, bound (OS index) */
    enum hb_pages pages;
    int reps; /* samples */
    double min_time_s;
    bool allow_misplaced;
};

/* Run this end. The sender fills r (and samples: r->nsamples times, room for job->reps); the
 * receiver fills only its status, pages and note, which it then sends to the sender. Both ends
 * return together; a failure on either end (buffers, placement, memory) is r->status with a
 * note on the sender, nothing is measured then. */
void hb_msg_pair_run(const struct hb_msg_job *job, struct hb_comm_result *r, double *samples);

#endif
