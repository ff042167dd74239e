/* comm across three hosts or more: each host pair (link) side by side, and a slow link flagged
 * as the fleet flags a slow host: worse than the reference by more than the fleet threshold
 * and beyond the noise (hb_interval_worse, then the family's adjusted rank-test p over every
 * link worse on that figure: hb_family_rec.h), inconclusive within it. The reference is the
 * median of the better half of the links, not of all: one slow host slows every link it has,
 * which with three or four hosts is half of them or more, and would make a slow link the
 * median. A flagged link names the configuration drift of its hosts, as a fleet's outlier does
 * (hb_config_drift.h). */
#include "hb_suite_comm.h"

#include "hb_config.h"
#include "hb_config_drift.h"
#include "hb_error.h"
#include "hb_strf.h"
#include "hb_family_rec.h"
#include "hb_jsonl_read.h"
#include "hb_bytes.h"
#include "hb_stats.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hb_link {
    const char *a, *b;
    int pairs;                  /* rank pairs measured across it (both directions) */
    struct hb_interval lat, bw; /* 8 B latency (us), largest-size bandwidth (GBps) */
    double *lat_v, *bw_v;       /* their pooled values (lat.n and bw.n of them) */
};

static bool link_pick(const json_t *rec, const void *ctx)
{
    const struct hb_link *l = ctx;
    const char *s = hb_jsonl_read_str(rec, "src_host", ""),
               *d = hb_jsonl_read_str(rec, "dst_host", "");
    return (strcmp(s, l->a) == 0 && strcmp(d, l->b) == 0) ||
           (strcmp(s, l->b) == 0 && strcmp(d, l->a) == 0);
}

/* The reference of one figure: the median value and interval ends of the better half of the
 * links (at least one; lower latency or higher bandwidth is better; *cut the last value in
 * it), unknown ends when one of them has none. The links' values are sorted in `tmp`. */
static struct hb_interval link_reference(const struct hb_link *links, int n, bool latency,
                                         double *tmp, double *cut_out)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        double v = latency ? links[i].lat.value : links[i].bw.value;
        if (isfinite(v)) tmp[m++] = latency ? v : -v;
    }
    struct hb_interval ref = {0, NAN, NAN, NAN, 0.0};
    *cut_out = NAN;
    if (m == 0) return ref;
    hb_stats_median(tmp, m); /* sorts: the better half first */
    double cut = latency ? tmp[(m / 2 > 1 ? m / 2 : 1) - 1] : -tmp[(m / 2 > 1 ? m / 2 : 1) - 1];
    *cut_out = cut;
    double *v = tmp + m, *lo = v + n, *hi = lo + n;
    int k = 0;
    bool known = true;
    for (int i = 0; i < n; i++) {
        const struct hb_interval *f = latency ? &links[i].lat : &links[i].bw;
        if (!isfinite(f->value) || (latency ? f->value > cut : f->value < cut)) continue;
        v[k] = f->value;
        lo[k] = f->lo;
        hi[k++] = f->hi;
        known = known && !isnan(f->lo);
    }
    ref.n = k;
    ref.value = hb_stats_median(v, k);
    if (known) {
        ref.lo = hb_stats_median(lo, k);
        ref.hi = hb_stats_median(hi, k);
    }
    return ref;
}

/* "h3 differs in thp_enabled=never; " for each host of the link that differs from the fleet's
 * majority (drift: hb_config_drift_fleet's), "" for none; NULL when out of memory. */
static char *link_drift(const struct hb_link *l, const json_t *drift)
{
    const char *host[2] = {l->a, l->b};
    char *end[2] = {NULL, NULL};
    for (int e = 0; e < 2; e++) {
        const json_t *knobs = json_object_get(drift, host[e]);
        char *pairs = json_object_size(knobs) ? hb_config_diff_pairs(knobs) : NULL;
        if (pairs)
            end[e] = hb_strf("%s differs in %s; ", host[e], pairs);
        else if (!json_object_size(knobs))
            end[e] = strdup("");
        free(pairs);
    }
    char *out = end[0] && end[1] ? hb_strf("%s%s", end[0], end[1]) : NULL;
    free(end[0]);
    free(end[1]);
    return out;
}

/* One figure of the links against its reference: each link worse by more than pct is a
 * candidate of the family, tested by its pooled values against those of the reference's links
 * (the better half, itself left out); at[i] its index, -1 when not worse. */
