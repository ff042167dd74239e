/* Confidence intervals for the median of independent repeats (core layer: no records). */
#include "hb_interval.h"

#include "hb_stats.h"

#include <math.h>

double hb_interval_coverage(int n, int k)
{
    /* P(Binomial(n, 1/2) < k), summed in logs so large n neither overflows nor underflows. */
    double below = 0.0;
    for (int i = 0; i < k && i <= n; i++)
        below += exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) - n * log(2.0));
    double c = 1.0 - 2.0 * below;
    return c < 0.0 ? 0.0 : c;
}

int hb_interval_median(double *v, int n, double level, struct hb_interval *out)
{
    if (n < 1) return -1;
    out->n = n;
    out->value = hb_stats_median(v, n); /* sorts v */
    int k = 1;
    while (k + 1 <= (n + 1) / 2 && hb_interval_coverage(n, k + 1) >= level)
        k++;
    out->lo = v[k - 1];
    out->hi = v[n - k];
    out->coverage = n > 1 ? hb_interval_coverage(n, k) : 0.0;
    return 0;
}

double hb_interval_halfwidth_pct(const struct hb_interval *iv)
{
    double half = (iv->hi - iv->lo) / 2.0;
    return iv->value != 0.0 ? half / fabs(iv->value) * 100.0 : INFINITY;
}

bool hb_interval_noisy(const struct hb_interval *iv, double noise_pct)
{
    return iv->n < 2 || !(hb_interval_halfwidth_pct(iv) <= noise_pct);
}

bool hb_intervals_separate(const struct hb_interval *a, const struct hb_interval *b)
{
    return a->hi < b->lo || b->hi < a->lo;
}

enum hb_worse hb_interval_worse(const struct hb_interval *x, const struct hb_interval *ref,
                                double pct, bool higher_worse)
{
    double over = pct / 100.0;
    bool worse =
        higher_worse ? x->value > ref->value * (1.0 + over) : x->value < ref->value * (1.0 - over);
    if (!worse) return HB_NOT_WORSE;
    bool unknown = isnan(x->lo) || isnan(ref->lo);
    return unknown || hb_intervals_separate(x, ref) ? HB_WORSE : HB_WORSE_WITHIN_NOISE;
}

bool hb_interval_of_record(double value, double lo, double hi, double n, double coverage,
                           struct hb_interval *iv)
{
    *iv = (struct hb_interval){0, value, value, value, 0.0};
    if (!isfinite(value) || !isfinite(lo) || !isfinite(hi) || !(lo <= value && value <= hi) ||
        n < 1)
        return false;
    *iv = (struct hb_interval){(int)n, value, lo, hi, coverage};
    return true;
}
