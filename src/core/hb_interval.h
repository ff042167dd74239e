/* The uncertainty of a figure taken in independent repeats: a distribution-free confidence
 * interval for the median from order statistics, and the tests built on it (is a figure
 * noisy, do two figures differ beyond their noise). Pure arithmetic, no records. */
#ifndef HB_INTERVAL_H
#define HB_INTERVAL_H

#include <stdbool.h>

/* The confidence level the intervals aim at (records call them ci95). */
#define HB_CI_LEVEL 0.95

struct hb_interval {
    int n;           /* repeats */
    double value;    /* their median */
    double lo, hi;   /* the interval; lo == hi == value for one repeat */
    double coverage; /* its exact coverage of the true median (0 for one repeat) */
};

/* Over the n values of v (sorted in place): the median and the order-statistic interval
 * [x(k), x(n+1-k)] with the largest k whose coverage 1 - 2 P(Binomial(n, 1/2) < k) is at
 * least `level`. Below that (n < 6 at 95%) the widest, [min, max], with the coverage it has
 * (5 repeats: 93.75%). Distribution-free: nothing is assumed of how repeats scatter, which
 * matters for bandwidth and latency (skewed, with outliers). Returns -1 for n < 1. */
int hb_interval_median(double *v, int n, double level, struct hb_interval *out);

/* A figure as a record gives it (value, ci95 [lo, hi], repeats n, ci_coverage) as an
 * interval: true when all of it is there and lo <= value <= hi with n >= 1; false otherwise,
 * *iv then the value alone (n 0): a file from before repeats, or a damaged record. */
bool hb_interval_of_record(double value, double lo, double hi, double n, double coverage,
                           struct hb_interval *iv);

/* The exact coverage of [x(k), x(n+1-k)] for the median of n values (k >= 1). */
double hb_interval_coverage(int n, int k);

/* Half the interval's width, in percent of |value| (infinite for value 0). */
double hb_interval_halfwidth_pct(const struct hb_interval *iv);

/* Too spread to tell: fewer than 2 repeats (no uncertainty can be bounded), or a half-width
 * over noise_pct of the value. */
bool hb_interval_noisy(const struct hb_interval *iv, double noise_pct);

/* Two figures differ beyond their noise only when their intervals do not overlap. */
bool hb_intervals_separate(const struct hb_interval *a, const struct hb_interval *b);

/* How a figure stands against a reference (a fleet's median host or link): not worse, worse
 * by more than pct percent (above the reference when higher_worse, else below it) and beyond
 * the noise (the intervals apart, or either unknown: a NAN end, one repeat, an old file), or
 * worse but within the noise (the intervals overlap: inconclusive). */
enum hb_worse { HB_NOT_WORSE, HB_WORSE, HB_WORSE_WITHIN_NOISE };
enum hb_worse hb_interval_worse(const struct hb_interval *x, const struct hb_interval *ref,
                                double pct, bool higher_worse);

#endif
