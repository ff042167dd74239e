/* `policy` derived records: throughput per workload x policy x mode (tasks of a rate run
 * summed), the NUMA gain of local placement over the others (SiSoftware Sandra's "NUMA
 * gain": local vs interleave), placement checked per record, and for --intensity the ratio
 * local / worse placement per intensity and its knee. A gain is beyond the noise when the two
 * speeds' intervals are apart and the rank test of their per-repeat speeds passes the
 * adjustment over every gain the derive step draws, a host's run (the family,
 * hb_family_rec.h). */
#include "hb_family_rec.h"
#include "hb_interval.h"
#include "hb_jsonl_read.h"
#include "hb_suite_policy.h"

#include "hb_error.h"
#include "hb_knee.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HB_POLICY_GROUPS 1024

struct hb_pgroup {
    const char *host, *mode, *workload, *policy;
    double intensity; /* 0 = not an intensity run */
    bool latency;
    double sum;    /* bandwidth: GB/s summed over tasks; latency: ns summed (then averaged) */
    double lo, hi; /* the same over the ends of the tasks' intervals; NAN when one has none */
    int tasks;
    bool failed;
    bool spread_ok; /* interleave: every memory node holds pages of every task */
    json_t *share;  /* pages_share_pct of the tasks, node -> mean */
    double *rv;     /* per repeat: the tasks' repeat values summed (NULL: none yet) */
    int nrv;        /* their count; -1 when the tasks' repeats differ or are unknown */
};

/* Higher is better for every group: GB/s, or dependent loads per ns. */
static double pspeed(const struct hb_pgroup *g)
{
    if (g->failed || g->tasks == 0 || g->sum <= 0.0) return NAN;
    return g->latency ? (double)g->tasks / g->sum : g->sum;
}

/* The group of these keys among the n there are, or NULL. */
static struct hb_pgroup *pgroup_find(struct hb_pgroup *gs, int n, const char *host,
                                     const char *mode, const char *workload, const char *policy,
                                     double intensity)
{
    for (int i = 0; i < n; i++)
        if (strcmp(gs[i].host, host) == 0 && strcmp(gs[i].mode, mode) == 0 &&
            strcmp(gs[i].workload, workload) == 0 &&
            (!policy || strcmp(gs[i].policy, policy) == 0) && gs[i].intensity == intensity)
            return &gs[i];
    return NULL;
}

/* The group of these keys, made when there is none yet (*n counts it). */
static struct hb_pgroup *pgroup_get(struct hb_pgroup *gs, int *n, const char *host,
                                    const char *mode, const char *workload, const char *policy,
                                    double intensity)
{
    struct hb_pgroup *found = pgroup_find(gs, *n, host, mode, workload, policy, intensity);
    if (found) return found;
    if (!policy || *n >= HB_POLICY_GROUPS) return NULL;
    struct hb_pgroup *g = &gs[(*n)++];
    *g = (struct hb_pgroup){host, mode, workload, policy, intensity,     false, 0.0, 0.0,
                            0.0,  0,    false,    true,   json_object(), NULL,  0};
    return g;
}

static void pgroup_add(const struct hb_topo *t, struct hb_pgroup *g, json_t *rec)
{
    g->latency = strcmp(hb_jsonl_read_str(rec, "metric", ""), "latency") == 0;
    json_t *v = json_object_get(rec, hb_jsonl_read_headline_key(rec));
    g->failed |= strcmp(hb_jsonl_read_str(rec, "status", ""), "ok") != 0 || !json_is_number(v);
    g->sum += json_number_value(v);
    struct hb_interval iv;
    bool has = hb_jsonl_read_interval(rec, &iv) && iv.n >= 2;
    g->lo += has ? iv.lo : NAN;
    g->hi += has ? iv.hi : NAN;
    int nv;
    double *rv = hb_family_rec_values(rec, &nv);
    if (g->tasks == 0) {
        g->rv = rv;
        g->nrv = rv ? nv : -1;
        rv = NULL;
    } else if (!rv || nv != g->nrv) {
        g->nrv = -1;
    }
    for (int r = 0; rv && r < g->nrv; r++)
        g->rv[r] += rv[r];
    free(rv);
    g->tasks++;
    json_t *share = json_object_get(rec, "pages_share_pct");
    const char *key;
    json_t *pct;
    json_object_foreach(share, key, pct)
    {
        double old = json_number_value(json_object_get(g->share, key));
        json_object_set_new(g->share, key, json_real(old + json_number_value(pct)));
    }
    if (strcmp(g->policy, "interleave") == 0)
        for (int i = 0; i < t->nnodes; i++) {
            char k[16];
            snprintf(k, sizeof(k), "%d", t->nodes[i].os_index);
            if (t->nodes[i].has_memory && json_number_value(json_object_get(share, k)) <= 0.0)
                g->spread_ok = false;
        }
}

