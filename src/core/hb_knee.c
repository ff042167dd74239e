/* The knee of an intensity curve (hb_knee.h), pure so it is tested on synthetic data. */
#include "hb_knee.h"

#include "hb_error.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

int hb_knee_find(const double *x, const double *cost, int n, double threshold, double *knee)
{
    if (n < 1) {
        hb_error_set("knee: %d intensities given; need at least 1", n);
        return -EINVAL;
    }
    for (int i = 0; i < n; i++) {
        if (isnan(x[i]) || isnan(cost[i]) || (i > 0 && !(x[i] > x[i - 1]))) {
            hb_error_set("knee: point %d (intensity %g, cost %g) is NaN or not above the one "
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

struct hb_knee_point {
    double bw, lat;
    int at; /* position before sorting: equal bw keeps its order */
};

static int knee_point_cmp(const void *a, const void *b)
{
    const struct hb_knee_point *x = a, *y = b;
    if (x->bw != y->bw) return (x->bw > y->bw) - (x->bw < y->bw);
    return (x->at > y->at) - (x->at < y->at);
}

double hb_knee_loaded(double *bw, double *lat, int n, double idle, int *oom)
{
    *oom = 0;
    struct hb_knee_point *p = calloc((size_t)n, sizeof(*p));
    if (!p) {
        *oom = 1;
        return NAN;
    }
    for (int i = 0; i < n; i++)
        p[i] = (struct hb_knee_point){bw[i], lat[i], i};
    qsort(p, (size_t)n, sizeof(*p), knee_point_cmp);
    for (int i = 0; i < n; i++) {
        bw[i] = p[i].bw;
        lat[i] = p[i].lat;
    }
    free(p);
    /* Ascending load: the knee lies between the last point below 2x idle and the first above. */
    double knee = NAN, pb = 0.0, pl = idle;
    for (int k = 0; k < n && isnan(knee); k++) {
        if (lat[k] >= 2.0 * idle)
            knee = lat[k] > pl ? pb + (bw[k] - pb) * (2.0 * idle - pl) / (lat[k] - pl) : bw[k];
        pb = bw[k];
        pl = lat[k];
    }
    return knee;
}
