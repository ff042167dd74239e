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
    /* P[i][j]: the sum of |x_a - x_b| over a < i, b < j. */
    size_t w = n + 1;
    double *P = scratch;
    for (size_t j = 0; j < w; j++)
        P[j] = 0.0;
    for (size_t i = 0; i < n; i++) {
        P[(i + 1) * w] = 0.0;
        for (size_t j = 0; j < n; j++)
            P[(i + 1) * w + j + 1] =
                P[i * w + j + 1] + P[(i + 1) * w + j] - P[i * w + j] + fabs(x[i] - x[j]);
    }
#define RECT(a0, a1, b0, b1)                                                                       \
    (P[(a1)*w + (b1)] - P[(a0)*w + (b1)] - P[(a1)*w + (b0)] + P[(a0)*w + (b0)])
    double best_q = -INFINITY;
    size_t best = 0, best_end = n;
    for (size_t tau = 1; tau < n; tau++) {
        double m = (double)tau, within_x = RECT(0, tau, 0, tau) / 2.0;
        double ex = tau > 1 ? within_x / (m * (m - 1.0) / 2.0) : 0.0;
        for (size_t end = tau + 1; end <= n; end++) {
            double k = (double)(end - tau), within_y = RECT(tau, end, tau, end) / 2.0;
            double e = 2.0 * RECT(0, tau, tau, end) / (m * k) - ex -
                       (end - tau > 1 ? within_y / (k * (k - 1.0) / 2.0) : 0.0);
            double qt = m * k / (m + k) * e;
            if (qt > best_q) best_q = qt, best = tau, best_end = end;
        }
    }
#undef RECT
    if (q) *q = best_q;
    if (kappa) *kappa = best_end;
    return best;
}