/* Unrounded: the table and the report round a figure once, as every figure shown. */
static json_t *preal(double v)
{
    return isnan(v) ? json_null() : json_real(v);
}

static void pemit_throughput(struct hb_pgroup *g, json_t *derived)
{
    const char *key;
    json_t *pct;
    json_object_foreach(g->share, key, pct) json_object_set_new(
        g->share, key, json_real(round(json_number_value(pct) / g->tasks * 100.0) / 100.0));
    double value = g->latency && g->tasks ? g->sum / g->tasks : g->sum;
    json_array_append_new(
        derived,
        json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:s, s:i, s:O, s:b, s:s}", "type",
                  "throughput", "suite", "policy", "host", g->host, "mode", g->mode, "workload",
                  g->workload, "policy", g->policy, "intensity",
                  g->intensity > 0.0 ? json_real(g->intensity) : json_null(), "value",
                  g->failed ? json_null() : preal(value), "unit", g->latency ? "ns" : "GBps",
                  "tasks", g->tasks, "pages_share_pct", g->share, "placement_ok",
                  !g->failed && g->spread_ok, "status", g->failed ? "failed" : "ok"));
}

/* The group's speed interval (as pspeed: higher is better), false when unknown. */
static bool pspeed_ci(const struct hb_pgroup *g, double *lo, double *hi)
{
    if (isnan(pspeed(g)) || isnan(g->lo) || isnan(g->hi) || g->lo <= 0.0) return false;
    *lo = g->latency ? (double)g->tasks / g->hi : g->lo;
    *hi = g->latency ? (double)g->tasks / g->lo : g->hi;
    return true;
}

/* The group's speed per repeat (as pspeed) into a new array (*n of them): NULL and 0 when
 * unknown (one repeat, tasks of different repeats). */
static double *pspeed_repeats(const struct hb_pgroup *g, int *n)
{
    *n = 0;
    if (isnan(pspeed(g)) || g->nrv < 2) return NULL;
    double *v = malloc(sizeof(*v) * (size_t)g->nrv);
    for (int r = 0; v && r < g->nrv; r++)
        v[r] = g->latency ? (double)g->tasks / g->rv[r] : g->rv[r];
    *n = v ? g->nrv : 0;
    return v;
}

/* Whether local's speed and o's differ beyond their noise: apart (HB_SEPARATE), the intervals
 * overlap (the gain is within the noise) or unknown (one repeat); *p the rank test of their
 * per-repeat speeds (NAN when unknown). */
static enum hb_separation pgain_noise(const struct hb_pgroup *local, const struct hb_pgroup *o,
                                      double *p)
{
    double a, b, c, d;
    *p = NAN;
    if (!o || !pspeed_ci(local, &a, &b) || !pspeed_ci(o, &c, &d)) return HB_NO_INTERVAL;
    int nx, ny;
    double *x = pspeed_repeats(local, &nx), *y = pspeed_repeats(o, &ny);
    *p = hb_family_rec_p_of(x, nx, y, ny);
    free(x);
    free(y);
    return b < c || d < a ? HB_SEPARATE : HB_OVERLAP;
}

