/* Conclusions never raised out of noise: on synthetic records whose intervals either
 * separate or overlap, matrix flags, the HMAT comparison, fleet outliers, myth verdicts and
 * policy gains say what they found when the figures differ beyond their intervals, and
 * "inconclusive" (with both figures and their intervals) when they do not. */
#include "../hb_check.h"
#include "hb_suite.h"
#include "hb_suite_hops.h"

#include <string.h>

/* A measurement with value v and interval [v - half, v + half] over 5 repeats. */
static json_t *meas(const char *host, const char *kernel, int i, int j, int hops, double v,
                    double half)
{
    bool lat = strcmp(kernel, "chase") == 0;
    return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:i, s:f, s:f, s:f, s:s, s:s, s:i,"
                     " s:[f,f], s:[f,f,f,f,f]}",
                     "suite", "matrix", "role", "foreground", "metric",
                     lat ? "latency" : "bandwidth", "host", host, "kernel", kernel, "access", "r",
                     "cpu_node", i, "mem_node", j, "hops", hops,
                     lat ? "lat_ns_median" : "bw_GBps_median", v, "value", v, "bw_GBps_best", v,
                     "unit", lat ? "ns" : "GBps", "status", "ok", "repeats", 5, "ci95", v - half,
                     v + half, "repeat_values", v - half, v, v, v, v + half);
}

static const int square[4][4] = {{0, 1, 1, 2}, {1, 0, 2, 1}, {1, 2, 0, 1}, {2, 1, 1, 0}};

/* The quartet's latency matrix on host h: local `local`, hop 1 120, hop 2 150, except
 * cell 0 -> 2 at `slow`; every figure +-half. */
static void add_matrix(json_t *m, const char *h, double local, double slow, double half)
{
    static const double by_class[3] = {0.0, 120.0, 150.0};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double v = square[i][j] ? by_class[square[i][j]] : local;
            json_array_append_new(
                m, meas(h, "chase", i, j, square[i][j], i == 0 && j == 2 ? slow : v, half));
        }
}

static json_t *derive(struct hb_topo *t, const char *cmd, json_t *measured)
{
    struct hb_options o = {.threshold_pct = 5.0, .fleet_threshold_pct = 25.0, .tolerance_pct = 5.0};
    snprintf(o.command, sizeof(o.command), "%s", cmd);
    struct hb_suite_env env = {t, &o, NULL, 0, NULL, NULL, NULL, NULL};
    json_t *derived = json_array();
    CHECK_INT(hb_suite_derive(&env, measured, derived), 0);
    json_decref(measured);
    return derived;
}

static json_t *first(json_t *derived, const char *type)
{
    size_t i;
    json_t *r;
    json_array_foreach(derived, i, r) if (strcmp(json_string_value(json_object_get(r, "type")),
                                                 type) == 0) return r;
    return NULL;
}

static void matrix_flags(struct hb_topo *t)
{
    /* 0 -> 2 at 160 ns against hop 1's 120: beyond the noise when both are +-2 ns. */
    json_t *m = json_array();
    add_matrix(m, "h1", 100, 160, 2);
    json_t *d = derive(t, "matrix", m);
    json_t *mx = first(d, "matrix");
    CHECK_INT(json_array_size(json_object_get(mx, "flags")), 2);
    CHECK_INT(json_array_size(json_object_get(mx, "inconclusive")), 0);
    json_t *fl = json_array_get(json_object_get(mx, "flags"), 0);
    CHECK_HAS(json_string_value(json_object_get(fl, "evidence")), "clear");
    CHECK(json_number_value(
              json_array_get(json_object_get(json_object_get(fl, "figure"), "ci95"), 0)) == 158.0);
    json_decref(d);
    /* The same figures +-25 ns: the intervals overlap, nothing is flagged, both shown. */
    m = json_array();
    add_matrix(m, "h1", 100, 160, 25);
    d = derive(t, "matrix", m);
    mx = first(d, "matrix");
    CHECK_INT(json_array_size(json_object_get(mx, "flags")), 0);
    CHECK_INT(json_array_size(json_object_get(mx, "inconclusive")), 2);
    fl = json_array_get(json_object_get(mx, "inconclusive"), 0);
    CHECK_HAS(json_string_value(json_object_get(fl, "evidence")), "inconclusive");
    CHECK(json_is_array(json_object_get(json_object_get(fl, "figure"), "ci95")));
    CHECK(json_is_array(
        json_object_get(json_object_get(json_object_get(fl, "against"), "figure"), "ci95")));
    json_decref(d);
}

