/* What the hops runs mean: every foreground figure against the local read 0.0.r.0's, from the
 * figures shown (`ratio_to_reference`: value / the reference's value; `pct_of_local_read`:
 * the time per byte in percent of the reference's, lower is faster), pair totals, and the verdicts
 * on the two hop myths. Also used for `run` scenarios, whose records carry the same keys. A verdict
 * busts a myth only beyond the noise: the two figures' intervals apart and the rank test over their
 * repeats passing the adjustment over its family (every myth-1 verdict of the run; every inversion
 * of one myth-2 verdict: hb_family_rec.h). */
#include "hb_family_rec.h"
#include "hb_interval.h"
#include "hb_jsonl_read.h"
#include "hb_suite_hops.h"
#include "hb_units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_fg_ok(const json_t *rec)
{
    return strcmp(hb_jsonl_read_str(rec, "type", ""), "measurement") == 0 &&
           strcmp(hb_jsonl_read_str(rec, "role", ""), "foreground") == 0 &&
           strcmp(hb_jsonl_read_str(rec, "status", ""), "ok") == 0 &&
           json_is_number(json_object_get(rec, "t_median_s"));
}

/* The local read with no load (40555's 0.0.r.0): the first such record measured. */
bool hb_hops_derive_refers(const json_t *rec)
{
    json_t *mem = json_object_get(rec, "mem_node");
    return is_fg_ok(rec) && strcmp(hb_jsonl_read_str(rec, "access", ""), "r") == 0 &&
           json_is_integer(mem) &&
           json_integer_value(mem) == json_integer_value(json_object_get(rec, "cpu_node")) &&
           json_array_size(json_object_get(rec, "background")) == 0;
}

void hb_hops_derive_annotate(const struct hb_suite_env *env, const json_t *measured, json_t *rec)
{
    (void)env;
    if (!is_fg_ok(rec)) return;
    /* The first reference: the loop stops there, so a fleet's records are not read again for
     * each new one. */
    const json_t *ref = NULL;
    for (size_t i = 0; !ref && i < json_array_size(measured); i++)
        if (hb_hops_derive_refers(json_array_get(measured, i))) ref = json_array_get(measured, i);
    if (!ref && hb_hops_derive_refers(rec)) ref = rec;
    if (!ref) return;
    /* From the figures shown: the record's value against the reference's, in one unit. */
    const char *unit = hb_jsonl_read_str(rec, "unit", "");
    double value = hb_jsonl_read_num(rec, "value", NAN),
           ref_value = hb_jsonl_read_num(ref, "value", NAN);
    if (strcmp(unit, hb_jsonl_read_str(ref, "unit", "")) != 0 || !(value > 0) || !(ref_value > 0))
        return;
    double ratio = value / ref_value;
    json_object_set_new(rec, "reference_label", json_string(hb_jsonl_read_str(ref, "label", "")));
    json_object_set_new(rec, "reference_value", json_real(ref_value));
    json_object_set_new(rec, "ratio_to_reference", json_real(ratio));
    /* The time per byte against the reference's, in percent (lower is faster): 40555's
     * figure, which the verdicts compare. */
    bool higher_better = hb_units_higher_better(unit);
    double pct = 100.0 * (higher_better ? 1.0 / ratio : ratio);
    json_object_set_new(rec, "pct_of_local_read", json_real(round(pct * 10.0) / 10.0));
    /* Their intervals, from the record's own over its repeats; the reference is common to
     * every record it is compared with. */
    struct hb_interval iv;
    bool known = hb_jsonl_read_interval(rec, &iv) && iv.n >= 2 && iv.lo > 0;
    json_object_set_new(rec, "ratio_to_reference_ci95",
                        known ? json_pack("[f, f]", iv.lo / ref_value, iv.hi / ref_value)
                              : json_null());
    json_object_set_new(
        rec, "pct_of_local_read_ci95",
        !known ? json_null()
        : higher_better
            ? json_pack("[f, f]", 100.0 * ref_value / iv.hi, 100.0 * ref_value / iv.lo)
            : json_pack("[f, f]", 100.0 * iv.lo / ref_value, 100.0 * iv.hi / ref_value));
}

/* Two records' % of local read differ beyond their noise: their intervals are apart, or
 * unknown (one repeat, an old file: the figures are taken as they are). */
