/* The verdicts brought under the family's control (docs/verdicts.md): comm --bg's loaded/idle
 * verdicts, policy's gains and best_vs_next, and the report's fleet outliers. Each: a
 * borderline separation (5 repeats against 5, completely apart: p = 2/252) is drawn alone and
 * inconclusive in a larger family of figures within the noise; 9 repeats against 9 stay drawn
 * in a family of 16; the record carries `family` and each conclusion its p and adjusted p;
 * without repeats the old unknown-noise path. */
#include "../hb_check.h"
#include "hb_comm_bg.h"
#include "hb_interval.h"
#include "hb_jsonl_read.h"
#include "hb_report_fleet.h"
#include "hb_signif.h"
#include "hb_suite.h"
#include "hb_suite_policy.h"

#include <math.h>
#include <string.h>

/* 5 repeats apart, alone: 2 / C(10, 5). */
#define BORDER (2.0 / 252.0)

/* A figure of n repeats evenly from lo to hi into rec: value (median), ci95, ci_coverage,
 * repeats, repeat_values; n 1: value alone. */
static json_t *with_repeats(json_t *rec, double lo, double hi, int n)
{
    double v[32];
    json_t *rv = json_array();
    for (int i = 0; i < n; i++) {
        v[i] = n > 1 ? lo + (hi - lo) * i / (n - 1) : lo;
        json_array_append_new(rv, json_real(v[i]));
    }
    struct hb_interval iv;
    hb_interval_median(v, n, HB_CI_LEVEL, &iv);
    json_object_set_new(rec, "value", json_real(iv.value));
    json_object_set_new(rec, "repeats", json_integer(n));
    if (n > 1) {
        json_object_set_new(rec, "ci95", json_pack("[f, f]", iv.lo, iv.hi));
        json_object_set_new(rec, "ci_coverage", json_real(iv.coverage));
        json_object_set_new(rec, "repeat_values", rv);
    } else {
        json_decref(rv);
    }
    return rec;
}

static double num(const json_t *o, const char *key)
{
    return hb_jsonl_read_num(o, key, NAN);
}

/* comm --bg: pairs (rank 2k -> 2k+1), idle and loaded latency (8 B) and bandwidth (4 KiB);
 * pair 0's loaded latency at 120-130 us against idle's 100-110 over n repeats, every other
 * figure at 100-110 (no difference). */
static json_t *comm_bg_run(int pairs, int n)
{
    json_t *m = json_array();
    static const char *const metric[] = {"latency", "bandwidth"}, *const level[] = {"idle", "low"};
    for (int k = 0; k < pairs; k++)
        for (int x = 0; x < 2; x++)
            for (int l = 0; l < 2; l++) {
                json_t *r = json_pack(
                    "{s:s, s:s, s:s, s:s, s:i, s:s, s:s, s:i, s:i, s:s, s:s}", "type",
                    "measurement", "suite", "comm", "metric", metric[x], "bg_level", level[l],
                    "message_bytes", x ? 4096 : 8, "src_host", "h", "dst_host", "h", "src_rank",
                    2 * k, "dst_rank", 2 * k + 1, "unit", x ? "GBps" : "us", "status", "ok");
                bool slow = k == 0 && x == 0 && l == 1;
                json_array_append_new(m, with_repeats(r, slow ? 120 : 100, slow ? 130 : 110, n));
            }
    return m;
}

static json_t *comm_bg(int pairs, int n)
{
    json_t *m = comm_bg_run(pairs, n), *d = json_array();
    CHECK_INT(hb_comm_bg_derive(NULL, m, d), 0);
    CHECK_INT(json_array_size(d), pairs);
    json_decref(m);
    return d;
}

