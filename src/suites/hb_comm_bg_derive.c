/* comm --bg's derived records: per pair of ranks, what the load did to the latency at the
 * smallest message and to the bandwidth at the largest, loaded against idle, beyond the noise
 * or not. */
#include "hb_comm_bg.h"

#include "hb_interval.h"
#include "hb_jsonl_read.h"
#include "hb_stats.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static bool hb_comm_is_loaded(const json_t *rec)
{
    const char *level = hb_rec_str(rec, "bg_level", "idle");
    return strcmp(hb_rec_str(rec, "type", ""), "measurement") == 0 &&
           strcmp(hb_rec_str(rec, "suite", ""), "comm") == 0 && strcmp(level, "idle") != 0;
}

/* The record of `like`'s rank pair with this metric, size and load (loaded: not idle). */
static const json_t *hb_comm_find(const json_t *measured, const json_t *like, const char *metric,
                                  double bytes, bool loaded)
{
    static const char *const same[] = {"src_rank", "dst_rank"};
    size_t i;
    json_t *rec;
    json_array_foreach(measured, i, rec)
    {
        bool match =
            strcmp(hb_rec_str(rec, "suite", ""), "comm") == 0 && hb_comm_is_loaded(rec) == loaded &&
            strcmp(hb_rec_str(rec, "metric", ""), metric) == 0 &&
            hb_rec_num(rec, "message_bytes", -1) == bytes &&
            strcmp(hb_rec_str(rec, "src_host", ""), hb_rec_str(like, "src_host", "")) == 0 &&
            strcmp(hb_rec_str(rec, "dst_host", ""), hb_rec_str(like, "dst_host", "")) == 0;
        for (int k = 0; k < 2 && match; k++)
            match = hb_rec_num(rec, same[k], -1) == hb_rec_num(like, same[k], -2);
        if (match) return rec;
    }
    return NULL;
}

/* loaded / idle of one metric and size: both figures, the ratio with its interval (from the
 * two intervals' far ends), and a verdict only when the two are apart beyond their noise. */
static json_t *hb_comm_bg_ratio(const json_t *idle, const json_t *loaded, double bytes,
                                const char *more, const char *less)
{
    struct hb_interval a, b;
    bool ia = idle && hb_rec_interval(idle, &a), ib = loaded && hb_rec_interval(loaded, &b);
    if (!idle || !loaded) return json_null();
    enum hb_separation sep = hb_rec_separation(idle, loaded);
    double ratio = a.value > 0.0 ? b.value / a.value : NAN;
    bool ci = ia && ib && a.n >= 2 && b.n >= 2 && a.lo > 0.0;
    const char *verdict = sep != HB_SEPARATE ? NULL : b.value > a.value ? more : less;
    return json_pack(
        "{s:I, s:s, s:o, s:o, s:o, s:o, s:s, s:o}", "message_bytes", (json_int_t)bytes, "unit",
        hb_rec_str(idle, "unit", ""), "idle", hb_rec_figure(idle), "loaded", hb_rec_figure(loaded),
        "ratio", isfinite(ratio) ? json_real(hb_round_figure(ratio, 3)) : json_null(), "ratio_ci95",
        ci ? json_pack("[f, f]", b.lo / a.hi, b.hi / a.lo) : json_null(), "separation",
        hb_separation_name(sep), "verdict", verdict ? json_string(verdict) : json_null());
}

/* The comm_bg record of the rank pair of loaded latency record `lat`. */
static json_t *hb_comm_bg_pair(const json_t *measured, const json_t *lat, double least, double most)
{
    const json_t *bw = hb_comm_find(measured, lat, "bandwidth", most, true);
    json_t *rec = json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:O?, s:O?, s:O?, s:O?, s:O?, s:s, s:O?, s:O?, s:O?}", "type",
        "comm_bg", "suite", "comm", "host", hb_rec_str(lat, "src_host", ""), "src_host",
        hb_rec_str(lat, "src_host", ""), "dst_host", hb_rec_str(lat, "dst_host", ""), "src_rank",
        json_object_get(lat, "src_rank"), "dst_rank", json_object_get(lat, "dst_rank"), "src_node",
        json_object_get(lat, "src_node"), "dst_node", json_object_get(lat, "dst_node"), "hops",
        json_object_get(lat, "hops"), "bg_level", hb_rec_str(lat, "bg_level", ""), "bg_nodes",
        json_object_get(lat, "bg_nodes"), "bg_threads", json_object_get(lat, "bg_threads"),
        "bg_GBps", json_object_get(lat, "bg_GBps"));
    if (!rec) return NULL;
    const json_t *idle_lat = hb_comm_find(measured, lat, "latency", least, false);
    const json_t *idle_bw = hb_comm_find(measured, lat, "bandwidth", most, false);
    json_object_set_new(
        rec, "latency",
        hb_comm_bg_ratio(idle_lat, lat, least, "slower under load", "faster under load"));
    json_object_set_new(
        rec, "bandwidth",
        hb_comm_bg_ratio(idle_bw, bw, most, "higher under load", "lower under load"));
    return rec;
}

int hb_comm_bg_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived)
{
    (void)env;
    double least = INFINITY, most = 0;
    size_t i;
    json_t *rec;
    json_array_foreach(measured, i, rec)
    {
        double b = hb_rec_num(rec, "message_bytes", NAN);
        if (!hb_comm_is_loaded(rec) || !isfinite(b)) continue;
        least = fmin(least, b);
        most = fmax(most, b);
    }
    /* One per rank pair: its loaded latency record at the smallest size stands for it. */
    json_array_foreach(measured, i, rec)
    {
        if (!hb_comm_is_loaded(rec) || strcmp(hb_rec_str(rec, "metric", ""), "latency") != 0 ||
            hb_rec_num(rec, "message_bytes", -1) != least)
            continue;
        json_t *pair = hb_comm_bg_pair(measured, rec, least, most);
        if (!pair || json_array_append_new(derived, pair)) return -ENOMEM;
    }
    return 0;
}
