#include "hb_signif.h"

#include <float.h>
#include <math.h>

/* Continued fraction of the regularized incomplete beta function (modified Lentz). */
static double hb_beta_cf(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
    d = fabs(d) < tiny ? tiny : d;
    d = 1.0 / d;
    double h = d;
    for (int m = 1; m <= 300; m++) {
        double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
        d = 1.0 + aa * d;
        d = fabs(d) < tiny ? tiny : d;
        c = 1.0 + aa / c;
        c = fabs(c) < tiny ? tiny : c;
        d = 1.0 / d;
        h *= d * c;
        aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
        d = 1.0 + aa * d;
        d = fabs(d) < tiny ? tiny : d;
        c = 1.0 + aa / c;
        c = fabs(c) < tiny ? tiny : c;
        d = 1.0 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1.0) < 1e-14) break;
    }
    return h;
}

/* I_x(a, b). */
static double hb_beta_inc(double a, double b, double x)
{
    if (x <= 0.0) return 0.0;
    if (x >= 1.0) return 1.0;
    double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
    double bt = exp(lbt);
    /* The continued fraction converges fast only on one side of the mean of the beta law. */
    if (x < (a + 1.0) / (a + b + 2.0)) return bt * hb_beta_cf(a, b, x) / a;
    return 1.0 - bt * hb_beta_cf(b, a, 1.0 - x) / b;
}

double hb_signif_t_tail(double t, double df)
{
    return hb_beta_inc(df / 2.0, 0.5, df / (df + t * t));
}

static void hb_mean_var(const double *v, int n, double *mean, double *var)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += v[i];
    *mean = s / n;
    double q = 0.0;
    for (int i = 0; i < n; i++)
        q += (v[i] - *mean) * (v[i] - *mean);
    *var = q / (n - 1);
}

double hb_signif_welch(const double *a, int na, const double *b, int nb, double *t, double *df)
{
    double tt = 0.0, dd = 0.0, p = 1.0;
    if (na >= 2 && nb >= 2) {
        double ma, va, mb, vb;
        hb_mean_var(a, na, &ma, &va);
        hb_mean_var(b, nb, &mb, &vb);
        double sa = va / na, sb = vb / nb, se2 = sa + sb;
        if (se2 <= DBL_MIN) {
            p = ma == mb ? 1.0 : 0.0;
            tt = ma == mb ? 0.0 : (mb > ma ? INFINITY : -INFINITY);
        } else {
            tt = (mb - ma) / sqrt(se2);
            dd = se2 * se2 / (sa * sa / (na - 1) + sb * sb / (nb - 1));
            p = hb_signif_t_tail(tt, dd);
        }
    }
    if (t) *t = tt;
    if (df) *df = dd;
    return p;
}
