/* The matrix suite's fleet table: per host, local latency, local read bandwidth (medians of
 * their repeats, with their intervals) and the worst remote/local latency ratio; a host more
 * than `pct` percent worse than the fleet's median on any of them is flagged (bandwidth:
 * against the median of the hosts whose nodes have as many cores), unless its interval and
 * the median's overlap: then the difference is within the noise and said as inconclusive.
 * An outlier's reason names the knobs in which its configuration differs from the fleet's
 * majority (hb_config_drift.h), every host's record lists them. */
#include "hb_matrix_grid.h"

#include "hb_config.h"
#include "hb_error.h"
#include "hb_grow.h"
#include "hb_config_drift.h"
#include "hb_interval.h"
#include "hb_jsonl_read.h"
#include "hb_stats.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hb_fleet_host {
    char *host;
    double lat, bw, ratio; /* NAN where the host has no such matrix */
    double lat_lo, lat_hi; /* their 95% intervals, NAN when unknown (one repeat) */
    double bw_lo, bw_hi;
    int threads; /* of its local read, 0 if none */
};

/* A host's local figure: the mean over its local cells of their median over repeats (files
 * from before repeats: of their median sample: a best sample is one lucky moment), and the
 * mean of their intervals' ends (NAN when a cell has none). */
static double hb_grid_local(const struct hb_topo *t, const struct hb_grid *g, double *lo,
                            double *hi)
{
    double sum = 0.0, slo = 0.0, shi = 0.0;
    int n = 0;
    bool all = true;
    for (int i = 0; i < t->nnodes; i++) {
        const json_t *rec = HB_AT(g->rec, t, i, i);
        bool repeats = rec && json_is_number(json_object_get(rec, "value"));
        json_t *m = rec ? json_object_get(rec, repeats      ? "value"
                                               : g->latency ? "lat_ns_median"
                                                            : "bw_GBps_median")
                        : NULL;
        if (!json_is_number(m)) continue;
        struct hb_interval iv;
        if (repeats && hb_rec_interval(rec, &iv) && iv.n >= 2) {
            slo += iv.lo;
            shi += iv.hi;
        } else {
            all = false;
        }
        sum += json_number_value(m);
        n++;
    }
    *lo = n && all ? slo / n : NAN;
    *hi = n && all ? shi / n : NAN;
    return n ? sum / n : NAN;
}

static double hb_grid_worst_remote(const struct hb_topo *t, const struct hb_grid *g)
{
    double worst = 0.0;
    for (int i = 0; i < t->nnodes; i++)
        for (int j = 0; j < t->nnodes; j++)
            if (i != j && !isnan(HB_AT(g->v, t, i, j)) && HB_AT(g->v, t, i, j) > worst)
                worst = HB_AT(g->v, t, i, j);
    return worst;
}

static int hb_grid_local_threads(const struct hb_topo *t, const struct hb_grid *g)
{
    for (int i = 0; i < t->nnodes; i++)
        if (HB_AT(g->rec, t, i, i))
            return (int)json_integer_value(json_object_get(HB_AT(g->rec, t, i, i), "threads"));
    return 0;
}

struct hb_fleet_acc {
    struct hb_fleet_host *hosts;
    int n;
    size_t cap;
};

/* The host's entry in acc, made at its first grid; NULL when out of memory. */
static struct hb_fleet_host *hb_fleet_entry(struct hb_fleet_acc *acc, const char *host)
{
    for (int h = 0; h < acc->n; h++)
        if (strcmp(acc->hosts[h].host, host) == 0) return &acc->hosts[h];
    if (hb_grow((void **)&acc->hosts, &acc->cap, (size_t)acc->n, sizeof(*acc->hosts))) return NULL;
    char *name = strdup(host);
    if (!name) return NULL;
    acc->hosts[acc->n] = (struct hb_fleet_host){name, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0};
    return &acc->hosts[acc->n++];
}

