/* Matrix derivation on synthetic records: relative cost, measured classes, flags, fleet. */
#include "../hb_check.h"
#include "hb_suite.h"
#include "hb_suite_matrix.h"

#include <stdlib.h>
#include <string.h>

static const int square[4][4] = {{0, 1, 1, 2}, {1, 0, 2, 1}, {1, 2, 0, 1}, {2, 1, 1, 0}};

static void add_latency(json_t *measured, const char *host, double local, double slow_02)
{
    static const double by_class[3] = {0.0, 120.0, 150.0};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double v = square[i][j] ? by_class[square[i][j]] : local;
            if (i == 0 && j == 2) v = slow_02;
            json_array_append_new(
                measured, json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:f, s:s, s:i}", "suite",
                                    "matrix", "role", "foreground", "metric", "latency", "host",
                                    host, "kernel", "chase", "cpu_node", i, "mem_node", j,
                                    "lat_ns_median", v, "status", "ok", "hops", square[i][j]));
        }
}

/* Local read bandwidth on node 0: best sample far above the median, `threads` per node. */
static void add_read(json_t *measured, const char *host, double median, int threads)
{
    json_array_append_new(measured,
                          json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:f, s:f, s:i, s:s, s:i}",
                                    "suite", "matrix", "role", "foreground", "metric", "bandwidth",
                                    "host", host, "kernel", "read", "cpu_node", 0, "mem_node", 0,
                                    "bw_GBps_best", median * 3, "bw_GBps_median", median, "threads",
                                    threads, "status", "ok", "hops", 0));
}

/* The records derive makes one host at a time, as rank 0 runs it (hb_suite_keep.h): each
 * host's records alone with env->across, then derive_end. */
static json_t *derive_host_by_host(const struct hb_suite_env *whole, json_t *measured)
{
    struct hb_across across = {0};
    struct hb_suite_env env = *whole;
    env.across = &across;
    json_t *derived = json_array(), *seen = json_object(), *rec;
    size_t i;
    json_array_foreach(measured, i, rec)
    {
        const char *host = json_string_value(json_object_get(rec, "host"));
        if (json_object_get(seen, host)) continue;
        json_object_set_new(seen, host, json_true());
        json_t *mine = json_array(), *r;
        size_t k;
        json_array_foreach(measured, k, r) if (strcmp(json_string_value(json_object_get(r, "host")),
                                                      host) == 0) json_array_append(mine, r);
        CHECK_INT(hb_suite_matrix_derive(&env, mine, derived), 0);
        json_decref(mine);
    }
    CHECK_INT(hb_suite_matrix_derive_end(&env, derived), 0);
    if (across.free) across.free(across.data);
    json_decref(seen);
    return derived;
}

/* Whether b holds each record of a, as often (order aside). */
static bool same_records(const json_t *a, const json_t *b)
{
    if (json_array_size(a) != json_array_size(b)) return false;
    for (size_t i = 0; i < json_array_size(a); i++) {
        size_t na = 0, nb = 0;
        for (size_t j = 0; j < json_array_size(a); j++) {
            na += json_equal(json_array_get(a, i), json_array_get(a, j));
            nb += json_equal(json_array_get(a, i), json_array_get(b, j));
        }
        if (na != nb) return false;
    }
    return true;
}

/* configs: the run record's host_configs, or NULL. Every derivation is also made host by host,
 * and must give the same records. */
static json_t *derive_with(struct hb_topo *t, json_t *measured, double fleet_pct,
                           const json_t *configs)
{
    struct hb_options o = {
        .threshold_pct = 5.0, .fleet_threshold_pct = fleet_pct, .command = "matrix"};
    struct hb_suite_env env = {t, &o, NULL, 0, NULL, configs, NULL, NULL};
    json_t *derived = json_array();
    CHECK_INT(hb_suite_derive(&env, measured, derived), 0);
    json_t *by_host = derive_host_by_host(&env, measured);
    CHECK(same_records(derived, by_host));
    json_decref(by_host);
    return derived;
}

static json_t *derive_at(struct hb_topo *t, json_t *measured, double fleet_pct)
{
    return derive_with(t, measured, fleet_pct, NULL);
}

static json_t *derive(struct hb_topo *t, json_t *measured)
{
    return derive_at(t, measured, 25.0);
}

