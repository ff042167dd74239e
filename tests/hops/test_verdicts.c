/* The myth verdicts on made-up records whose answer is known: myth 1 holds and breaks for
 * single threads, breaks under crossfire; myth 2 holds idle, breaks under load and for two
 * writers on one node (40555's finding). */
#include "../hb_check.h"
#include "hb_suite_hops.h"

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
    CHECK_INT(hb_suite_hops_derive(&env, m, d), 0);

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
    return hb_check_result();
}