static void test_comm_bg(void)
{
    /* Alone (with its pair's bandwidth, no difference: a family of 2). */
    json_t *d = comm_bg(1, 5), *rec = json_array_get(d, 0), *lat = json_object_get(rec, "latency");
    CHECK_STR(hb_jsonl_read_str(lat, "separation", ""), "clear");
    CHECK_STR(hb_jsonl_read_str(lat, "verdict", ""), "slower under load");
    CHECK_WITHIN(num(lat, "p"), BORDER, 1e-12);
    CHECK_WITHIN(num(lat, "p_adjusted"), BORDER * 2, 1e-12);
    CHECK_WITHIN(num(json_object_get(rec, "bandwidth"), "p"), 1.0, 1e-12);
    CHECK_INT(num(json_object_get(rec, "family"), "size"), 2);
    CHECK_STR(hb_jsonl_read_str(json_object_get(rec, "family"), "rule", ""), "BH FDR");
    /* Figures with their coverage and repeats. */
    CHECK_WITHIN(num(json_object_get(lat, "idle"), "ci_coverage"), 0.9375, 1e-12);
    CHECK_INT(num(json_object_get(lat, "idle"), "repeats"), 5);
    json_decref(d);
    /* Among 8 pairs (16 verdicts): 16 x 2/252 = 0.127, inconclusive, the verdict withdrawn. */
    d = comm_bg(8, 5);
    lat = json_object_get(json_array_get(d, 0), "latency");
    CHECK_STR(hb_jsonl_read_str(lat, "separation", ""), "inconclusive");
    CHECK(json_is_null(json_object_get(lat, "verdict")));
    CHECK_WITHIN(num(lat, "p_adjusted"), BORDER * 16, 1e-12);
    for (size_t i = 0; i < 8; i++)
        CHECK_INT(num(json_object_get(json_array_get(d, i), "family"), "size"), 16);
    json_decref(d);
    /* 9 repeats against 9: 16 x 2/48620, still clear. */
    d = comm_bg(8, 9);
    lat = json_object_get(json_array_get(d, 0), "latency");
    CHECK_STR(hb_jsonl_read_str(lat, "separation", ""), "clear");
    CHECK_STR(hb_jsonl_read_str(lat, "verdict", ""), "slower under load");
    CHECK_WITHIN(num(lat, "p_adjusted"), 16 * hb_signif_mwu_min_p(9, 9), 1e-12);
    json_decref(d);
    /* One repeat: no interval, unknown noise, no member; p null. */
    d = comm_bg(2, 1);
    lat = json_object_get(json_array_get(d, 0), "latency");
    CHECK_STR(hb_jsonl_read_str(lat, "separation", ""), "unknown noise");
    CHECK(json_is_null(json_object_get(lat, "p")) &&
          json_is_null(json_object_get(lat, "p_adjusted")));
    CHECK_INT(num(json_object_get(json_array_get(d, 0), "family"), "size"), 0);
    json_decref(d);
}

/* policy: `workloads` workloads, local at 120-130 GB/s over n repeats for workload 0 and
 * 100-110 for the others; interleave and remote at 100-110. */
static json_t *policy_run(int workloads, int n)
{
    json_t *m = json_array();
    static const char *const pol[] = {"local", "interleave", "remote"};
    for (int w = 0; w < workloads; w++)
        for (int p = 0; p < 3; p++) {
            char name[16];
            snprintf(name, sizeof(name), "w%d", w);
            json_t *r = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "type",
                                  "measurement", "suite", "policy", "role", "foreground", "host",
                                  "h", "mode", "single", "workload", name, "policy", pol[p],
                                  "metric", "bandwidth", "status", "ok");
            bool fast = w == 0 && p == 0;
            json_array_append_new(m, with_repeats(r, fast ? 120 : 100, fast ? 130 : 110, n));
        }
    return m;
}

static json_t *gain_of(json_t *d, int w)
{
    char name[16];
    snprintf(name, sizeof(name), "w%d", w);
    size_t i;
    json_t *r;
    json_array_foreach(d, i,
                       r) if (strcmp(hb_jsonl_read_str(r, "type", ""), "gain") == 0 &&
                              strcmp(hb_jsonl_read_str(r, "workload", ""), name) == 0) return r;
    return NULL;
}

