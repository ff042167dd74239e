/* The rounds of a run (hb_rounds.h): a fixed count, or until every figure is clear. */
#include "hb_rounds.h"

#include "hb_timer.h"

#include <stddef.h>

void hb_rounds_init(struct hb_rounds *rd, int repeats, bool until_clear, double max_time_s)
{
    int least = until_clear ? HB_ROUNDS_AUTO_MIN : 1;
    *rd = (struct hb_rounds){repeats > least ? repeats : least, until_clear,
                             until_clear && max_time_s > 0.0 ? max_time_s : 0.0, 0.0, 0};
}

/* Auto: every experiment done when it is clear; the run when all are, at MAX rounds, or when
 * the next round would end past --max-time (judged by the rounds so far). */
static int next_auto(struct hb_rounds *rd, struct hb_repeats *reps, int *run)
{
    double now = hb_timer_now(), spent = now - rd->start_s;
    const char *stop =
        rd->round >= rd->rounds ? "max"
        : rd->max_time_s > 0.0 && rd->round >= 1 && spent + spent / rd->round > rd->max_time_s
            ? "time"
            : NULL;
    int any = 0;
    for (int x = 0; x < reps->nexp; x++) {
        bool clear = rd->round >= HB_ROUNDS_AUTO_MIN && hb_repeat_store_clear(reps, x);
        run[x] = !stop && !clear;
        any |= run[x];
        hb_repeat_store_stop(reps, x, clear ? "clear" : stop);
    }
    return any ? rd->round++ : -1;
}

int hb_rounds_next(struct hb_rounds *rd, struct hb_repeats *reps, int *run)
{
    if (rd->round == 0) rd->start_s = hb_timer_now();
    if (rd->until_clear) return next_auto(rd, reps, run);
    for (int x = 0; x < reps->nexp; x++) {
        run[x] = 1;
        hb_repeat_store_stop(reps, x, "fixed");
    }
    return rd->round < rd->rounds ? rd->round++ : -1;
}

bool hb_rounds_last(const struct hb_rounds *rd, int r)
{
    return !rd->until_clear && r == rd->rounds - 1;
}