struct hb_link_fig {
    bool latency;
    struct hb_interval ref;
    double cut;
    struct hb_family_rec fam;
    int *at;
};

static const struct hb_interval *link_iv(const struct hb_link *l, bool latency)
{
    return latency ? &l->lat : &l->bw;
}

/* The p of link i against the reference links' pooled values (NAN when unknown). */
static double link_p(const struct hb_link *links, int n, int i, const struct hb_link_fig *f)
{
    size_t all = 0;
    for (int k = 0; k < n; k++)
        all += (size_t)link_iv(&links[k], f->latency)->n;
    double *pool = all ? malloc(sizeof(*pool) * all) : NULL;
    int m = 0;
    for (int k = 0; pool && k < n; k++) {
        const struct hb_interval *x = link_iv(&links[k], f->latency);
        if (k == i || !isfinite(x->value) || (f->latency ? x->value > f->cut : x->value < f->cut))
            continue;
        const double *v = f->latency ? links[k].lat_v : links[k].bw_v;
        for (int r = 0; v && r < x->n; r++)
            pool[m++] = v[r];
    }
    const struct hb_interval *x = link_iv(&links[i], f->latency);
    double p = hb_family_rec_p_of(f->latency ? links[i].lat_v : links[i].bw_v,
                                  isnan(x->lo) ? 0 : x->n, pool, m);
    free(pool);
    return p;
}

static void link_family(const struct hb_link *links, int n, double pct, struct hb_link_fig *f)
{
    for (int i = 0; f->at && i < n; i++) {
        const struct hb_interval *x = link_iv(&links[i], f->latency);
        enum hb_worse w = hb_interval_worse(x, &f->ref, pct, f->latency);
        f->at[i] = -1;
        if (w == HB_NOT_WORSE) continue;
        bool unknown = isnan(x->lo) || isnan(f->ref.lo);
        json_t *e = json_object();
        if (hb_family_rec_add(&f->fam, e, unknown ? NAN : link_p(links, n, i, f), w == HB_WORSE) ==
            0)
            f->at[i] = (int)f->fam.n - 1;
        json_decref(e);
    }
    hb_family_rec_decide(&f->fam);
}

/* Link i's figure of f with the p and adjusted p of its test (null when none or unknown);
 * into *to the text it adds: why (an outlier) or noise (inconclusive), NULL when not worse. */
static json_t *link_fig_json(const struct hb_link *l, int i, const struct hb_link_fig *f, char *why,
                             char *noise, char **to)
{
    json_t *fig = hb_comm_pool_figure_json(link_iv(l, f->latency));
    const json_t *e = f->at[i] < 0 ? NULL : json_array_get(f->fam.entries, (size_t)f->at[i]);
    json_t *p = json_object_get(e, "p"), *adj = json_object_get(e, "p_adjusted");
    json_object_set_new(fig, "p", p ? json_incref(p) : json_null());
    json_object_set_new(fig, "p_adjusted", adj ? json_incref(adj) : json_null());
    *to = f->at[i] < 0 ? NULL : hb_family_rec_drawn(&f->fam, (size_t)f->at[i]) ? why : noise;
    return fig;
}

/* One link's entry: its figures and, against the references, why it is an outlier (ending
 * with its hosts' configuration drift). NULL when out of memory. */
static json_t *link_json(const struct hb_link *l, int i, const struct hb_link_fig *flat,
                         const struct hb_link_fig *fbw, const char *size, const json_t *drift)
{
    char why[256] = "", noise[256] = "", *to;
    json_t *lat = link_fig_json(l, i, flat, why, noise, &to);
    if (to)
        snprintf(to, 128, "8 B latency %.0f%% above the reference; ",
                 (l->lat.value / flat->ref.value - 1) * 100);
    json_t *bw = link_fig_json(l, i, fbw, why, noise, &to);
    if (to)
        snprintf(to + strlen(to), 128, "%s bandwidth %.0f%% below the reference; ", size,
                 (1 - l->bw.value / fbw->ref.value) * 100);
    char *config = why[0] ? link_drift(l, drift) : strdup("");
    char *reason = config ? hb_strf("%s%s", why, config) : NULL;
    json_t *entry =
        reason ? json_pack("{s:[s, s], s:i, s:o, s:o, s:b, s:s, s:s}", "hosts", l->a, l->b, "pairs",
                           l->pairs, "latency_us", lat, "bandwidth_GBps", bw, "outlier",
                           why[0] != '\0', "reason", reason, "inconclusive", noise)
               : NULL;
    if (!reason) {
        json_decref(lat);
        json_decref(bw);
    }
    free(config);
    free(reason);
    return entry;
}