int hb_matrix_fleet_add(const struct hb_topo *t, struct hb_grid **grids, int ng,
                        struct hb_fleet_acc **accp)
{
    struct hb_fleet_acc *acc = *accp ? *accp : calloc(1, sizeof(*acc));
    *accp = acc;
    /* Each host's entry, filled from its latency and read matrices. */
    int g = 0;
    for (; acc && g < ng; g++) {
        struct hb_fleet_host *x = hb_fleet_entry(acc, grids[g]->host);
        if (!x) break;
        double lo, hi, local = hb_grid_local(t, grids[g], &lo, &hi);
        if (grids[g]->latency) {
            double worst = hb_grid_worst_remote(t, grids[g]);
            x->lat = local;
            x->lat_lo = lo;
            x->lat_hi = hi;
            x->ratio = worst > 0.0 ? worst / local : 1.0;
        } else if (strcmp(grids[g]->kernel, "read") == 0) {
            x->bw = local;
            x->bw_lo = lo;
            x->bw_hi = hi;
            x->threads = hb_grid_local_threads(t, grids[g]);
        }
    }
    if (acc && g == ng) return 0;
    hb_err_set("out of memory comparing the hosts of %d matrices", ng);
    return -ENOMEM;
}

void hb_matrix_fleet_free(void *p)
{
    struct hb_fleet_acc *acc = p;
    for (int h = 0; acc && h < acc->n; h++)
        free(acc->hosts[h].host);
    if (acc) free(acc->hosts);
    free(acc);
}

/* Median of one field over the hosts (those with `threads` threads if threads > 0). */
static double hb_fleet_median(const struct hb_fleet_host *hosts, int nh, size_t field, int threads,
                              double *tmp)
{
    int n = 0;
    for (int h = 0; h < nh; h++) {
        double v = *(const double *)((const char *)&hosts[h] + field);
        if ((threads == 0 || hosts[h].threads == threads) && !isnan(v)) tmp[n++] = v;
    }
    return hb_stats_median(tmp, n);
}

/* Where a figure worse than the fleet's goes: the reasons (beyond the noise), the
 * inconclusive (within it), or nowhere. */
static FILE *hb_fleet_worse(double v, double lo, double hi, double ref, double mlo, double mhi,
                            double pct, bool higher_worse, FILE *why, FILE *noise)
{
    struct hb_interval x = {2, v, lo, hi, 0.0}, m = {2, ref, mlo, mhi, 0.0};
    enum hb_worse w = hb_interval_worse(&x, &m, pct, higher_worse);
    return w == HB_WORSE ? why : w == HB_WORSE_WITHIN_NOISE ? noise : NULL;
}

/* Why a host is an outlier, "" if it is not, into *why (with `config`, the knobs in which it
 * differs, when it is one); what exceeds the threshold within the noise into *noise. -ENOMEM
 * (error set) when out of memory. */
static int hb_fleet_reason(const struct hb_fleet_host *x, const struct hb_fleet_host *median,
                           double peers_bw, double pct, const char *config, char **why,
                           char **noise)
{
    size_t len = 0, nlen = 0;
    FILE *f = open_memstream(why, &len), *n = open_memstream(noise, &nlen);
    if (!f || !n) {
        if (f) fclose(f);
        if (n) fclose(n);
        free(*why);
        free(*noise);
        hb_err_set("out of memory explaining host %s", x->host);
        return -ENOMEM;
    }
    FILE *to = hb_fleet_worse(x->lat, x->lat_lo, x->lat_hi, median->lat, median->lat_lo,
                              median->lat_hi, pct, true, f, n);
    if (to) fprintf(to, "local latency %.0f%% above median; ", (x->lat / median->lat - 1) * 100);
    to = hb_fleet_worse(x->bw, x->bw_lo, x->bw_hi, peers_bw, median->bw_lo, median->bw_hi, pct,
                        false, f, n);
    if (to)
        fprintf(to, "local read bandwidth %.0f%% below median of %d-thread hosts; ",
                (1 - x->bw / peers_bw) * 100, x->threads);
    if (x->ratio > median->ratio * (1.0 + pct / 100.0))
        fprintf(f, "remote/local ratio %.0f%% above median; ",
                (x->ratio / median->ratio - 1) * 100);
    if (config[0] && ftell(f) > 0) fprintf(f, "differs in %s; ", config);
    int bad = fclose(f) != 0;
    bad |= fclose(n) != 0;
    if (bad) {
        free(*why);
        free(*noise);
        hb_err_set("out of memory explaining host %s", x->host);
        return -ENOMEM;
    }
    return 0;
}

static json_t *hb_real_or_null(double v)
{
    return isnan(v) ? json_null() : json_real(v);
}

