/* The matrix suite's fleet table: per host, local latency, local read bandwidth (medians of
 * their samples) and the worst remote/local latency ratio; a host more than `pct` percent
 * worse than the fleet's median on any of them is flagged (bandwidth: against the median of
 * the hosts whose nodes have as many cores). */
#include "hb_matrix_grid.h"

#include "hb_error.h"
#include "hb_stats.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hb_fleet_host {
    const char *host;
    double lat, bw, ratio; /* NAN where the host has no such matrix */
    int threads;           /* of its local read, 0 if none */
};

/* Hosts are compared on their median samples: the matrix's bandwidth headline is the best
 * sample, and one lucky sample on one host is not a difference between hosts. */
static double hb_grid_local(const struct hb_topo *t, const struct hb_grid *g)
{
    double sum = 0.0;
    int n = 0;
    for (int i = 0; i < t->nnodes; i++) {
        json_t *m = HB_AT(g->rec, t, i, i)
                        ? json_object_get(HB_AT(g->rec, t, i, i),
                                          g->latency ? "lat_ns_median" : "bw_GBps_median")
                        : NULL;
        if (!json_is_number(m)) continue;
        sum += json_number_value(m);
        n++;
    }
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

/* One entry per host (at most one per grid), filled from its latency and read matrices. */
static int hb_fleet_collect(const struct hb_topo *t, struct hb_grid **grids, int ng,
                            struct hb_fleet_host *hosts)
{
    int nh = 0;
    for (int g = 0; g < ng; g++) {
        int h = 0;
        while (h < nh && strcmp(hosts[h].host, grids[g]->host) != 0)
            h++;
        if (h == nh) hosts[nh++] = (struct hb_fleet_host){grids[g]->host, NAN, NAN, NAN, 0};
        double local = hb_grid_local(t, grids[g]);
        if (grids[g]->latency) {
            double worst = hb_grid_worst_remote(t, grids[g]);
            hosts[h].lat = local;
            hosts[h].ratio = worst > 0.0 ? worst / local : 1.0;
        } else if (strcmp(grids[g]->kernel, "read") == 0) {
            hosts[h].bw = local;
            hosts[h].threads = hb_grid_local_threads(t, grids[g]);
        }
    }
    return nh;
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

/* Why a host is an outlier, "" if it is not; NULL (error set) when out of memory. */
static char *hb_fleet_reason(const struct hb_fleet_host *x, const struct hb_fleet_host *median,
                             double peers_bw, double pct)
{
    char *why = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&why, &len);
    if (!f) {
        hb_err_set("out of memory explaining host %s", x->host);
        return NULL;
    }
    double over = 1.0 + pct / 100.0;
    if (x->lat > median->lat * over)
        fprintf(f, "local latency %.0f%% above median; ", (x->lat / median->lat - 1) * 100);
    if (x->bw < peers_bw * (2.0 - over))
        fprintf(f, "local read bandwidth %.0f%% below median of %d-thread hosts; ",
                (1 - x->bw / peers_bw) * 100, x->threads);
    if (x->ratio > median->ratio * over)
        fprintf(f, "remote/local ratio %.0f%% above median; ",
                (x->ratio / median->ratio - 1) * 100);
    if (fclose(f) != 0) {
        free(why);
        hb_err_set("out of memory explaining host %s", x->host);
        return NULL;
    }
    return why;
}

static json_t *hb_real_or_null(double v)
{
    return isnan(v) ? json_null() : json_real(v);
}

static json_t *hb_fleet_host_json(const struct hb_fleet_host *x, const char *why)
{
    return json_pack("{s:s, s:o, s:o, s:o, s:o, s:b, s:s}", "host", x->host, "lat_ns_local",
                     hb_real_or_null(x->lat), "bw_GBps_local_read", hb_real_or_null(x->bw),
                     "bw_threads", x->threads ? json_integer(x->threads) : json_null(),
                     "worst_remote_ratio", hb_real_or_null(x->ratio), "outlier", why[0] != '\0',
                     "reason", why);
}

static int hb_fleet_emit(const struct hb_fleet_host *hosts, int nh, double pct, double *tmp,
                         json_t *derived)
{
    struct hb_fleet_host median = {
        .lat = hb_fleet_median(hosts, nh, offsetof(struct hb_fleet_host, lat), 0, tmp),
        .bw = hb_fleet_median(hosts, nh, offsetof(struct hb_fleet_host, bw), 0, tmp),
        .ratio = hb_fleet_median(hosts, nh, offsetof(struct hb_fleet_host, ratio), 0, tmp),
    };
    json_t *list = json_array();
    for (int h = 0; h < nh; h++) {
        double peers_bw =
            hb_fleet_median(hosts, nh, offsetof(struct hb_fleet_host, bw), hosts[h].threads, tmp);
        char *why = hb_fleet_reason(&hosts[h], &median, peers_bw, pct);
        if (!why) {
            json_decref(list);
            return -ENOMEM;
        }
        json_array_append_new(list, hb_fleet_host_json(&hosts[h], why));
        free(why);
    }
    json_array_append_new(derived,
                          json_pack("{s:s, s:s, s:o, s:f, s:{s:o, s:o, s:o}}", "type", "fleet",
                                    "suite", "matrix", "hosts", list, "threshold_pct", pct,
                                    "median", "lat_ns_local", hb_real_or_null(median.lat),
                                    "bw_GBps_local_read", hb_real_or_null(median.bw),
                                    "worst_remote_ratio", hb_real_or_null(median.ratio)));
    return 0;
}

int hb_matrix_fleet(const struct hb_topo *t, double pct, struct hb_grid **grids, int ng,
                    json_t *derived)
{
    struct hb_fleet_host *hosts = calloc((size_t)ng + 1, sizeof(*hosts));
    double *tmp = calloc((size_t)ng + 1, sizeof(*tmp));
    int rc = 0;
    if (!hosts || !tmp) {
        hb_err_set("out of memory comparing the hosts of %d matrices", ng);
        rc = -ENOMEM;
    } else {
        int nh = hb_fleet_collect(t, grids, ng, hosts);
        if (nh >= 2) rc = hb_fleet_emit(hosts, nh, pct, tmp, derived);
    }
    free(hosts);
    free(tmp);
    return rc;
}
