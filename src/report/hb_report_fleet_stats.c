/* A fleet's summaries from its folded entries (hb_report_fleet_stats_finish): entries ordered by
 * cell and host (counting sorts, linear), the first of each (host, cell) kept; per cell the
 * distribution of its hosts' values and each host judged against its median; each value
 * turned into a cost (1 = the cell's median host, higher is worse); per host the median of
 * its costs, judged against the fleet's median host: beyond the noise when the intervals are
 * apart and the rank test of its rounds' costs against the other hosts' passes the adjustment
 * over every host worse than the median (the family, hb_family_rec.h, as the matrix suite's
 * fleet judges its hosts). */
#include "hb_report_fleet.h"

#include "hb_error.h"
#include "hb_family_rec.h"
#include "hb_interval.h"
#include "hb_stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The indices of the n entries stably ordered by key(entry) (below nkeys): 0 or -ENOMEM. */
static int rfleet_order(const struct hb_rfleet_obs *v, size_t n, const uint32_t *in, bool by_cell,
                        uint32_t nkeys, uint32_t *out)
{
    size_t *start = calloc((size_t)nkeys + 1, sizeof(*start));
    if (!start) return -ENOMEM;
    for (size_t i = 0; i < n; i++)
        start[(by_cell ? v[in[i]].cell : v[in[i]].host) + 1]++;
    for (uint32_t k = 0; k < nkeys; k++)
        start[k + 1] += start[k];
    for (size_t i = 0; i < n; i++)
        out[start[by_cell ? v[in[i]].cell : v[in[i]].host]++] = in[i];
    free(start);
    return 0;
}

/* fl->v reordered by cell, then host, in file order inside; later entries of a (host, cell)
 * dropped and counted. 0 or -ENOMEM. */
static int rfleet_sort(struct hb_rfleet *fl)
{
    uint32_t *a = malloc((fl->n + 1) * sizeof(*a)), *b = malloc((fl->n + 1) * sizeof(*b));
    struct hb_rfleet_obs *s = malloc((fl->n + 1) * sizeof(*s));
    int rc = a && b && s ? 0 : -ENOMEM;
    for (size_t i = 0; rc == 0 && i < fl->n; i++)
        a[i] = (uint32_t)i;
    if (rc == 0) rc = rfleet_order(fl->v, fl->n, a, false, fl->hosts.n, b);
    if (rc == 0) rc = rfleet_order(fl->v, fl->n, b, true, fl->cells.n, a);
    size_t m = 0;
    for (size_t i = 0; rc == 0 && i < fl->n; i++) {
        const struct hb_rfleet_obs *o = &fl->v[a[i]];
        if (m && s[m - 1].cell == o->cell && s[m - 1].host == o->host)
            fl->duplicates++;
        else
            s[m++] = *o;
    }
    if (rc == 0) {
        free(fl->v);
        fl->v = s;
        fl->n = fl->cap = m;
        s = NULL;
    }
    free(a);
    free(b);
    free(s);
    return rc;
}

/* The median of the finite costs (or values) of field (0 v, 1 lo, 2 hi) of the entries o[at[i]]
 * (at NULL: o[i]), i < n, taken into tmp; NAN when none is. */
static double rfleet_median(const struct hb_rfleet_obs *o, const uint32_t *at, size_t n, int field,
                            double *tmp)
{
    int k = 0;
    for (size_t i = 0; i < n; i++) {
        const struct hb_rfleet_obs *e = &o[at ? at[i] : i];
        double x = field == 0 ? e->v : field == 1 ? e->lo : e->hi;
        if (isfinite(x)) tmp[k++] = x;
    }
    return hb_stats_median(tmp, k);
}

/* The cost of x for a cell of median m: how many times the median host's (higher worse). */
static double rfleet_cost(double x, double m, bool higher_better)
{
    return higher_better ? m / x : x / m;
}

/* Cell c's entries o[0..n): its distribution, each host judged against its median (the
 * project's rule, hb_interval_worse), then each entry turned into its cost. */
