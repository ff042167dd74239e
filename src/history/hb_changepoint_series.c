/* One series' change points (hb_changepoint_series.h). E-divisive finds candidate splits in
 * half-overlapping windows of --window points, recursing into each side of a split its test
 * accepts (at the FDR level, unadjusted: a screen); then, as Otava merges, each candidate is
 * tested again between its neighbours and the weakest dropped until every one stands at the
 * level over the series' tests. The candidates left cut the series into segments: each cut
 * is a step, and the latest level is also held against the best earlier segment (slow creep,
 * which no single step shows). */
#include "hb_changepoint_series.h"

#include "hb_changepoint_knobs.h"
#include "hb_edivisive.h"
#include "hb_split_test.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct search {
    const struct hb_history_series *s;
    const struct hb_changepoint_params *params;
    struct hb_split_pool pool;
    double *values, *rows;         /* the points' values; E-divisive's scratch (a window's) */
    struct hb_split_window ranked; /* the window's repeats, ranked once for its splits */
    bool *cut;                     /* cut[t]: a candidate split before point t */
    size_t tests;                  /* splits tested: each a member of the FDR's family */
    bool failed;                   /* out of memory in a test */
};

/* A test's p; a NAN (out of memory) is remembered and reads as no step. */
static double tested(struct search *x, double p)
{
    if (isnan(p)) x->failed = true;
    return isnan(p) ? 1.0 : p;
}

/* E-divisive's recursion over points [from, to). The split is tested both against all the
 * rest and against the stretch E-divisive compared it with (to kappa), each corrected for
 * its search, and the smaller p doubled (Bonferroni over the two). */
static void divide(struct search *x, size_t from, size_t to)
{
    size_t n = to - from, kappa;
    if (n < 2) return;
    size_t at = from + hb_edivisive_split(x->values + from, n, x->rows, NULL, &kappa);
    double p = tested(x, hb_split_test_window_p(&x->ranked, &x->pool, from, at, at, to, n - 1));
    if (from + kappa < to) {
        double stretch = tested(x, hb_split_test_window_p(&x->ranked, &x->pool, from, at, at,
                                                          from + kappa, n * (n - 1) / 2));
        p = stretch < p ? stretch : p;
    }
    p = n > 2 ? fmin(1.0, 2.0 * p) : p;
    x->tests++;
    if (p >= x->params->fdr) return;
    x->cut[at] = true;
    divide(x, from, at);
    divide(x, at, to);
}

/* The segments around candidate j of c[0..k): at most a window each side of it. */
static void around(const struct search *x, const size_t *c, size_t k, size_t j, size_t *from,
                   size_t *to)
{
    size_t w = x->params->window, prev = j ? c[j - 1] : 0;
    size_t next = j + 1 < k ? c[j + 1] : x->s->n_points;
    *from = c[j] - prev > w ? c[j] - w : prev;
    *to = next - c[j] > w ? c[j] + w : next;
}

static double candidate_p(struct search *x, const size_t *c, size_t k, size_t j)
{
    size_t from, to;
    around(x, c, k, j, &from, &to);
    return tested(x, hb_split_test_p(&x->pool, from, c[j], to, to - from - 1));
}

/* Drop the weakest candidate while one fails the level over the series' own tests (a cut
 * that could not stand among them alone will not stand among a fleet's, and would cut its
 * neighbours' segments short), its neighbours tested again: c and p keep the k left. */
static size_t merge(struct search *x, size_t *c, double *p, size_t k)
{
    double level = x->params->fdr / (double)(x->tests ? x->tests : 1);
    for (size_t j = 0; j < k; j++)
        p[j] = candidate_p(x, c, k, j);
    while (k) {
        size_t worst = 0;
        for (size_t j = 1; j < k; j++)
            if (p[j] > p[worst]) worst = j;
        if (p[worst] < level) break;
        memmove(c + worst, c + worst + 1, sizeof(*c) * (k - worst - 1));
        memmove(p + worst, p + worst + 1, sizeof(*p) * (k - worst - 1));
        k--;
        if (worst > 0) p[worst - 1] = candidate_p(x, c, k, worst - 1);
        if (worst < k) p[worst] = candidate_p(x, c, k, worst);
    }
    return k;
}