static bool pct_clear(const json_t *a, const json_t *b)
{
    const json_t *x = json_object_get(a, "pct_of_local_read_ci95");
    const json_t *y = json_object_get(b, "pct_of_local_read_ci95");
    if (!json_is_array(x) || !json_is_array(y)) return true;
    double xl = json_number_value(json_array_get(x, 0)),
           xh = json_number_value(json_array_get(x, 1));
    double yl = json_number_value(json_array_get(y, 0)),
           yh = json_number_value(json_array_get(y, 1));
    return xh < yl || yh < xl;
}

/* The p that two records' % of local read per repeat (each repeat value scaled as the
 * record's interval is) come from one distribution: NAN when either has fewer than two. */
static double pct_p(const json_t *a, const json_t *b)
{
    const json_t *r[2] = {a, b};
    double *v[2];
    int n[2];
    for (int k = 0; k < 2; k++) {
        v[k] = hb_family_rec_values(r[k], &n[k]);
        double pct = json_number_value(json_object_get(r[k], "pct_of_local_read"));
        double value = hb_jsonl_read_num(r[k], "value", NAN);
        bool higher_better = hb_units_higher_better(hb_jsonl_read_str(r[k], "unit", ""));
        for (int i = 0; i < n[k]; i++)
            v[k][i] = higher_better ? pct * value / v[k][i] : pct * v[k][i] / value;
    }
    double p = hb_family_rec_p_of(v[0], n[0], v[1], n[1]);
    free(v[0]);
    free(v[1]);
    return p;
}

/* A comparison of the two records as a candidate of fam, beyond the threshold already:
 * apart when their intervals are (or the noise unknown), p from their repeats. */
static void pct_candidate(struct hb_family_rec *fam, json_t *entry, const json_t *a,
                          const json_t *b)
{
    bool known = json_is_array(json_object_get(a, "pct_of_local_read_ci95")) &&
                 json_is_array(json_object_get(b, "pct_of_local_read_ci95"));
    hb_family_rec_add(fam, entry, known ? pct_p(a, b) : NAN, pct_clear(a, b));
}

/* The verdict's word: holds, does not hold, or inconclusive (a difference within the noise),
 * with holds as JSON (null when inconclusive). */
static void verdict_set(json_t *v, bool holds, bool clear)
{
    json_object_set_new(v, "verdict",
                        json_string(holds   ? "holds"
                                    : clear ? "does not hold"
                                            : "inconclusive"));
    json_object_set_new(v, "holds", holds || clear ? json_boolean(holds) : json_null());
}

/* A record's % of local read with its interval, as verdicts show their evidence. */
static json_t *pct_figure(const json_t *rec)
{
    json_t *ci = json_object_get(rec, "pct_of_local_read_ci95");
    return json_pack("{s:s, s:f, s:O}", "label", hb_jsonl_read_str(rec, "label", ""),
                     "pct_of_local_read",
                     json_number_value(json_object_get(rec, "pct_of_local_read")), "ci95",
                     ci ? ci : json_null());
}