static void rfleet_cell_sum(struct hb_rfleet *fl, uint32_t c, struct hb_rfleet_obs *o, size_t n,
                            double *tmp)
{
    struct hb_rfleet_cell *cs = &fl->cell[c];
    for (size_t i = 0; i < n; i++)
        tmp[i] = o[i].v;
    hb_stats_sort(tmp, (int)n);
    cs->hosts = (uint32_t)n;
    cs->min = tmp[0];
    cs->q1 = hb_stats_percentile(tmp, (int)n, 0.25);
    cs->med = hb_stats_percentile(tmp, (int)n, 0.5);
    cs->q3 = hb_stats_percentile(tmp, (int)n, 0.75);
    cs->max = tmp[n - 1];
    cs->ref_lo = rfleet_median(o, NULL, n, 1, tmp);
    cs->ref_hi = rfleet_median(o, NULL, n, 2, tmp);
    struct hb_interval ref = {2, cs->med, cs->ref_lo, cs->ref_hi, 0.0};
    bool hb = cs->higher_better;
    for (size_t i = 0; i < n; i++) {
        struct hb_interval x = {2, o[i].v, o[i].lo, o[i].hi, 0.0};
        enum hb_worse w = hb_interval_worse(&x, &ref, HB_FLEET_PCT, !hb);
        fl->host[o[i].host].flagged += w == HB_WORSE;
        fl->host[o[i].host].within += w == HB_WORSE_WITHIN_NOISE;
        cs->flagged += w == HB_WORSE;
        double v = rfleet_cost(o[i].v, cs->med, hb);
        double lo = rfleet_cost(hb ? o[i].hi : o[i].lo, cs->med, hb);
        double hi = rfleet_cost(hb ? o[i].lo : o[i].hi, cs->med, hb);
        o[i].v = v;
        o[i].lo = lo;
        o[i].hi = hi;
        if (i == 0 || v > cs->worst_cost) {
            cs->worst_cost = v;
            cs->worst = o[i].host;
        }
    }
}

static int rfleet_cells(struct hb_rfleet *fl)
{
    double *tmp = malloc((fl->hosts.n + 1) * sizeof(*tmp));
    if (!tmp) return -ENOMEM;
    for (size_t a = 0, b; a < fl->n; a = b) {
        for (b = a; b < fl->n && fl->v[b].cell == fl->v[a].cell; b++)
            ;
        rfleet_cell_sum(fl, fl->v[a].cell, &fl->v[a], b - a, tmp);
    }
    free(tmp);
    return 0;
}

/* Each host's cost and interval: the medians over its cells. 0 or -ENOMEM. */
static int rfleet_hosts(struct hb_rfleet *fl)
{
    uint32_t *a = malloc((fl->n + 1) * sizeof(*a)), *b = malloc((fl->n + 1) * sizeof(*b));
    double *tmp = malloc((fl->n + 1) * sizeof(*tmp));
    int rc = a && b && tmp ? 0 : -ENOMEM;
    for (size_t i = 0; rc == 0 && i < fl->n; i++)
        a[i] = (uint32_t)i;
    if (rc == 0) rc = rfleet_order(fl->v, fl->n, a, false, fl->hosts.n, b);
    for (uint32_t h = 0; h < fl->hosts.n; h++)
        fl->host[h].cost = fl->host[h].lo = fl->host[h].hi = NAN;
    for (size_t i = 0, j; rc == 0 && i < fl->n; i = j) {
        for (j = i; j < fl->n && fl->v[b[j]].host == fl->v[b[i]].host; j++)
            ;
        struct hb_rfleet_host *hs = &fl->host[fl->v[b[i]].host];
        hs->cells = (uint32_t)(j - i);
        hs->cost = rfleet_median(fl->v, b + i, j - i, 0, tmp);
        hs->lo = rfleet_median(fl->v, b + i, j - i, 1, tmp);
        hs->hi = rfleet_median(fl->v, b + i, j - i, 2, tmp);
    }
    free(a);
    free(b);
    free(tmp);
    return rc;
}

struct hb_rfleet_ranked {
    double cost;
    uint32_t host;
};

