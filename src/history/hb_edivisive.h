/* E-divisive means (Matteson and James 2014, as Apache Otava uses it): the split of a
 * sequence where the energy distance between the two sides, weighted by their sizes, is
 * largest. Pure arithmetic over the values, O(n^2); whether the split is real is the
 * caller's test. */
#ifndef HB_EDIVISIVE_H
#define HB_EDIVISIVE_H

#include <stddef.h>

/* The split tau in [1, n) of x[0..n) with the largest Q(tau) = m k / (m + k) * (2 mean |x - y|
 * - mean |x - x'| - mean |y - y'|) (X = x[0..tau) of m values, Y = the k after; a side of one
 * value has no pairs, its term 0), the first on ties; *q (may be NULL) gets Q. 0 when n < 2.
 * rows: scratch of 2 n doubles. */
size_t hb_edivisive_split(const double *x, size_t n, double *rows, double *q);

#endif
