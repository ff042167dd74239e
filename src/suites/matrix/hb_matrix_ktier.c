/* A measured matrix beside the kernel's memory tiers (hb_matrix_ktier.h). */
#include "hb_matrix_ktier.h"

#include "hb_family_rec.h"
#include "hb_figure_text.h"
#include "hb_jsonl_read.h"
#include "hb_units.h"

#include <math.h>
#include <stdio.h>

/* Node index j is tiered by the kernel and measured from some CPU node. */
static bool ktier_known(const struct hb_topo *t, const double *v, int j)
{
    if (t->nodes[j].kernel_tier < 0) return false;
    for (int i = 0; i < t->nnodes; i++)
        if (!isnan(HB_AT(v, t, i, j))) return true;
    return false;
}

/* From CPU node i: fast sits in a faster kernel tier than slow. When fast measures costlier
 * than slow by more than thr, a candidate of the tiers' family: a flag when the intervals are
 * apart (and the family allows) or the noise unknown, else inconclusive. */
static void ktier_pair(const struct hb_topo *t, bool latency, int i, int fast, int slow,
                       const double *v, json_t *const *rec, double thr, struct hb_family_rec *fam)
{
    double mf = HB_AT(v, t, i, fast), ms = HB_AT(v, t, i, slow);
    if (isnan(mf) || isnan(ms) || mf <= 0 || ms <= 0) return;
    double excess = latency ? mf / ms : ms / mf; /* > 1: the faster tier measures costlier */
    if (excess <= 1.0 + thr) return;
    const json_t *a = HB_AT(rec, t, i, fast), *b = HB_AT(rec, t, i, slow);
    enum hb_separation sep = hb_jsonl_read_separation(a, b);
    int ci = t->nodes[i].os_index, cf = t->nodes[fast].os_index, cs = t->nodes[slow].os_index;
    int tf = t->nodes[fast].kernel_tier, ts = t->nodes[slow].kernel_tier;
    /* the measured figures as their rows print them (hb_figure_text.h) */
    const char *unit = hb_units_shown(latency ? "ns" : "GBps");
    char why[320], f1[HB_FIGURE_LEN], f2[HB_FIGURE_LEN];
    snprintf(why, sizeof(why),
             "from node %d the kernel puts node %d in a faster tier than node %d (memory_tier%d "
             "vs memory_tier%d), measured the other way (%s vs %s %s, %.1f%% beyond the "
             "threshold)",
             ci, cf, cs, tf, ts, hb_figure_text(mf, f1, sizeof(f1)),
             hb_figure_text(ms, f2, sizeof(f2)), unit, (excess - 1.0 - thr) * 100.0);
    json_t *e =
        json_pack("{s:i, s:i, s:i, s:i, s:i, s:s, s:s, s:o, s:o}", "cpu_node", ci, "mem_node", cf,
                  "other_mem_node", cs, "kernel_tier", tf, "other_kernel_tier", ts, "reason", why,
                  "evidence", hb_jsonl_read_separation_name(sep), "figure", hb_jsonl_read_figure(a),
                  "other_figure", hb_jsonl_read_figure(b));
    hb_family_rec_add(fam, e, sep == HB_NO_INTERVAL ? NAN : hb_family_rec_p(a, b, 1.0),
                      sep != HB_OVERLAP);
    json_decref(e);
}

json_t *hb_matrix_ktier(const struct hb_topo *t, bool latency, const double *v, json_t *const *rec,
                        double threshold_pct)
{
    json_t *tiers = json_array();
    int first = -1;
    bool differ = false;
    for (int j = 0; j < t->nnodes; j++) {
        if (!ktier_known(t, v, j)) continue;
        json_array_append_new(tiers, json_pack("{s:i, s:i}", "node", t->nodes[j].os_index,
                                               "kernel_tier", t->nodes[j].kernel_tier));
        if (first < 0) first = t->nodes[j].kernel_tier;
        differ |= t->nodes[j].kernel_tier != first;
    }
    if (!differ) {
        json_decref(tiers);
        return NULL;
    }
    struct hb_family_rec fam = {0};
    for (int i = 0; i < t->nnodes; i++)
        for (int j = 0; j < t->nnodes; j++)
            for (int k = 0; k < t->nnodes; k++)
                if (ktier_known(t, v, j) && ktier_known(t, v, k) &&
                    t->nodes[j].kernel_tier < t->nodes[k].kernel_tier)
                    ktier_pair(t, latency, i, j, k, v, rec, threshold_pct / 100.0, &fam);
    hb_family_rec_decide(&fam);
    json_t *flags[2] = {json_array(), json_array()};
    hb_family_rec_split(&fam, flags, "evidence", "inconclusive");
    json_t *out =
        json_pack("{s:o, s:o, s:o, s:o, s:f}", "tiers", tiers, "flags", flags[0], "inconclusive",
                  flags[1], "family", hb_family_rec_json(&fam), "threshold_pct", threshold_pct);
    hb_family_rec_free(&fam);
    return out;
}
