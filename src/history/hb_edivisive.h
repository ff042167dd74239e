/* E-divisive means (Matteson and James 2014, as Apache Otava uses it): the split of a
 * sequence where the energy distance between the values before it and those after it, up to
 * a second point kappa, weighted by their sizes, is largest. Searching kappa too finds a
 * stretch that stepped and came back (a noisy neighbour's week), which a split against all
 * the rest would blur. Pure arithmetic over the values, O(n^2); whether the split is real is
 * the caller's test. */
#ifndef HB_EDIVISIVE_H
#define HB_EDIVISIVE_H

#include <stddef.h>

/* The doubles of scratch hb_edivisive_split needs for n values: the (n + 1)^2 prefix sums
 * and two tables of n + 1 reciprocals. */
#define HB_EDIVISIVE_SCRATCH(n) (((n) + 1) * ((n) + 3))

/* The split tau in [1, n) of x[0..n) and the end kappa in (tau, n] with the largest
 * Q = m k / (m + k) * (2 mean |x - y| - mean |x - x'| - mean |y - y'|) over X = x[0..tau) of
 * m values and Y = x[tau..kappa) of k (a side of one value has no pairs, its term 0), the
 * first on ties; *q (may be NULL) gets Q, *kappa the end. 0 when n < 2. */
size_t hb_edivisive_split(const double *x, size_t n, double *scratch, double *q, size_t *kappa);

#endif
