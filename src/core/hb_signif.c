/* The Mann-Whitney U test over repeat values (core layer: arithmetic only). */
#include "hb_signif.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

/* Mid-ranks (1-based) of the pooled values into rank, and the tie term sum(t^3 - t) over tie
 * groups: by counting for a few dozen values (nothing to allocate), by sorting above, where a
 * history's segments pool hundreds. -1 when out of memory. */
#define HB_MIDRANKS_COUNTED 64

static int value_cmp(const void *x, const void *y)
{
    double a = **(const double *const *)x, b = **(const double *const *)y;
    return (a > b) - (a < b);
}

static int midranks(const double *v, int n, double *rank, double *ties)
{
    *ties = 0.0;
    if (n <= HB_MIDRANKS_COUNTED) {
        for (int i = 0; i < n; i++) {
            int below = 0, equal = 0;
            for (int j = 0; j < n; j++) {
                below += v[j] < v[i];
                equal += v[j] == v[i];
            }
            rank[i] = below + (equal + 1) / 2.0;
            /* Each of a group of t tied values adds (t^3 - t) / t. */
            *ties += equal > 1 ? (double)equal * equal - 1.0 : 0.0;
        }
        return 0;
    }
    const double **at = malloc(sizeof(*at) * (size_t)n);
    if (!at) return -1;
    for (int i = 0; i < n; i++)
        at[i] = v + i;
    qsort(at, (size_t)n, sizeof(*at), value_cmp);
    for (int i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && *at[j] == *at[i]; j++)
            ;
        for (int k = i; k < j; k++)
            rank[at[k] - v] = (i + 1 + j) / 2.0;
        double t = j - i;
        *ties += t > 1.0 ? t * t * t - t : 0.0;
    }
    free(at);
    return 0;
}

/* The pooled values of a and b and their ranks: v (2 (na + nb) doubles, ranks after the
 * values) filled, *ra the rank sum of a; -1 when out of memory. */
static int pool_ranks(const double *a, int na, const double *b, int nb, double *v, double *ra,
                      double *ties)
{
    int n = na + nb;
    double *rank = v + n;
    for (int i = 0; i < na; i++)
        v[i] = a[i];
    for (int j = 0; j < nb; j++)
        v[na + j] = b[j];
    if (midranks(v, n, rank, ties)) return -1;
    *ra = 0.0;
    for (int i = 0; i < na; i++)
        *ra += rank[i];
    return 0;
}

double hb_signif_mwu_z_of(double ua, int na, int nb, double ties)
{
    int n = na + nb;
    double var = na * (double)nb / 12.0 * ((n + 1.0) - ties / ((double)n * (n - 1.0)));
    double off = ua - na * (double)nb / 2.0, dev = fabs(off) - 0.5;
    if (var <= 0.0 || dev <= 0.0) return 0.0;
    return copysign(dev / sqrt(var), off);
}

/* Over every way to give k of the ranks rank[from..n) to the first side (sum: the ranks given
 * so far): *all counts them, *hits those whose rank sum lies at least target_dev from mean
 * (two-sided, as far as the observed one or farther). */
static void count_subsets(const double *rank, int n, int from, int k, double sum, double target_dev,
                          double mean, double *hits, double *all)
{
    if (k == 0) {
        *all += 1.0;
        *hits += fabs(sum - mean) >= target_dev - 1e-9;
        return;
    }
    for (int i = from; i <= n - k; i++)
        count_subsets(rank, n, i + 1, k - 1, sum + rank[i], target_dev, mean, hits, all);
}

/* The largest rank sum of n ranks 1..n. */
static int rank_sum_max(int n)
{
    return n * (n + 1) / 2;
}

/* Without ties the ranks are 1..n, so the rank sum's distribution depends on n and na alone:
 * counted once per n (subsets of each size k by their sum, exact in doubles up to C(20, 10)),
 * then shared by every comparison of that size. A million rows take a lookup each. */
static _Atomic(double *) null_sums[HB_SIGNIF_EXACT_MAX + 1];
static pthread_mutex_t null_lock = PTHREAD_MUTEX_INITIALIZER;

/* counts[k * (max + 1) + s]: subsets of size k of 1..n summing to s; NULL when out of memory. */
static const double *null_counts(int n)
{
    double *c = atomic_load(&null_sums[n]);
    if (c) return c;
    pthread_mutex_lock(&null_lock);
    if (!(c = atomic_load(&null_sums[n]))) {
        int max = rank_sum_max(n), w = max + 1;
        c = calloc((size_t)(n + 1) * (size_t)w, sizeof(*c));
        if (c) {
            c[0] = 1.0;
            for (int r = 1; r <= n; r++) /* rank r joins: sizes downwards, so it counts once */
                for (int k = r; k >= 1; k--)
                    for (int sum = max; sum >= r; sum--)
                        c[k * w + sum] += c[(k - 1) * w + sum - r];
            atomic_store(&null_sums[n], c);
        }
    }
    pthread_mutex_unlock(&null_lock);
    return c;
}

