/* One rank's part of a coll measurement (hb_coll_run.h): buffers, the agreement to go on,
 * warm-up and batches sized from --min-time by the communicator's first rank, then every
 * rank's iteration times reduced to the slowest rank's per iteration. */
#include "hb_coll_run.h"

#include "hb_error.h"
#include "hb_msg_schedule.h"
#include "hb_options.h"
#include "hb_stats.h"
#include "hb_ticks.h"
#include "hb_timer.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* hb_coll_op_names' order. */
enum { OP_ALLREDUCE, OP_REDUCE, OP_BCAST, OP_ALLGATHER, OP_ALLTOALL, OP_BARRIER };

struct coll_bufs {
    struct hb_buf s, r;
    int n; /* the communicator's ranks */
};

/* The send and receive buffers' bytes: a block per rank where the op sends or gathers one. */
static void coll_sizes(const struct hb_coll_job *job, int n, size_t *send, size_t *recv)
{
    *send = job->op == OP_ALLTOALL ? job->bytes * (size_t)n : job->bytes;
    *recv = job->op == OP_ALLGATHER || job->op == OP_ALLTOALL ? job->bytes * (size_t)n : job->bytes;
    if (job->op == OP_BARRIER) *send = *recv = 0;
}

/* Both buffers placed as the job says, touched, and where their pages are: 0, or the
 * status with the note in note. */
static int coll_alloc(const struct hb_coll_job *job, struct coll_bufs *b, struct hb_coll_rank *mine,
                      uint64_t *checked, char *note, size_t nlen)
{
    size_t bytes[2];
    coll_sizes(job, b->n, &bytes[0], &bytes[1]);
    struct hb_buf *bufs[2] = {&b->s, &b->r};
    uint64_t on = 0, all = 0;
    for (int i = 0; i < 2; i++) {
        if (!bytes[i]) continue;
        struct hb_pageloc pl;
        int rc = hb_placement_buf_alloc(job->t, bytes[i], job->policy, job->mem_nodes,
                                        job->nmem_nodes, job->pages, bufs[i]);
        if (rc == 0) {
            memset(bufs[i]->ptr, 1, bytes[i]);
            rc = hb_placement_buf_locate(job->t, bufs[i], NULL, 0, &pl);
        }
        if (rc) {
            snprintf(note, nlen, "%s", hb_error_msg());
            return rc;
        }
        all += pl.checked;
        on += (uint64_t)llround(pl.on_target_pct / 100.0 * (double)pl.checked);
        hb_placement_pageloc_free(&pl);
    }
    *checked = all;
    mine->pages_pct = all ? 100.0 * (double)on / (double)all : 100.0;
    if (mine->pages_pct < 100.0 && !job->allow_misplaced) {
        snprintf(note, nlen,
                 "only %.2f%% of %llu pages of the buffers on their node(s); rerun with "
                 "--allow-misplaced to measure anyway",
                 mine->pages_pct, (unsigned long long)all);
        return -HB_EPLACEMENT;
    }
    return 0;
}

/* One call of the collective. */
static void coll_call(const struct hb_coll_job *job, struct coll_bufs *b)
{
    int count = (int)job->bytes, floats = (int)(job->bytes / sizeof(float));
    switch (job->op) {
    case OP_ALLREDUCE:
        MPI_Allreduce(b->s.ptr, b->r.ptr, floats, MPI_FLOAT, MPI_SUM, job->comm);
        break;
    case OP_REDUCE:
        MPI_Reduce(b->s.ptr, b->r.ptr, floats, MPI_FLOAT, MPI_SUM, job->root, job->comm);
        break;
    case OP_BCAST:
        MPI_Bcast(b->s.ptr, count, MPI_CHAR, job->root, job->comm);
        break;
    case OP_ALLGATHER:
        MPI_Allgather(b->s.ptr, count, MPI_CHAR, b->r.ptr, count, MPI_CHAR, job->comm);
        break;
    case OP_ALLTOALL:
        MPI_Alltoall(b->s.ptr, count, MPI_CHAR, b->r.ptr, count, MPI_CHAR, job->comm);
        break;
    default:
        MPI_Barrier(job->comm);
    }
}