/* Hosts h1, h2 at 100 ns local, h3 at 140: beyond the 25% threshold; the noise decides. */
static void fleet(struct hb_topo *t, double half, bool outlier)
{
    json_t *m = json_array();
    add_matrix(m, "h1", 100, 120, 2);
    add_matrix(m, "h2", 102, 120, 2);
    add_matrix(m, "h3", 140, 120, half);
    json_t *d = derive(t, "matrix", m);
    json_t *h3 = json_array_get(json_object_get(first(d, "fleet"), "hosts"), 2);
    CHECK_INT(json_is_true(json_object_get(h3, "outlier")), outlier);
    const char *noise = json_string_value(json_object_get(h3, "inconclusive"));
    CHECK_INT(noise && strstr(noise, "local latency") != NULL, !outlier);
    CHECK(json_is_array(json_object_get(h3, "lat_ns_local_ci95")));
    json_decref(d);
}

/* Myth 1 over two hop-1 reads 108% and 125% of local (spread 15.7% > 5%). */
static void myth(double half, const char *want)
{
    json_t *m = json_array();
    const double pct[2] = {108, 125};
    for (int c = 0; c < 2; c++) {
        json_t *r = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:f, s:[f,f], s:s}", "type",
                              "measurement", "role", "foreground", "status", "ok", "case", "single",
                              "bg_level", "idle", "access", "r", "cpu_node", c, "hops", 1,
                              "pct_of_local_read", pct[c], "pct_of_local_read_ci95", pct[c] - half,
                              pct[c] + half, "label", c ? "1.0.r.1" : "0.0.r.1");
        json_array_append_new(m, r);
    }
    struct hb_options o = {.tolerance_pct = 5.0, .command = "hops"};
    struct hb_suite_env env = {NULL, &o, NULL, 0, NULL, NULL, NULL, NULL};
    json_t *d = json_array();
    CHECK_INT(hb_hops_derive(&env, m, d), 0);
    json_t *v = first(d, "verdict");
    CHECK(v != NULL);
    CHECK_STR(json_string_value(json_object_get(v, "verdict")), want);
    CHECK_INT(json_is_null(json_object_get(v, "holds")), strcmp(want, "inconclusive") == 0);
    CHECK_INT(json_array_size(json_object_get(v, "figures")), 2);
    json_decref(m);
    json_decref(d);
}

/* The HMAT order flag of 2n1m-hmat-full.xml (node 2 at 170 ns is nearer than node 1 at 210
 * from node 0) against a measured 0 -> 2 of 326 ns and 0 -> 1 of 252 ns, +-half each. */
static void hmat(double half, size_t flags, size_t inconclusive)
{
    struct hb_topo *t = NULL;
    CHECK_INT(hb_topo_load(HB_FIXTURES "/2n1m-hmat-full.xml", &t), 0);
    if (!t) return;
    static const double fw[2][3] = {{100, 210, 170}, {210, 100, 280}};
    json_t *m = json_array();
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            json_array_append_new(m, meas("h", "chase", i, j, 0,
                                          fw[i][j] * 1.2 * (i == 0 && j == 2 ? 1.6 : 1), half));
    json_t *d = derive(t, "matrix", m);
    json_t *h = json_object_get(first(d, "matrix"), "hmat");
    CHECK_INT(json_array_size(json_object_get(h, "flags")), flags);
    CHECK_INT(json_array_size(json_object_get(h, "inconclusive")), inconclusive);
    json_decref(d);
    hb_topo_load_free(t);
}

int main(void)
{
    struct hb_topo *t = NULL;
    CHECK_INT(hb_topo_load(HB_FIXTURES "/4n-quartet.xml", &t), 0);
    if (!t) return 1;
    matrix_flags(t);
    fleet(t, 3, true);   /* 140 +-3 against ~101 +-2: an outlier */
    fleet(t, 45, false); /* 140 +-45 reaches the median's interval: within the noise */
    myth(2, "does not hold");
    myth(10, "inconclusive"); /* [98, 118] and [115, 135] overlap */
    hmat(3, 2, 0);            /* the order of nodes 1 and 2, and the ratio of nodes 0 and 2 */
    hmat(60, 0, 2);           /* 326 +-60 reaches 252 +-60 */
    hb_topo_load_free(t);
    return hb_check_result();
}
