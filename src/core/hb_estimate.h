/* What a plan will cost before it runs: experiments, measurements, the nodes it touches and
 * about how long it takes, for the dry run's plan_summary and the line a run prints first.
 * The time is a model, not a measurement: each repeat of an experiment allocates and
 * faults its working set in, sweeps it once to warm up, then takes its samples, each at
 * least --min-time and at least one sweep; a suite whose experiments run otherwise (comm's
 * messages, c2c's pairs) has a model of its own. */
#ifndef HB_ESTIMATE_H
#define HB_ESTIMATE_H

#include "hb_plan.h"

#include <hwloc.h>

/* Faulting pages in and initialising them (MADV_POPULATE_WRITE, then the kernel's init), per
 * thread: the model's rate, shared with the suites' own models. */
#define HB_EST_TOUCH_BPS 1.0e9

struct hb_estimate {
    int experiments;                     /* in the plan */
    int measurements;                    /* measurement records it will write, one repeat */
    int repeats;                         /* each experiment runs this many times */
    double seconds;                      /* about how long, all repeats */
    int repeats_max;                     /* --repeat auto: at most this many (0: fixed) */
    double seconds_max;                  /* --repeat auto: about how long at most */
    hwloc_bitmap_t cpu_nodes, mem_nodes; /* OS indexes taking part (to free) */
};

/* Floating-point work of the intensity kernel, per thread (its param: flops per byte). */
#define HB_EST_FLOPS 1e9

/* What the model asks of the suites and kernels (ctx: theirs). */
struct hb_estimate_model {
    /* A suite's own model of one repeat of an experiment, in seconds (comm's messages), or a
     * negative number where the kernel model fits; NULL: none. It may set *records to the
     * measurement records e writes (comm: one per rank pair), else one per foreground task. */
    double (*experiment_s)(const void *ctx, const struct hb_experiment *e, int *records);
    /* A bandwidth kernel's sweep rate per thread, bytes of the task a second (0: unknown). */
    double (*kernel_bps)(const void *ctx, const char *kernel);
    const void *ctx;
};

/* 0, or -ENOMEM with a message. */
int hb_estimate_plan(const struct hb_plan *p, int repeats, const struct hb_estimate_model *m,
                     struct hb_estimate *out);
void hb_estimate_free(struct hb_estimate *e);

/* An estimate made at `most` repeats turned into auto's range: `least` to `most` repeats,
 * the longest cut at max_time_s (0: none) and the round it lets finish. */
void hb_estimate_range(struct hb_estimate *e, int least, int most, double max_time_s);

/* "about 41 s", "about 12 min", "about 2.5 h" into buf. */
const char *hb_estimate_words(double seconds, char *buf, size_t len);

#endif