/* n calls, each timed alone with a barrier after it (osu_*'s loop); the send buffer rewritten
 * before each unless clean (a bcast's only at the root, where it is sent from). lat: each
 * call's seconds, or NULL: timed with the CPU's counter (hb_ticks.h, as comm times its
 * exchanges: a clock_gettime on each side of an 8 B call would be a tenth of it), turned into
 * seconds by the batch timed with the clock too. Returns the batch's seconds on this rank,
 * barriers and rewrites included: what --min-time's samples last. */
static double coll_batch(const struct hb_coll_job *job, struct coll_bufs *b, uint64_t n,
                         double *lat)
{
    int me = 0;
    MPI_Comm_rank(job->comm, &me);
    size_t send = 0, recv = 0;
    coll_sizes(job, b->n, &send, &recv);
    bool dirty = !job->clean && send && (job->op != OP_BCAST || me == job->root);
    double start = hb_timer_now();
    uint64_t k0 = hb_ticks();
    for (uint64_t i = 0; i < n; i++) {
        /* Normal floats whatever the byte (0x3c..0x3f): no denormal slows a reduction. */
        if (dirty) memset(b->s.ptr, 0x3c + (int)(i & 3), send);
        uint64_t t0 = hb_ticks();
        coll_call(job, b);
        if (lat) lat[i] = (double)(hb_ticks() - t0);
        MPI_Barrier(job->comm);
    }
    double t = hb_timer_now() - start;
    uint64_t k = hb_ticks() - k0;
    double per_tick = k ? t / (double)k : 0.0;
    for (uint64_t i = 0; lat && i < n; i++)
        lat[i] *= per_tick;
    return t;
}

/* Warm-up batches of 1, 2, 4 ... calls and a pilot, as comm's schedule; the first rank's
 * times decide for every rank. A batch that alone lasts --min-time ends the warm-up too:
 * calls that slow (a loaded or emulated machine) are warm after one, and 31 more would only
 * cost time. Returns the calls per sample. */
static uint64_t coll_size_samples(const struct hb_coll_job *job, struct coll_bufs *b)
{
    uint64_t n = 1, done = 0;
    double t = 0.0;
    for (;; n *= 2) {
        t = coll_batch(job, b, n, NULL);
        MPI_Bcast(&t, 1, MPI_DOUBLE, 0, job->comm);
        done += n;
        if ((done >= HB_MSG_WARMUP_ITERS && t >= job->min_time_s * HB_MSG_WARMUP_SHARE) ||
            t >= job->min_time_s)
            break;
    }
    double again = coll_batch(job, b, n, NULL);
    MPI_Bcast(&again, 1, MPI_DOUBLE, 0, job->comm);
    double per = fmin(t, again) / (double)n;
    uint64_t iters = per > 0.0 ? (uint64_t)ceil(job->min_time_s / per) : n;
    uint64_t most = (uint64_t)INT_MAX / (uint64_t)job->reps;
    return iters < 1 ? 1 : iters > most ? most : iters;
}

/* The first failing rank's status and note on every rank (0 when none failed). */
static int coll_agree(const struct hb_coll_job *job, int status, char *note, size_t nlen)
{
    int me = 0, first = INT_MAX;
    MPI_Comm_rank(job->comm, &me);
    int mine = status ? me : INT_MAX;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, job->comm);
    if (first == INT_MAX) return 0;
    MPI_Bcast(&status, 1, MPI_INT, first, job->comm);
    MPI_Bcast(note, (int)nlen, MPI_CHAR, first, job->comm);
    return status;
}

/* Rank 0 of the communicator: the slowest rank's time per call over every sample. */
static void coll_figures(const double *slowest, uint64_t iters, int reps, struct hb_coll_result *r,
                         double *samples, double *sorted)
{
    uint64_t all = iters * (uint64_t)reps;
    for (int s = 0; s < reps; s++) {
        double sum = 0.0;
        for (uint64_t i = 0; i < iters; i++)
            sum += slowest[(uint64_t)s * iters + i];
        samples[s] = sum / (double)iters;
    }
    r->nsamples = reps;
    memcpy(sorted, slowest, sizeof(*sorted) * all);
    hb_stats_sort(sorted, (int)all);
    r->p50_us = hb_stats_percentile(sorted, (int)all, 0.5) * 1e6;
    r->p99_us = hb_stats_percentile(sorted, (int)all, 0.99) * 1e6;
    r->max_us = sorted[all - 1] * 1e6;
}