static json_t *pspeed_json(const struct hb_pgroup *g)
{
    double lo, hi;
    return g && pspeed_ci(g, &lo, &hi) ? json_pack("[f, f]", lo, hi) : json_null();
}

static const char *const pgain_others[] = {"interleave", "one-node", "remote", "os", NULL};
static const char *const pgain_keys[] = {"gain_vs_interleave", "gain_vs_one_node", "gain_vs_remote",
                                         "gain_vs_os", NULL};

/* The gain record of local; each gain a candidate of the family fam ({"noise": its word}). */
static void pemit_gain(struct hb_pgroup *gs, int n, const struct hb_pgroup *local,
                       struct hb_family_rec *fam, json_t *derived)
{
    json_t *rec = json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:s}", "type", "gain", "suite", "policy", "host",
        local->host, "mode", local->mode, "workload", local->workload, "intensity",
        local->intensity > 0.0 ? json_real(local->intensity) : json_null(), "local_speed",
        preal(pspeed(local)), "speed_unit", local->latency ? "loads/ns" : "GBps");
    /* Each gain, and the speeds' intervals; whether it exceeds the noise once the family is
     * decided (pgain_decide). */
    json_t *speeds = json_object();
    json_object_set_new(speeds, "local", pspeed_json(local));
    for (int i = 0; pgain_others[i]; i++) {
        /* Looked up, never made: a placement the run did not measure has no gain. */
        struct hb_pgroup *o = pgroup_find(gs, n, local->host, local->mode, local->workload,
                                          pgain_others[i], local->intensity);
        json_object_set_new(rec, pgain_keys[i], preal(o ? pspeed(local) / pspeed(o) : NAN));
        double p;
        enum hb_separation sep = pgain_noise(local, o, &p);
        json_t *e = json_pack("{s:s}", "noise", hb_jsonl_read_separation_name(sep));
        hb_family_rec_add(fam, e, p, sep == HB_SEPARATE);
        json_decref(e);
        json_object_set_new(speeds, pgain_others[i], pspeed_json(o));
    }
    json_object_set_new(rec, "speed_ci95", speeds);
    json_array_append_new(derived, rec);
}

/* The family of every gain the derive step draws decided: each gain record of derived[first..] gets
 * gain_noise (clear, inconclusive, unknown noise), gain_p and gain_p_adjusted per gain, and
 * the family. 0 or -ENOMEM. */
static int pgain_decide(struct hb_family_rec *fam, json_t *derived, size_t first)
{
    int rc = hb_family_rec_decide(fam);
    hb_family_rec_demote(fam, "noise", "inconclusive", NULL);
    size_t k = 0;
    for (size_t j = first; rc == 0 && j < json_array_size(derived); j++) {
        json_t *rec = json_array_get(derived, j);
        if (strcmp(hb_jsonl_read_str(rec, "type", ""), "gain") != 0) continue;
        json_t *noise = json_object(), *p = json_object(), *adj = json_object();
        for (int i = 0; pgain_keys[i]; i++, k++) {
            json_t *e = json_array_get(fam->entries, k);
            json_object_set(noise, pgain_keys[i], json_object_get(e, "noise"));
            json_object_set(p, pgain_keys[i], json_object_get(e, "p"));
            json_object_set(adj, pgain_keys[i], json_object_get(e, "p_adjusted"));
        }
        json_object_set_new(rec, "gain_noise", noise);
        json_object_set_new(rec, "gain_p", p);
        json_object_set_new(rec, "gain_p_adjusted", adj);
        json_object_set_new(rec, "family", hb_family_rec_json(fam));
    }
    return rc;
}

