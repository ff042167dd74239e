/* The matrix suite's fleet table: per host, local latency, local read bandwidth (medians of
 * their repeats, with their intervals) and the worst remote/local latency ratio; a host more
 * than `pct` percent worse than the fleet's median on any of them is flagged (bandwidth:
 * against the median of the hosts whose nodes have as many cores), unless its interval and
 * the median's overlap or the family's adjusted p (the host's repeats against those of the
 * other hosts it is set beside, over every host worse on that figure) says the difference
 * may be noise: then it is said as inconclusive. An outlier's reason names the knobs in which its
 * configuration differs from the fleet's majority (hb_config_drift.h), every host's record lists
 * them. */
#include "hb_matrix_grid.h"

#include "hb_config.h"
#include "hb_error.h"
#include "hb_grow.h"
#include "hb_config_drift.h"
#include "hb_family_rec.h"
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
    int threads;            /* of its local read, 0 if none */
    double *lat_rv, *bw_rv; /* the figure per repeat (NULL when unknown) */
    int lat_nrv, bw_nrv;
};

/* The per-repeat figure of the local cells into *rv (*nrv of them): repeat r's the mean of
 * the cells' r-th repeat values; NULL and 0 unless every cell has as many, two or more. */
static void grid_local_repeats(const struct hb_topo *t, const struct hb_grid *g, double **rv,
                               int *nrv)
{
    double *sum = NULL;
    int n = 0, cells = 0;
    bool ok = true;
    for (int i = 0; ok && i < t->nnodes; i++) {
        const json_t *rec = HB_AT(g->rec, t, i, i);
        if (!rec || !json_is_number(json_object_get(rec, "value"))) continue;
        int k;
        double *v = hb_family_rec_values(rec, &k);
        if (!sum) {
            sum = v;
            n = k;
        } else {
            ok = v && k == n;
            for (int r = 0; ok && r < n; r++)
                sum[r] += v[r];
            free(v);
        }
        ok = ok && sum && n >= 2;
        cells++;
    }
    for (int r = 0; ok && r < n; r++)
        sum[r] /= cells;
    *rv = ok && cells ? sum : NULL;
    *nrv = ok && cells ? n : 0;
    if (!*rv) free(sum);
}

/* A host's local figure: the mean over its local cells of their median over repeats (files
 * from before repeats: of their median sample: a best sample is one lucky moment), and the
 * mean of their intervals' ends (NAN when a cell has none). */
static double grid_local(const struct hb_topo *t, const struct hb_grid *g, double *lo, double *hi)
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
        if (repeats && hb_jsonl_read_interval(rec, &iv) && iv.n >= 2) {
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

static double grid_worst_remote(const struct hb_topo *t, const struct hb_grid *g)
{
    double worst = 0.0;
    for (int i = 0; i < t->nnodes; i++)
        for (int j = 0; j < t->nnodes; j++)
            if (i != j && !isnan(HB_AT(g->v, t, i, j)) && HB_AT(g->v, t, i, j) > worst)
                worst = HB_AT(g->v, t, i, j);
    return worst;
}

static int grid_local_threads(const struct hb_topo *t, const struct hb_grid *g)
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
static struct hb_fleet_host *fleet_entry(struct hb_fleet_acc *acc, const char *host)
{
    for (int h = 0; h < acc->n; h++)
        if (strcmp(acc->hosts[h].host, host) == 0) return &acc->hosts[h];
    if (hb_grow((void **)&acc->hosts, &acc->cap, (size_t)acc->n, sizeof(*acc->hosts))) return NULL;
    char *name = strdup(host);
    if (!name) return NULL;
    acc->hosts[acc->n] = (struct hb_fleet_host){.host = name,
                                                .lat = NAN,
                                                .bw = NAN,
                                                .ratio = NAN,
                                                .lat_lo = NAN,
                                                .lat_hi = NAN,
                                                .bw_lo = NAN,
                                                .bw_hi = NAN};
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
        struct hb_fleet_host *x = fleet_entry(acc, grids[g]->host);
        if (!x) break;
        double lo, hi, local = grid_local(t, grids[g], &lo, &hi);
        if (grids[g]->latency) {
            double worst = grid_worst_remote(t, grids[g]);
            x->lat = local;
            x->lat_lo = lo;
            x->lat_hi = hi;
            x->ratio = worst > 0.0 ? worst / local : 1.0;
            free(x->lat_rv);
            grid_local_repeats(t, grids[g], &x->lat_rv, &x->lat_nrv);
        } else if (strcmp(grids[g]->kernel, "read") == 0) {
            x->bw = local;
            x->bw_lo = lo;
            x->bw_hi = hi;
            x->threads = grid_local_threads(t, grids[g]);
            free(x->bw_rv);
            grid_local_repeats(t, grids[g], &x->bw_rv, &x->bw_nrv);
        }
    }
    if (acc && g == ng) return 0;
    hb_error_set("out of memory comparing the hosts of %d matrices", ng);
    return -ENOMEM;
}

