/* comm --bg's derived records: per pair of ranks, what the load did to the latency at the
 * smallest message and to the bandwidth at the largest, loaded against idle, beyond the noise
 * or not: the intervals apart and the rank test of the two figures' repeats passing the
 * adjustment over every loaded/idle verdict of the run (the family, hb_family_rec.h). */
#include "hb_comm_bg.h"

#include "hb_family_rec.h"
#include "hb_interval.h"
#include "hb_jsonl_read.h"
#include "hb_suite_comm.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static bool comm_is_loaded(const json_t *rec)
{
    const char *level = hb_jsonl_read_str(rec, "bg_level", "idle");
    return strcmp(hb_jsonl_read_str(rec, "type", ""), "measurement") == 0 &&
           strcmp(hb_jsonl_read_str(rec, "suite", ""), "comm") == 0 && strcmp(level, "idle") != 0;
}

/* The record of `like`'s rank pair with this metric, size and load (loaded: not idle). */
static const json_t *comm_find(const json_t *measured, const json_t *like, const char *metric,
                               double bytes, bool loaded)
{
    static const char *const same[] = {"src_rank", "dst_rank"};
    size_t i;
    json_t *rec;
    json_array_foreach(measured, i, rec)
    {
        bool match = strcmp(hb_jsonl_read_str(rec, "suite", ""), "comm") == 0 &&
                     comm_is_loaded(rec) == loaded &&
                     strcmp(hb_jsonl_read_str(rec, "metric", ""), metric) == 0 &&
                     hb_jsonl_read_num(rec, "message_bytes", -1) == bytes &&
                     strcmp(hb_jsonl_read_str(rec, "src_host", ""),
                            hb_jsonl_read_str(like, "src_host", "")) == 0 &&
                     strcmp(hb_jsonl_read_str(rec, "dst_host", ""),
                            hb_jsonl_read_str(like, "dst_host", "")) == 0;
        for (int k = 0; k < 2 && match; k++)
            match = hb_jsonl_read_num(rec, same[k], -1) == hb_jsonl_read_num(like, same[k], -2);
        if (match) return rec;
    }
    return NULL;
}

/* A record's headline figure with its interval, its coverage and its repeats. */
static json_t *comm_bg_figure(const json_t *rec)
{
    struct hb_interval iv;
    if (!hb_jsonl_read_interval(rec, &iv) || iv.n < 2) iv.lo = iv.hi = NAN;
    return hb_comm_pool_figure_json(&iv);
}

/* loaded / idle of one metric and size: both figures, the ratio with its interval (from the
 * two intervals' far ends), and a verdict where the two are apart beyond their noise; a
 * candidate of the family fam (its verdict withdrawn later if the family's adjustment says so,
 * hb_comm_bg_derive). */
static json_t *comm_bg_ratio(const json_t *idle, const json_t *loaded, double bytes,
                             const char *more, const char *less, struct hb_family_rec *fam)
{
    struct hb_interval a, b;
    bool ia = idle && hb_jsonl_read_interval(idle, &a),
         ib = loaded && hb_jsonl_read_interval(loaded, &b);
    if (!idle || !loaded) return json_null();
    enum hb_separation sep = hb_jsonl_read_separation(idle, loaded);
    double ratio = a.value > 0.0 ? b.value / a.value : NAN;
    bool ci = ia && ib && a.n >= 2 && b.n >= 2 && a.lo > 0.0;
    const char *verdict = sep != HB_SEPARATE ? NULL : b.value > a.value ? more : less;
    json_t *m = json_pack("{s:I, s:s, s:o, s:o, s:o, s:o, s:s, s:o}", "message_bytes",
                          (json_int_t)bytes, "unit", hb_jsonl_read_str(idle, "unit", ""), "idle",
                          comm_bg_figure(idle), "loaded", comm_bg_figure(loaded), "ratio",
                          isfinite(ratio) ? json_real(ratio) : json_null(), "ratio_ci95",
                          ci ? json_pack("[f, f]", b.lo / a.hi, b.hi / a.lo) : json_null(),
                          "separation", hb_jsonl_read_separation_name(sep), "verdict",
                          verdict ? json_string(verdict) : json_null());
    if (m)
        hb_family_rec_add(fam, m, sep == HB_NO_INTERVAL ? NAN : hb_family_rec_p(loaded, idle, 1.0),
                          sep == HB_SEPARATE);
    return m;
}

/* The comm_bg record of the rank pair of loaded latency record `lat`. */
static json_t *comm_bg_pair(const json_t *measured, const json_t *lat, double least, double most,
                            struct hb_family_rec *fam)
{
    const json_t *bw = comm_find(measured, lat, "bandwidth", most, true);
    json_t *rec = json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:O?, s:O?, s:O?, s:O?, s:O?, s:s, s:O?, s:O?, s:O?}", "type",
        "comm_bg", "suite", "comm", "host", hb_jsonl_read_str(lat, "src_host", ""), "src_host",
        hb_jsonl_read_str(lat, "src_host", ""), "dst_host", hb_jsonl_read_str(lat, "dst_host", ""),
        "src_rank", json_object_get(lat, "src_rank"), "dst_rank", json_object_get(lat, "dst_rank"),
        "src_node", json_object_get(lat, "src_node"), "dst_node", json_object_get(lat, "dst_node"),
        "hops", json_object_get(lat, "hops"), "bg_level", hb_jsonl_read_str(lat, "bg_level", ""),
        "bg_nodes", json_object_get(lat, "bg_nodes"), "bg_threads",
        json_object_get(lat, "bg_threads"), "bg_GBps", json_object_get(lat, "bg_GBps"));
    if (!rec) return NULL;
    const json_t *idle_lat = comm_find(measured, lat, "latency", least, false);
    const json_t *idle_bw = comm_find(measured, lat, "bandwidth", most, false);
    json_object_set_new(
        rec, "latency",
        comm_bg_ratio(idle_lat, lat, least, "slower under load", "faster under load", fam));
    json_object_set_new(
        rec, "bandwidth",
        comm_bg_ratio(idle_bw, bw, most, "higher under load", "lower under load", fam));
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
        double b = hb_jsonl_read_num(rec, "message_bytes", NAN);
        if (!comm_is_loaded(rec) || !isfinite(b)) continue;
        least = fmin(least, b);
        most = fmax(most, b);
    }
    /* One per rank pair: its loaded latency record at the smallest size stands for it. */
    struct hb_family_rec fam = {0};
    size_t first = json_array_size(derived);
    int rc = 0;
    json_array_foreach(measured, i, rec)
    {
        if (!comm_is_loaded(rec) || strcmp(hb_jsonl_read_str(rec, "metric", ""), "latency") != 0 ||
            hb_jsonl_read_num(rec, "message_bytes", -1) != least)
            continue;
        json_t *pair = comm_bg_pair(measured, rec, least, most, &fam);
        if (!pair || json_array_append_new(derived, pair)) {
            rc = -ENOMEM;
            break;
        }
    }
    /* The family: every loaded/idle verdict of the run. */
    if (rc == 0) rc = hb_family_rec_decide(&fam);
    hb_family_rec_demote(&fam, "separation", "inconclusive", "verdict");
    for (size_t k = first; rc == 0 && k < json_array_size(derived); k++)
        json_object_set_new(json_array_get(derived, k), "family", hb_family_rec_json(&fam));
    hb_family_rec_free(&fam);
    return rc;
}
