/* Records read back (hb_jsonl_read.h): their figures and intervals taken out for report and
 * compare. Reading the files is hb_jsonl_load.c's. */
#include "hb_jsonl_read.h"

#include "hb_interval.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

double hb_jsonl_read_num(const json_t *rec, const char *key, double def)
{
    json_t *v = json_object_get(rec, key);
    return json_is_number(v) ? json_number_value(v) : def;
}

const char *hb_jsonl_read_str(const json_t *rec, const char *key, const char *def)
{
    const char *s = json_string_value(json_object_get(rec, key));
    return s ? s : def;
}

const char *hb_jsonl_read_headline_key(const json_t *rec)
{
    if (json_is_number(json_object_get(rec, "value"))) return "value";
    return strcmp(hb_jsonl_read_str(rec, "metric", ""), "latency") == 0 ? "lat_ns_median"
                                                                        : "bw_GBps_best";
}

enum hb_separation hb_jsonl_read_separation(const json_t *a, const json_t *b)
{
    struct hb_interval x, y;
    if (!hb_jsonl_read_interval(a, &x) || !hb_jsonl_read_interval(b, &y) || x.n < 2 || y.n < 2)
        return HB_NO_INTERVAL;
    return hb_intervals_separate(&x, &y) ? HB_SEPARATE : HB_OVERLAP;
}

const char *hb_jsonl_read_separation_name(enum hb_separation s)
{
    return s == HB_SEPARATE ? "clear" : s == HB_OVERLAP ? "inconclusive" : "unknown noise";
}

json_t *hb_jsonl_read_figure(const json_t *rec)
{
    struct hb_interval iv;
    if (!rec) return json_null();
    bool has = hb_jsonl_read_interval(rec, &iv) && iv.n >= 2;
    return json_pack("{s:o, s:o}", "value", isfinite(iv.value) ? json_real(iv.value) : json_null(),
                     "ci95", has ? json_pack("[f, f]", iv.lo, iv.hi) : json_null());
}

bool hb_jsonl_read_interval(const json_t *rec, struct hb_interval *iv)
{
    const json_t *ci = json_object_get(rec, "ci95");
    const json_t *lo = json_array_get(ci, 0), *hi = json_array_get(ci, 1);
    return hb_interval_of_record(hb_jsonl_read_num(rec, hb_jsonl_read_headline_key(rec), NAN),
                                 json_is_number(lo) ? json_number_value(lo) : NAN,
                                 json_is_number(hi) ? json_number_value(hi) : NAN,
                                 hb_jsonl_read_num(rec, "repeats", 0),
                                 hb_jsonl_read_num(rec, "ci_coverage", 0.0), iv);
}
