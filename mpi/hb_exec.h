/* The executor: rank 0 broadcasts each experiment, every rank runs its node's tasks, the
 * results come back to rank 0 as records (docs/design.md#executor). */
#ifndef HB_EXEC_H
#define HB_EXEC_H

#include "hb_plan.h"
#include "hb_rounds.h"
#include "hb_world.h"

#include <jansson.h>
#include <stdbool.h>

/* Called on rank 0 for every record as soon as it exists; steals nothing (the executor keeps
 * and releases its reference). Returns 0 or -errno to stop. */
typedef int (*hb_emit_fn)(json_t *rec, void *ctx);

/* Progress hook, rank 0: experiment i (0-based) of n is about to run. May be NULL. */
typedef void (*hb_progress_fn)(const struct hb_round_step *s, const struct hb_experiment *e,
                               void *ctx);

struct hb_exec_io {
    hb_emit_fn emit;
    hb_progress_fn progress;
    void *ctx;
    const char *simd;
    bool allow_misplaced;
    int repeats;       /* --repeat: independent repeats of every experiment; auto's most */
    double noise_pct;  /* --noise: a figure is noisy past this half-width */
    bool until_clear;  /* --repeat auto: round after round until every figure is clear */
    double max_time_s; /* auto: the run's time, 0 for none (hb_rounds.h) */
};

/* The rounds of a plan of n experiments on every rank (hb_rounds.h: --repeat N, or auto
 * until every figure is clear), decided on rank 0 with reps and broadcast; one(ctx, x,
 * round, last) runs experiment x's round and returns the code every rank agrees on. A
 * failed measurement (1) lets the rest run; a worse code stops there. Returns the worst. */
int hb_exec_rounds(const struct hb_world *w, const struct hb_plan *plan, int n,
                   const struct hb_exec_io *io, struct hb_repeats *reps,
                   int (*one)(void *ctx, int x, int round, bool last), void *ctx);

/* Run `plan` (meaningful on rank 0; other ranks pass any plan) round after round (hb_exec_rounds),
 * the whole plan each time, every repeat on fresh memory with seed + repeat. Each measurement
 * record, merged over its repeats (hb_repeat.h), is emitted on rank 0 and freed once emitted
 * (docs/design.md#gather).
 * Returns the exit code every rank agrees on: 0, or 1 when a measurement failed validation
 * or placement (the failing rank has printed why). Fatal errors abort the job. */
int hb_exec_plan(const struct hb_world *w, const struct hb_topo *t, const struct hb_plan *plan,
                 const struct hb_exec_io *io);

/* Experiment x of rank 0's plan on every rank, sent as packed bytes (its tasks and node
 * sets have any size); the job ends with a message when that fails. hb_plan_experiment_clear e. */
void hb_exec_receive(const struct hb_world *w, const struct hb_plan *plan, int x,
                     struct hb_experiment *e);

struct hb_repeats;
/* Rank 0, after a run stopped on a failed measurement (code <= 1): what was measured is
 * still written, each experiment with the repeats it has. Returns code, or 3 when writing
 * failed (said on stderr). Other ranks: code. */
int hb_exec_emit_rest(const struct hb_world *w, struct hb_repeats *reps,
                      const struct hb_exec_io *io, int code);

#endif
