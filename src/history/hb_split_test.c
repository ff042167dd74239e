/* The history's split test (hb_split_test.h): the series' repeats pooled once, the design
 * effect of runs estimated robustly (steps do not inflate it), and the rank test's z scaled
 * by it and corrected for the split's search. */
#include "hb_split_test.h"

#include "hb_signif.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int double_cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* How much more the runs' means scatter than their repeats would make them: 1 + (r - 1) ICC,
 * r the mean repeats per run, ICC the share of the variance between runs. The scatter of
 * means comes from the median of successive differences, so the steps being looked for do
 * not count as scatter. */
static double design_effect(const struct hb_split_pool *p, size_t n, double *means)
{
    double within = 0.0, dof = 0.0;
    for (size_t i = 0; i < n; i++) {
        size_t r = p->off[i + 1] - p->off[i];
        double mean = 0.0, ss = 0.0;
        for (size_t j = p->off[i]; j < p->off[i + 1]; j++)
            mean += p->at[j];
        mean /= (double)r;
        for (size_t j = p->off[i]; j < p->off[i + 1]; j++)
            ss += (p->at[j] - mean) * (p->at[j] - mean);
        means[i] = mean;
        within += ss;
        dof += (double)r - 1.0;
    }
    double reps = (double)p->off[n] / (double)n;
    if (n < 3 || dof < 1.0 || reps <= 1.0) return 1.0;
    within /= dof;
    for (size_t i = 0; i + 1 < n; i++)
        means[i] = fabs(means[i + 1] - means[i]);
    qsort(means, n - 1, sizeof(*means), double_cmp);
    double mid =
        (n - 1) % 2 ? means[(n - 1) / 2] : (means[(n - 1) / 2 - 1] + means[(n - 1) / 2]) / 2;
    double sd_means = 1.4826 * mid / sqrt(2.0);
    double between = sd_means * sd_means - within / reps;
    if (between <= 0.0 || between + within <= 0.0) return 1.0;
    return 1.0 + (reps - 1.0) * between / (between + within);
}

int hb_split_test_pool_init(struct hb_split_pool *pool, const struct hb_history_series *s)
{
    size_t n = s->n_points, total = 0;
    *pool = (struct hb_split_pool){NULL, NULL, 1.0, NULL};
    for (size_t i = 0; i < n; i++)
        total += s->points[i].n_repeats ? s->points[i].n_repeats : 1;
    pool->at = malloc(sizeof(*pool->at) * (total ? total : 1));
    pool->scratch = malloc(sizeof(*pool->scratch) * (total > n ? total : n ? n : 1));
    pool->off = malloc(sizeof(*pool->off) * (n + 1));
    if (!pool->at || !pool->off || !pool->scratch) {
        hb_split_test_pool_free(pool);
        return -ENOMEM;
    }
    pool->off[0] = 0;
    for (size_t i = 0; i < n; i++) {
        const struct hb_history_point *pt = &s->points[i];
        if (pt->n_repeats)
            memcpy(pool->at + pool->off[i], pt->repeats, sizeof(double) * pt->n_repeats);
        else
            pool->at[pool->off[i]] = pt->value;
        pool->off[i + 1] = pool->off[i] + (pt->n_repeats ? pt->n_repeats : 1);
    }
    if (n) pool->deff = design_effect(pool, n, pool->scratch);
    return 0;
}

void hb_split_test_pool_free(struct hb_split_pool *pool)
{
    free(pool->at);
    free(pool->off);
    free(pool->scratch);
    *pool = (struct hb_split_pool){NULL, NULL, 1.0, NULL};
}

/* The p of the largest of `searched` correlated standardized statistics reaching |z|: the
 * tail of one, plus Siegmund's b phi(b) log(t1 (1 - t0) / (t0 (1 - t1))) for the splits from
 * t0 = 1 / (searched + 1) to t1 = 1 - t0, never above Bonferroni's searched * p. */
static double searched_p(double z, size_t searched)
{
    if (isnan(z)) return NAN;
    z = fabs(z);
    double p = erfc(z / sqrt(2.0));
    if (searched <= 1) return p;
    double span = 2.0 * log((double)searched);
    double siegmund = p + span * z * exp(-z * z / 2.0) / sqrt(2.0 * M_PI);
    double bonferroni = p * (double)searched;
    double q = siegmund < bonferroni ? siegmund : bonferroni;
    return q < 1.0 ? q : 1.0;
}

double hb_split_test_apart(const struct hb_split_pool *pool, size_t a_from, size_t a_to,
                           size_t b_from, size_t b_to, size_t searched)
{
    const double *a = pool->at + pool->off[a_from], *b = pool->at + pool->off[b_from];
    size_t na = pool->off[a_to] - pool->off[a_from], nb = pool->off[b_to] - pool->off[b_from];
    double z = hb_signif_mwu_z(a, (int)na, b, (int)nb);
    return searched_p(z / sqrt(pool->deff), searched);
}

double hb_split_test_p(const struct hb_split_pool *pool, size_t from, size_t at, size_t to,
                       size_t searched)
{
    return hb_split_test_apart(pool, from, at, at, to, searched);
}