static json_t *policy(struct hb_topo *t, int workloads, int n)
{
    struct hb_options o = {.threshold_pct = 5.0, .command = "policy"};
    struct hb_suite_env env = {t, &o, NULL, 0, NULL, NULL, NULL, NULL};
    json_t *m = policy_run(workloads, n), *d = json_array();
    CHECK_INT(hb_policy_derive(&env, m, d), 0);
    json_decref(m);
    return d;
}

static void test_policy(struct hb_topo *t)
{
    /* One workload: vs interleave and vs remote, a family of 2 (one-node and os absent). */
    json_t *d = policy(t, 1, 5), *g = gain_of(d, 0);
    const json_t *noise = json_object_get(g, "gain_noise");
    CHECK_STR(hb_jsonl_read_str(noise, "gain_vs_interleave", ""), "clear");
    CHECK_STR(hb_jsonl_read_str(noise, "gain_vs_os", ""), "unknown noise");
    CHECK_WITHIN(num(json_object_get(g, "gain_p"), "gain_vs_interleave"), BORDER, 1e-12);
    CHECK_WITHIN(num(json_object_get(g, "gain_p_adjusted"), "gain_vs_remote"), BORDER, 1e-12);
    CHECK(json_is_null(json_object_get(json_object_get(g, "gain_p"), "gain_vs_os")));
    CHECK_INT(num(json_object_get(g, "family"), "size"), 2);
    json_decref(d);
    /* Eight workloads, 16 gains: workload 0's are 2 of 16 at 2/252: 0.063, inconclusive. */
    d = policy(t, 8, 5);
    g = gain_of(d, 0);
    CHECK_STR(hb_jsonl_read_str(json_object_get(g, "gain_noise"), "gain_vs_interleave", ""),
              "inconclusive");
    CHECK_WITHIN(num(json_object_get(g, "gain_p_adjusted"), "gain_vs_interleave"), BORDER * 16 / 2,
                 1e-12);
    CHECK_INT(num(json_object_get(gain_of(d, 7), "family"), "size"), 16);
    CHECK_STR(hb_jsonl_read_str(json_object_get(gain_of(d, 7), "gain_noise"), "gain_vs_remote", ""),
              "inconclusive");
    json_decref(d);
    /* 9 repeats against 9: clear among 16. */
    d = policy(t, 8, 9);
    g = gain_of(d, 0);
    CHECK_STR(hb_jsonl_read_str(json_object_get(g, "gain_noise"), "gain_vs_interleave", ""),
              "clear");
    json_decref(d);
    /* One repeat: unknown noise, p null. */
    d = policy(t, 1, 1);
    g = gain_of(d, 0);
    CHECK_STR(hb_jsonl_read_str(json_object_get(g, "gain_noise"), "gain_vs_interleave", ""),
              "unknown noise");
    CHECK(json_is_null(json_object_get(json_object_get(g, "gain_p"), "gain_vs_interleave")));
    json_decref(d);
}

/* policy --weights auto on one host: the binds and a ladder whose best step (4:1) is at lo-hi
 * over n repeats, the others at 100-110. */
static json_t *weights(double lo, double hi, int n)
{
    json_t *m = json_array();
    static const int ladder[][2] = {{1, 0}, {0, 1}, {1, 1}, {2, 1}, {4, 1}};
    for (size_t s = 0; s < sizeof(ladder) / sizeof(ladder[0]); s++) {
        json_t *r = json_pack("{s:s, s:s, s:s, s:s, s:[i, i], s:i, s:s}", "type", "measurement",
                              "suite", "policy", "host", "h", "mode", "weights", "weights",
                              ladder[s][0], ladder[s][1], "mem_node", (int)s % 2, "status", "ok");
        bool best = ladder[s][0] == 4;
        json_array_append_new(m, with_repeats(r, best ? lo : 100, best ? hi : 110, n));
    }
    json_t *d = json_array();
    CHECK_INT(hb_policy_weights_derive(m, d), 0);
    json_decref(m);
    CHECK_INT(json_array_size(d), 1);
    return d;
}

