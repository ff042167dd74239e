/* How many times the plan goes round: --repeat N rounds, or --repeat auto[:MAX] rounds until
 * every figure is clear (its interval's half-width within --noise), at most MAX or until
 * --max-time. One controller for every executor (mpi/hb_exec.c, mpi/hb_msg.c,
 * omp/hb_pair_exec.c); rank 0 decides, the MPI executors broadcast what it decided. */
#ifndef HB_ROUNDS_H
#define HB_ROUNDS_H

#include "hb_repeat.h"

#include <stdbool.h>

/* The fewest rounds --repeat auto takes: the first at which a figure's interval covers at
 * least 95% of the true median (6 repeats: [min, max], 96.9%). */
#define HB_ROUNDS_AUTO_MIN 6
/* The rounds --repeat auto takes at most unless MAX is given. */
#define HB_ROUNDS_AUTO_MAX 30

struct hb_rounds {
    int rounds;        /* --repeat N, or auto's MAX */
    bool until_clear;  /* --repeat auto */
    double max_time_s; /* auto: stop before a round that would end past it (0: none) */
    double start_s;    /* when the first round began */
    int round;         /* the next round to run */
};

/* Where a run is, for its progress line: round `round` (0-based) of at most `rounds`,
 * experiment x of n. */
struct hb_round_step {
    int round, rounds;
    int x, n;
    bool until_clear;
};

/* repeats: --repeat N, or auto's MAX (clamped to at least 1 and, for auto, to the minimum). */
void hb_rounds_init(struct hb_rounds *rd, int repeats, bool until_clear, double max_time_s);

/* Rank 0, before each round: which experiments it runs (run[x] 1 or 0, for reps->nexp) and
 * the round's number; -1 when the run is done, each experiment's stop then said in reps
 * (clear, max, time; fixed for --repeat N). */
int hb_rounds_next(struct hb_rounds *rd, struct hb_repeats *reps, int *run);

/* Whether round r is the last every experiment takes (--repeat N only: auto knows it after
 * the round, and its records are merged when the run is done). */
bool hb_rounds_last(const struct hb_rounds *rd, int r);

#endif
