/* E-divisive means' split search (hb_edivisive.h): the energy statistic at every split from
 * running sums of the distances, so a window of n points costs n^2, not n^3. */
#include "hb_edivisive.h"

#include <math.h>

size_t hb_edivisive_split(const double *x, size_t n, double *rows, double *q)
{
    if (q) *q = 0.0;
    if (n < 2) return 0;
    /* left[t]: sum of |x_i - x_t| over i < t; right[t]: over i > t. */
    double *left = rows, *right = rows + n, total = 0.0;
    for (size_t t = 0; t < n; t++) {
        left[t] = right[t] = 0.0;
        for (size_t i = 0; i < t; i++)
            left[t] += fabs(x[i] - x[t]);
        total += left[t];
    }
    for (size_t t = 0; t < n; t++)
        for (size_t i = t + 1; i < n; i++)
            right[t] += fabs(x[i] - x[t]);
    /* Within X = x[0..tau), within Y = x[tau..n) and across, as tau moves right. */
    double within_x = 0.0, within_y = total, best_q = -INFINITY;
    size_t best = 0;
    for (size_t tau = 1; tau < n; tau++) {
        within_x += left[tau - 1];
        within_y -= right[tau - 1];
        double m = (double)tau, k = (double)(n - tau);
        double across = total - within_x - within_y;
        double e = 2.0 * across / (m * k) - (tau > 1 ? within_x / (m * (m - 1.0) / 2.0) : 0.0) -
                   (n - tau > 1 ? within_y / (k * (k - 1.0) / 2.0) : 0.0);
        double qt = m * k / (m + k) * e;
        if (qt > best_q) best_q = qt, best = tau;
    }
    if (q) *q = best_q;
    return best;
}
