/* check's judge (src/health) on made-up repeats: a cell's call by compare's rules (worse only
 * separated and past the threshold, same only shown, else unclear), the cells read from
 * records (names, keys, the peak's sums repeat by repeat), the fitted repeats and the peers'
 * majority config. */
#include "../hb_check.h"
#include "hb_health_cells.h"
#include "hb_health_config.h"
#include "hb_health_fit.h"
#include "hb_health_verdict.h"
#include "hb_opt_doc.h"

#include <jansson.h>

static enum hb_health_call call(const double *now, int n, const double *ref, int nref,
                                double threshold, bool higher_better)
{
    struct hb_health_verdict v;
    CHECK(hb_health_verdict_test(now, n, ref, nref, &v));
    hb_health_verdict_call(&v, now, n, ref, nref, v.p, threshold, higher_better);
    return v.call;
}

int main(void)
{
    double ref[] = {20.5, 20.6, 20.7, 20.8, 20.9, 20.7, 20.6, 20.8};
    double low[] = {18.0, 18.1, 18.2, 18.3, 18.4, 18.2, 18.1, 18.3}; /* 12% below */
    double near[] = {20.4, 20.6, 20.7, 20.8, 21.0, 20.7, 20.5, 20.9};
    double wild[] = {5.0, 40.0, 12.0, 30.0, 8.0, 25.0, 20.0, 15.0};
    /* 12% lower bandwidth over a 10% threshold: worse; as a latency it is better. */
    CHECK_INT(call(low, 8, ref, 8, 10.0, true), HB_HEALTH_WORSE);
    CHECK_INT(call(low, 8, ref, 8, 10.0, false), HB_HEALTH_BETTER);
    /* 12% is within a 15% threshold: shown the same. */
    CHECK_INT(call(low, 8, ref, 8, 15.0, true), HB_HEALTH_SAME);
    CHECK_INT(call(near, 8, ref, 8, 10.0, true), HB_HEALTH_SAME);
    /* Repeats all over the place: neither separated nor shown the same. */
    CHECK_INT(call(wild, 8, ref, 8, 10.0, true), HB_HEALTH_UNCLEAR);
    /* Non-inferiority: repeats that are sometimes far faster, never slower, are no worse for
     * a bandwidth (only the interval's low bound counts), but as a latency they could be 40%
     * worse: unclear. */
    double spiky[] = {20.6, 20.8, 20.7, 30.0, 20.9, 35.0, 20.5, 28.0};
    CHECK_INT(call(spiky, 8, ref, 8, 10.0, true), HB_HEALTH_SAME);
    CHECK_INT(call(spiky, 8, ref, 8, 10.0, false), HB_HEALTH_UNCLEAR);
    /* Too few repeats for the rank test to reach 5%: unclear, however far apart. */
    CHECK_INT(call(low, 2, ref, 2, 10.0, true), HB_HEALTH_UNCLEAR);
    struct hb_health_verdict v;
    CHECK(hb_health_verdict_test(low, 8, ref, 8, &v));
    CHECK_WITHIN(v.now, 18.2, 1e-9);
    CHECK_WITHIN(v.ref, 20.7, 1e-9);
    CHECK_WITHIN(v.change_pct, (18.2 / 20.7 - 1.0) * 100.0, 1e-9);
    /* The call gives the shift and its worse-side bound: for the spiky bandwidth near 0%. */
    CHECK(hb_health_verdict_test(spiky, 8, ref, 8, &v));
    hb_health_verdict_call(&v, spiky, 8, ref, 8, v.p, 10.0, true);
    CHECK(v.worst_pct > -2.0 && v.worst_pct <= 0.5);
    CHECK(v.shift_pct > v.worst_pct);

    /* Cells from records: a remote read, a latency, and the peak's two nodes summed. */
    json_t *recs = json_loads(
        "[{\"type\":\"measurement\",\"status\":\"ok\",\"experiment\":\"check-far-0-1\","
        "\"kernel\":\"read\",\"policy\":\"bind\",\"cpu_node\":0,\"mem_node\":1,\"threads\":8,"
        "\"bytes\":1024,\"host\":\"n07\",\"metric\":\"bandwidth\",\"repeat_values\":[1,2,3,4]},"
        "{\"type\":\"measurement\",\"status\":\"ok\",\"experiment\":\"check-latency\","
        "\"kernel\":\"chase\",\"policy\":\"bind\",\"cpu_node\":1,\"mem_node\":1,\"threads\":1,"
        "\"bytes\":1024,\"host\":\"n07\",\"metric\":\"latency\",\"repeat_values\":[90,91,92,93]},"
        "{\"type\":\"measurement\",\"status\":\"ok\",\"experiment\":\"check-peak\","
        "\"kernel\":\"read\",\"policy\":\"bind\",\"cpu_node\":0,\"mem_node\":0,\"threads\":8,"
        "\"bytes\":1024,\"host\":\"n07\",\"metric\":\"bandwidth\",\"repeat_values\":[10,11,12,13]},"
        "{\"type\":\"measurement\",\"status\":\"ok\",\"experiment\":\"check-peak\","
        "\"kernel\":\"read\",\"policy\":\"bind\",\"cpu_node\":1,\"mem_node\":1,\"threads\":8,"
        "\"bytes\":1024,\"host\":\"n07\",\"metric\":\"bandwidth\",\"repeat_values\":[20,21,22,23]},"
        "{\"type\":\"measurement\",\"status\":\"failed\",\"experiment\":\"check-local-1\","
        "\"kernel\":\"read\",\"policy\":\"bind\",\"cpu_node\":1,\"mem_node\":1,\"threads\":8,"
        "\"bytes\":1024,\"host\":\"n07\",\"metric\":\"bandwidth\",\"repeat_values\":[1,1,1,1]}]",
        0, NULL);
    struct hb_health_cells c = {0};
    CHECK(recs && hb_health_cells_of(recs, &c) == 0);
    CHECK_INT(c.n, 3);
    if (c.n == 3) {
        CHECK_STR(c.v[0].name, "remote read 0->1");
        CHECK_STR(c.v[0].key, "remote read 0->1 threads=8 bytes=1024");
        CHECK_STR(c.v[0].unit, "GBps");
        CHECK_STR(c.v[1].name, "latency 1");
        CHECK_STR(c.v[1].unit, "ns");
        CHECK_STR(c.v[2].key, "peak read nodes=2 bytes=1024");
        CHECK_INT(c.v[2].n, 4);
        CHECK_WITHIN(c.v[2].values[3], 36.0, 1e-12);
        CHECK(hb_health_cells_find(&c, "n07", "latency 1 threads=1 bytes=1024") == &c.v[1]);
        CHECK(!hb_health_cells_find(&c, "n08", "latency 1 threads=1 bytes=1024"));
    }
    /* A baseline of two checks (the same records twice): each cell pools both checks'
     * repeats, and the peak sums each check's nodes, never the two checks together. */
    json_t *twice = json_array();
    CHECK(twice && json_array_extend(twice, recs) == 0 && json_array_extend(twice, recs) == 0);
    struct hb_health_cells pooled = {0};
    CHECK(hb_health_cells_of(twice, &pooled) == 0);
    CHECK_INT(pooled.n, 3);
    if (pooled.n == 3) {
        CHECK_INT(pooled.v[1].n, 8);
        CHECK_WITHIN(pooled.v[1].values[7], 93.0, 1e-12);
        CHECK_INT(pooled.v[2].n, 8);
        CHECK_WITHIN(pooled.v[2].values[3], 36.0, 1e-12);
        CHECK_WITHIN(pooled.v[2].values[7], 36.0, 1e-12);
    }
    hb_health_cells_free(&pooled);
    json_decref(twice);
    hb_health_cells_free(&c);
    json_decref(recs);

    /* Repeats fitted into --max-time: by default 10 at most (within 45 s), a --max-time given
     * filled up to 50, the rank test's 4 at least. */
    struct hb_options o = {0};
    int repeats = 0;
    CHECK_INT(hb_health_fit_repeats(&o, 1.0, &repeats), 0);
    CHECK_INT(repeats, 10);
    CHECK_INT(hb_health_fit_repeats(&o, 9.0, &repeats), 0);
    CHECK_INT(repeats, 5);
    o.given = 1ULL << (OPT_MAX_TIME - OPT_KERNEL);
    o.max_time_s = 20.0;
    CHECK_INT(hb_health_fit_repeats(&o, 1.0, &repeats), 0);
    CHECK_INT(repeats, 20);
    CHECK_INT(hb_health_fit_repeats(&o, 0.1, &repeats), 0);
    CHECK_INT(repeats, 50);
    CHECK_INT(hb_health_fit_repeats(&o, 3.0, &repeats), 0);
    CHECK_INT(repeats, 6);
    CHECK(hb_health_fit_repeats(&o, 6.0, &repeats) < 0);

    /* The peers' most common knob, and the line for the one that differs. */
    json_t *a = json_pack("{s:s, s:s}", "thp_enabled", "madvise", "governor", "performance");
    json_t *b = json_pack("{s:s, s:s}", "thp_enabled", "madvise", "governor", "performance");
    json_t *odd = json_pack("{s:s, s:s}", "thp_enabled", "never", "governor", "performance");
    const json_t *peers[] = {a, odd, b};
    json_t *maj = hb_health_config_majority(peers, 3), *lines = json_array();
    CHECK(hb_health_config_lines(odd, maj, "peers", lines) == 0);
    CHECK_INT(json_array_size(lines), 1);
    CHECK_STR(json_string_value(json_array_get(lines, 0)),
              "config differs from peers: thp_enabled never (peers: madvise)");
    json_array_clear(lines);
    CHECK(hb_health_config_lines(a, maj, "peers", lines) == 0);
    CHECK_INT(json_array_size(lines), 0);
    json_decref(lines), json_decref(maj), json_decref(a), json_decref(b), json_decref(odd);
    return hb_check_failures ? 1 : 0;
}