static void test_weights(void)
{
    json_t *d = weights(120, 130, 5), *w = json_array_get(d, 0);
    CHECK_STR(hb_jsonl_read_str(w, "best_vs_next", ""), "clear");
    CHECK_WITHIN(num(w, "best_vs_next_p"), BORDER, 1e-12);
    CHECK_WITHIN(num(w, "best_vs_next_p_adjusted"), BORDER, 1e-12);
    CHECK_INT(num(json_object_get(w, "family"), "size"), 1);
    json_decref(d);
    d = weights(104, 114, 5);
    CHECK_STR(hb_jsonl_read_str(json_array_get(d, 0), "best_vs_next", ""), "inconclusive");
    json_decref(d);
    d = weights(120, 130, 1);
    w = json_array_get(d, 0);
    CHECK_STR(hb_jsonl_read_str(w, "best_vs_next", ""), "unknown noise");
    CHECK(json_is_null(json_object_get(w, "best_vs_next_p")));
    json_decref(d);
}

/* The report's fleet: 20 hosts x 3 latency cells at 100-110 ns over n repeats, host 5 at
 * `slow` times that, host 9 without repeats at 1.5 times. */
static void fleet(int n, double slow, struct hb_rfleet *fl)
{
    memset(fl, 0, sizeof(*fl));
    for (int h = 0; h < 20; h++)
        for (int c = 0; c < 3; c++) {
            char host[16], cell[16];
            snprintf(host, sizeof(host), "h%d", h);
            snprintf(cell, sizeof(cell), "e%d", c);
            json_t *r = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "type", "measurement",
                                  "suite", "lat", "experiment", cell, "host", host, "metric",
                                  "latency", "unit", "ns", "status", "ok", "role", "foreground");
            double f = h == 5 ? slow : h == 9 ? 1.5 : 1.0;
            with_repeats(r, 100 * f, 110 * f, h == 9 ? 1 : n);
            CHECK_INT(hb_report_fleet_take(fl, r), 0);
            json_decref(r);
        }
    CHECK_INT(hb_report_fleet_stats_finish(fl), 0);
}

static const struct hb_rfleet_host *fleet_host(const struct hb_rfleet *fl, const char *name)
{
    for (uint32_t h = 0; h < fl->hosts.n; h++)
        if (strcmp(hb_strtab_get(&fl->hosts, h), name) == 0) return &fl->host[h];
    return NULL;
}

static void test_fleet(void)
{
    struct hb_rfleet fl;
    fleet(5, 2.0, &fl);
    const struct hb_rfleet_host *h5 = fleet_host(&fl, "h5"), *h9 = fleet_host(&fl, "h9");
    CHECK(h5 && h9);
    if (!h5 || !h9) return;
    /* h5 twice as costly, its 5 rounds above every other host's 90: an outlier, its p small;
     * h9 without repeats: unknown noise, an outlier by its interval alone (none), no
     * member. */
    CHECK_INT(h5->verdict, HB_RFLEET_OUTLIER);
    CHECK(h5->p < 1e-3);
    CHECK(h5->p_adjusted < 0.05);
    CHECK_INT(h9->verdict, HB_RFLEET_OUTLIER);
    CHECK(isnan(h9->p) && isnan(h9->p_adjusted));
    CHECK_INT(fl.family, 1);
    CHECK(isnan(fleet_host(&fl, "h1")->p));
    hb_report_fleet_free(&fl);
    /* 1.2 times: under the 35% threshold, no candidate. */
    fleet(5, 1.2, &fl);
    CHECK_INT(fleet_host(&fl, "h5")->verdict, HB_RFLEET_OK);
    CHECK_INT(fl.family, 0);
    hb_report_fleet_free(&fl);
}

int main(void)
{
    struct hb_topo *t = NULL;
    CHECK_INT(hb_topo_load(HB_FIXTURES "/4n-quartet.xml", &t), 0);
    if (!t) return 1;
    test_comm_bg();
    test_policy(t);
    test_weights();
    test_fleet();
    hb_topo_load_free(t);
    return hb_check_result();
}