static double pct_of(const json_t *rec)
{
    json_t *v = json_object_get(rec, "pct_of_local_read");
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static int hops_of(const json_t *rec)
{
    json_t *v = json_object_get(rec, "hops");
    return json_is_integer(v) ? (int)json_integer_value(v) : -1;
}

/* Each pair experiment: both threads' times and the pair's total (sum) and span (max). */
static void hops_pairs(json_t *measured, json_t *derived)
{
    size_t i, j;
    json_t *a, *b;
    json_array_foreach(measured, i, a)
    {
        const char *c = hb_jsonl_read_str(a, "case", "");
        if (!is_fg_ok(a) ||
            (strcmp(c, "pair") && strcmp(c, "crossfire") && strcmp(c, "no-crossfire")))
            continue;
        json_array_foreach(measured, j, b)
        {
            if (j <= i || !is_fg_ok(b) ||
                strcmp(hb_jsonl_read_str(a, "experiment", ""),
                       hb_jsonl_read_str(b, "experiment", "")))
                continue;
            double ta = json_number_value(json_object_get(a, "t_median_s"));
            double tb = json_number_value(json_object_get(b, "t_median_s"));
            json_t *rec = json_pack(
                "{s:s, s:s, s:s, s:s, s:s, s:s, s:O?, s:[s,s], s:[f,f], s:f, "
                "s:f, s:o, s:o}",
                "type", "pair", "suite", "hops", "experiment",
                hb_jsonl_read_str(a, "experiment", ""), "case", c, "access",
                hb_jsonl_read_str(a, "access", ""), "placement",
                hb_jsonl_read_str(a, "placement", ""), "pair",
                json_object_get(a, strcmp(c, "pair") ? "link" : "pair"), "labels",
                hb_jsonl_read_str(a, "label", ""), hb_jsonl_read_str(b, "label", ""), "t_median_s",
                ta, tb, "t_sum_s", ta + tb, "t_span_s", ta > tb ? ta : tb, "pct_of_local_read",
                json_pack("[o,o]", isnan(pct_of(a)) ? json_null() : json_real(pct_of(a)),
                          isnan(pct_of(b)) ? json_null() : json_real(pct_of(b))),
                "hops", json_pack("[i,i]", hops_of(a), hops_of(b)));
            json_array_append_new(derived, rec);
        }
    }
}

/* Does rec belong to the single-thread cases of this load level and subscription? */
static bool is_single_at(const json_t *rec, const char *level, const char *sub)
{
    return strcmp(hb_jsonl_read_str(rec, "case", ""), "single") == 0 &&
           strcmp(hb_jsonl_read_str(rec, "bg_level", ""), level) == 0 &&
           strcmp(hb_jsonl_read_str(rec, "subscription", ""), sub) == 0;
}

/* Does rec belong to the crossfire study (both directions of a link, or its twin)? */
static bool is_crossfire_case(const json_t *rec)
{
    return strcmp(hb_jsonl_read_str(rec, "case", ""), "crossfire") == 0 ||
           strcmp(hb_jsonl_read_str(rec, "case", ""), "no-crossfire") == 0;
}

/* One myth-1 verdict over the records `want` selects with this access and hop class:
 * holds when slowest/fastest - 1 stays within tolerance. */
static void myth1_group(const struct hb_suite_env *env, json_t *measured, json_t *derived,
                        struct hb_family_rec *fam, json_t *all, const char *level, const char *sub,
                        bool crossfire, const char *access, int hop)
{
    double tol = env->opts->tolerance_pct;
    const json_t *lo = NULL, *hi = NULL;
    int n = 0;
    size_t i;
    json_t *r;
    json_array_foreach(measured, i, r)
    {
        bool in = crossfire ? is_crossfire_case(r) : is_single_at(r, level, sub);
        if (!in || strcmp(hb_jsonl_read_str(r, "access", ""), access) || hops_of(r) != hop ||
            isnan(pct_of(r)))
            continue;
        n++;
        if (!lo || pct_of(r) < pct_of(lo)) lo = r;
        if (!hi || pct_of(r) > pct_of(hi)) hi = r;
    }
    if (n < 2) return;
    double spread = (pct_of(hi) / pct_of(lo) - 1.0) * 100.0;
    json_t *v = json_pack(
        "{s:s, s:s, s:i, s:s, s:s, s:s, s:i, s:b, s:f, s:f, s:i, s:[s,s], s:s, s:[o,o]}", "type",
        "verdict", "suite", "hops", "myth", 1, "bg_level", level, "case",
        crossfire ? "crossfire" : "single", "access", access, "hops", hop, "holds", spread <= tol,
        "tolerance_pct", tol, "spread_pct", round(spread * 10.0) / 10.0, "cases", n, "evidence",
        hb_jsonl_read_str(lo, "label", ""), hb_jsonl_read_str(hi, "label", ""), "claim",
        "all equal hop cases take equal time", "figures", pct_figure(lo), pct_figure(hi));
    /* A spread over the tolerance says the myth fails only beyond the two figures' noise:
     * decided with the family (myth1). */
    verdict_set(v, spread <= tol, pct_clear(lo, hi));
    if (spread > tol) pct_candidate(fam, v, lo, hi);
    if (sub[0]) json_object_set_new(v, "subscription", json_string(sub));
    json_array_append(all, v);
    json_array_append_new(derived, v);
}

/* Myth 1, "all equal hop cases take equal time": per access and hop class, the single-thread
 * cases from every CPU node at each load level, and the two-thread crossfire cases (where
 * 40555 saw equal hops differ because both directions of one link saturate). */
static void myth1(const struct hb_suite_env *env, json_t *measured, json_t *derived)
{
    static const char *const access[] = {"r", "w", "rw"};
    /* Every hop class the records hold, however many the machine has. */
    int top = 0;
    size_t i;
    json_t *r;
    json_array_foreach(measured, i, r) if (hops_of(r) > top) top = hops_of(r);
    struct hb_family_rec fam = {0};
    json_t *all = json_array();
    for (int a = 0; a < 3; a++)
        for (int hop = 0; hop <= top; hop++) {
            for (int l = 0; hb_options_bg_level_names[l]; l++)
                for (int s = l ? 0 : -1; s < (l ? 3 : 0); s++)
                    myth1_group(env, measured, derived, &fam, all, hb_options_bg_level_names[l],
                                s < 0 ? "" : hb_options_subscription_names[s], false, access[a],
                                hop);
            myth1_group(env, measured, derived, &fam, all, "idle", "", true, access[a], hop);
        }
    /* One family: every myth-1 verdict of the run whose spread is over the tolerance. */
    hb_family_rec_decide(&fam);
    for (size_t k = 0; k < fam.n; k++)
        verdict_set(json_array_get(fam.entries, k), false, hb_family_rec_drawn(&fam, k));
    json_array_foreach(all, i, r)
    {
        json_object_set_new(r, "family", hb_family_rec_json(&fam));
        if (!json_object_get(r, "p")) json_object_set_new(r, "p", json_null());
        if (!json_object_get(r, "p_adjusted")) json_object_set_new(r, "p_adjusted", json_null());
    }
    json_decref(all);
    hb_family_rec_free(&fam);
}

/* Myth 2, "greater hop distance always means slower": per load level (and subscription)
 * and access, on every CPU node every case of a higher hop class must be slower than every
 * case of a lower one. spread_pct is the worst inversion found (0 when none). */
static void myth2_group(const struct hb_suite_env *env, json_t *measured, json_t *derived,
                        const char *level, const char *sub, const char *access)
{
    double worst = 0.0;
    int classes = 0, rows = 0;
    bool holds = true, clear = false;
    json_t *evidence = json_array();
    struct hb_family_rec fam = {0};
    size_t i, j;
    json_t *a, *b;
    uint64_t seen_classes = 0;
    json_array_foreach(measured, i, a)
    {
        if (!is_single_at(a, level, sub) || strcmp(hb_jsonl_read_str(a, "access", ""), access) ||
            isnan(pct_of(a)) || hops_of(a) < 0)
            continue;
        rows++;
        seen_classes |= (uint64_t)1 << (hops_of(a) & 63);
        json_array_append_new(evidence, json_pack("{s:s, s:i, s:f}", "label",
                                                  hb_jsonl_read_str(a, "label", ""), "hops",
                                                  hops_of(a), "pct_of_local_read", pct_of(a)));
        json_array_foreach(measured, j, b)
        {
            if (!is_single_at(b, level, sub) ||
                strcmp(hb_jsonl_read_str(b, "access", ""), access) || isnan(pct_of(b)) ||
                hops_of(b) <= hops_of(a) ||
                !json_equal(json_object_get(a, "cpu_node"), json_object_get(b, "cpu_node")))
                continue;
            if (pct_of(b) <= pct_of(a)) {
                holds = false;
                json_t *e =
                    json_pack("{s:[s,s], s:[i,i]}", "labels", hb_jsonl_read_str(a, "label", ""),
                              hb_jsonl_read_str(b, "label", ""), "hops", hops_of(a), hops_of(b));
                pct_candidate(&fam, e, a, b);
                json_decref(e);
                double inv = (pct_of(a) / pct_of(b) - 1.0) * 100.0;
                worst = inv > worst ? inv : worst;
            }
        }
    }
    for (int c = 0; c < 64; c++)
        classes += (int)((seen_classes >> c) & 1);
    if (classes < 2) {
        json_decref(evidence);
        hb_family_rec_free(&fam);
        return;
    }
    /* One inversion beyond the noise, past the adjustment over every inversion, busts it. */
    hb_family_rec_decide(&fam);
    for (size_t k = 0; k < fam.n; k++) {
        bool drawn = hb_family_rec_drawn(&fam, k), known = fam.adj && isfinite(fam.adj[k]);
        const char *word = !drawn ? "inconclusive" : known ? "clear" : "unknown noise";
        json_object_set_new(json_array_get(fam.entries, k), "evidence", json_string(word));
        clear |= drawn;
    }

    json_t *v = json_pack(
        "{s:s, s:s, s:i, s:s, s:s, s:s, s:b, s:f, s:f, s:i, s:o, s:s}", "type", "verdict", "suite",
        "hops", "myth", 2, "bg_level", level, "case", "single", "access", access, "holds", holds,
        "tolerance_pct", env->opts->tolerance_pct, "spread_pct", round(worst * 10.0) / 10.0,
        "cases", rows, "evidence", evidence, "claim", "greater hop distance always means slower");
    /* Every inversion with its evidence, p and adjusted p. */
    json_object_set_new(v, "inversions", fam.entries ? json_incref(fam.entries) : json_array());
    json_object_set_new(v, "family", hb_family_rec_json(&fam));
    hb_family_rec_free(&fam);
    verdict_set(v, holds, clear);
    if (sub[0]) json_object_set_new(v, "subscription", json_string(sub));
    json_array_append_new(derived, v);
}

/* Hop classes a pair record's two threads reach, added up. */
static int pair_hops(const json_t *pair)
{
    json_t *h = json_object_get(pair, "hops");
    return (int)(json_integer_value(json_array_get(h, 0)) +
                 json_integer_value(json_array_get(h, 1)));
}

/* Myth 2 for two threads on one node (40555's two writers on node 0): a pair whose memory is
 * farther away in total must not finish sooner than a nearer one. Reads the pair records. */
static void myth2_pairs(const struct hb_suite_env *env, json_t *derived, const char *access)
{
    double worst = 0.0;
    bool holds = true;
    int rows = 0;
    json_t *evidence = json_array();
    size_t i, j, n = json_array_size(derived);
    for (i = 0; i < n; i++) {
        json_t *a = json_array_get(derived, i);
        if (strcmp(hb_jsonl_read_str(a, "type", ""), "pair") ||
            strcmp(hb_jsonl_read_str(a, "case", ""), "pair") ||
            strcmp(hb_jsonl_read_str(a, "placement", ""), "one-node") ||
            strcmp(hb_jsonl_read_str(a, "access", ""), access))
            continue;
        rows++;
        double ta = json_number_value(json_object_get(a, "t_span_s"));
        json_array_append_new(evidence,
                              json_pack("{s:O, s:i, s:f}", "labels", json_object_get(a, "labels"),
                                        "hops", pair_hops(a), "t_span_s", ta));
        for (j = 0; j < n; j++) {
            json_t *b = json_array_get(derived, j);
            if (strcmp(hb_jsonl_read_str(b, "type", ""), "pair") ||
                strcmp(hb_jsonl_read_str(b, "case", ""), "pair") ||
                strcmp(hb_jsonl_read_str(b, "placement", ""), "one-node") ||
                strcmp(hb_jsonl_read_str(b, "access", ""), access) || pair_hops(b) <= pair_hops(a))
                continue;
            double tb = json_number_value(json_object_get(b, "t_span_s"));
            if (tb < ta) {
                holds = false;
                double inv = (ta / tb - 1.0) * 100.0;
                worst = inv > worst ? inv : worst;
            }
        }
    }
    if (rows < 2) {
        json_decref(evidence);
        return;
    }
    json_t *v = json_pack(
        "{s:s, s:s, s:i, s:s, s:s, s:s, s:b, s:f, s:f, s:i, s:o, s:s, s:s}", "type", "verdict",
        "suite", "hops", "myth", 2, "bg_level", "idle", "case", "pair", "access", access, "holds",
        holds, "tolerance_pct", env->opts->tolerance_pct, "spread_pct", round(worst * 10.0) / 10.0,
        "cases", rows, "evidence", evidence, "claim", "greater hop distance always means slower",
        "noise", "unknown: a pair's span is one figure of the representative repeats");
    verdict_set(v, holds, true);
    json_array_append_new(derived, v);
}

static void myth2(const struct hb_suite_env *env, json_t *measured, json_t *derived)
{
    static const char *const pair_access[] = {"r", "w", "rw"};
    for (int a = 0; a < 3; a++)
        myth2_pairs(env, derived, pair_access[a]);
    static const char *const access[] = {"r", "w", "rw"};
    for (int l = 0; hb_options_bg_level_names[l]; l++)
        for (int s = l ? 0 : -1; s < (l ? 3 : 0); s++)
            for (int a = 0; a < 3; a++)
                myth2_group(env, measured, derived, hb_options_bg_level_names[l],
                            s < 0 ? "" : hb_options_subscription_names[s], access[a]);
}

int hb_hops_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived)
{
    hops_pairs(measured, derived);
    myth1(env, measured, derived);
    myth2(env, measured, derived);
    return 0;
}