/* Costliest first; hosts without a cost last; host order among equals. */
static int rfleet_by_cost(const void *pa, const void *pb)
{
    const struct hb_rfleet_ranked *a = pa, *b = pb;
    bool na = isnan(a->cost), nb = isnan(b->cost);
    if (na != nb) return na ? 1 : -1;
    if (!na && a->cost != b->cost) return a->cost < b->cost ? 1 : -1;
    return a->host < b->host ? -1 : a->host > b->host;
}

/* The p that host h's rounds' costs and the other hosts', pooled, come from one distribution
 * (NAN when unknown); pool has room for every round. */
static double rfleet_p(const double *costs, const size_t *start, const size_t *end, uint32_t nh,
                       uint32_t h, double *pool)
{
    int m = 0;
    for (uint32_t o = 0; o < nh; o++)
        for (size_t k = start[o]; o != h && k < end[o]; k++)
            pool[m++] = costs[k];
    return hb_family_rec_p_of(costs + start[h], (int)(end[h] - start[h]), pool, m);
}

/* The family of the hosts worse than the fleet's median host (w[h] not HB_NOT_WORSE): each
 * one's p and adjusted p, and its verdict: an outlier only when its intervals are apart and it
 * passes the family. 0 or -ENOMEM. */
static int rfleet_family(struct hb_rfleet *fl, const enum hb_worse *w)
{
    uint32_t nh = fl->hosts.n;
    size_t *start = malloc((nh + 1) * sizeof(*start)), *end = malloc((nh + 1) * sizeof(*end));
    double *costs = NULL, *pool = NULL;
    struct hb_family_rec fam = {0};
    int rc = start && end ? 0 : -ENOMEM;
    if (rc == 0) {
        /* Each host's rounds at start[h] .. end[h]. */
        size_t total = 0;
        for (uint32_t h = 0; h < nh; h++)
            total += fl->host[h].nr;
        costs = malloc((total + 1) * sizeof(*costs));
        pool = malloc((total + 1) * sizeof(*pool));
        rc = costs && pool ? 0 : -ENOMEM;
        size_t k = 0;
        for (uint32_t h = 0; rc == 0 && h < nh; h++) {
            const struct hb_rfleet_host *hs = &fl->host[h];
            start[h] = k;
            for (uint32_t r = 0; r < hs->nr && isfinite(hs->cost); r++)
                if (hs->rn[r]) costs[k++] = hs->cost * exp(hs->rlog[r] / hs->rn[r]);
            end[h] = k;
        }
    }
    for (uint32_t h = 0; rc == 0 && h < nh; h++) {
        struct hb_rfleet_host *hs = &fl->host[h];
        hs->p = hs->p_adjusted = NAN;
        if (w[h] == HB_NOT_WORSE) continue;
        bool unknown = isnan(hs->lo) || isnan(fl->lo);
        json_t *e = json_pack("{s:I}", "host", (json_int_t)h);
        rc = hb_family_rec_add(&fam, e, unknown ? NAN : rfleet_p(costs, start, end, nh, h, pool),
                               w[h] == HB_WORSE);
        json_decref(e);
    }
    if (rc == 0) rc = hb_family_rec_decide(&fam);
    for (size_t i = 0; rc == 0 && i < fam.n; i++) {
        json_t *e = json_array_get(fam.entries, i);
        struct hb_rfleet_host *hs = &fl->host[json_integer_value(json_object_get(e, "host"))];
        hs->p = fam.p[i];
        hs->p_adjusted = fam.adj[i];
        hs->verdict = hb_family_rec_drawn(&fam, i) ? HB_RFLEET_OUTLIER : HB_RFLEET_INCONCLUSIVE;
    }
    fl->family = fam.size;
    hb_family_rec_free(&fam);
    free(start);
    free(end);
    free(costs);
    free(pool);
    return rc;
}

/* The fleet's median host (medians of the hosts' costs and interval ends), each host judged
 * against it, the hosts ranked. 0 or -ENOMEM. */