static bool text_differs(const char *a, const char *b)
{
    return (a || b) && (!a || !b || strcmp(a, b) != 0);
}

/* cp's figures from its segments: intervals, change, direction, what else changed. Returns
 * 1 when its change passes min_change (kept), 0 when not, <0 on error. */
static int describe(struct search *x, struct hb_changepoint *cp)
{
    const struct hb_history_series *s = x->s;
    if (hb_split_test_interval(&x->pool, cp->before_from, cp->before_to, &cp->before) ||
        hb_split_test_interval(&x->pool, cp->after_from, cp->after_to, &cp->after) ||
        cp->before.value == 0.0)
        return 0;
    cp->change_pct = (cp->after.value / cp->before.value - 1.0) * 100.0;
    cp->worse = s->higher_is_better ? cp->change_pct < 0.0 : cp->change_pct > 0.0;
    if (!(fabs(cp->change_pct) > x->params->min_change) || (cp->creep && !cp->worse)) return 0;
    cp->recent = cp->at + x->params->recent >= s->n_points;
    const struct hb_history_point *b = &s->points[cp->before_to - 1], *a = &s->points[cp->at];
    cp->version_changed =
        text_differs(b->version, a->version) || text_differs(b->commit, a->commit);
    int rc = hb_changepoint_knobs(b->config_json, a->config_json, &cp->knobs, &cp->n_knobs);
    return rc ? rc : 1;
}

/* The earlier segment (of the k + 1 that the cuts c[0..k) make, the latest left out) with
 * the best median: its bounds; false when there is none (no cut). */
static bool best_earlier(struct search *x, const size_t *c, size_t k, size_t *from, size_t *to)
{
    bool found = false;
    double best = NAN;
    for (size_t j = 0; j < k; j++) {
        size_t f = j ? c[j - 1] : 0, t = c[j];
        struct hb_interval iv;
        if (hb_split_test_interval(&x->pool, f, t, &iv)) continue;
        if (!found || (x->s->higher_is_better ? iv.value > best : iv.value < best))
            best = iv.value, *from = f, *to = t, found = true;
    }
    return found;
}

/* Slow creep: the latest level (the last tenth of a window, 5 points at 50, within the
 * latest segment: recent, yet repeats enough for the rank test) against the best earlier
 * segment. When a segment lies between the two, that is a staircase of steps, each of which
 * may stay under min_change; when the best is the one just before the latest, the step
 * between them says the change, and creep is only the latest segment drifting on, its end
 * worse than its start at the level over the series' tests (a filter against saying a step
 * twice; the claim and its p are the latest level against the best). 1 with *cp filled, 0 when
 * there is nothing to hold against. */
static int creep_of(struct search *x, size_t index, const size_t *c, size_t k,
                    struct hb_changepoint *cp)
{
    size_t n = x->s->n_points, tail = x->params->window / 10, bf, bt;
    if (k == 0 || !best_earlier(x, c, k, &bf, &bt)) return 0;
    size_t last = c[k - 1];
    size_t at = n - last > tail ? n - tail : last;
    if (bt == last) {
        struct hb_interval head, end;
        if (n - last < 2 * tail || hb_split_test_interval(&x->pool, last, last + tail, &head) ||
            hb_split_test_interval(&x->pool, at, n, &end))
            return 0;
        if (x->s->higher_is_better ? end.value >= head.value : end.value <= head.value) return 0;
        if (tested(x, hb_split_test_apart(&x->pool, last, last + tail, at, n, 1)) >=
            x->params->fdr / (double)x->tests)
            return 0;
    }
    *cp = (struct hb_changepoint){.series = index,
                                  .at = at,
                                  .before_from = bf,
                                  .before_to = bt,
                                  .after_from = at,
                                  .after_to = n,
                                  .creep = true,
                                  .p_adjusted = NAN};
    /* the cuts searched over the series, the best chosen of k segments */
    double q = tested(x, hb_split_test_apart(&x->pool, bf, bt, at, n, n - 1)) * (double)k;
    cp->p = q < 1.0 ? q : 1.0;
    return 1;
}

