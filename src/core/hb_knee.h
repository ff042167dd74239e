/* The knee of an intensity study: the least arithmetic intensity from which on placement
 * stops mattering. Pure, so it is tested on synthetic data. */
#ifndef HB_KNEE_H
#define HB_KNEE_H

/* x: n intensities, strictly ascending; cost: the relative cost of the worse placement at
 * each (speed of the good placement / speed of the worse one - 1). The knee is the least
 * x[i] such that cost[j] < threshold for every j >= i.
 * Returns 0 with *knee set; -ENOENT when even the highest intensity costs threshold or more
 * (no knee in range); -EINVAL (with a message) for n < 1, x not ascending or a NaN. */
int hb_knee_find(const double *x, const double *cost, int n, double threshold, double *knee);

/* The knee of a loaded-latency curve: the total bandwidth at which latency first reaches
 * twice idle, interpolated between the points around it. bw and lat (n >= 1 points) are
 * sorted by ascending bw in place, points of equal bw kept in their order. NaN when latency
 * never doubles, or when out of memory (*oom set). */
double hb_knee_loaded(double *bw, double *lat, int n, double idle, int *oom);

#endif
