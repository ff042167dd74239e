/* What a plan will cost before it runs: experiments, measurements, the nodes it touches and
 * about how long it takes, for the dry run's plan_summary and the line a run prints first.
 * The time is a model, not a measurement: each repeat of an experiment allocates and
 * faults its working set in, sweeps it once to warm up, then takes its samples, each at
 * least --min-time and at least one sweep. */
#ifndef HB_ESTIMATE_H
#define HB_ESTIMATE_H

#include "hb_plan.h"

#include <hwloc.h>

struct hb_estimate {
    int experiments;                     /* in the plan */
    int measurements;                    /* records it will write: one per foreground task */
    int repeats;                         /* each experiment runs this many times */
    double seconds;                      /* about how long, all repeats */
    int repeats_max;                     /* --repeat auto: at most this many (0: fixed) */
    double seconds_max;                  /* --repeat auto: about how long at most */
    hwloc_bitmap_t cpu_nodes, mem_nodes; /* OS indexes taking part (to free) */
};

/* 0, or -ENOMEM with a message. */
int hb_estimate_plan(const struct hb_plan *p, int repeats, struct hb_estimate *out);
void hb_estimate_free(struct hb_estimate *e);

/* An estimate made at `most` repeats turned into auto's range: `least` to `most` repeats,
 * the longest cut at max_time_s (0: none) and the round it lets finish. */
void hb_estimate_range(struct hb_estimate *e, int least, int most, double max_time_s);

/* "about 41 s", "about 12 min", "about 2.5 h" into buf. */
const char *hb_estimate_words(double seconds, char *buf, size_t len);

#endif