/* Take the samples: every rank's per-call times, the slowest per call on rank 0. */
static int coll_measure(const struct hb_coll_job *job, struct coll_bufs *b,
                        struct hb_coll_rank *mine, struct hb_coll_result *r, double *samples)
{
    int me = 0;
    MPI_Comm_rank(job->comm, &me);
    uint64_t iters = coll_size_samples(job, b), all = iters * (uint64_t)job->reps;
    double *lat = malloc(sizeof(*lat) * all), *slow = me == 0 ? malloc(sizeof(*slow) * all) : NULL;
    int status = lat && (me != 0 || slow) ? 0 : -ENOMEM;
    char note[HB_COMM_NOTE_LEN] = "";
    if (status)
        snprintf(note, sizeof(note), "out of memory for %llu x %d call times",
                 (unsigned long long)iters, job->reps);
    /* Touched now, so that no page fault falls inside a timed call. */
    if (lat) memset(lat, 0, sizeof(*lat) * all);
    if ((status = coll_agree(job, status, note, sizeof(note))) != 0) {
        r->status = status;
        snprintf(r->note, sizeof(r->note), "%s", note);
    }
    for (int s = 0; s < job->reps && status == 0; s++)
        coll_batch(job, b, iters, lat + (uint64_t)s * iters);
    if (status == 0) {
        double sum = 0.0, most = 0.0;
        for (uint64_t i = 0; i < all; i++) {
            sum += lat[i];
            most = fmax(most, lat[i]);
        }
        mine->mean_us = sum / (double)all * 1e6;
        mine->max_us = most * 1e6;
        MPI_Reduce(lat, slow, (int)all, MPI_DOUBLE, MPI_MAX, 0, job->comm);
        if (me == 0) coll_figures(slow, iters, job->reps, r, samples, lat);
        r->iterations = iters;
    }
    free(lat);
    free(slow);
    return status;
}

void hb_coll_run(const struct hb_coll_job *job, struct hb_coll_rank *mine, struct hb_coll_result *r,
                 struct hb_coll_rank *per, double *samples)
{
    double t0 = hb_timer_now();
    const char *timer = hb_ticks_source(); /* every rank decides its counter before timing */
    struct coll_bufs b;
    memset(&b, 0, sizeof(b));
    MPI_Comm_size(job->comm, &b.n);
    int me = 0;
    MPI_Comm_rank(job->comm, &me);
    char note[HB_COMM_NOTE_LEN] = "";
    uint64_t checked = 0;
    /* A failure's note names the rank, then why. */
    int at = snprintf(note, sizeof(note), "rank %d (node %d): ", mine->rank, mine->node);
    at = at > 0 && (size_t)at < sizeof(note) ? at : 0;
    int status = coll_alloc(job, &b, mine, &checked, note + at, sizeof(note) - (size_t)at);
    if (status == 0) note[0] = '\0';
    if (me == 0) {
        memset(r, 0, sizeof(*r));
        r->ranks = b.n;
        snprintf(r->timer, sizeof(r->timer), "%s", timer);
    }
    MPI_Reduce(&checked, me == 0 ? &r->pages_checked : NULL, 1, MPI_UINT64_T, MPI_SUM, 0,
               job->comm);
    if ((status = coll_agree(job, status, note, sizeof(note))) != 0 && me == 0) {
        r->status = status;
        snprintf(r->note, sizeof(r->note), "%s", note);
    }
    if (status == 0) coll_measure(job, &b, mine, r, samples);
    MPI_Gather(mine, (int)sizeof(*mine), MPI_BYTE, per, (int)sizeof(*mine), MPI_BYTE, 0, job->comm);
    if (me == 0) {
        double sum = 0.0, least = 100.0;
        for (int k = 0; k < b.n; k++) {
            sum += per[k].mean_us;
            least = fmin(least, per[k].pages_pct);
        }
        r->mean_us = sum / (double)b.n;
        r->pages_pct = least;
    }
    hb_placement_buf_free(&b.s);
    hb_placement_buf_free(&b.r);
    if (me == 0) r->elapsed_s = hb_timer_now() - t0;
}
