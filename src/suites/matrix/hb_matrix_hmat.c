/* A measured matrix beside the firmware's HMAT (hb_matrix_hmat.h): coverage, ratios, flags. */
#include "hb_matrix_hmat.h"

#include "hb_family_rec.h"
#include "hb_figure_text.h"
#include "hb_interval.h"
#include "hb_jsonl_read.h"
#include "hb_units.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* Which firmware attribute a measurement answers, most specific first (-1 ends a list). */
static const struct {
    bool latency;
    const char *access; /* NULL: any */
    int attrs[3];
} hmat_map[] = {
    {true, NULL, {HB_HMAT_READ_LATENCY, HB_HMAT_LATENCY, -1}}, /* chase: dependent reads */
    {false, "r", {HB_HMAT_READ_BANDWIDTH, HB_HMAT_BANDWIDTH, -1}},
    {false, "w", {HB_HMAT_WRITE_BANDWIDTH, HB_HMAT_BANDWIDTH, -1}},
    {false, "rw", {HB_HMAT_BANDWIDTH, -1, -1}}, /* copy, triad: reads and writes */
};

/* Firmware figure in the measured unit: ns, or MB/s -> GB/s. */
static double hmat_in_unit(const struct hb_topo *t, enum hb_hmat_attr a, int i, int j)
{
    double x = hb_topo_mem_hmat_value(t, a, i, j);
    return hb_topo_mem_hmat_attr_is_latency(a) ? x : x / 1000.0;
}

/* Fill hmat[][] from attribute a over the measured cells; how many cells it covers. */
static int hmat_fill(const struct hb_topo *t, enum hb_hmat_attr a, const double *v, double *hmat)
{
    int covered = 0;
    for (int i = 0; i < t->nnodes; i++)
        for (int j = 0; j < t->nnodes; j++) {
            HB_AT(hmat, t, i, j) = isnan(HB_AT(v, t, i, j)) ? NAN : hmat_in_unit(t, a, i, j);
            covered += !isnan(HB_AT(hmat, t, i, j));
        }
    return covered;
}

static json_t *grid_json(const struct hb_topo *t, const double *m)
{
    json_t *rows = json_array();
    for (int i = 0; i < t->nnodes; i++) {
        if (!t->nodes[i].has_cpus) continue;
        json_t *row = json_array();
        for (int j = 0; j < t->nnodes; j++)
            if (t->nodes[j].has_memory)
                /* Unrounded: the table and the report round a figure once. */
                json_array_append_new(row, isnan(HB_AT(m, t, i, j)) ? json_null()
                                                                    : json_real(HB_AT(m, t, i, j)));
        json_array_append_new(rows, row);
    }
    return rows;
}

/* Whether a disagreement between the firmware and cells (i, j), (i, k) is beyond the noise:
 * an order needs the two cells' intervals apart; a ratio needs the firmware's ratio outside
 * the range the two intervals allow. Unknown noise (one repeat) counts as beyond, *p then NAN;
 * else *p is the rank test's: the two cells (order), or cell j over the firmware's ratio
 * against cell k (ratio). */
static bool hmat_clear(const struct hb_topo *t, json_t *const *rec, int i, int j, int k, bool order,
                       double firmware_ratio, double *p)
{
    const json_t *a = HB_AT(rec, t, i, j), *b = HB_AT(rec, t, i, k);
    enum hb_separation sep = hb_jsonl_read_separation(a, b);
    *p = NAN;
    if (sep == HB_NO_INTERVAL) return true;
    *p = hb_family_rec_p(a, b, order ? 1.0 : firmware_ratio);
    if (order) return sep == HB_SEPARATE;
    struct hb_interval x, y;
    hb_jsonl_read_interval(a, &x);
    hb_jsonl_read_interval(b, &y);
    return y.lo > 0 && y.hi > 0 && (firmware_ratio < x.lo / y.hi || firmware_ratio > x.hi / y.lo);
}

/* From initiator i, targets j and k: the firmware's order and ratio against the measured,
 * a candidate of the HMAT's family when they disagree beyond the threshold. */
