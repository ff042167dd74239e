/* Change points in a history (issue 41): per series, E-divisive means (Matteson and James,
 * as Apache Otava uses it) over the points' medians in windows, each split tested by a rank
 * test over the two segments' pooled repeats (no permutations: the same input gives the same
 * answer), weak splits merged away, the rest kept when their BH-adjusted p across all series
 * passes the level and their change passes compare's threshold; and slow creep, the latest
 * segment against the best earlier one. */
#ifndef HB_CHANGEPOINT_H
#define HB_CHANGEPOINT_H

#include "hb_history_series.h"
#include "hb_interval.h"

#include <stdbool.h>
#include <stddef.h>

struct hb_changepoint_params {
    size_t window;     /* points E-divisive looks at at once (--window, default 50) */
    double min_change; /* percent a change must pass (--min-change, default compare's) */
    double fdr;        /* the false discovery rate over all series (default 0.05) */
    size_t recent;     /* a change point in the last `recent` points is recent (default 1) */
    /* A history too big to hold at once (check of a whole fleet: the store hands over one
     * host's series at a time): find keeps every split whose change passes min_change,
     * p_adjusted NaN, none dropped for its p; hb_changepoint_fdr then adjusts the union of
     * several calls' splits and keeps those that pass. false: find does both. */
    bool fdr_later;
    /* The series one after another on the caller's thread (check: its other thread reads the
     * next host meanwhile, and a team of threads would spin while it waits), not in
     * parallel. */
    bool one_thread;
};

/* The widest window: E-divisive keeps a window's (window + 1)^2 sums (8 MiB at 1000). */
#define HB_CHANGEPOINT_MAX_WINDOW 1000

/* The defaults: window 50, compare's threshold, HB_FAMILY_LEVEL, recent 1. */
struct hb_changepoint_params hb_changepoint_defaults(void);

struct hb_changepoint {
    size_t series;                    /* index into the series given */
    size_t at;                        /* the first point after the change */
    size_t before_from, before_to;    /* the segment before: points [from, to) */
    size_t after_from, after_to;      /* the segment after (after_from == at) */
    struct hb_interval before, after; /* median and ci95 of each segment's pooled repeats */
    double change_pct;                /* after's median against before's, in percent */
    double p, p_adjusted; /* the split's p (corrected for the split's search) and BH's */
    bool worse;           /* the change goes the bad way for the metric */
    bool creep;           /* the latest level against the best earlier segment, not a step */
    bool recent;          /* at lies in the last params->recent points */
    /* What else changed between the last point before (a creep: of the best earlier
     * segment) and the first after: hopbench's version or commit, and the config keys whose
     * values differ ("thp_enabled"). */
    bool version_changed;
    char **knobs;
    size_t n_knobs;
};

/* Every change point of the series, sorted by series then point (a creep after the step at
 * the same point): *out a new array (NULL when none) of *n_out. *n_tested (may be NULL)
 * gets the size of the family these series add to the FDR (every split and creep tested
 * whose p counts, at least one per series of two points or more). 0; -ENOMEM; -EINVAL with
 * hb_error_set's message for bad params (window outside 8..HB_CHANGEPOINT_MAX_WINDOW, fdr
 * outside (0, 0.5], min_change < 0) or a point whose config_json is not a JSON object. */
int hb_changepoint_find(const struct hb_history_series *series, size_t n_series,
                        const struct hb_changepoint_params *params, struct hb_changepoint **out,
                        size_t *n_out, size_t *n_tested);

/* params->fdr_later's second step: BH over a family of `family` members (the sum of the
 * calls' *n_tested) of which cps[0..*n) are those whose change passed min_change (the rest
 * count as p 1, which only makes the adjustment stricter): p_adjusted set, those that fail
 * the level freed and the rest moved up in order: *n of them are left. 0 or -ENOMEM. */
int hb_changepoint_fdr(struct hb_changepoint *cps, size_t *n, size_t family,
                       const struct hb_changepoint_params *params);

void hb_changepoint_free(struct hb_changepoint *cps, size_t n);

#endif