void hb_matrix_fleet_free(void *p)
{
    struct hb_fleet_acc *acc = p;
    for (int h = 0; acc && h < acc->n; h++) {
        free(acc->hosts[h].host);
        free(acc->hosts[h].lat_rv);
        free(acc->hosts[h].bw_rv);
    }
    if (acc) free(acc->hosts);
    free(acc);
}

/* Median of one field over the hosts (those with `threads` threads if threads > 0). */
static double fleet_median(const struct hb_fleet_host *hosts, int nh, size_t field, int threads,
                           double *tmp)
{
    int n = 0;
    for (int h = 0; h < nh; h++) {
        double v = *(const double *)((const char *)&hosts[h] + field);
        if ((threads == 0 || hosts[h].threads == threads) && !isnan(v)) tmp[n++] = v;
    }
    return hb_stats_median(tmp, n);
}

/* Which of the fleet's figures a family tests: its value, interval and repeats in a host. */
struct hb_fleet_fig {
    size_t v, lo, hi, rv, nrv;
    bool higher_worse;
};
static const struct hb_fleet_fig fleet_lat = {
    offsetof(struct hb_fleet_host, lat),     offsetof(struct hb_fleet_host, lat_lo),
    offsetof(struct hb_fleet_host, lat_hi),  offsetof(struct hb_fleet_host, lat_rv),
    offsetof(struct hb_fleet_host, lat_nrv), true};
static const struct hb_fleet_fig fleet_bw = {
    offsetof(struct hb_fleet_host, bw),     offsetof(struct hb_fleet_host, bw_lo),
    offsetof(struct hb_fleet_host, bw_hi),  offsetof(struct hb_fleet_host, bw_rv),
    offsetof(struct hb_fleet_host, bw_nrv), false};
#define HB_FIELD(h, off, type) (*(type *)((const char *)(h) + (off)))

/* The p that host h's repeats of figure f and those of the other hosts it is set beside (of
 * as many threads for bandwidth), pooled, come from one distribution: NAN when unknown. */
static double fleet_p(const struct hb_fleet_host *hosts, int nh, int h,
                      const struct hb_fleet_fig *f)
{
    const struct hb_fleet_host *x = &hosts[h];
    size_t all = 0;
    for (int o = 0; o < nh; o++)
        all += (size_t)HB_FIELD(&hosts[o], f->nrv, const int);
    double *pool = all ? malloc(sizeof(*pool) * all) : NULL;
    int n = 0;
    for (int o = 0; pool && o < nh; o++) {
        if (o == h || (!f->higher_worse && hosts[o].threads != x->threads)) continue;
        for (int r = 0; r < HB_FIELD(&hosts[o], f->nrv, const int); r++)
            pool[n++] = HB_FIELD(&hosts[o], f->rv, double *const)[r];
    }
    double p = hb_family_rec_p_of(HB_FIELD(x, f->rv, double *const), HB_FIELD(x, f->nrv, const int),
                                  pool, n);
    free(pool);
    return p;
}

/* Figure f of each host against the fleet's (ref, its interval [rlo, rhi]; for bandwidth
 * ref[h], the median of the hosts of as many threads): a host worse by more than pct is a
 * candidate of the family fam, at[h] its index (-1: not worse). */