static json_t *first_of(json_t *derived, const char *type, const char *host)
{
    size_t i;
    json_t *r;
    json_array_foreach(derived, i, r)
    {
        if (strcmp(json_string_value(json_object_get(r, "type")), type) != 0) continue;
        if (!host || strcmp(json_string_value(json_object_get(r, "host")), host) == 0) return r;
    }
    return NULL;
}

/* The fleet's outlier flags, e.g. "0010". */
static const char *outliers(json_t *derived)
{
    static char flags[8];
    json_t *hosts = json_object_get(first_of(derived, "fleet", NULL), "hosts");
    size_t i;
    json_t *h;
    flags[0] = '\0';
    json_array_foreach(hosts, i, h) if (i < sizeof(flags) - 1)
    {
        flags[i] = json_is_true(json_object_get(h, "outlier")) ? '1' : '0';
        flags[i + 1] = '\0';
    }
    return flags;
}

/* A latency matrix whose every cell has n repeats spread +-d around its value (5 repeats,
 * d 20 for the class-1 and class-2 cells; the 0 -> 2 pair and its reference 0 -> 1 with
 * `reps` repeats, tight around 160 and wide around 120): many flags within the noise, and
 * 0 -> 2's pair of flags apart from 0 -> 1. */
static void add_repeats(json_t *measured, int reps)
{
    static const double by_class[3] = {100.0, 130.0, 150.0};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double v = by_class[square[i][j]], d = square[i][j] ? 20.0 : 2.0;
            int n = 5;
            if (i == 0 && (j == 1 || j == 2)) {
                v = j == 1 ? 120.0 : 160.0;
                d = j == 1 ? 20.0 : 2.0;
                n = reps;
            }
            json_t *rv = json_array();
            for (int r = 0; r < n; r++)
                json_array_append_new(rv, json_real(v - d + 2 * d * r / (n - 1)));
            json_array_append_new(
                measured,
                json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:f, s:f, s:[f, f], s:i, s:f, "
                          "s:o, s:s, s:i}",
                          "suite", "matrix", "role", "foreground", "metric", "latency", "host",
                          "h1", "kernel", "chase", "cpu_node", i, "mem_node", j, "value", v,
                          "lat_ns_median", v, "ci95", v - d, v + d, "repeats", n, "ci_coverage",
                          0.9375, "repeat_values", rv, "status", "ok", "hops", square[i][j]));
        }
}

/* The flag of list on cell (0, 2) with this reason start, or NULL. */
static json_t *flag_02(json_t *list, const char *reason)
{
    size_t i;
    json_t *f;
    json_array_foreach(
        list, i, f) if (json_integer_value(json_object_get(f, "cpu_node")) == 0 &&
                        json_integer_value(json_object_get(f, "mem_node")) == 2 &&
                        strstr(json_string_value(json_object_get(f, "reason")), reason)) return f;
    return NULL;
}

static double at(json_t *m, const char *key, int i, int j)
{
    return json_number_value(json_array_get(json_array_get(json_object_get(m, key), i), j));
}