/* Knee of local over `against` across the intensities of one host and mode. */
static void pemit_knee(const struct hb_suite_env *env, struct hb_pgroup *gs, int n,
                       const struct hb_pgroup *first, const char *against, json_t *derived)
{
    double x[64], cost[64];
    int m = 0;
    json_t *xs = json_array(), *ratios = json_array();
    for (int i = 0; i < n && m < 64; i++) {
        struct hb_pgroup *g = &gs[i];
        if (g->intensity <= 0.0 || strcmp(g->policy, "local") != 0 ||
            strcmp(g->host, first->host) != 0 || strcmp(g->mode, first->mode) != 0)
            continue;
        struct hb_pgroup *o =
            pgroup_find(gs, n, g->host, g->mode, g->workload, against, g->intensity);
        double r = o ? pspeed(g) / pspeed(o) : NAN;
        if (isnan(r)) continue;
        x[m] = g->intensity;
        cost[m++] = r - 1.0;
        json_array_append_new(xs, json_real(g->intensity));
        json_array_append_new(ratios, preal(r));
    }
    if (m == 0) {
        json_decref(xs);
        json_decref(ratios);
        return;
    }
    double knee = NAN, thr = env->opts->threshold_pct / 100.0;
    int rc = hb_knee_find(x, cost, m, thr, &knee);
    json_t *rec =
        json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:f, s:o, s:s}", "type", "knee", "suite",
                  "policy", "host", first->host, "mode", first->mode, "against", against,
                  "intensities", xs, "ratios", ratios, "threshold_pct", env->opts->threshold_pct,
                  "knee_intensity", rc == 0 ? json_real(knee) : json_null(), "note",
                  rc == 0 ? "from this intensity on, local beats this placement by less than "
                            "the threshold"
                  : rc == -ENOENT ? "placement costs more than the threshold at every intensity"
                                  : hb_error_msg());
    /* The report marks knees on curves by these keys, as for the loaded-latency knee. */
    json_object_set_new(rec, "curve", json_string("intensity"));
    json_object_set_new(rec, "value", rc == 0 ? json_real(knee) : json_null());
    json_object_set_new(rec, "unit", json_string("flop/B"));
    json_array_append_new(derived, rec);
}

int hb_policy_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived)
{
    if (env->opts->weights_auto) return hb_policy_weights_derive(measured, derived);
    struct hb_pgroup *gs = calloc(HB_POLICY_GROUPS, sizeof(*gs));
    if (!gs) return -ENOMEM;
    int n = 0;
    size_t k;
    json_t *rec;
    json_array_foreach(measured, k, rec)
    {
        if (strcmp(hb_jsonl_read_str(rec, "suite", ""), "policy") != 0 ||
            strcmp(hb_jsonl_read_str(rec, "role", ""), "foreground") != 0)
            continue;
        struct hb_pgroup *g = pgroup_get(
            gs, &n, hb_jsonl_read_str(rec, "host", ""), hb_jsonl_read_str(rec, "mode", ""),
            hb_jsonl_read_str(rec, "workload", ""), hb_jsonl_read_str(rec, "policy", ""),
            json_number_value(json_object_get(rec, "intensity")));
        if (g) pgroup_add(env->topo, g, rec);
    }
    for (int i = 0; i < n; i++)
        pemit_throughput(&gs[i], derived);
    struct hb_family_rec fam = {0};
    size_t first = json_array_size(derived);
    for (int i = 0; i < n; i++)
        if (strcmp(gs[i].policy, "local") == 0) pemit_gain(gs, n, &gs[i], &fam, derived);
    int rc = pgain_decide(&fam, derived, first);
    hb_family_rec_free(&fam);
    /* One knee pair per host and mode: at its first local intensity group. */
    for (int i = 0; i < n; i++) {
        if (gs[i].intensity <= 0.0 || strcmp(gs[i].policy, "local") != 0) continue;
        bool seen = false;
        for (int j = 0; j < i && !seen; j++)
            seen = gs[j].intensity > 0.0 && strcmp(gs[j].policy, "local") == 0 &&
                   strcmp(gs[j].host, gs[i].host) == 0 && strcmp(gs[j].mode, gs[i].mode) == 0;
        if (seen) continue;
        pemit_knee(env, gs, n, &gs[i], "remote", derived);
        pemit_knee(env, gs, n, &gs[i], "interleave", derived);
    }
    for (int i = 0; i < n; i++) {
        json_decref(gs[i].share);
        free(gs[i].rv);
    }
    free(gs);
    return rc;
}
