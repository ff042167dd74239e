/* coll's derived records: for each operation, size and load, the best and the worst placement
 * (communicator class and root) by the p50 latency, their ratio with its interval, and a
 * verdict only where the two are apart beyond the noise: the intervals apart and the rank
 * test of the two figures' repeats passing the adjustment over every such verdict of the run
 * (the family, hb_family_rec.h; docs/verdicts.md). */
#include "hb_suite_coll.h"

#include "hb_family_rec.h"
#include "hb_interval.h"
#include "hb_jsonl_read.h"
#include "hb_suite_comm.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static bool coll_is_ok(const json_t *rec)
{
    return strcmp(hb_jsonl_read_str(rec, "type", ""), "measurement") == 0 &&
           strcmp(hb_jsonl_read_str(rec, "suite", ""), "coll") == 0 &&
           strcmp(hb_jsonl_read_str(rec, "status", ""), "ok") == 0 &&
           isfinite(hb_jsonl_read_num(rec, "value", NAN));
}

/* Whether a and b time the same operation, size and load (the placements compared). */
static bool coll_same_case(const json_t *a, const json_t *b)
{
    return strcmp(hb_jsonl_read_str(a, "op", ""), hb_jsonl_read_str(b, "op", "")) == 0 &&
           hb_jsonl_read_num(a, "message_bytes", -1) == hb_jsonl_read_num(b, "message_bytes", -2) &&
           strcmp(hb_jsonl_read_str(a, "bg_level", "idle"),
                  hb_jsonl_read_str(b, "bg_level", "idle")) == 0;
}

/* A placement as the derived record names it: class, root, ranks, nodes, buffers, figure. */
static json_t *coll_placement(const json_t *rec)
{
    struct hb_interval iv;
    if (!hb_jsonl_read_interval(rec, &iv) || iv.n < 2) iv.lo = iv.hi = NAN;
    return json_pack(
        "{s:s, s:O?, s:O?, s:O?, s:O?, s:s, s:O?, s:o}", "coll_class",
        hb_jsonl_read_str(rec, "coll_class", ""), "span_hops", json_object_get(rec, "span_hops"),
        "root_node", json_object_get(rec, "root_node"), "ranks", json_object_get(rec, "ranks"),
        "nodes", json_object_get(rec, "nodes"), "buffers", hb_jsonl_read_str(rec, "buffers", ""),
        "coll_component", json_object_get(rec, "coll_component"), "p50_us",
        hb_comm_pool_figure_json(&iv));
}

/* The record of one case: the best and worst of its placements (first: the case's first). */
static json_t *coll_case(const json_t *measured, size_t first, struct hb_family_rec *fam)
{
    const json_t *lead = json_array_get(measured, first), *best = NULL, *worst = NULL, *rec;
    int n = 0;
    size_t i;
    json_array_foreach(measured, i, rec)
    {
        if (i < first || !coll_is_ok(rec) || !coll_same_case(rec, lead)) continue;
        n++;
        double v = hb_jsonl_read_num(rec, "value", NAN);
        if (!best || v < hb_jsonl_read_num(best, "value", NAN)) best = rec;
        if (!worst || v > hb_jsonl_read_num(worst, "value", NAN)) worst = rec;
    }
    if (n < 2) return json_null();
    struct hb_interval a, b;
    bool ia = hb_jsonl_read_interval(best, &a), ib = hb_jsonl_read_interval(worst, &b);
    enum hb_separation sep = hb_jsonl_read_separation(best, worst);
    double ratio = a.value > 0.0 ? b.value / a.value : NAN;
    bool ci = ia && ib && a.n >= 2 && b.n >= 2 && a.lo > 0.0;
    json_t *out = json_pack(
        "{s:s, s:s, s:s, s:s, s:O?, s:s, s:i, s:o, s:o, s:o, s:o, s:s, s:o}", "type",
        "coll_placement", "suite", "coll", "host", hb_jsonl_read_str(lead, "host", ""), "op",
        hb_jsonl_read_str(lead, "op", ""), "message_bytes", json_object_get(lead, "message_bytes"),
        "bg_level", hb_jsonl_read_str(lead, "bg_level", "idle"), "placements", n, "best",
        coll_placement(best), "worst", coll_placement(worst), "ratio",
        isfinite(ratio) ? json_real(ratio) : json_null(), "ratio_ci95",
        ci ? json_pack("[f, f]", b.lo / a.hi, b.hi / a.lo) : json_null(), "separation",
        hb_jsonl_read_separation_name(sep), "verdict",
        sep == HB_SEPARATE ? json_string("placement matters: the worst is slower") : json_null());
    if (out)
        hb_family_rec_add(fam, out, sep == HB_NO_INTERVAL ? NAN : hb_family_rec_p(worst, best, 1.0),
                          sep == HB_SEPARATE);
    return out;
}

int hb_coll_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived)
{
    (void)env;
    struct hb_family_rec fam = {0};
    size_t first = json_array_size(derived), i, k;
    json_t *rec, *seen;
    int rc = 0;
    json_array_foreach(measured, i, rec)
    {
        if (!coll_is_ok(rec)) continue;
        /* The case's first record stands for it. */
        bool done = false;
        json_array_foreach(measured, k, seen) if (k < i && coll_is_ok(seen)) done =
            done || coll_same_case(seen, rec);
        if (done) continue;
        json_t *c = coll_case(measured, i, &fam);
        if (!c || (json_is_object(c) && json_array_append_new(derived, c))) {
            rc = -ENOMEM;
            break;
        }
        if (json_is_null(c)) json_decref(c);
    }
    /* The family: every placement verdict of the run. */
    if (rc == 0) rc = hb_family_rec_decide(&fam);
    hb_family_rec_demote(&fam, "separation", "inconclusive", "verdict");
    for (size_t d = first; rc == 0 && d < json_array_size(derived); d++)
        json_object_set_new(json_array_get(derived, d), "family", hb_family_rec_json(&fam));
    hb_family_rec_free(&fam);
    return rc;
}
