/* The fleet summary reads only the keys of hb_report_fleet_keys: a fleet folded from its
 * records cut down to those keys is the same, entry by entry and host by host, as one folded
 * from the whole records (a reader that parses only those keys gives the same report). The
 * records take every shape the fold meets: value and ci95, old files' lat_ns_median and
 * bw_GBps_best, a failed, a background, an interleaved and a noisy one. And a file whose
 * first HB_FLEET_PROBE measurements name one host is no fleet, one measurement fewer still
 * can be. */
#include "../hb_check.h"
#include "hb_report_fleet.h"

#include <math.h>

#define HOSTS 17

/* rec without the keys that hb_report_fleet_keys does not name (new reference). */
static json_t *cut(const json_t *rec)
{
    json_t *out = json_object();
    for (int k = 0; hb_report_fleet_keys[k]; k++) {
        json_t *v = json_object_get(rec, hb_report_fleet_keys[k]);
        if (v) json_object_set(out, hb_report_fleet_keys[k], v);
    }
    return out;
}

/* Host h's records: h5 three times as costly in every cell (the one outlier). */
static json_t *records(int h)
{
    char host[16];
    snprintf(host, sizeof(host), "h%d", h);
    double slow = h == 5 ? 3 : 1, v = (100 + h % 4) * slow;
    json_t *first = json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:s, s:i, s:I, s:s, s:s, s:f, s:[f, f], s:i, s:f, "
        "s:b, s:s, s:[f, f], s:s}",
        "type", "measurement", "suite", "lat", "experiment", "lat-1t", "label", "0.0.r.0", "host",
        host, "cpu_node", 0, "mem_node", 0, "kernel", "chase", "threads", 1, "bytes",
        (json_int_t)1 << 30, "metric", "latency", "unit", "ns", "value", v, "ci95", v - 1, v + 1,
        "repeats", 5, "ci_coverage", 0.94, "noisy", h == 2, "status", "ok", "repeat_values", v, v,
        "note", "not read");
    /* The same cell again, as a second run in the file would give: counted, not kept. */
    json_t *again = json_deep_copy(first);
    json_object_set_new(again, "value", json_real(1.0));
    return json_pack("[o, {s:s, s:s, s:s, s:s, s:s, s:s, s:f}, {s:s, s:s, s:s, s:s, s:f, s:s}, "
                     "{s:s, s:s, s:s, s:s, s:f, s:s, s:s}, o]",
                     first, /* an old file's latency, no value */
                     "type", "measurement", "suite", "lat", "experiment", "lat-old", "host", host,
                     "metric", "latency", "mem_node", "i", "lat_ns_median", (90.0 + h) * slow,
                     /* an old file's bandwidth, failed on h3 */
                     "type", "measurement", "suite", "bw", "experiment", "bw-old", "host", host,
                     "bw_GBps_best", (20.0 - h % 3) / slow, "status", h == 3 ? "failed" : "ok",
                     /* no interval; background on h4 */
                     "type", "measurement", "suite", "bw", "experiment", "bw-bg", "host", host,
                     "value", 30.0 / slow, "unit", "GBps", "role",
                     h == 4 ? "background" : "foreground", again);
}

static void fold(struct hb_rfleet *fl, bool cut_keys)
{
    memset(fl, 0, sizeof(*fl));
    for (int h = 0; h < HOSTS; h++) {
        json_t *recs = records(h), *rec;
        HB_EXPECT(recs, "json_pack failed for host %d", h);
        size_t i;
        json_array_foreach(recs, i, rec)
        {
            json_t *r = cut_keys ? cut(rec) : json_incref(rec);
            CHECK_INT(hb_report_fleet_take(fl, r), 0);
            json_decref(r);
        }
        json_decref(recs);
    }
    CHECK(fl->on);
    CHECK_INT(hb_report_fleet_stats_finish(fl), 0);
}

static bool same(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

/* Whether a file of `first` measurements of one host, then one of each of 16 more hosts, is
 * a fleet. */
static bool fleet_after(size_t first)
{
    struct hb_rfleet fl = {0};
    json_t *rec = json_pack("{s:s, s:s, s:s, s:f}", "type", "measurement", "host", "h0",
                            "experiment", "e", "value", 1.0);
    for (size_t i = 0; i < first; i++)
        CHECK_INT(hb_report_fleet_take(&fl, rec), 0);
    for (int h = 1; h <= 16; h++) {
        char host[16];
        snprintf(host, sizeof(host), "h%d", h);
        json_object_set_new(rec, "host", json_string(host));
        CHECK_INT(hb_report_fleet_take(&fl, rec), 0);
    }
    bool on = fl.on;
    CHECK(on ? fl.n == first + 16 : fl.n == 0);
    json_decref(rec);
    hb_report_fleet_free(&fl);
    return on;
}

int main(void)
{
    CHECK(fleet_after(HB_FLEET_PROBE - 1));
    CHECK(!fleet_after(HB_FLEET_PROBE));
    struct hb_rfleet all, some;
    fold(&all, false);
    fold(&some, true);
    CHECK_INT(some.n, all.n);
    CHECK_INT(some.cells.n, all.cells.n);
    CHECK_INT(some.hosts.n, all.hosts.n);
    for (size_t i = 0; i < all.n && i < some.n; i++) {
        const struct hb_rfleet_obs *a = &all.v[i], *b = &some.v[i];
        CHECK(a->host == b->host && a->cell == b->cell && same(a->v, b->v) && same(a->lo, b->lo) &&
              same(a->hi, b->hi));
    }
    for (uint32_t c = 0; c < all.cells.n && c < some.cells.n; c++)
        CHECK_STR(hb_strtab_get(&some.cells, c), hb_strtab_get(&all.cells, c));
    for (uint32_t h = 0; h < all.hosts.n && h < some.hosts.n; h++) {
        const struct hb_rfleet_host *a = &all.host[h], *b = &some.host[h];
        CHECK(a->failed == b->failed && a->noisy == b->noisy && a->unusable == b->unusable &&
              a->cells == b->cells && a->flagged == b->flagged && same(a->cost, b->cost) &&
              a->verdict == b->verdict);
    }
    /* And the fold itself: 4 cells (lat-1t, lat-old, bw-old, bw-bg), the repeats counted
     * (h2's noisy record twice), the failed and background records counted, h5 the one
     * outlier, flagged in every cell, 303 ns in lat-1t against its median 102. */
    CHECK_INT(all.cells.n, 4);
    CHECK_INT(all.measurements, 5 * HOSTS);
    CHECK_INT(all.background, 1);
    CHECK_INT(all.duplicates, HOSTS);
    CHECK_INT(all.n, 4 * HOSTS - 2);
    CHECK_INT(all.host[3].failed, 1);
    CHECK_INT(all.host[2].noisy, 2);
    CHECK_INT(all.outliers, 1);
    CHECK_STR(hb_strtab_get(&all.hosts, all.rank[0]), "h5");
    CHECK_INT(all.host[all.rank[0]].verdict, HB_RFLEET_OUTLIER);
    CHECK_INT(all.host[all.rank[0]].flagged, 4);
    CHECK_WITHIN(all.cell[0].med, 102, 0);
    CHECK_WITHIN(all.cell[0].worst_cost, 303.0 / 102, 1e-9);
    CHECK_STR(hb_strtab_get(&all.cells, 1), "lat\x1flat-old\x1f?\x1f-\x1f-\x1fi\x1f"
                                            "0\x1f"
                                            "0\x1flatency");
    hb_report_fleet_free(&all);
    hb_report_fleet_free(&some);
    return hb_check_result();
}
