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

#endif
