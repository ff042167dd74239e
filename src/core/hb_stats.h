/* Statistics over kept samples. */
#ifndef HB_STATS_H
#define HB_STATS_H

struct hb_stats {
    int n;
    double min, median, p95, max, mean, stddev, cv; /* cv = stddev / mean */
};

/* Compute over n >= 1 samples (not modified). Percentiles by linear interpolation between
 * closest ranks. n == 0 gives all zeros. */
void hb_stats_compute(const double *samples, int n, struct hb_stats *out);

/* Sort n numbers ascending, in place. */
void hb_stats_sort(double *v, int n);

/* The median of n numbers (sorted in place): the middle one, or the mean of the two middle
 * ones; NaN for n == 0. */
double hb_stats_median(double *v, int n);

/* The q-quantile (0..1) of n >= 1 numbers sorted ascending, by linear interpolation between
 * closest ranks (numpy's default). */
double hb_stats_percentile(const double *sorted, int n, double q);

#endif
