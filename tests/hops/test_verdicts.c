/* The myth verdicts on made-up records whose answer is known: myth 1 holds and breaks for
 * single threads, breaks under crossfire; myth 2 holds idle, breaks under load and for two
 * writers on one node (40555's finding). And myth 1's family: a borderline spread (5 repeats
 * against 5, apart) busts it alone, not among 16 verdicts within the noise; 9 against 9 do. */
#include "../hb_check.h"
#include "hb_interval.h"
#include "hb_jsonl_read.h"
#include "hb_signif.h"
#include "hb_suite_hops.h"

#include <math.h>
#include <string.h>

static json_t *rec(const char *exp, const char *cas, const char *level, const char *sub,
                   const char *access, int cpu, int hops, double pct, double t)
{
    char label[32];
    snprintf(label, sizeof(label), "%d.0.%s.%d", cpu, access, hops);
    json_t *r = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:f, s:f, s:s, s:s}",
                          "type", "measurement", "role", "foreground", "status", "ok", "experiment",
                          exp, "case", cas, "bg_level", level, "access", access, "cpu_node", cpu,
                          "hops", hops, "pct_of_local_read", pct, "t_median_s", t, "label", label,
                          "placement", "one-node");
    if (sub) json_object_set_new(r, "subscription", json_string(sub));
    return r;
}

static json_t *find(json_t *derived, int myth, const char *cas, const char *level,
                    const char *access, int hops)
{
    size_t i;
    json_t *v;
    json_array_foreach(derived, i, v)
    {
        if (strcmp(json_string_value(json_object_get(v, "type")), "verdict") ||
            json_integer_value(json_object_get(v, "myth")) != myth ||
            strcmp(json_string_value(json_object_get(v, "case")), cas) ||
            strcmp(json_string_value(json_object_get(v, "bg_level")), level) ||
            strcmp(json_string_value(json_object_get(v, "access")), access))
            continue;
        if (hops < 0 || json_integer_value(json_object_get(v, "hops")) == hops) return v;
    }
    return NULL;
}

static void expect_verdict(json_t *v, bool holds, double spread)
{
    CHECK(v != NULL);
    if (!v) return;
    CHECK_INT(json_is_true(json_object_get(v, "holds")), holds);
    CHECK(json_number_value(json_object_get(v, "spread_pct")) == spread);
}

/* A single idle case of n repeats whose % of local read runs evenly from lo to hi (its
 * latency in ns the same numbers: each repeat's % is the value itself). */
static json_t *myth_case(const char *access, int cpu, int hops, double lo, double hi, int n)
{
    double v[16];
    json_t *rv = json_array();
    for (int i = 0; i < n; i++) {
        v[i] = lo + (hi - lo) * i / (n - 1);
        json_array_append_new(rv, json_real(v[i]));
    }
    struct hb_interval iv;
    hb_interval_median(v, n, HB_CI_LEVEL, &iv);
    json_t *r = rec("s", "single", "idle", NULL, access, cpu, hops, iv.value, 1.0);
    json_object_set_new(r, "value", json_real(iv.value));
    json_object_set_new(r, "unit", json_string("ns"));
    json_object_set_new(r, "repeat_values", rv);
    json_object_set_new(r, "pct_of_local_read_ci95", json_pack("[f, f]", iv.lo, iv.hi));
    return r;
}

/* Myth 1 over `groups` (access, hop) groups of two cases: group 0 at 100-110 against 120-130
 * (apart), the others 100-140 against 110-150 (spread 8%, within the noise); its verdict. */
static json_t *myth1_family(int groups, int n, json_t **derived)
{
    static const char *const access[] = {"r", "w"};
    json_t *m = json_array();
    for (int g = 0; g < groups; g++) {
        const char *a = access[g % 2];
        int hop = 1 + g / 2;
        json_array_append_new(m, myth_case(a, 0, hop, 100, g ? 140 : 110, n));
        json_array_append_new(m, myth_case(a, 1, hop, g ? 110 : 120, g ? 150 : 130, n));
    }
    struct hb_options o = {.tolerance_pct = 5.0, .command = "hops"};
    struct hb_suite_env env = {NULL, &o, NULL, 0, NULL, NULL, NULL, NULL};
    *derived = json_array();
    CHECK_INT(hb_hops_derive(&env, m, *derived), 0);
    json_decref(m);
    return find(*derived, 1, "single", "idle", "r", 1);
}

