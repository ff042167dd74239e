/* Statistics over a measurement's kept samples (hb_stats.h). */
#include "hb_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void hb_stats_sort(double *v, int n)
{
    if (n > 1) qsort(v, (size_t)n, sizeof(*v), cmp_double);
}

double hb_stats_median(double *v, int n)
{
    hb_stats_sort(v, n);
    return n == 0 ? NAN : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

double hb_stats_percentile(const double *sorted, int n, double q)
{
    double pos = q * (n - 1);
    int lo = (int)floor(pos);
    int hi = lo + 1 < n ? lo + 1 : lo;
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

void hb_stats_compute(const double *samples, int n, struct hb_stats *out)
{
    memset(out, 0, sizeof(*out));
    if (n <= 0) return;
    double *s = malloc(sizeof(*s) * (size_t)n);
    if (!s) return;
    memcpy(s, samples, sizeof(*s) * (size_t)n);
    hb_stats_sort(s, n);
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += s[i];
    double mean = sum / n, var = 0.0;
    for (int i = 0; i < n; i++)
        var += (s[i] - mean) * (s[i] - mean);
    out->n = n;
    out->min = s[0];
    out->max = s[n - 1];
    out->median = hb_stats_percentile(s, n, 0.5);
    out->p95 = hb_stats_percentile(s, n, 0.95);
    out->mean = mean;
    out->stddev = n > 1 ? sqrt(var / (n - 1)) : 0.0;
    out->cv = mean > 0.0 ? out->stddev / mean : 0.0;
    free(s);
}
