/* Confidence intervals for the median of repeats: exact coverages, and that the intervals
 * cover the true median as often as they claim on synthetic distributions. */
#include "../hb_check.h"
#include "hb_interval.h"

#include <math.h>
#include <stdint.h>

/* xorshift64*: a fixed sequence, so the coverage checks never flake. */
static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static double uniform(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return ((rng * 0x2545F4914F6CDD1DULL) >> 11) * (1.0 / 9007199254740992.0);
}

/* Three shapes with a known median: uniform(0,1) 0.5, exponential(1) ln 2, and a heavy
 * right tail as bandwidth drops and latency spikes give (Pareto, alpha 1.5: 2^(2/3)). */
static double draw(int shape)
{
    double u = uniform();
    if (shape == 0) return u;
    if (shape == 1) return -log1p(-u);
    return pow(1.0 - u, -1.0 / 1.5);
}

static const double true_median[] = {0.5, 0.69314718055994531, 1.5874010519681994};

int main(void)
{
    /* Exact coverages: 1 - 2 P(Bin(n, 1/2) < k). */
    CHECK_WITHIN(hb_interval_coverage(5, 1), 0.9375, 1e-12);
    CHECK_WITHIN(hb_interval_coverage(6, 1), 0.96875, 1e-12);
    CHECK_WITHIN(hb_interval_coverage(9, 2), 1.0 - 2.0 * 10.0 / 512.0, 1e-12);
    CHECK_WITHIN(hb_interval_coverage(20, 6), 1.0 - 2.0 * 21700.0 / 1048576.0, 1e-12);

    struct hb_interval iv;
    double five[] = {5, 1, 4, 2, 3};
    CHECK_INT(hb_interval_median(five, 5, HB_CI_LEVEL, &iv), 0);
    CHECK_WITHIN(iv.value, 3, 0);
    CHECK_WITHIN(iv.lo, 1, 0);
    CHECK_WITHIN(iv.hi, 5, 0);
    CHECK_WITHIN(iv.coverage, 0.9375, 1e-12);
    CHECK_WITHIN(hb_interval_halfwidth_pct(&iv), 200.0 / 3.0, 1e-9);
    CHECK(hb_interval_noisy(&iv, 50.0));
    CHECK(!hb_interval_noisy(&iv, 70.0));

    /* n = 20: k = 6, the 6th and 15th values. */
    double twenty[20];
    for (int i = 0; i < 20; i++)
        twenty[i] = 20 - i;
    CHECK_INT(hb_interval_median(twenty, 20, HB_CI_LEVEL, &iv), 0);
    CHECK_WITHIN(iv.lo, 6, 0);
    CHECK_WITHIN(iv.hi, 15, 0);
    CHECK_WITHIN(iv.value, 10.5, 0);

    double one[] = {7};
    CHECK_INT(hb_interval_median(one, 1, HB_CI_LEVEL, &iv), 0);
    CHECK(iv.lo == 7 && iv.hi == 7 && iv.coverage == 0.0);
    CHECK(hb_interval_noisy(&iv, 1000.0)); /* one repeat bounds nothing */
    CHECK_INT(hb_interval_median(one, 0, HB_CI_LEVEL, &iv), -1);

    struct hb_interval a = {3, 10, 9, 11, 0.75}, b = {3, 12, 11.5, 13, 0.75};
    CHECK(hb_intervals_separate(&a, &b) && hb_intervals_separate(&b, &a));
    b.lo = 10.5;
    CHECK(!hb_intervals_separate(&a, &b));

    /* Coverage on synthetic data: 20000 intervals per shape and n, the true median inside as
     * often as the exact coverage says (binomial sd at 0.95 is 0.0015: 0.006 is 4 sd). The
     * short count (hb_check_short) draws 2000, the bound 4 sd of those (sqrt(10) wider). */
    const int ns[] = {5, 6, 9, 15, 30};
    const int trials = hb_check_short() ? 2000 : 20000;
    const double within = 0.006 * sqrt(20000.0 / trials);
    for (int shape = 0; shape < 3; shape++)
        for (size_t j = 0; j < sizeof(ns) / sizeof(ns[0]); j++) {
            int n = ns[j], hits = 0;
            double v[30], claimed = 0.0;
            for (int t = 0; t < trials; t++) {
                for (int i = 0; i < n; i++)
                    v[i] = draw(shape);
                hb_interval_median(v, n, HB_CI_LEVEL, &iv);
                hits += iv.lo <= true_median[shape] && true_median[shape] <= iv.hi;
                claimed = iv.coverage;
            }
            CHECK_WITHIN((double)hits / trials, claimed, within);
            if (n >= 6) CHECK(claimed >= HB_CI_LEVEL);
        }
    return hb_check_result();
}