/* The exact two-sided p without ties: the share of rank sums at least dev from the mean, as
 * count_subsets counts them; NAN when out of memory. */
static double null_p(int n, int na, double dev, double mean)
{
    const double *c = null_counts(n);
    if (!c) return NAN;
    int max = rank_sum_max(n);
    double hits = 0.0, all = 0.0;
    for (int sum = 0; sum <= max; sum++) {
        double k = c[na * (max + 1) + sum];
        all += k;
        if (fabs(sum - mean) >= dev - 1e-9) hits += k;
    }
    return hits / all;
}

double hb_signif_mwu(const double *a, int na, const double *b, int nb, double *u)
{
    if (u) *u = 0.0;
    if (na < 1 || nb < 1) return 1.0;
    int n = na + nb;
    /* a comparison of repeats has a few dozen values: on the stack, a million times over */
    double small[2 * HB_MIDRANKS_COUNTED], ties = 0.0, ra;
    double *v = n <= HB_MIDRANKS_COUNTED ? small : malloc(2 * sizeof(*v) * (size_t)n);
    if (!v) return NAN;
    if (pool_ranks(a, na, b, nb, v, &ra, &ties)) {
        if (v != small) free(v);
        return NAN;
    }
    double ua = ra - na * (na + 1) / 2.0, mean = na * (n + 1) / 2.0, p;
    if (u) *u = ua;
    if (n <= HB_SIGNIF_EXACT_MAX && ties == 0.0)
        p = null_p(n, na, fabs(ra - mean), mean);
    else if (n <= HB_SIGNIF_EXACT_MAX) {
        double hits = 0.0, all = 0.0;
        count_subsets(v + n, n, 0, na, 0.0, fabs(ra - mean), mean, &hits, &all);
        p = hits / all;
    } else
        p = erfc(fabs(hb_signif_mwu_z_of(ua, na, nb, ties)) / sqrt(2.0));
    if (v != small) free(v);
    return p > 1.0 ? 1.0 : p;
}

double hb_signif_mwu_z(const double *a, int na, const double *b, int nb)
{
    if (na < 1 || nb < 1) return 0.0;
    int n = na + nb;
    double small[2 * HB_MIDRANKS_COUNTED], ties = 0.0, ra;
    double *v = n <= HB_MIDRANKS_COUNTED ? small : malloc(2 * sizeof(*v) * (size_t)n);
    if (!v) return NAN;
    double z = pool_ranks(a, na, b, nb, v, &ra, &ties)
                   ? NAN
                   : hb_signif_mwu_z_of(ra - na * (na + 1) / 2.0, na, nb, ties);
    if (v != small) free(v);
    return z;
}

double hb_signif_mwu_min_p(int na, int nb)
{
    if (na < 1 || nb < 1) return 1.0;
    double c = 1.0; /* C(na + nb, na), built up exactly enough in doubles */
    for (int i = 1; i <= na; i++)
        c = c * (nb + i) / i;
    double p = 2.0 / c;
    return p > 1.0 ? 1.0 : p;
}

double hb_signif_mwu_cdf(int na, int nb, double u)
{
    if (na < 1 || nb < 1) return 1.0;
    int n = na + nb;
    if (u < 0.0) return 0.0;
    if (n <= HB_SIGNIF_EXACT_MAX) {
        const double *c = null_counts(n);
        if (!c) return NAN;
        /* U of the first side is its rank sum less the smallest rank sum it can have. */
        int max = rank_sum_max(n), least = na * (na + 1) / 2;
        double below = 0.0, all = 0.0;
        for (int sum = 0; sum <= max; sum++) {
            double k = c[na * (max + 1) + sum];
            all += k;
            if (sum - least <= u + 1e-9) below += k;
        }
        return below / all;
    }
    double mean = na * (double)nb / 2.0, var = na * (double)nb * (n + 1.0) / 12.0;
    return 0.5 * erfc(-(u + 0.5 - mean) / sqrt(2.0 * var));
}

int hb_signif_mwu_repeats_for(double alpha)
{
    int k = 1;
    while (k < 1000 && hb_signif_mwu_min_p(k, k) > alpha)
        k++;
    return k;
}