static json_t *hb_ci_or_null(double lo, double hi)
{
    return isnan(lo) ? json_null() : json_pack("[f, f]", lo, hi);
}

static json_t *hb_fleet_host_json(const struct hb_fleet_host *x, const char *why, const char *noise,
                                  const json_t *drift)
{
    return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:s, s:s, s:O}", "host", x->host,
                     "lat_ns_local", hb_real_or_null(x->lat), "lat_ns_local_ci95",
                     hb_ci_or_null(x->lat_lo, x->lat_hi), "bw_GBps_local_read",
                     hb_real_or_null(x->bw), "bw_GBps_local_read_ci95",
                     hb_ci_or_null(x->bw_lo, x->bw_hi), "bw_threads",
                     x->threads ? json_integer(x->threads) : json_null(), "worst_remote_ratio",
                     hb_real_or_null(x->ratio), "outlier", why[0] != '\0', "reason", why,
                     "inconclusive", noise, "config_differs", drift ? drift : json_null());
}

static int hb_fleet_emit(const struct hb_fleet_host *hosts, int nh, double pct, double *tmp,
                         const json_t *drift, json_t *derived)
{
#define HB_MEDIAN(f) hb_fleet_median(hosts, nh, offsetof(struct hb_fleet_host, f), 0, tmp)
    struct hb_fleet_host median = {
        .lat = HB_MEDIAN(lat),
        .bw = HB_MEDIAN(bw),
        .ratio = HB_MEDIAN(ratio),
        .lat_lo = HB_MEDIAN(lat_lo),
        .lat_hi = HB_MEDIAN(lat_hi),
        .bw_lo = HB_MEDIAN(bw_lo),
        .bw_hi = HB_MEDIAN(bw_hi),
    };
#undef HB_MEDIAN
    json_t *list = json_array();
    for (int h = 0; h < nh; h++) {
        double peers_bw =
            hb_fleet_median(hosts, nh, offsetof(struct hb_fleet_host, bw), hosts[h].threads, tmp);
        char *why = NULL, *noise = NULL;
        const json_t *mine = json_object_get(drift, hosts[h].host);
        char *config = hb_config_pairs(mine);
        if (!config || hb_fleet_reason(&hosts[h], &median, peers_bw, pct, config, &why, &noise)) {
            if (!config) hb_err_set("out of memory explaining host %s", hosts[h].host);
            free(config);
            json_decref(list);
            return -ENOMEM;
        }
        json_array_append_new(list, hb_fleet_host_json(&hosts[h], why, noise, mine));
        free(config);
        free(why);
        free(noise);
    }
    json_array_append_new(derived,
                          json_pack("{s:s, s:s, s:o, s:f, s:{s:o, s:o, s:o}}", "type", "fleet",
                                    "suite", "matrix", "hosts", list, "threshold_pct", pct,
                                    "median", "lat_ns_local", hb_real_or_null(median.lat),
                                    "bw_GBps_local_read", hb_real_or_null(median.bw),
                                    "worst_remote_ratio", hb_real_or_null(median.ratio)));
    return 0;
}

int hb_matrix_fleet_end(const struct hb_fleet_acc *acc, double pct, const json_t *host_configs,
                        json_t *derived)
{
    int nh = acc ? acc->n : 0, rc = 0;
    if (nh < 2) return 0;
    double *tmp = calloc((size_t)nh + 1, sizeof(*tmp));
    json_t *drift = host_configs ? hb_fleet_config_drift(host_configs) : NULL;
    if (!tmp || (host_configs && !drift)) {
        hb_err_set("out of memory comparing the configurations of %d hosts", nh);
        rc = -ENOMEM;
    } else {
        rc = hb_fleet_emit(acc->hosts, nh, pct, tmp, drift, derived);
    }
    json_decref(drift);
    free(tmp);
    return rc;
}

int hb_matrix_fleet(const struct hb_topo *t, double pct, struct hb_grid **grids, int ng,
                    const json_t *host_configs, json_t *derived)
{
    struct hb_fleet_acc *acc = NULL;
    int rc = hb_matrix_fleet_add(t, grids, ng, &acc);
    if (rc == 0) rc = hb_matrix_fleet_end(acc, pct, host_configs, derived);
    hb_matrix_fleet_free(acc);
    return rc;
}