int main(void)
{
    struct hb_topo *t = NULL;
    CHECK_INT(hb_topo_load(HB_FIXTURES "/4n-quartet.xml", &t), 0);

    json_t *measured = json_array();
    add_latency(measured, "h1", 100.0, 121.0);
    json_t *derived = derive(t, measured);
    json_t *m = first_of(derived, "matrix", "h1");
    CHECK(m != NULL);
    CHECK_INT(json_array_size(json_object_get(m, "rows")), 4);
    CHECK_INT(json_array_size(json_object_get(m, "cols")), 4);
    CHECK(at(m, "relative", 0, 0) == 1.0);
    CHECK(at(m, "relative", 0, 3) == 1.5);
    CHECK(at(m, "relative", 0, 2) == 1.21);
    CHECK_INT(at(m, "measured_class", 0, 2), 1); /* 121 is within 5% of 120 */
    CHECK_INT(at(m, "measured_class", 1, 2), 2);
    CHECK_INT(json_array_size(json_object_get(m, "flags")), 0);
    size_t i, cells = 0;
    json_t *r;
    json_array_foreach(derived, i, r) cells +=
        strcmp(json_string_value(json_object_get(r, "type")), "cell") == 0;
    CHECK_INT(cells, 16);
    CHECK(first_of(derived, "fleet", NULL) == NULL); /* one host: no fleet table */
    json_decref(derived);
    json_decref(measured);

    /* 0 -> 2 is a one-hop pair that behaves like something farther than two hops. */
    measured = json_array();
    add_latency(measured, "h1", 100.0, 160.0);
    add_latency(measured, "h2", 101.0, 121.0);
    add_latency(measured, "h3", 130.0, 121.0);
    derived = derive(t, measured);
    m = first_of(derived, "matrix", "h1");
    CHECK_INT(at(m, "measured_class", 0, 2), 3);
    json_t *flags = json_object_get(m, "flags");
    CHECK_INT(json_array_size(flags), 2);
    char *text = json_dumps(flags, JSON_COMPACT);
    CHECK_HAS(text, "measured class 3, firmware hop class 1");
    CHECK_HAS(text, "33.3% costlier than the cheapest pair of hop class 1");
    free(text);

    json_t *fleet = first_of(derived, "fleet", NULL);
    CHECK(fleet != NULL);
    json_t *hosts = json_object_get(fleet, "hosts");
    CHECK_INT(json_array_size(hosts), 3);
    CHECK(!json_is_true(json_object_get(json_array_get(hosts, 0), "outlier")));
    CHECK(!json_is_true(json_object_get(json_array_get(hosts, 1), "outlier")));
    CHECK(json_is_true(json_object_get(json_array_get(hosts, 2), "outlier")));
    CHECK_HAS(json_string_value(json_object_get(json_array_get(hosts, 2), "reason")),
              "local latency 29% above median");
    json_decref(derived);
    derived = derive_at(t, measured, 30.0); /* 29% is within a 30% threshold */
    CHECK_HAS(outliers(derived), "000");
    CHECK(json_number_value(json_object_get(first_of(derived, "fleet", NULL), "threshold_pct")) ==
          30.0);
    json_decref(derived);

    /* With the hosts' configurations: h3, the outlier, and h2 differ from the majority; the
     * outlier's reason names its knobs, h2's drift is listed but flags nothing. */
    json_t *configs = json_loads(
        "[{\"host\": \"h1\", \"config\": {\"thp_enabled\": \"madvise\", \"smt\": \"on\", "
        "\"governor\": [{\"value\": \"performance\", \"cpus\": \"0-3\"}]}},"
        " {\"host\": \"h2\", \"config\": {\"thp_enabled\": \"madvise\", \"smt\": \"off\", "
        "\"governor\": [{\"value\": \"performance\", \"cpus\": \"0-3\"}]}},"
        " {\"host\": \"h3\", \"config\": {\"thp_enabled\": \"never\", \"smt\": \"on\", "
        "\"governor\": [{\"value\": \"powersave\", \"cpus\": \"0-3\"}]}}]",
        0, NULL);
    derived = derive_with(t, measured, 25.0, configs);
    hosts = json_object_get(first_of(derived, "fleet", NULL), "hosts");
    CHECK_HAS(outliers(derived), "001");
    CHECK_STR(json_string_value(json_object_get(json_array_get(hosts, 2), "reason")),
              "local latency 29% above median; differs in thp_enabled=never, governor=powersave; ");
    text = json_dumps(hosts, JSON_COMPACT);
    CHECK_HAS(text, "\"host\":\"h1\",");
    CHECK_HAS(text, "\"config_differs\":{}}");
    CHECK_HAS(text, "\"config_differs\":{\"smt\":\"off\"}}");
    CHECK_HAS(text, "\"config_differs\":{\"thp_enabled\":\"never\",\"governor\":\"powersave\"}}");
    free(text);
    CHECK_STR(json_string_value(json_object_get(json_array_get(hosts, 1), "reason")), "");
    json_decref(derived);
    /* Two hosts that differ: no majority, neither is the odd one out. */
    json_decref(measured);
    json_array_remove(configs, 2);
    measured = json_array();
    add_latency(measured, "h1", 100.0, 121.0);
    add_latency(measured, "h2", 101.0, 121.0);
    derived = derive_with(t, measured, 25.0, configs);
    json_array_foreach(json_object_get(first_of(derived, "fleet", NULL), "hosts"), i, r)
        CHECK_INT(json_object_size(json_object_get(r, "config_differs")), 0);
    json_decref(derived);
    json_decref(configs);
    json_decref(measured);

    /* Bandwidth: medians compared (the best samples are far off), and only between hosts whose
     * nodes have as many cores: h3 is a smaller host, h4 a slow one. */
    measured = json_array();
    const char *names[4] = {"h1", "h2", "h3", "h4"};
    double medians[4] = {10.0, 9.0, 5.0, 6.0};
    int threads[4] = {2, 2, 1, 2};
    for (int h = 0; h < 4; h++) {
        add_latency(measured, names[h], 100.0, 121.0);
        add_read(measured, names[h], medians[h], threads[h]);
    }
    derived = derive(t, measured);
    CHECK_HAS(outliers(derived), "0001");
    hosts = json_object_get(first_of(derived, "fleet", NULL), "hosts");
    CHECK(json_number_value(json_object_get(json_array_get(hosts, 0), "bw_GBps_local_read")) ==
          10.0);
    CHECK_INT(json_integer_value(json_object_get(json_array_get(hosts, 2), "bw_threads")), 1);
    CHECK_HAS(json_string_value(json_object_get(json_array_get(hosts, 3), "reason")),
              "local read bandwidth 33% below median of 2-thread hosts");
    json_decref(derived);
    json_decref(measured);

    /* 23% below the median is within 25% (the threshold counts down from the median). */
    measured = json_array();
    medians[3] = 6.9;
    for (int h = 0; h < 4; h++) {
        add_latency(measured, names[h], 100.0, 121.0);
        add_read(measured, names[h], medians[h], threads[h]);
    }
    derived = derive(t, measured);
    CHECK_HAS(outliers(derived), "0000");
    json_decref(derived);
    json_decref(measured);

    /* Every reason at once, with huge figures: the reason is never cut short. */
    measured = json_array();
    for (int h = 0; h < 3; h++) {
        add_latency(measured, names[h], h == 2 ? 1e30 : 100.0, h == 2 ? 1e300 : 121.0);
        add_read(measured, names[h], h == 2 ? 1e-30 : 10.0, 2);
    }
    derived = derive(t, measured);
    CHECK_HAS(outliers(derived), "001");
    const char *why = json_string_value(json_object_get(
        json_array_get(json_object_get(first_of(derived, "fleet", NULL), "hosts"), 2), "reason"));
    CHECK_HAS(why, "% above median; local read bandwidth 100% below median of 2-thread hosts; "
                   "remote/local ratio ");
    CHECK(why && strlen(why) > 300 && strcmp(why + strlen(why) - 16, "% above median; ") == 0);
    json_decref(derived);
    json_decref(measured);

    /* The family: at 5 repeats 0 -> 2 is apart from 0 -> 1 (p 2/252 = 0.0079, which alone
     * would flag it) but one of many flags of the matrix, so after the adjustment it is
     * inconclusive; at 9 repeats (p 2/48620) it is flagged among as many. */
    for (int reps = 5; reps <= 9; reps += 4) {
        measured = json_array();
        add_repeats(measured, reps);
        derived = derive(t, measured);
        m = first_of(derived, "matrix", "h1");
        json_t *fam = json_object_get(m, "family");
        CHECK_STR(json_string_value(json_object_get(fam, "rule")), "BH FDR");
        CHECK(json_real_value(json_object_get(fam, "level")) == 0.05);
        size_t size = (size_t)json_integer_value(json_object_get(fam, "size"));
        CHECK_INT(size, json_array_size(json_object_get(m, "flags")) +
                            json_array_size(json_object_get(m, "inconclusive")));
        CHECK(size >= 16);
        json_t *f = flag_02(json_object_get(m, reps == 5 ? "inconclusive" : "flags"), "measured");
        CHECK(f != NULL);
        CHECK(flag_02(json_object_get(m, reps == 5 ? "inconclusive" : "flags"), "33.3%") != NULL);
        double p = json_real_value(json_object_get(f, "p"));
        double adj = json_real_value(json_object_get(f, "p_adjusted"));
        CHECK_WITHIN(p, reps == 5 ? 2.0 / 252 : 2.0 / 48620, 1e-9);
        /* The two smallest of the family: BH multiplies by size / 2. */
        CHECK_WITHIN(adj, p * (double)size / 2, 1e-9);
        CHECK_STR(json_string_value(json_object_get(f, "evidence")),
                  reps == 5 ? "inconclusive" : "clear");
        if (reps == 9) CHECK_INT(json_array_size(json_object_get(m, "flags")), 2);
        json_decref(derived);
        json_decref(measured);
    }
    hb_topo_load_free(t);
    return hb_check_result();
}