static void hmat_pair(const struct hb_topo *t, bool latency, int i, int j, int k, const double *v,
                      json_t *const *rec, const double *h, double thr, const char *unit,
                      struct hb_family_rec *fam)
{
    double hj = HB_AT(h, t, i, j), hk = HB_AT(h, t, i, k), mj = HB_AT(v, t, i, j),
           mk = HB_AT(v, t, i, k);
    if (isnan(hj) || isnan(hk) || isnan(mj) || isnan(mk) || hj <= 0 || hk <= 0 || mj <= 0 ||
        mk <= 0)
        return;
    int ci = t->nodes[i].os_index, cj = t->nodes[j].os_index, ck = t->nodes[k].os_index;
    char why[320];
    const char *kind = NULL;
    if (hj != hk) {
        /* the target the firmware calls nearer must not measure costlier beyond the threshold */
        bool j_near = latency ? hj < hk : hj > hk;
        double near_m = j_near ? mj : mk, far_m = j_near ? mk : mj;
        double excess = latency ? near_m / far_m : far_m / near_m;
        if (excess > 1.0 + thr) {
            kind = "order";
            /* the measured figures as their rows print them (hb_figure_text.h) */
            char a[HB_FIGURE_LEN], b[HB_FIGURE_LEN], c[HB_FIGURE_LEN], d[HB_FIGURE_LEN];
            snprintf(why, sizeof(why),
                     "from node %d the firmware puts node %d nearer than node %d (%s vs %s %s), "
                     "measured the other way (%s vs %s %s, %.1f%% beyond the threshold)",
                     ci, j_near ? cj : ck, j_near ? ck : cj,
                     hb_figure_text(j_near ? hj : hk, a, sizeof(a)),
                     hb_figure_text(j_near ? hk : hj, b, sizeof(b)), hb_units_shown(unit),
                     hb_figure_text(near_m, c, sizeof(c)), hb_figure_text(far_m, d, sizeof(d)),
                     hb_units_shown(unit), (excess - 1.0 - thr) * 100.0);
        }
    }
    if (!kind) {
        double rh = hj / hk, rm = mj / mk, off = fabs(rm / rh - 1.0);
        if (off > thr) {
            kind = "ratio";
            snprintf(why, sizeof(why),
                     "from node %d node %d / node %d: firmware %.3g, measured %.3g (differs "
                     "%.1f%%, threshold %g%%)",
                     ci, cj, ck, rh, rm, off * 100.0, thr * 100.0);
        }
    }
    if (!kind) return;
    double p;
    bool clear = hmat_clear(t, rec, i, j, k, strcmp(kind, "order") == 0, hj / hk, &p);
    json_t *e = json_pack("{s:i, s:i, s:i, s:s, s:s, s:s, s:o, s:o}", "cpu_node", ci, "mem_node",
                          cj, "other_mem_node", ck, "kind", kind, "reason", why, "evidence",
                          clear ? "beyond the noise or noise unknown" : "inconclusive", "figure",
                          hb_jsonl_read_figure(HB_AT(rec, t, i, j)), "other_figure",
                          hb_jsonl_read_figure(HB_AT(rec, t, i, k)));
    hb_family_rec_add(fam, e, p, clear);
    json_decref(e);
}

json_t *hb_matrix_hmat(const struct hb_topo *t, bool latency, const char *access, const double *v,
                       json_t *const *rec, double threshold_pct, double *hmat,
                       enum hb_hmat_attr *attr)
{
    int chosen = -1;
    for (size_t m = 0; m < sizeof(hmat_map) / sizeof(hmat_map[0]) && chosen < 0; m++) {
        if (hmat_map[m].latency != latency) continue;
        if (hmat_map[m].access && (!access || strcmp(hmat_map[m].access, access) != 0)) continue;
        for (int k = 0; k < 3 && hmat_map[m].attrs[k] >= 0 && chosen < 0; k++)
            if (hmat_fill(t, (enum hb_hmat_attr)hmat_map[m].attrs[k], v, hmat) > 0)
                chosen = hmat_map[m].attrs[k];
    }
    if (chosen < 0) {
        for (int i = 0; i < t->nnodes; i++)
            for (int j = 0; j < t->nnodes; j++)
                HB_AT(hmat, t, i, j) = NAN;
        return NULL;
    }
    *attr = (enum hb_hmat_attr)chosen;
    const char *unit = latency ? "ns" : "GBps";
    double *ratio = malloc(sizeof(*ratio) * (size_t)t->nnodes * (size_t)t->nnodes);
    if (!ratio) return NULL;
    for (int i = 0; i < t->nnodes; i++)
        for (int j = 0; j < t->nnodes; j++)
            HB_AT(ratio, t, i, j) = isnan(HB_AT(hmat, t, i, j)) || HB_AT(hmat, t, i, j) <= 0
                                        ? NAN
                                        : HB_AT(v, t, i, j) / HB_AT(hmat, t, i, j);
    struct hb_family_rec fam = {0};
    for (int i = 0; i < t->nnodes; i++)
        for (int j = 0; j < t->nnodes; j++)
            for (int k = j + 1; k < t->nnodes; k++)
                hmat_pair(t, latency, i, j, k, v, rec, hmat, threshold_pct / 100.0, unit, &fam);
    hb_family_rec_decide(&fam);
    json_t *flags[2] = {json_array(), json_array()};
    hb_family_rec_split(&fam, flags, "evidence", "inconclusive");
    json_t *out =
        json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:f}", "attribute",
                  hb_topo_mem_hmat_attr_name(*attr), "unit", unit, "values", grid_json(t, hmat),
                  "ratio", grid_json(t, ratio), "flags", flags[0], "inconclusive", flags[1],
                  "family", hb_family_rec_json(&fam), "threshold_pct", threshold_pct);
    hb_family_rec_free(&fam);
    free(ratio);
    return out;
}