/* The reference as a figure: the medians of links' interval ends, of no one coverage or count
 * of repeats (both null). */
static json_t *link_ref_json(const struct hb_interval *ref)
{
    return hb_comm_pool_figure_json(&(struct hb_interval){0, ref->value, ref->lo, ref->hi, 0.0});
}

/* The record of n links (n >= 3), figures filled in. */
static json_t *links_record(const struct hb_link *links, int n, double pct, double least,
                            double most, double *tmp, const json_t *drift)
{
    struct hb_link_fig f[2] = {{.latency = true}, {.latency = false}};
    for (int k = 0; k < 2; k++) {
        f[k].ref = link_reference(links, n, f[k].latency, tmp, &f[k].cut);
        f[k].at = calloc((size_t)n, sizeof(int));
        link_family(links, n, pct, &f[k]);
    }
    char size[32];
    hb_bytes_format((uint64_t)most, size, sizeof(size));
    json_t *list = f[0].at && f[1].at ? json_array() : NULL;
    for (int i = 0; list && i < n; i++)
        if (json_array_append_new(list, link_json(&links[i], i, &f[0], &f[1], size, drift))) {
            json_decref(list);
            list = NULL;
        }
    json_t *rec =
        list ? json_pack("{s:s, s:s, s:f, s:I, s:I, s:{s:o, s:o, s:i}, s:o, s:{s:o, s:o}}", "type",
                         "comm_links", "suite", "comm", "threshold_pct", pct, "latency_bytes",
                         (json_int_t)least, "bandwidth_bytes", (json_int_t)most, "reference",
                         "latency_us", link_ref_json(&f[0].ref), "bandwidth_GBps",
                         link_ref_json(&f[1].ref), "links", f[0].ref.n, "links", list, "family",
                         "latency_us", hb_family_rec_json(&f[0].fam), "bandwidth_GBps",
                         hb_family_rec_json(&f[1].fam))
             : NULL;
    for (int k = 0; k < 2; k++) {
        hb_family_rec_free(&f[k].fam);
        free(f[k].at);
    }
    return rec;
}

int hb_comm_links_derive(const json_t *measured, double pct, const json_t *host_configs,
                         json_t *derived)
{
    json_t *pairs = hb_comm_pool_links_of(measured);
    if (!pairs) return -ENOMEM;
    int n = (int)json_array_size(pairs), rc = 0;
    if (n < 3) { /* two hosts have one link: nothing to set it beside */
        json_decref(pairs);
        return 0;
    }
    double least, most;
    hb_comm_pool_sizes(measured, &least, &most);
    struct hb_link *links = calloc((size_t)n, sizeof(*links));
    double *tmp = calloc((size_t)n * 4, sizeof(*tmp));
    for (int i = 0; links && tmp && rc == 0 && i < n; i++) {
        struct hb_link *l = &links[i];
        l->a = json_string_value(json_array_get(json_array_get(pairs, (size_t)i), 0));
        l->b = json_string_value(json_array_get(json_array_get(pairs, (size_t)i), 1));
        l->pairs = hb_comm_pool(measured, "latency", least, link_pick, l, &l->lat, &l->lat_v);
        int b = hb_comm_pool(measured, "bandwidth", most, link_pick, l, &l->bw, &l->bw_v);
        if (l->pairs < 0 || b < 0) rc = -ENOMEM;
    }
    json_t *drift = hb_config_drift_fleet(host_configs);
    json_t *rec = links && tmp && drift && rc == 0
                      ? links_record(links, n, pct, least, most, tmp, drift)
                      : NULL;
    if (!rec || json_array_append_new(derived, rec)) rc = -ENOMEM;
    json_decref(drift);
    for (int i = 0; links && i < n; i++) {
        free(links[i].lat_v);
        free(links[i].bw_v);
    }
    free(links);
    free(tmp);
    json_decref(pairs);
    return rc;
}