/* a[0..na) and b[0..nb), each in order, merged into out. */
static void rank_merge(const struct hb_split_ranked *a, size_t na, const struct hb_split_ranked *b,
                       size_t nb, struct hb_split_ranked *out)
{
    size_t i = 0, j = 0, k = 0;
    while (i < na && j < nb)
        out[k++] = b[j].v < a[i].v ? b[j++] : a[i++];
    while (i < na)
        out[k++] = a[i++];
    while (j < nb)
        out[k++] = b[j++];
}

/* a[0..n) by value through tmp (room for n): runs of a few put in order by insertion, then
 * merged pairwise, bottom up; no comparison through a pointer (qsort's was a quarter of a
 * fleet's check). Ties in any order: the ranks give each tie group its mid-rank. */
static void rank_sort(struct hb_split_ranked *a, struct hb_split_ranked *tmp, size_t n)
{
    enum { RUN = 8 };
    for (size_t lo = 0; lo < n; lo += RUN) {
        size_t hi = n - lo > RUN ? lo + RUN : n;
        for (size_t i = lo + 1; i < hi; i++) {
            struct hb_split_ranked x = a[i];
            size_t j = i;
            for (; j > lo && a[j - 1].v > x.v; j--)
                a[j] = a[j - 1];
            a[j] = x;
        }
    }
    struct hb_split_ranked *src = a, *dst = tmp;
    for (size_t width = RUN; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = n - lo > width ? lo + width : n;
            size_t hi = n - mid > width ? mid + width : n;
            rank_merge(src + lo, mid - lo, src + mid, hi - mid, dst + lo);
        }
        struct hb_split_ranked *t = src;
        src = dst, dst = t;
    }
    if (src != a) memcpy(a, src, sizeof(*a) * n);
}

int hb_split_test_window_rank(struct hb_split_window *w, const struct hb_split_pool *pool,
                              size_t from, size_t to)
{
    size_t n = pool->off[to] - pool->off[from];
    if (n > w->cap) {
        struct hb_split_ranked *at = realloc(w->at, sizeof(*at) * n);
        if (at) w->at = at;
        struct hb_split_ranked *tmp = at ? realloc(w->tmp, sizeof(*tmp) * n) : NULL;
        if (!tmp) return -ENOMEM;
        w->tmp = tmp, w->cap = n;
    }
    /* Windows overlap by half: the repeats of the last window that this one keeps are in
     * order already, and only the points after it need sorting, then a merge. */
    bool overlap = w->n && from >= w->from && from < w->to && to >= w->to;
    size_t kept = 0, k;
    for (size_t i = 0; overlap && i < w->n; i++)
        if (w->at[i].point >= from) w->at[kept++] = w->at[i];
    k = kept;
    for (size_t i = overlap ? w->to : from; i < to; i++)
        for (size_t j = pool->off[i]; j < pool->off[i + 1]; j++)
            w->at[k++] = (struct hb_split_ranked){pool->at[j], i};
    rank_sort(w->at + kept, w->tmp, k - kept);
    if (kept && k > kept) {
        rank_merge(w->at, kept, w->at + kept, k - kept, w->tmp);
        struct hb_split_ranked *t = w->at;
        w->at = w->tmp, w->tmp = t;
    }
    w->n = k, w->from = from, w->to = to;
    return 0;
}

void hb_split_test_window_free(struct hb_split_window *w)
{
    free(w->at);
    free(w->tmp);
    *w = (struct hb_split_window){0};
}

double hb_split_test_window_p(const struct hb_split_window *w, const struct hb_split_pool *pool,
                              size_t a_from, size_t a_to, size_t b_from, size_t b_to,
                              size_t searched)
{
    /* The mid-ranks among the repeats of the two segments alone, tie group by tie group. */
    double ra = 0.0, ties = 0.0, below = 0.0;
    for (size_t i = 0, j; i < w->n; i = j) {
        double t = 0.0, ta = 0.0;
        for (j = i; j < w->n && w->at[j].v == w->at[i].v; j++) {
            size_t pt = w->at[j].point;
            bool in_a = pt >= a_from && pt < a_to, in_b = pt >= b_from && pt < b_to;
            t += in_a || in_b, ta += in_a;
        }
        ra += ta * (below + (t + 1.0) / 2.0);
        ties += t > 1.0 ? t * t * t - t : 0.0;
        below += t;
    }
    int na = (int)(pool->off[a_to] - pool->off[a_from]),
        nb = (int)(pool->off[b_to] - pool->off[b_from]);
    double z = hb_signif_mwu_z_of(ra - na * (na + 1) / 2.0, na, nb, ties);
    return searched_p(z / sqrt(pool->deff), searched);
}

int hb_split_test_interval(const struct hb_split_pool *pool, size_t from, size_t to,
                           struct hb_interval *iv)
{
    size_t n = pool->off[to] - pool->off[from];
    if (to <= from || n == 0) return -1;
    memcpy(pool->scratch, pool->at + pool->off[from], sizeof(double) * n);
    return hb_interval_median(pool->scratch, (int)n, HB_CI_LEVEL, iv);
}
