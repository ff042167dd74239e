/* What people read of a figure: one rounding (hb_figure_text), intervals as [lo, hi] never
 * as +- (hb_figure_text_interval_text), one spelling per unit (hb_units), the footprint a chase
 * keeps in the caches (hb_level_footprint) and the physical bounds (hb_bounds_check) in
 * words (hb_bounds_text). */
#include "../hb_check.h"
#include "hb_bounds.h"
#include "hb_figure_text.h"
#include "hb_level.h"
#include "hb_units.h"

#include <jansson.h>
#include <math.h>

static const char *fig(double v)
{
    static char buf[HB_FIGURE_LEN];
    return hb_figure_text(v, buf, sizeof(buf));
}

static const char *iv(double v, double lo, double hi)
{
    static char buf[HB_FIGURE_LEN];
    return hb_figure_text_interval_text(v, lo, hi, buf, sizeof(buf));
}

/* The out_of_bounds keys of a measurement record, comma-joined ("" for none). */
static const char *bounds(const char *json)
{
    static char keys[128];
    json_t *rec = json_loads(json, 0, NULL);
    hb_bounds_check(rec);
    keys[0] = '\0';
    size_t i;
    json_t *b;
    json_array_foreach(json_object_get(rec, "out_of_bounds"), i, b)
    {
        strncat(keys, i ? "," : "", sizeof(keys) - strlen(keys) - 1);
        strncat(keys, json_string_value(json_object_get(b, "key")),
                sizeof(keys) - strlen(keys) - 1);
    }
    json_decref(rec);
    return keys;
}

/* The words of a record's first out_of_bounds entry ("" for none). */
static const char *bounds_said(const char *json)
{
    static char text[320];
    json_t *rec = json_loads(json, 0, NULL);
    hb_bounds_check(rec);
    json_t *b = json_array_get(json_object_get(rec, "out_of_bounds"), 0);
    if (b)
        hb_bounds_text(b, text, sizeof(text));
    else
        text[0] = '\0';
    json_decref(rec);
    return text;
}

int main(void)
{
    /* Four significant digits, whatever the magnitude; the same value always the same text. */
    CHECK_STR(fig(26.4651), "26.47");
    CHECK_STR(fig(26.4649), "26.46");
    CHECK_STR(fig(272.24), "272.2");
    CHECK_STR(fig(1201.3), "1201");
    CHECK_STR(fig(0.0123456), "0.01235");
    CHECK_STR(fig(5.0), "5.000");
    CHECK_STR(fig(1.23456e9), "1.235e+09");
    CHECK_STR(fig(NAN), "n/a");
    CHECK_INT(hb_figure_text_decimals(272.24), 1);
    CHECK_INT(hb_figure_text_decimals(0.0), 2);
    /* c2c's 272.24 +-489.93 was the interval [221, 1201]: both ends at the value's decimals. */
    CHECK_STR(iv(272.24, 221.02, 1201.31), "272.2 [221.0, 1201.3]");
    CHECK_STR(iv(26.4651, 26.31, 26.52), "26.47 [26.31, 26.52]");
    CHECK_STR(iv(26.4651, NAN, 26.52), "26.47");
    CHECK_STR(iv(2.5e9, 2.4e9, 2.61e9), "2.500e+09 [2.400e+09, 2.610e+09]");
    /* One display spelling per unit; records keep theirs. */
    CHECK_STR(hb_units_shown("GBps"), "GB/s");
    CHECK_STR(hb_units_shown("ns"), "ns");
    CHECK_STR(hb_units_shown("flop/B"), "flop/B");
    CHECK_STR(hb_units_quantity("GBps"), "bandwidth");
    CHECK_STR(hb_units_quantity("ns"), "latency");
    CHECK(hb_units_higher_better("GBps") && !hb_units_higher_better("ns"));
    CHECK(hb_units_higher_better("loads/ns") && !hb_units_higher_better("s"));
    /* A chase at a 256-byte stride holds a 128-byte line pair per stride: half its set; at 64
     * or 128 bytes, and for a streaming kernel, all of it. */
    CHECK_INT(hb_level_footprint(1 << 20, 256), 1 << 19);
    CHECK_INT(hb_level_footprint(1 << 20, 1024), 1 << 17);
    CHECK_INT(hb_level_footprint(1 << 20, 128), 1 << 20);
    CHECK_INT(hb_level_footprint(1 << 20, 64), 1 << 20);
    CHECK_INT(hb_level_footprint(1 << 20, 0), 1 << 20);
    CHECK(hb_level_footprint_ws(32768, 256) == 65536);
    CHECK(hb_level_footprint_ws(32768, 0) == 32768);
    /* Bounds: 22 loads in flight from 8 chains of 1 thread cannot be; 8 can. */
    CHECK_STR(bounds("{\"type\":\"measurement\",\"chains\":8,\"threads\":1,\"concurrency\":22}"),
              "concurrency");
    CHECK_STR(bounds("{\"type\":\"measurement\",\"chains\":8,\"threads\":2,\"concurrency\":16}"),
              "");
    CHECK_STR(bounds("{\"type\":\"measurement\",\"pages_on_target_pct\":100.5,"
                     "\"pages_share_pct\":{\"0\":100.5},\"bg_overlap\":1.2}"),
              "pages_on_target_pct,pages_share_pct,bg_overlap");
    CHECK_STR(bounds("{\"type\":\"measurement\",\"status\":\"ok\",\"value\":0}"), "value");
    CHECK_STR(bounds("{\"type\":\"measurement\",\"status\":\"failed\",\"value\":0}"), "");
    CHECK_STR(bounds("{\"type\":\"matrix\",\"concurrency\":99,\"chains\":1,\"threads\":1}"), "");
    /* ... said in words, the figure rounded as every figure shown, the bound as it is. */
    CHECK_STR(
        bounds_said("{\"type\":\"measurement\",\"chains\":8,\"threads\":1,\"concurrency\":22}"),
        "concurrency 22.00, which must be at most 8 (chains x threads: no more loads can be "
        "in flight; the one-chain latency it is computed from disagrees with this record's)");
    CHECK_STR(bounds_said("{\"type\":\"measurement\",\"status\":\"ok\",\"value\":0}"),
              "value 0.00, which must be above 0 (a time or a rate of work done)");
    CHECK_STR(bounds_said("{\"type\":\"measurement\",\"pages_on_target_pct\":-1}"),
              "pages_on_target_pct -1.000, which must be at least 0 (a share of the pages)");
    /* A record whose figures came back within their bounds loses its old out_of_bounds. */
    CHECK_STR(bounds_said("{\"type\":\"measurement\",\"out_of_bounds\":[{\"key\":\"x\"}]}"), "");
    return hb_check_result();
}
