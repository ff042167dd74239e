/* The pinned pair (docs/design.md#kernels, beside the other kernels): two threads on chosen CPUs of
 * one process sharing one bound buffer, for what a cache line shared between cores costs:
 * ping-pong, false sharing, lock hand-off. c2c plans experiments of two one-thread tasks
 * (the writer, then the reader) that name a pair kernel (pingpong, fs_shared, fs_padded,
 * spinlock, mutex); they run here, not in a team, since a cross-node pair needs both threads
 * in one process. */
#ifndef HB_PAIR_H
#define HB_PAIR_H

#include "hb_plan.h"
#include "hb_result.h"
#include "hb_rounds.h"
#include "hb_topo.h"

#include <jansson.h>

/* The checks the dry run and the run share: every experiment is a writer and a reader task
 * of one thread each, on CPUs of this topology, naming a pair kernel, with one buffer of at
 * least the kernel's bytes, reps in range; or a migration (hb_migrate_check). 0 or -EINVAL
 * naming the experiment. */
int hb_pair_check(const struct hb_topo *t, const struct hb_plan *plan);

/* Run experiment e (checked by hb_pair_check) in this process: a pilot calibrates the
 * iterations to e->min_time_s, then e->reps samples after one warm-up. Fills *r (fresh from
 * hb_result_task_init for the topology's nodes and 2 threads) as a team fills the writer's
 * result (samples, where both threads ran, where the line's page was).
 * 0 when it ran (r->status says whether the count came out exact and the threads stayed
 * pinned: -HB_EVALIDATE or -HB_EENV with r->note); -errno when it could not start. */
int hb_pair_run(const struct hb_topo *t, const struct hb_experiment *e, struct hb_task_result *r);

/* What the in-process run hands each record to, as the MPI executor does (mpi/hb_exec.h). */
struct hb_pair_io {
    int (*emit)(json_t *rec, void *ctx); /* 0, or -errno to stop */
    void (*progress)(const struct hb_round_step *s, const struct hb_experiment *e,
                     void *ctx); /* or NULL */
    void *ctx;
    const char *simd;
    const char *host;
    int repeats;       /* --repeat: independent repeats of every experiment; auto's most */
    double noise_pct;  /* --noise */
    bool until_clear;  /* --repeat auto (hb_rounds.h) */
    double max_time_s; /* auto: the run's time, 0 for none */
};

/* Run every experiment of plan io->repeats times (round the plan each time, seed + repeat;
 * a migration by hb_migrate_run, a pair by hb_pair_run), emit each measurement record merged over
 * its repeats (hb_repeat.h). 0; -HB_EVALIDATE or
 * -HB_EENV (message set) when a measurement failed, after the others ran; -errno from emit or a
 * pair that could not start.
 */
int hb_pair_exec(const struct hb_topo *t, const struct hb_plan *plan, const struct hb_pair_io *io);

#endif