/* The change points of the k candidates c with their p, and the creep: appended to out (room
 * for k + 1) when kept; members counts the creep's test (the steps are among the splits
 * tested). */
static int collect(struct search *x, size_t index, const size_t *c, const double *p, size_t k,
                   struct hb_changepoint *out, size_t *n, size_t *members)
{
    for (size_t j = 0; j <= k; j++) {
        struct hb_changepoint cp = {.series = index, .p_adjusted = NAN};
        if (j < k) {
            around(x, c, k, j, &cp.before_from, &cp.after_to);
            cp.at = cp.before_to = cp.after_from = c[j];
            cp.p = p[j];
        } else if (!creep_of(x, index, c, k, &cp))
            break;
        if (j == k) ++*members;
        int rc = describe(x, &cp);
        if (rc < 0) return rc;
        if (rc) out[(*n)++] = cp;
    }
    return 0;
}

/* Candidates in windows of the series' values: c (room for every point) gets them in order. */
static size_t candidates(struct search *x, size_t *c)
{
    size_t n = x->s->n_points, w = x->params->window, k = 0;
    for (size_t from = 0; from < n; from += w / 2) {
        size_t to = n - from > w ? from + w : n;
        if (hb_split_test_window_rank(&x->ranked, &x->pool, from, to)) {
            x->failed = true;
            break;
        }
        divide(x, from, to);
        if (to == n) break;
    }
    for (size_t t = 1; t < n; t++)
        if (x->cut[t]) c[k++] = t;
    return k;
}

int hb_changepoint_series(const struct hb_history_series *s, size_t index,
                          const struct hb_changepoint_params *params, struct hb_changepoint **out,
                          size_t *n_out, size_t *members)
{
    *out = NULL, *n_out = 0, *members = 0;
    size_t n = s->n_points;
    if (n < 2) return 0;
    struct search x = {s, params, {0}, NULL, NULL, {0}, NULL, 0, false};
    size_t *c = malloc(sizeof(*c) * n);
    double *p = malloc(sizeof(*p) * n);
    x.values = malloc(sizeof(*x.values) * n);
    size_t w = params->window < n ? params->window : n;
    x.rows = malloc(sizeof(*x.rows) * HB_EDIVISIVE_SCRATCH(w));
    x.cut = calloc(n, sizeof(*x.cut));
    int rc = c && p && x.values && x.rows && x.cut ? hb_split_test_pool_init(&x.pool, s) : -ENOMEM;
    if (rc == 0) {
        for (size_t i = 0; i < n; i++)
            x.values[i] = s->points[i].value;
        size_t k = merge(&x, c, p, candidates(&x, c));
        *out = calloc(k + 1, sizeof(**out));
        *members = x.tests;
        rc = *out ? collect(&x, index, c, p, k, *out, n_out, members) : -ENOMEM;
        if (rc == 0 && x.failed) rc = -ENOMEM;
        if (rc || *n_out == 0) {
            for (size_t i = 0; *out && i < *n_out; i++)
                hb_changepoint_knobs_free((*out)[i].knobs, (*out)[i].n_knobs);
            free(*out);
            *out = NULL, *n_out = 0;
        }
    }
    hb_split_test_pool_free(&x.pool);
    hb_split_test_window_free(&x.ranked);
    free(c), free(p), free(x.values), free(x.rows), free(x.cut);
    return rc;
}