static void fleet_family(const struct hb_fleet_host *hosts, int nh, const double *ref, double rlo,
                         double rhi, double pct, const struct hb_fleet_fig *f,
                         struct hb_family_rec *fam, int *at)
{
    for (int h = 0; h < nh; h++) {
        struct hb_interval x = {2, HB_FIELD(&hosts[h], f->v, const double),
                                HB_FIELD(&hosts[h], f->lo, const double),
                                HB_FIELD(&hosts[h], f->hi, const double), 0.0};
        struct hb_interval m = {2, ref[h], rlo, rhi, 0.0};
        enum hb_worse w = hb_interval_worse(&x, &m, pct, f->higher_worse);
        at[h] = -1;
        if (w == HB_NOT_WORSE) continue;
        bool unknown = isnan(x.lo) || isnan(rlo);
        json_t *e = json_object();
        if (hb_family_rec_add(fam, e, unknown ? NAN : fleet_p(hosts, nh, h, f), w == HB_WORSE) == 0)
            at[h] = (int)fam->n - 1;
        json_decref(e);
    }
    hb_family_rec_decide(fam);
}

/* Where host h's figure goes: the reasons (an outlier), the inconclusive (within the noise or
 * not past the family's adjustment), or nowhere (not worse). */
static FILE *fleet_worse(const struct hb_family_rec *fam, const int *at, int h, FILE *why,
                         FILE *noise)
{
    if (at[h] < 0) return NULL;
    return hb_family_rec_drawn(fam, (size_t)at[h]) ? why : noise;
}

/* Host h's "p" or "p_adjusted" of a family (null when it is no candidate or unknown). */
static json_t *fleet_p_json(const struct hb_family_rec *fam, const int *at, int h, const char *key)
{
    json_t *v =
        at[h] < 0 ? NULL : json_object_get(json_array_get(fam->entries, (size_t)at[h]), key);
    return v ? json_incref(v) : json_null();
}

/* The two families of the fleet (local latency, local read bandwidth) and each host's
 * index in them. */
struct hb_fleet_fams {
    struct hb_family_rec lat, bw;
    int *lat_at, *bw_at;
};

/* Why host h is an outlier, "" if it is not, into *why (with `config`, the knobs in which it
 * differs, when it is one); what exceeds the threshold within the noise into *noise. -ENOMEM
 * (error set) when out of memory. */
static int fleet_reason(const struct hb_fleet_host *hosts, int h,
                        const struct hb_fleet_host *median, double peers_bw, double pct,
                        const char *config, const struct hb_fleet_fams *ff, char **why,
                        char **noise)
{
    const struct hb_fleet_host *x = &hosts[h];
    size_t len = 0, nlen = 0;
    FILE *f = open_memstream(why, &len), *n = open_memstream(noise, &nlen);
    if (!f || !n) {
        if (f) fclose(f);
        if (n) fclose(n);
        free(*why);
        free(*noise);
        hb_error_set("out of memory explaining host %s", x->host);
        return -ENOMEM;
    }
    FILE *to = fleet_worse(&ff->lat, ff->lat_at, h, f, n);
    if (to) fprintf(to, "local latency %.0f%% above median; ", (x->lat / median->lat - 1) * 100);
    to = fleet_worse(&ff->bw, ff->bw_at, h, f, n);
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
        hb_error_set("out of memory explaining host %s", x->host);
        return -ENOMEM;
    }
    return 0;
}

static json_t *real_or_null(double v)
{
    return isnan(v) ? json_null() : json_real(v);
}

static json_t *ci_or_null(double lo, double hi)
{
    return isnan(lo) ? json_null() : json_pack("[f, f]", lo, hi);
}

static json_t *fleet_host_json(const struct hb_fleet_host *x, const char *why, const char *noise,
                               const json_t *drift)
{
    return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:s, s:s, s:O?}", "host", x->host,
                     "lat_ns_local", real_or_null(x->lat), "lat_ns_local_ci95",
                     ci_or_null(x->lat_lo, x->lat_hi), "bw_GBps_local_read", real_or_null(x->bw),
                     "bw_GBps_local_read_ci95", ci_or_null(x->bw_lo, x->bw_hi), "bw_threads",
                     x->threads ? json_integer(x->threads) : json_null(), "worst_remote_ratio",
                     real_or_null(x->ratio), "outlier", why[0] != '\0', "reason", why,
                     "inconclusive", noise, "config_differs", drift ? drift : json_null());
}

