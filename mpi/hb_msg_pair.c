/* One end of a comm measurement (hb_msg_pair.h): buffers bound and verified, the two ends
 * agree to go on, the sender sizes the batches and both run them. */
#include "hb_msg_pair.h"

#include "hb_error.h"
#include "hb_stats.h"
#include "hb_ticks.h"
#include "hb_timer.h"

#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HB_TAG_CTRL = 7101, HB_TAG_DATA, HB_TAG_ACK, HB_TAG_END };

/* What each end says of itself before anything is exchanged. */
struct hb_msg_end {
    int status;
    double pages_pct;
    uint64_t pages_checked;
    char note[HB_COMM_NOTE_LEN - 16]; /* room for "receiver: " before it */
};

struct hb_msg_bufs {
    struct hb_buf s, r;
    MPI_Request req[2 * HB_MSG_WINDOW];
};

/* Both buffers bound to job->mem_node, touched, and where their pages are. */
static void msg_alloc(const struct hb_msg_job *job, struct hb_msg_bufs *b, struct hb_msg_end *me)
{
    struct hb_buf *bufs[2] = {&b->s, &b->r};
    uint64_t on_target = 0;
    for (int i = 0; i < 2 && me->status == 0; i++) {
        int rc = hb_placement_buf_alloc(job->t, job->bytes, HB_POLICY_BIND, &job->mem_node, 1,
                                        job->pages, bufs[i]);
        struct hb_pageloc pl;
        if (rc == 0) {
            memset(bufs[i]->ptr, 0x5a, job->bytes);
            rc = hb_placement_buf_locate(job->t, bufs[i], NULL, 0, &pl);
        }
        if (rc) {
            me->status = rc;
            snprintf(me->note, sizeof(me->note), "%s", hb_error_msg());
            return;
        }
        me->pages_checked += pl.checked;
        on_target += (uint64_t)llround(pl.on_target_pct / 100.0 * (double)pl.checked);
        hb_placement_pageloc_free(&pl);
    }
    me->pages_pct = me->pages_checked ? 100.0 * (double)on_target / (double)me->pages_checked : 0;
    if (me->pages_pct < 100.0 && !job->allow_misplaced) {
        me->status = -HB_EPLACEMENT;
        snprintf(me->note, sizeof(me->note),
                 "only %.2f%% of %llu pages of the message buffers on node %d; rerun with "
                 "--allow-misplaced to measure anyway",
                 me->pages_pct, (unsigned long long)me->pages_checked, job->mem_node);
    }
}

/* n exchanges; lat: each one's round trip in hb_ticks (the sender's ping-pong), or NULL. */
static void msg_batch(const struct hb_msg_job *job, struct hb_msg_bufs *b, uint64_t n, double *lat)
{
    const int count = (int)job->bytes, peer = job->peer, w = HB_MSG_WINDOW;
    MPI_Comm c = MPI_COMM_WORLD;
    int ack = 0;
    uint64_t k0 = lat ? hb_ticks() : 0;
    for (uint64_t i = 0; i < n; i++) {
        if (job->metric == HB_MSG_LATENCY && job->sender) {
            MPI_Send(b->s.ptr, count, MPI_BYTE, peer, HB_TAG_DATA, c);
            MPI_Recv(b->r.ptr, count, MPI_BYTE, peer, HB_TAG_DATA, c, MPI_STATUS_IGNORE);
            if (lat) {
                uint64_t k1 = hb_ticks();
                lat[i] = (double)(k1 - k0);
                k0 = k1;
            }
        } else if (job->metric == HB_MSG_LATENCY) {
            MPI_Recv(b->r.ptr, count, MPI_BYTE, peer, HB_TAG_DATA, c, MPI_STATUS_IGNORE);
            MPI_Send(b->s.ptr, count, MPI_BYTE, peer, HB_TAG_DATA, c);
        } else if (job->metric == HB_MSG_BANDWIDTH && job->sender) {
            for (int k = 0; k < w; k++)
                MPI_Isend(b->s.ptr, count, MPI_BYTE, peer, HB_TAG_DATA, c, &b->req[k]);
            MPI_Waitall(w, b->req, MPI_STATUSES_IGNORE);
            MPI_Recv(&ack, 1, MPI_INT, peer, HB_TAG_ACK, c, MPI_STATUS_IGNORE);
        } else if (job->metric == HB_MSG_BANDWIDTH) {
            for (int k = 0; k < w; k++)
                MPI_Irecv(b->r.ptr, count, MPI_BYTE, peer, HB_TAG_DATA, c, &b->req[k]);
            MPI_Waitall(w, b->req, MPI_STATUSES_IGNORE);
            MPI_Send(&ack, 1, MPI_INT, peer, HB_TAG_ACK, c);
        } else {
            /* Both ways at once, as osu_bibw: a window posted in each direction. */
            for (int k = 0; k < w; k++)
                MPI_Irecv(b->r.ptr, count, MPI_BYTE, peer, HB_TAG_DATA, c, &b->req[k]);
            for (int k = 0; k < w; k++)
                MPI_Isend(b->s.ptr, count, MPI_BYTE, peer, HB_TAG_DATA, c, &b->req[w + k]);
            MPI_Waitall(2 * w, b->req, MPI_STATUSES_IGNORE);
        }
    }
}

/* The sender says how many exchanges come next (0: none, the end); both run them. lat: each
 * exchange's one-way time in seconds. */
