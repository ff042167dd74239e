/* Statistics over samples: order statistics, interpolated percentiles, spread. */
#include "../hb_check.h"
#include "hb_stats.h"

#include <math.h>

#define CHECK_NEAR(got, want)                                                                      \
    do {                                                                                           \
        double g_ = (got), w_ = (want);                                                            \
        if (fabs(g_ - w_) > 1e-12 * (fabs(w_) + 1.0)) {                                            \
            fprintf(stderr, "%s:%d: %s is %.15g, expected %.15g\n", __FILE__, __LINE__, #got, g_,  \
                    w_);                                                                           \
            hb_check_failures++;                                                                   \
        }                                                                                          \
    } while (0)

int main(void)
{
    struct hb_stats s;
    const double five[] = {5.0, 1.0, 4.0, 2.0, 3.0};
    hb_stats_compute(five, 5, &s);
    CHECK_INT(s.n, 5);
    CHECK_NEAR(s.min, 1.0);
    CHECK_NEAR(s.max, 5.0);
    CHECK_NEAR(s.median, 3.0);
    CHECK_NEAR(s.mean, 3.0);
    CHECK_NEAR(s.p95, 4.8); /* 0.95 * 4 = 3.8 -> between 4 and 5 */
    CHECK_NEAR(s.stddev, sqrt(2.5));
    CHECK_NEAR(s.cv, sqrt(2.5) / 3.0);
    CHECK_NEAR(five[0], 5.0); /* input untouched */

    const double four[] = {1.0, 2.0, 3.0, 10.0};
    hb_stats_compute(four, 4, &s);
    CHECK_NEAR(s.median, 2.5);

    const double one[] = {7.0};
    hb_stats_compute(one, 1, &s);
    CHECK_NEAR(s.median, 7.0);
    CHECK_NEAR(s.p95, 7.0);
    CHECK_NEAR(s.stddev, 0.0);

    hb_stats_compute(one, 0, &s);
    CHECK_INT(s.n, 0);
    CHECK_NEAR(s.max, 0.0);

    /* The median the matrix derives fleet figures with: sorts in place. */
    double odd[] = {9.0, 1.0, 5.0}, even[] = {4.0, 1.0, 3.0, 2.0};
    CHECK_NEAR(hb_stats_median(odd, 3), 5.0);
    CHECK_NEAR(odd[0], 1.0);
    CHECK_NEAR(odd[2], 9.0);
    CHECK_NEAR(hb_stats_median(even, 4), 2.5);
    HB_EXPECT(isnan(hb_stats_median(even, 0)), "median of nothing is not NaN");
    return hb_check_result();
}