/* Host h's entry with its p and adjusted p in either family. */
static json_t *fleet_host_entry(const struct hb_fleet_host *hosts, int h, const char *why,
                                const char *noise, const json_t *drift,
                                const struct hb_fleet_fams *ff)
{
    json_t *e = fleet_host_json(&hosts[h], why, noise, drift);
    json_object_set_new(e, "lat_ns_local_p", fleet_p_json(&ff->lat, ff->lat_at, h, "p"));
    json_object_set_new(e, "lat_ns_local_p_adjusted",
                        fleet_p_json(&ff->lat, ff->lat_at, h, "p_adjusted"));
    json_object_set_new(e, "bw_GBps_local_read_p", fleet_p_json(&ff->bw, ff->bw_at, h, "p"));
    json_object_set_new(e, "bw_GBps_local_read_p_adjusted",
                        fleet_p_json(&ff->bw, ff->bw_at, h, "p_adjusted"));
    /* config_differs stays the last key, as before. */
    json_t *differs = json_incref(json_object_get(e, "config_differs"));
    json_object_del(e, "config_differs");
    json_object_set_new(e, "config_differs", differs);
    return e;
}

static int fleet_emit(const struct hb_fleet_host *hosts, int nh, double pct, double *tmp,
                      const json_t *drift, json_t *derived)
{
#define HB_MEDIAN(f) fleet_median(hosts, nh, offsetof(struct hb_fleet_host, f), 0, tmp)
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
    struct hb_fleet_fams ff = {.lat_at = calloc((size_t)nh, sizeof(int)),
                               .bw_at = calloc((size_t)nh, sizeof(int))};
    double *ref = calloc((size_t)nh * 2, sizeof(*ref));
    json_t *list = json_array();
    int rc = ff.lat_at && ff.bw_at && ref ? 0 : -ENOMEM;
    for (int h = 0; rc == 0 && h < nh; h++) {
        ref[h] = median.lat;
        ref[nh + h] =
            fleet_median(hosts, nh, offsetof(struct hb_fleet_host, bw), hosts[h].threads, tmp);
    }
    if (rc == 0) {
        fleet_family(hosts, nh, ref, median.lat_lo, median.lat_hi, pct, &fleet_lat, &ff.lat,
                     ff.lat_at);
        fleet_family(hosts, nh, ref + nh, median.bw_lo, median.bw_hi, pct, &fleet_bw, &ff.bw,
                     ff.bw_at);
    }
    for (int h = 0; rc == 0 && h < nh; h++) {
        char *why = NULL, *noise = NULL;
        const json_t *mine = json_object_get(drift, hosts[h].host);
        char *config = hb_config_diff_pairs(mine);
        if (!config ||
            fleet_reason(hosts, h, &median, ref[nh + h], pct, config, &ff, &why, &noise)) {
            free(config);
            rc = -ENOMEM;
            break;
        }
        json_array_append_new(list, fleet_host_entry(hosts, h, why, noise, mine, &ff));
        free(config);
        free(why);
        free(noise);
    }
    if (rc == 0)
        json_array_append_new(
            derived,
            json_pack("{s:s, s:s, s:o, s:f, s:{s:o, s:o, s:o}, s:{s:o, s:o}}", "type", "fleet",
                      "suite", "matrix", "hosts", list, "threshold_pct", pct, "median",
                      "lat_ns_local", real_or_null(median.lat), "bw_GBps_local_read",
                      real_or_null(median.bw), "worst_remote_ratio", real_or_null(median.ratio),
                      "family", "lat_ns_local", hb_family_rec_json(&ff.lat), "bw_GBps_local_read",
                      hb_family_rec_json(&ff.bw)));
    else
        json_decref(list);
    if (rc) hb_error_set("out of memory comparing the hosts of a fleet of %d", nh);
    hb_family_rec_free(&ff.lat);
    hb_family_rec_free(&ff.bw);
    free(ff.lat_at);
    free(ff.bw_at);
    free(ref);
    return rc;
}

int hb_matrix_fleet_end(const struct hb_fleet_acc *acc, double pct, const json_t *host_configs,
                        json_t *derived)
{
    int nh = acc ? acc->n : 0, rc = 0;
    if (nh < 2) return 0;
    double *tmp = calloc((size_t)nh + 1, sizeof(*tmp));
    json_t *drift = host_configs ? hb_config_drift_fleet(host_configs) : NULL;
    if (!tmp || (host_configs && !drift)) {
        hb_error_set("out of memory comparing the configurations of %d hosts", nh);
        rc = -ENOMEM;
    } else {
        rc = fleet_emit(acc->hosts, nh, pct, tmp, drift, derived);
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
