#include "hb_knee.h"

#include "hb_error.h"

#include <errno.h>
#include <math.h>

int hb_knee_find(const double *x, const double *cost, int n, double threshold, double *knee)
{
    if (n < 1) {
        hb_err_set("knee: %d intensities given; need at least 1", n);
        return -EINVAL;
    }
    for (int i = 0; i < n; i++) {
        if (isnan(x[i]) || isnan(cost[i]) || (i > 0 && !(x[i] > x[i - 1]))) {
            hb_err_set("knee: point %d (intensity %g, cost %g) is NaN or not above the one "
                       "before; intensities must be strictly ascending numbers",
                       i, x[i], cost[i]);
            return -EINVAL;
        }
    }
    /* Walk down from the top: the knee is where the run of cheap points begins. */
    int first = n;
    while (first > 0 && cost[first - 1] < threshold)
        first--;
    if (first == n) return -ENOENT;
    *knee = x[first];
    return 0;
}