static double msg_timed(const struct hb_msg_job *job, struct hb_msg_bufs *b, uint64_t n,
                        double *lat)
{
    MPI_Send(&n, 1, MPI_UINT64_T, job->peer, HB_TAG_CTRL, MPI_COMM_WORLD);
    uint64_t k0 = hb_ticks();
    double t0 = hb_timer_now();
    msg_batch(job, b, n, lat);
    double t = hb_timer_now() - t0;
    uint64_t k = hb_ticks() - k0;
    /* Ticks to seconds by the batch, timed both ways; half a round trip is one way. */
    double one_way = k ? t / (double)k / 2.0 : 0.0;
    for (uint64_t i = 0; lat && i < n; i++)
        lat[i] *= one_way;
    return t;
}

/* The receiver: batches until the sender says 0. */
static void msg_follow(const struct hb_msg_job *job, struct hb_msg_bufs *b)
{
    for (;;) {
        uint64_t n = 0;
        MPI_Recv(&n, 1, MPI_UINT64_T, job->peer, HB_TAG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (n == 0) return;
        msg_batch(job, b, n, NULL);
    }
}

/* The latency figures over every timed exchange, in microseconds. */
static void msg_latency(double *lat, uint64_t n, struct hb_comm_result *r)
{
    hb_stats_sort(lat, (int)n);
    r->p50_us = hb_stats_percentile(lat, (int)n, 0.5) * 1e6;
    r->p99_us = hb_stats_percentile(lat, (int)n, 0.99) * 1e6;
    r->max_us = lat[n - 1] * 1e6;
}

/* The sender: warm up, size the samples from --min-time, take them, then say 0. */
static void msg_lead(const struct hb_msg_job *job, struct hb_msg_bufs *b, struct hb_comm_result *r,
                     double *samples)
{
    uint64_t n = 1, done = 0;
    double t = 0.0;
    snprintf(r->timer, sizeof(r->timer), "%s", hb_ticks_source());
    for (;; n *= 2) {
        t = msg_timed(job, b, n, NULL);
        done += n;
        if (done >= HB_MSG_WARMUP_ITERS && t >= job->min_time_s * HB_MSG_WARMUP_SHARE) break;
    }
    /* A first batch can hold a connection's set-up or a page fault: size the samples from
     * the faster of two batches of the same length. */
    double again = msg_timed(job, b, n, NULL), per = fmin(t, again) / (double)n;
    uint64_t iters = per > 0.0 ? (uint64_t)ceil(job->min_time_s / per) : n;
    iters = iters ? iters : 1;
    bool lat_metric = job->metric == HB_MSG_LATENCY;
    double *lat = NULL;
    if (lat_metric && (iters > (uint64_t)INT32_MAX / (uint64_t)job->reps ||
                       !(lat = malloc(sizeof(*lat) * iters * (size_t)job->reps)))) {
        r->status = -ENOMEM;
        snprintf(r->note, sizeof(r->note), "out of memory for %llu x %d latency samples",
                 (unsigned long long)iters, job->reps);
    }
    /* Touched now, so that no page fault falls inside a timed exchange (p99, max). */
    if (lat) memset(lat, 0, sizeof(*lat) * iters * (size_t)job->reps);
    for (int s = 0; s < job->reps && r->status == 0; s++)
        samples[r->nsamples++] = msg_timed(job, b, iters, lat ? lat + (size_t)s * iters : NULL);
    uint64_t end = 0;
    MPI_Send(&end, 1, MPI_UINT64_T, job->peer, HB_TAG_CTRL, MPI_COMM_WORLD);
    r->iterations = iters;
    r->window = lat_metric ? 0 : HB_MSG_WINDOW;
    int ways = job->metric == HB_MSG_BIBANDWIDTH ? 2 : 1;
    r->bytes_per_sample = (double)job->bytes * HB_MSG_WINDOW * ways * (double)iters;
    if (lat) msg_latency(lat, iters * (uint64_t)job->reps, r);
    free(lat);
}

void hb_msg_pair_run(const struct hb_msg_job *job, struct hb_comm_result *r, double *samples)
{
    double t0 = hb_timer_now();
    struct hb_msg_bufs b;
    memset(&b, 0, sizeof(b));
    struct hb_msg_end me = {0}, peer = {0};
    msg_alloc(job, &b, &me);
    /* Each end's verdict on its buffers to the other: both go on, or neither. */
    MPI_Sendrecv(&me, sizeof(me), MPI_BYTE, job->peer, HB_TAG_END, &peer, sizeof(peer), MPI_BYTE,
                 job->peer, HB_TAG_END, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const struct hb_msg_end *src = job->sender ? &me : &peer, *dst = job->sender ? &peer : &me;
    r->status = src->status ? src->status : dst->status;
    if (r->status)
        snprintf(r->note, sizeof(r->note), "%s: %s", src->status ? "sender" : "receiver",
                 src->status ? src->note : dst->note);
    r->src_pages_pct = src->pages_pct;
    r->dst_pages_pct = dst->pages_pct;
    r->pages_checked = src->pages_checked + dst->pages_checked;
    if (r->status == 0 && job->sender) msg_lead(job, &b, r, samples);
    if (r->status == 0 && !job->sender) msg_follow(job, &b);
    hb_placement_buf_free(&b.s);
    hb_placement_buf_free(&b.r);
    r->elapsed_s = hb_timer_now() - t0;
}