static void test_myth1_family(void)
{
    json_t *d, *v = myth1_family(1, 5, &d);
    CHECK_STR(hb_jsonl_read_str(v, "verdict", ""), "does not hold");
    CHECK_WITHIN(hb_jsonl_read_num(v, "p", NAN), 2.0 / 252, 1e-12);
    CHECK_WITHIN(hb_jsonl_read_num(v, "p_adjusted", NAN), 2.0 / 252, 1e-12);
    CHECK_INT(hb_jsonl_read_num(json_object_get(v, "family"), "size", 0), 1);
    json_decref(d);
    v = myth1_family(16, 5, &d);
    CHECK_STR(hb_jsonl_read_str(v, "verdict", ""), "inconclusive");
    CHECK(json_is_null(json_object_get(v, "holds")));
    CHECK_WITHIN(hb_jsonl_read_num(v, "p_adjusted", NAN), 16 * 2.0 / 252, 1e-9);
    CHECK_INT(hb_jsonl_read_num(json_object_get(v, "family"), "size", 0), 16);
    CHECK_STR(hb_jsonl_read_str(json_object_get(v, "family"), "rule", ""), "BH FDR");
    json_decref(d);
    v = myth1_family(16, 9, &d);
    CHECK_STR(hb_jsonl_read_str(v, "verdict", ""), "does not hold");
    CHECK(hb_jsonl_read_num(v, "p_adjusted", NAN) < 16 * hb_signif_mwu_min_p(9, 9) + 1e-12);
    json_decref(d);
}

int main(void)
{
    json_t *m = json_array();
    /* Myth 1, idle reads: hop 0 within 1%, hop 1 apart by 15.7%. */
    json_array_append_new(m, rec("s1", "single", "idle", NULL, "r", 0, 0, 100.0, 1.0));
    json_array_append_new(m, rec("s2", "single", "idle", NULL, "r", 1, 0, 101.0, 1.0));
    json_array_append_new(m, rec("s3", "single", "idle", NULL, "r", 0, 1, 108.0, 1.0));
    json_array_append_new(m, rec("s4", "single", "idle", NULL, "r", 1, 1, 125.0, 1.0));
    json_array_append_new(m, rec("s5", "single", "idle", NULL, "r", 0, 2, 130.0, 1.0));
    /* Crossfire writers on hop-1 links against their no-crossfire twins. */
    json_array_append_new(m, rec("x1", "crossfire", "idle", NULL, "w", 0, 1, 150.0, 1.0));
    json_array_append_new(m, rec("x1", "crossfire", "idle", NULL, "w", 1, 1, 150.0, 1.0));
    json_array_append_new(m, rec("x2", "no-crossfire", "idle", NULL, "w", 0, 1, 127.0, 1.0));
    json_array_append_new(m, rec("x2", "no-crossfire", "idle", NULL, "w", 1, 1, 129.0, 1.0));
    /* Myth 2 under high load: on node 0 the 1-hop write beats the local one. */
    json_array_append_new(m, rec("l1", "single", "high", "under", "w", 0, 0, 140.0, 1.0));
    json_array_append_new(m, rec("l2", "single", "high", "under", "w", 0, 1, 130.0, 1.0));
    /* Two writers on node 0: both local (span 2.1 s) is slower than one 1 hop away (1.7 s). */
    json_array_append_new(m, rec("p00", "pair", "idle", NULL, "w", 0, 0, 120.0, 2.0));
    json_array_append_new(m, rec("p00", "pair", "idle", NULL, "w", 0, 0, 121.0, 2.1));
    json_array_append_new(m, rec("p01", "pair", "idle", NULL, "w", 0, 0, 110.0, 1.6));
    json_array_append_new(m, rec("p01", "pair", "idle", NULL, "w", 0, 1, 112.0, 1.7));

    struct hb_options o = {.tolerance_pct = 5.0, .command = "hops"};
    struct hb_suite_env env = {NULL, &o, NULL, 0, NULL, NULL, NULL, NULL};
    json_t *d = json_array();
    CHECK_INT(hb_hops_derive(&env, m, d), 0);

    expect_verdict(find(d, 1, "single", "idle", "r", 0), true, 1.0);
    expect_verdict(find(d, 1, "single", "idle", "r", 1), false, 15.7);
    json_t *ev = json_object_get(find(d, 1, "single", "idle", "r", 1), "evidence");
    CHECK_STR(json_string_value(json_array_get(ev, 0)), "0.0.r.1");
    CHECK_STR(json_string_value(json_array_get(ev, 1)), "1.0.r.1");
    CHECK(find(d, 1, "single", "idle", "r", 2) == NULL); /* one case is no comparison */
    expect_verdict(find(d, 1, "crossfire", "idle", "w", 1), false, 18.1);

    expect_verdict(find(d, 2, "single", "idle", "r", -1), true, 0.0);
    expect_verdict(find(d, 2, "single", "high", "w", -1), false, 7.7);
    CHECK_STR(
        json_string_value(json_object_get(find(d, 2, "single", "high", "w", -1), "subscription")),
        "under");
    expect_verdict(find(d, 2, "pair", "idle", "w", -1), false, 23.5);
    CHECK_INT(json_array_size(json_object_get(find(d, 2, "pair", "idle", "w", -1), "evidence")), 2);
    json_decref(d);
    json_decref(m);
    test_myth1_family();
    return hb_check_result();
}
