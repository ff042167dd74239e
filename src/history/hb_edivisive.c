/* E-divisive means' split search (hb_edivisive.h): every sum of distances between two
 * stretches read from the 2-D prefix sums of the distance matrix, so that all (tau, kappa)
 * of n values cost n^2. */
#include "hb_edivisive.h"

#include <math.h>

size_t hb_edivisive_split(const double *x, size_t n, double *scratch, double *q, size_t *kappa)
{
    if (q) *q = 0.0;
    if (kappa) *kappa = n;
    if (n < 2) return 0;
    /* P[i][j]: the sum of |x_a - x_b| over a < i, b < j (row by row: the row above plus this
     * row's running sum); P is symmetric, so each sum below needs only row tau and the
     * diagonal. */
    size_t w = n + 1;
    double *P = scratch;
    for (size_t j = 0; j < w; j++)
        P[j] = 0.0;
    for (size_t i = 0; i < n; i++) {
        const double *above = P + i * w;
        double *row = P + (i + 1) * w, run = 0.0;
        row[0] = 0.0;
        for (size_t j = 0; j < n; j++) {
            run += fabs(x[i] - x[j]);
            row[j + 1] = above[j + 1] + run;
        }
    }
    /* The inner loop runs n^2 / 2 times per window: its divisions made multiplications by
     * reciprocals, 1 / j and 1 / (j (j - 1)) (the pairs of a side of j, twice). */
    double *inv = P + w * w, *inv_pairs = inv + w;
    inv[0] = inv_pairs[0] = inv_pairs[1] = 0.0;
    for (size_t j = 1; j < w; j++) {
        inv[j] = 1.0 / (double)j;
        if (j > 1) inv_pairs[j] = 1.0 / ((double)j * (double)(j - 1));
    }
    double best_q = -INFINITY;
    size_t best = 0, best_end = n;
    for (size_t tau = 1; tau < n; tau++) {
        /* X x X: P[tau][tau]; X x Y: P[tau][end] - P[tau][tau]; Y x Y: P[end][end] -
         * 2 P[tau][end] + P[tau][tau]. */
        const double *row = P + tau * w;
        double xx = row[tau], ex = xx * inv_pairs[tau];
        for (size_t end = tau + 1; end <= n; end++) {
            size_t kk = end - tau;
            double cross = row[end] - xx, yy = P[end * w + end] - 2.0 * row[end] + xx;
            double e = 2.0 * cross * inv[tau] * inv[kk] - ex - yy * inv_pairs[kk];
            double qt = (double)tau * (double)kk * inv[end] * e;
            if (qt > best_q) best_q = qt, best = tau, best_end = end;
        }
    }
    if (q) *q = best_q;
    if (kappa) *kappa = best_end;
    return best;
}
