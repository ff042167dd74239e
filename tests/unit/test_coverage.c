/* The interval label (hb_coverage.h) over record sets as runs write them: every figure of 5
 * repeats, 3 and 5 mixed, one repeat (no interval), an old file without a coverage; and the
 * spread and summary keys behind the stability line (hb_repeat_merge, hb_record_summary). */
#include "../hb_check.h"
#include "hb_coverage.h"
#include "hb_record.h"
#include "hb_repeat.h"

#include <math.h>

/* A merged measurement record of n repeats of value v (+-spread apart). */
static json_t *hb_rec(int n, double v, double spread)
{
    json_t *recs[9] = {0};
    for (int i = 0; i < n; i++)
        recs[i] =
            json_pack("{s:s, s:s, s:s, s:s, s:s, s:f, s:f}", "type", "measurement", "experiment",
                      "lat-0-0", "metric", "latency", "role", "foreground", "status", "ok",
                      "lat_ns_median", v * (1.0 + spread * (i - n / 2)), "elapsed_s", 1.0);
    json_t *out = hb_repeat_merge(recs, n, 5.0);
    for (int i = 0; i < n; i++)
        json_decref(recs[i]);
    return out;
}

/* The label of the records of n repeats each in reps (k of them). */
static const char *hb_label_of(const int *reps, int k, char *buf, size_t len)
{
    struct hb_coverage c = {0};
    for (int i = 0; i < k; i++) {
        json_t *rec = hb_rec(reps[i], 100.0, 0.01);
        hb_coverage_add_rec(&c, rec);
        json_decref(rec);
    }
    return hb_coverage_label(&c, buf, len);
}

int main(void)
{
    char buf[HB_COVERAGE_LABEL_LEN];
    const int five[] = {5, 5, 5}, mixed[] = {5, 3, 5}, one[] = {1, 1}, some[] = {5, 1};
    CHECK_STR(hb_label_of(five, 3, buf, sizeof(buf)), "93.75% interval, 5 repeats");
    CHECK_STR(hb_label_of(mixed, 3, buf, sizeof(buf)), "75-93.75% intervals, 3-5 repeats");
    CHECK_STR(hb_label_of(one, 2, buf, sizeof(buf)), "no interval, 1 repeat");
    CHECK_STR(hb_label_of(some, 2, buf, sizeof(buf)), "93.75% interval, 5 repeats, 1 without");
    const int four[] = {4}, six[] = {6}, nine[] = {9};
    CHECK_STR(hb_label_of(four, 1, buf, sizeof(buf)), "87.5% interval, 4 repeats");
    CHECK_STR(hb_label_of(six, 1, buf, sizeof(buf)), "96.88% interval, 6 repeats");
    CHECK_STR(hb_label_of(nine, 1, buf, sizeof(buf)), "96.09% interval, 9 repeats");
    struct hb_coverage none = {0};
    CHECK_STR(hb_coverage_label(&none, buf, sizeof(buf)), "no interval");
    CHECK(!hb_coverage_any(&none));
    /* An old file: an interval and repeats, no ci_coverage. */
    json_t *old = json_pack("{s:s, s:f, s:[f, f], s:i}", "type", "measurement", "value", 10.0,
                            "ci95", 9.0, 11.0, "repeats", 5);
    hb_coverage_add_rec(&none, old);
    json_decref(old);
    CHECK_STR(hb_coverage_label(&none, buf, sizeof(buf)),
              "interval of unknown coverage, 5 repeats");
    /* Tallies merged say what both do; a short buffer is cut, never overrun. */
    struct hb_coverage a = {0}, b = {0};
    hb_coverage_add(&a, true, 5, 0.9375);
    hb_coverage_add(&b, true, 3, 0.75);
    hb_coverage_add(&b, false, 1, NAN);
    hb_coverage_merge(&a, &b);
    CHECK_STR(hb_coverage_label(&a, buf, sizeof(buf)),
              "75-93.75% intervals, 3-5 repeats, 1 without");
    char small[8];
    CHECK_STR(hb_coverage_label(&a, small, sizeof(small)), "75-93.7");

    /* spread_pct: 100 x the sd of the repeats' logs; null with one repeat. */
    json_t *r5 = hb_rec(5, 100.0, 0.1), *r1 = hb_rec(1, 100.0, 0.1);
    CHECK(json_is_real(json_object_get(r5, "spread_pct")));
    CHECK_WITHIN(json_real_value(json_object_get(r5, "spread_pct")), 16.2, 0.5);
    CHECK(json_is_null(json_object_get(r1, "spread_pct")));
    /* The summary: the median of its figures' spreads, and the estimate passed in. */
    struct hb_summary s = {.estimate_s = 2.5};
    json_t *r3 = hb_rec(3, 100.0, 0.01);
    CHECK_INT(hb_record_summary_add(&s, r5), 0);
    CHECK_INT(hb_record_summary_add(&s, r1), 0);
    CHECK_INT(hb_record_summary_add(&s, r3), 0);
    json_t *sum = hb_record_summary("lat", &s, 3.0);
    double lo = json_real_value(json_object_get(r3, "spread_pct"));
    double hi = json_real_value(json_object_get(r5, "spread_pct"));
    CHECK_WITHIN(json_real_value(json_object_get(sum, "spread_pct_median")), (lo + hi) / 2, 1e-9);
    CHECK_WITHIN(json_real_value(json_object_get(sum, "estimate_s")), 2.5, 1e-12);
    json_decref(sum);
    hb_record_summary_free(&s);
    sum = hb_record_summary("lat", &s, 3.0);
    CHECK(json_is_null(json_object_get(sum, "spread_pct_median")));
    CHECK(json_is_null(json_object_get(sum, "estimate_s")));
    json_decref(sum);
    json_decref(r5);
    json_decref(r1);
    json_decref(r3);
    return hb_check_result();
}