static int rfleet_judge(struct hb_rfleet *fl)
{
    uint32_t nh = fl->hosts.n;
    double *tmp = malloc((nh + 1) * sizeof(*tmp));
    struct hb_rfleet_ranked *r = malloc((nh + 1) * sizeof(*r));
    enum hb_worse *w = malloc((nh + 1) * sizeof(*w));
    fl->rank = malloc((nh + 1) * sizeof(*fl->rank));
    if (!tmp || !r || !w || !fl->rank) {
        free(tmp);
        free(r);
        free(w);
        return -ENOMEM;
    }
    double *ends[3] = {&fl->cost, &fl->lo, &fl->hi};
    for (int e = 0; e < 3; e++) {
        int k = 0;
        for (uint32_t h = 0; h < nh; h++) {
            double x = e == 0 ? fl->host[h].cost : e == 1 ? fl->host[h].lo : fl->host[h].hi;
            if (isfinite(x)) tmp[k++] = x;
        }
        *ends[e] = hb_stats_median(tmp, k);
    }
    struct hb_interval ref = {2, fl->cost, fl->lo, fl->hi, 0.0};
    for (uint32_t h = 0; h < nh; h++) {
        struct hb_rfleet_host *hs = &fl->host[h];
        struct hb_interval x = {2, hs->cost, hs->lo, hs->hi, 0.0};
        w[h] = isnan(hs->cost) ? HB_NOT_WORSE : hb_interval_worse(&x, &ref, HB_FLEET_PCT, true);
        hs->verdict = HB_RFLEET_OK;
        r[h] = (struct hb_rfleet_ranked){hs->cost, h};
    }
    int rc = rfleet_family(fl, w);
    for (uint32_t h = 0; rc == 0 && h < nh; h++) {
        fl->outliers += fl->host[h].verdict == HB_RFLEET_OUTLIER;
        fl->inconclusive += fl->host[h].verdict == HB_RFLEET_INCONCLUSIVE;
    }
    qsort(r, nh, sizeof(*r), rfleet_by_cost);
    for (uint32_t h = 0; h < nh; h++)
        fl->rank[h] = r[h].host;
    free(tmp);
    free(r);
    free(w);
    return rc;
}

int hb_report_fleet_stats_finish(struct hb_rfleet *fl)
{
    int rc = rfleet_sort(fl);
    if (rc == 0) rc = rfleet_cells(fl);
    if (rc == 0) rc = rfleet_hosts(fl);
    if (rc == 0) rc = rfleet_judge(fl);
    fl->cost_min = fl->cost_max = NAN;
    for (size_t i = 0; rc == 0 && i < fl->n; i++) {
        double c = fl->v[i].v;
        if (i == 0 || c < fl->cost_min) fl->cost_min = c;
        if (i == 0 || c > fl->cost_max) fl->cost_max = c;
    }
    if (rc)
        hb_error_set("out of memory summarising %zu measurements of %u hosts", fl->n, fl->hosts.n);
    return rc;
}

struct hb_rfleet_spread {
    double cost;
    uint32_t cell;
};

/* Widest spread first (the costliest host furthest above its cell's median), cell order
 * among equals. */
static int rfleet_by_spread(const void *pa, const void *pb)
{
    const struct hb_rfleet_spread *a = pa, *b = pb;
    if (a->cost != b->cost) return a->cost < b->cost ? 1 : -1;
    return a->cell < b->cell ? -1 : a->cell > b->cell;
}

static int rfleet_by_cell(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return a < b ? -1 : a > b;
}

uint32_t *hb_report_fleet_stats_pick(const struct hb_rfleet *fl, uint32_t unit, size_t max,
                                     size_t *n, size_t *total)
{
    struct hb_rfleet_spread *s = malloc((fl->cells.n + 1) * sizeof(*s));
    uint32_t *out = malloc((fl->cells.n + 1) * sizeof(*out));
    if (!s || !out) {
        free(s);
        free(out);
        return NULL;
    }
    size_t k = 0;
    for (uint32_t c = 0; c < fl->cells.n; c++)
        if (unit == HB_STRTAB_NONE || fl->cell[c].unit == unit)
            s[k++] = (struct hb_rfleet_spread){fl->cell[c].worst_cost, c};
    *total = k;
    if (k > max) qsort(s, k, sizeof(*s), rfleet_by_spread);
    *n = k < max ? k : max;
    for (size_t i = 0; i < *n; i++)
        out[i] = s[i].cell;
    qsort(out, *n, sizeof(*out), rfleet_by_cell);
    free(s);
    return out;
}
