/* The Hodges-Lehmann shift and its rank interval against hand-computed cases, the rank-sum
 * null distribution against counted values, and the detection limits against the formula. */
#include "../hb_check.h"
#include "hb_shift.h"
#include "hb_signif.h"

#include <math.h>

int main(void)
{
    /* log a = {0, 1, 2}, log b = {0.5, 1.5, 2.5, 3.5}: the 12 differences sorted are -1.5,
     * -0.5, -0.5, 0.5, 0.5, 0.5, 1.5, 1.5, 1.5, 2.5, 2.5, 3.5; their median is 1. P(U <= 0) =
     * 1/C(7,3) = 1/35 and P(U <= 1) = 2/35: the widest interval [D(1), D(12)] covers
     * 1 - 2/35 = 94.3%, [D(2), D(11)] 1 - 4/35 = 88.6%. */
    double a[] = {1.0, exp(1.0), exp(2.0)}, b[] = {exp(0.5), exp(1.5), exp(2.5), exp(3.5)};
    struct hb_shift s;
    CHECK(hb_shift_log(a, 3, b, 4, 0.95, &s));
    CHECK_WITHIN(log(s.ratio), 1.0, 1e-12);
    CHECK_WITHIN(log(s.lo), -1.5, 1e-12);
    CHECK_WITHIN(log(s.hi), 3.5, 1e-12);
    CHECK_WITHIN(s.coverage, 1.0 - 2.0 / 35.0, 1e-12);
    CHECK(hb_shift_log(a, 3, b, 4, 0.85, &s));
    CHECK_WITHIN(log(s.lo), -0.5, 1e-12);
    CHECK_WITHIN(log(s.hi), 2.5, 1e-12);
    CHECK_WITHIN(s.coverage, 1.0 - 4.0 / 35.0, 1e-12);
    /* The shift of b against a is the inverse of a's against b. */
    CHECK(hb_shift_log(b, 4, a, 3, 0.85, &s));
    CHECK_WITHIN(log(s.ratio), -1.0, 1e-12);
    CHECK_WITHIN(log(s.hi), 0.5, 1e-12);

    /* Five against five, b = 1.1 a exactly: every difference log 1.1 up to the spread. With
     * U <= 2 of probability 4/252 (U = 0: 1 way, 1: 1, 2: 2), c = 3 covers 1 - 8/252. */
    CHECK_WITHIN(hb_signif_mwu_cdf(5, 5, 2.0), 4.0 / 252.0, 1e-12);
    CHECK_WITHIN(hb_signif_mwu_cdf(5, 5, 12.5), 0.5, 1e-12);
    CHECK_WITHIN(hb_signif_mwu_cdf(5, 5, 25.0), 1.0, 1e-12);
    double x[] = {100, 101, 102, 103, 104}, y[5];
    for (int i = 0; i < 5; i++)
        y[i] = 1.1 * x[i];
    CHECK(hb_shift_log(x, 5, y, 5, 0.95, &s));
    CHECK_WITHIN(s.ratio, 1.1, 1e-12);
    CHECK_WITHIN(s.coverage, 1.0 - 8.0 / 252.0, 1e-12);
    CHECK(s.lo < 1.1 && s.hi > 1.1 && s.lo > 1.05 && s.hi < 1.15);
    /* Not positive, or a side empty: no shift. */
    double bad[] = {1.0, 0.0};
    CHECK(!hb_shift_log(bad, 2, x, 5, 0.95, &s));
    CHECK(!hb_shift_log(x, 0, x, 5, 0.95, &s));

    /* The spread: the standard deviation of the logs, pooled. */
    double e[] = {1.0, exp(0.2)};
    CHECK_WITHIN(hb_shift_spread(e, 2, NULL, 0), sqrt(0.02), 1e-12);
    CHECK_WITHIN(hb_shift_spread(e, 2, e, 2), sqrt(0.02), 1e-12);
    CHECK(isnan(hb_shift_spread(e, 1, e, 1)));

    CHECK_WITHIN(hb_shift_z(0.975), 1.959963985, 1e-8);
    CHECK_WITHIN(hb_shift_z(0.8), 0.841621234, 1e-8);
    /* 10% spread, 5 against 5, alpha 0.05, power 0.8: (1.96 + 0.8416) * 0.1 * sqrt(0.4 / (3 /
     * pi)) on the log scale, 19.88%. */
    CHECK_WITHIN(hb_shift_detectable_pct(0.1, 5, 5, 0.05, 0.8), 19.87999, 1e-3);
    /* Three repeats can never reach 0.05 with the exact test (smallest p 0.1). */
    CHECK(isinf(hb_shift_detectable_pct(0.1, 3, 3, 0.05, 0.8)));
    /* More repeats detect less, and the repeats asked for reach what was asked. */
    int n = hb_shift_repeats_to_detect(0.1, 10.0, 0.05, 0.8);
    CHECK(n > 5 && hb_shift_detectable_pct(0.1, n, n, 0.05, 0.8) <= 10.0 &&
          hb_shift_detectable_pct(0.1, n - 1, n - 1, 0.05, 0.8) > 10.0);
    CHECK_INT(hb_shift_repeats_to_detect(NAN, 10.0, 0.05, 0.8), 0);
    int m = hb_shift_repeats_to_show_same(0.05, 1.0, 5.0, 0.95);
    CHECK(m >= 2 && m < 100);
    CHECK(hb_shift_repeats_to_show_same(0.05, 3.0, 5.0, 0.95) > m);
    CHECK_INT(hb_shift_repeats_to_show_same(0.05, 6.0, 5.0, 0.95), 0);
    return hb_check_result();
}
