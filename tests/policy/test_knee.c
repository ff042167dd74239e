/* The knee finder on synthetic intensity curves: where it must land, when there is none,
 * and what it refuses. */
#include "hb_error.h"
#include "hb_knee.h"
#include "../hb_check.h"

#include <errno.h>
#include <math.h>

static const double x[10] = {0.125, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64};

int main(void)
{
    double knee = -1.0;
    /* Memory-bound at the left (remote costs 60%), compute-bound from 4 flops/byte on. */
    const double roof[10] = {0.6, 0.6, 0.58, 0.5, 0.3, 0.049, 0.02, 0.01, 0.0, 0.0};
    HB_EXPECT(hb_knee_find(x, roof, 10, 0.05, &knee) == 0, "%s", hb_error_msg());
    HB_EXPECT(knee == 4.0, "knee %g, expected 4", knee);

    /* A cheap point below an expensive one is not the knee: the run must last to the top. */
    const double dip[10] = {0.6, 0.01, 0.6, 0.5, 0.3, 0.2, 0.06, 0.04, 0.0, 0.01};
    HB_EXPECT(hb_knee_find(x, dip, 10, 0.05, &knee) == 0, "%s", hb_error_msg());
    HB_EXPECT(knee == 16.0, "knee %g, expected 16", knee);

    /* Exactly at the threshold still costs too much. */
    const double edge[10] = {0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.05};
    HB_EXPECT(hb_knee_find(x, edge, 10, 0.05, &knee) == -ENOENT, "threshold must be exclusive");

    /* Placement never matters: the knee is the lowest intensity. */
    const double flat[10] = {0.01, 0.0, -0.02, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    HB_EXPECT(hb_knee_find(x, flat, 10, 0.05, &knee) == 0 && knee == 0.125, "knee %g", knee);

    const double unsorted[3] = {1.0, 0.5, 2.0}, c3[3] = {0, 0, 0};
    HB_EXPECT(hb_knee_find(unsorted, c3, 3, 0.05, &knee) == -EINVAL, "unsorted accepted");
    HB_EXPECT_CONTAINS(hb_error_msg(), "ascending");
    const double nan3[3] = {0.0, NAN, 0.0};
    HB_EXPECT(hb_knee_find(x, nan3, 3, 0.05, &knee) == -EINVAL, "NaN accepted");
    HB_EXPECT(hb_knee_find(x, roof, 0, 0.05, &knee) == -EINVAL, "empty accepted");

    /* loaded: points in any order, sorted by load; the knee interpolates 2x idle (100 ns)
     * between 10 GB/s at 150 ns and 20 GB/s at 250 ns: 15 GB/s. */
    double bw[4] = {20.0, 5.0, 30.0, 10.0}, lat[4] = {250.0, 110.0, 400.0, 150.0};
    int oom = 1;
    knee = hb_knee_loaded(bw, lat, 4, 100.0, &oom);
    HB_EXPECT(oom == 0 && fabs(knee - 15.0) < 1e-12, "loaded knee %g", knee);
    HB_EXPECT(bw[0] == 5.0 && bw[3] == 30.0 && lat[0] == 110.0 && lat[3] == 400.0,
              "points not sorted by load: %g..%g", bw[0], bw[3]);
    /* Equal loads keep their order: the first of them decides. */
    double tb[3] = {10.0, 10.0, 20.0}, tl[3] = {300.0, 120.0, 130.0};
    knee = hb_knee_loaded(tb, tl, 3, 100.0, &oom);
    HB_EXPECT(tl[0] == 300.0 && tl[1] == 120.0, "equal loads reordered: %g %g", tl[0], tl[1]);
    HB_EXPECT(fabs(knee - 5.0) < 1e-12, "tied knee %g", knee); /* 0 + 10 * 100 / 200 */
    /* Latency never doubles: no knee. */
    double fb[2] = {1.0, 2.0}, fl[2] = {110.0, 190.0};
    knee = hb_knee_loaded(fb, fl, 2, 100.0, &oom);
    HB_EXPECT(isnan(knee), "knee %g where latency never doubled", knee);
    return 0;
}
