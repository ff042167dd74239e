/* comm across three hosts or more: each host pair (link) side by side, and a slow link flagged
 * as the fleet flags a slow host: worse than the reference by more than the fleet threshold
 * and beyond the noise (hb_interval_worse), inconclusive within it. The reference is the
 * median of the better half of the links, not of all: one slow host slows every link it has,
 * which with three or four hosts is half of them or more, and would make a slow link the
 * median. A flagged link names the configuration drift of its hosts, as a fleet's outlier does
 * (hb_config_drift.h). */
#include "hb_suite_comm.h"

#include "hb_config.h"
#include "hb_config_drift.h"
#include "hb_error.h"
#include "hb_jsonl_read.h"
#include "hb_size.h"
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
};

static bool hb_link_pick(const json_t *rec, const void *ctx)
{
    const struct hb_link *l = ctx;
    const char *s = hb_rec_str(rec, "src_host", ""), *d = hb_rec_str(rec, "dst_host", "");
    return (strcmp(s, l->a) == 0 && strcmp(d, l->b) == 0) ||
           (strcmp(s, l->b) == 0 && strcmp(d, l->a) == 0);
}

/* The reference of one figure: the median value and interval ends of the better half of the
 * links (at least one; lower latency or higher bandwidth is better), unknown ends when one
 * of them has none. The links' values are sorted in `tmp`. */
static struct hb_interval hb_link_reference(const struct hb_link *links, int n, bool latency,
                                            double *tmp)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        double v = latency ? links[i].lat.value : links[i].bw.value;
        if (isfinite(v)) tmp[m++] = latency ? v : -v;
    }
    struct hb_interval ref = {0, NAN, NAN, NAN, 0.0};
    if (m == 0) return ref;
    hb_stats_median(tmp, m); /* sorts: the better half first */
    double cut = latency ? tmp[(m / 2 > 1 ? m / 2 : 1) - 1] : -tmp[(m / 2 > 1 ? m / 2 : 1) - 1];
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
 * majority (drift: hb_fleet_config_drift's), "" for none; NULL when out of memory. */
static char *hb_link_drift(const struct hb_link *l, const json_t *drift)
{
    const char *host[2] = {l->a, l->b};
    char *end[2] = {NULL, NULL};
    for (int e = 0; e < 2; e++) {
        const json_t *knobs = json_object_get(drift, host[e]);
        char *pairs = json_object_size(knobs) ? hb_config_pairs(knobs) : NULL;
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

/* One link's entry: its figures and, against the references, why it is an outlier (ending
 * with its hosts' configuration drift). NULL when out of memory. */
static json_t *hb_link_json(const struct hb_link *l, const struct hb_interval *rlat,
                            const struct hb_interval *rbw, double pct, const char *size,
                            const json_t *drift)
{
    char why[256] = "", noise[256] = "", *to;
    enum hb_worse w = hb_interval_worse(&l->lat, rlat, pct, true);
    to = w == HB_WORSE ? why : w == HB_WORSE_WITHIN_NOISE ? noise : NULL;
    if (to)
        snprintf(to, 128, "8 B latency %.0f%% above the reference; ",
                 (l->lat.value / rlat->value - 1) * 100);
    w = hb_interval_worse(&l->bw, rbw, pct, false);
    to = w == HB_WORSE ? why : w == HB_WORSE_WITHIN_NOISE ? noise : NULL;
    if (to)
        snprintf(to + strlen(to), 128, "%s bandwidth %.0f%% below the reference; ", size,
                 (1 - l->bw.value / rbw->value) * 100);
    char *config = why[0] ? hb_link_drift(l, drift) : strdup("");
    char *reason = config ? hb_strf("%s%s", why, config) : NULL;
    json_t *entry = reason
                        ? json_pack("{s:[s, s], s:i, s:o, s:o, s:b, s:s, s:s}", "hosts", l->a, l->b,
                                    "pairs", l->pairs, "latency_us", hb_comm_figure_json(&l->lat),
                                    "bandwidth_GBps", hb_comm_figure_json(&l->bw), "outlier",
                                    why[0] != '\0', "reason", reason, "inconclusive", noise)
                        : NULL;
    free(config);
    free(reason);
    return entry;
}

/* The record of n links (n >= 3), figures filled in. */
static json_t *hb_links_record(const struct hb_link *links, int n, double pct, double least,
                               double most, double *tmp, const json_t *drift)
{
    struct hb_interval rlat = hb_link_reference(links, n, true, tmp);
    struct hb_interval rbw = hb_link_reference(links, n, false, tmp);
    char size[32];
    hb_size_format((uint64_t)most, size, sizeof(size));
    json_t *list = json_array();
    for (int i = 0; list && i < n; i++)
        if (json_array_append_new(list, hb_link_json(&links[i], &rlat, &rbw, pct, size, drift))) {
            json_decref(list);
            list = NULL;
        }
    if (!list) return NULL;
    return json_pack("{s:s, s:s, s:f, s:I, s:I, s:{s:o, s:o, s:i}, s:o}", "type", "comm_links",
                     "suite", "comm", "threshold_pct", pct, "latency_bytes", (json_int_t)least,
                     "bandwidth_bytes", (json_int_t)most, "reference", "latency_us",
                     hb_comm_figure_json(&rlat), "bandwidth_GBps", hb_comm_figure_json(&rbw),
                     "links", rlat.n, "links", list);
}

int hb_comm_links_derive(const json_t *measured, double pct, const json_t *host_configs,
                         json_t *derived)
{
    json_t *pairs = hb_comm_links_of(measured);
    if (!pairs) return -ENOMEM;
    int n = (int)json_array_size(pairs), rc = 0;
    if (n < 3) { /* two hosts have one link: nothing to set it beside */
        json_decref(pairs);
        return 0;
    }
    double least, most;
    hb_comm_sizes(measured, &least, &most);
    struct hb_link *links = calloc((size_t)n, sizeof(*links));
    double *tmp = calloc((size_t)n * 4, sizeof(*tmp));
    for (int i = 0; links && tmp && rc == 0 && i < n; i++) {
        struct hb_link *l = &links[i];
        l->a = json_string_value(json_array_get(json_array_get(pairs, (size_t)i), 0));
        l->b = json_string_value(json_array_get(json_array_get(pairs, (size_t)i), 1));
        l->pairs = hb_comm_pool(measured, "latency", least, hb_link_pick, l, &l->lat);
        int b = hb_comm_pool(measured, "bandwidth", most, hb_link_pick, l, &l->bw);
        if (l->pairs < 0 || b < 0) rc = -ENOMEM;
    }
    json_t *drift = hb_fleet_config_drift(host_configs);
    json_t *rec = links && tmp && drift && rc == 0
                      ? hb_links_record(links, n, pct, least, most, tmp, drift)
                      : NULL;
    if (!rec || json_array_append_new(derived, rec)) rc = -ENOMEM;
    json_decref(drift);
    free(links);
    free(tmp);
    json_decref(pairs);
    return rc;
}
