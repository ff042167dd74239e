/* The Hodges-Lehmann shift on the log scale and the rank test's detection limits
 * (hb_shift.h): arithmetic over repeat values only. */
#include "hb_shift.h"

#include "hb_signif.h"

#include <math.h>
#include <stdlib.h>

static int double_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

bool hb_shift_log(const double *a, int na, const double *b, int nb, double level,
                  struct hb_shift *out)
{
    *out = (struct hb_shift){NAN, NAN, NAN, 0.0};
    if (na < 1 || nb < 1) return false;
    size_t nm = (size_t)na * (size_t)nb;
    double *d = malloc(sizeof(*d) * nm);
    if (!d) return false;
    size_t k = 0;
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) {
            if (!(a[i] > 0.0) || !(b[j] > 0.0)) {
                free(d);
                return false;
            }
            d[k++] = log(b[j]) - log(a[i]);
        }
    qsort(d, nm, sizeof(*d), double_cmp);
    double mid = nm % 2 ? d[nm / 2] : (d[nm / 2 - 1] + d[nm / 2]) / 2.0;
    /* [D(c), D(nm + 1 - c)] misses the true shift with chance 2 P(U <= c - 1): the widest c
     * that still covers level. */
    size_t c = 1;
    while (c + 1 <= (nm + 1) / 2 && 1.0 - 2.0 * hb_signif_mwu_cdf(na, nb, (double)c) >= level)
        c++;
    double cover = 1.0 - 2.0 * hb_signif_mwu_cdf(na, nb, (double)c - 1.0);
    *out = (struct hb_shift){exp(mid), exp(d[c - 1]), exp(d[nm - c]), cover > 0.0 ? cover : 0.0};
    free(d);
    return true;
}

/* Sum of squared deviations of the logs of v from their mean; false when a value is not
 * positive. */
static bool log_ss(const double *v, int n, double *ss)
{
    double mean = 0.0;
    *ss = 0.0;
    for (int i = 0; i < n; i++) {
        if (!(v[i] > 0.0)) return false;
        mean += log(v[i]) / n;
    }
    for (int i = 0; i < n; i++)
        *ss += (log(v[i]) - mean) * (log(v[i]) - mean);
    return true;
}

double hb_shift_spread(const double *a, int na, const double *b, int nb)
{
    double ssa = 0.0, ssb = 0.0;
    int df = 0;
    if (na >= 2 && log_ss(a, na, &ssa))
        df += na - 1;
    else
        ssa = 0.0;
    if (nb >= 2 && log_ss(b, nb, &ssb))
        df += nb - 1;
    else
        ssb = 0.0;
    return df > 0 ? sqrt((ssa + ssb) / df) : NAN;
}

double hb_shift_z(double q)
{
    /* compare asks for the same two quantiles (level, power) on every row of a million: the
     * last ones asked on this thread are kept. */
    static _Thread_local double asked[2] = {NAN, NAN}, known[2];
    for (int i = 0; i < 2; i++)
        if (asked[i] == q) return known[i];
    /* Bisection on the normal CDF: 200 halvings reach a double's precision anywhere. */
    double lo = -40.0, hi = 40.0;
    for (int i = 0; i < 200; i++) {
        double mid = (lo + hi) / 2.0;
        if (0.5 * erfc(-mid / sqrt(2.0)) < q)
            lo = mid;
        else
            hi = mid;
    }
    asked[1] = asked[0], known[1] = known[0];
    asked[0] = q, known[0] = (lo + hi) / 2.0;
    return known[0];
}

/* The rank test's asymptotic efficiency against the t-test: it needs pi/3 times the repeats. */
#define RANK_EFFICIENCY (3.0 / M_PI)

double hb_shift_detectable_pct(double sigma, int na, int nb, double alpha, double power)
{
    if (!isfinite(sigma) || na < 1 || nb < 1 || hb_signif_mwu_min_p(na, nb) > alpha)
        return INFINITY;
    double z = hb_shift_z(1.0 - alpha / 2.0) + hb_shift_z(power);
    double d = z * sigma * sqrt((1.0 / na + 1.0 / nb) / RANK_EFFICIENCY);
    return (exp(d) - 1.0) * 100.0;
}

int hb_shift_repeats_to_detect(double sigma, double change_pct, double alpha, double power)
{
    double want = fabs(change_pct);
    for (int n = 2; isfinite(sigma) && want > 0.0 && n <= 10000; n++)
        if (hb_shift_detectable_pct(sigma, n, n, alpha, power) <= want) return n;
    return 0;
}

int hb_shift_repeats_to_show_same(double sigma, double change_pct, double threshold_pct,
                                  double level)
{
    double room = log1p(threshold_pct / 100.0) - fabs(log1p(change_pct / 100.0));
    if (!isfinite(sigma) || !(room > 0.0)) return 0;
    double z = hb_shift_z((1.0 + level) / 2.0);
    for (int n = 2; n <= 10000; n++)
        if (z * sigma * sqrt(2.0 / n / RANK_EFFICIENCY) < room &&
            hb_signif_mwu_cdf(n, n, 0.0) * 2.0 <= 1.0 - level)
            return n;
    return 0;
}
