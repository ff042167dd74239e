/* Merging a measurement's independent repeats into one record (results layer, rank 0). */
#include "hb_repeat.h"

#include "hb_interval.h"
#include "hb_jsonl_read.h"
#include "hb_shift.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The figure one repeat is judged by, and its unit: a latency's median ns per load (a
 * message's median us), a foreground bandwidth's best GB/s, a background's achieved GB/s,
 * else the median time. */
static const char *repeat_key(const json_t *rec, const char **unit)
{
    bool fg = strcmp(hb_jsonl_read_str(rec, "role", "foreground"), "foreground") == 0;
    const char *metric = hb_jsonl_read_str(rec, "metric", "");
    *unit = "GBps";
    if (!fg) return "bw_GBps_achieved";
    /* comm: a message's one-way latency, its median in microseconds. */
    if (strcmp(metric, "latency") == 0 && json_is_number(json_object_get(rec, "p50_us"))) {
        *unit = "us";
        return "p50_us";
    }
    if (strcmp(metric, "latency") == 0 && json_is_number(json_object_get(rec, "lat_ns_median"))) {
        *unit = "ns";
        return "lat_ns_median";
    }
    if (json_is_number(json_object_get(rec, "bw_GBps_best"))) return "bw_GBps_best";
    *unit = "s";
    return "t_median_s";
}

double hb_repeat_headline(const json_t *rec)
{
    const char *unit = "";
    const json_t *x = json_object_get(rec, repeat_key(rec, &unit));
    return json_is_number(x) && isfinite(json_number_value(x)) ? json_number_value(x) : NAN;
}

/* The worst of the repeats' placement, status and overlap, and their total cost. */
static void repeat_worst(json_t *out, json_t *const *recs, int n)
{
    double pages = INFINITY, overlap = INFINITY, elapsed = 0.0;
    const json_t *failed = NULL, *skipped = NULL;
    for (int i = 0; i < n; i++) {
        pages = fmin(pages, hb_jsonl_read_num(recs[i], "pages_on_target_pct", INFINITY));
        overlap = fmin(overlap, hb_jsonl_read_num(recs[i], "bg_overlap", INFINITY));
        elapsed += hb_jsonl_read_num(recs[i], "elapsed_s", 0.0);
        const char *st = hb_jsonl_read_str(recs[i], "status", "ok");
        if (!failed && strcmp(st, "failed") == 0) failed = recs[i];
        if (!skipped && strcmp(st, "skipped") == 0) skipped = recs[i];
    }
    if (isfinite(pages)) json_object_set_new(out, "pages_on_target_pct", json_real(pages));
    if (isfinite(overlap)) json_object_set_new(out, "bg_overlap", json_real(overlap));
    json_object_set_new(out, "elapsed_s", json_real(elapsed));
    const json_t *worst = failed ? failed : skipped;
    if (worst) {
        json_object_set(out, "status", json_object_get(worst, "status"));
        json_object_set(out, "note", json_object_get(worst, "note"));
    }
}

/* The headline's statistics over the repeats that have one. */
static void repeat_interval(json_t *out, const double *v, int nv, double noise_pct)
{
    double *sorted = malloc(sizeof(*sorted) * (size_t)(nv ? nv : 1));
    struct hb_interval iv = {0, NAN, NAN, NAN, 0.0};
    if (sorted && nv) {
        memcpy(sorted, v, sizeof(*v) * (size_t)nv);
        hb_interval_median(sorted, nv, HB_CI_LEVEL, &iv);
    }
    free(sorted);
    bool bounded = iv.n >= 2;
    json_object_set_new(out, "value", isfinite(iv.value) ? json_real(iv.value) : json_null());
    json_object_set_new(out, "ci95", bounded ? json_pack("[f, f]", iv.lo, iv.hi) : json_null());
    json_object_set_new(out, "ci_coverage", bounded ? json_real(iv.coverage) : json_null());
    json_object_set_new(out, "noisy", json_boolean(hb_interval_noisy(&iv, noise_pct)));
    /* The repeats' relative spread: the standard deviation of their logs, in percent. */
    double spread = nv >= 2 ? 100.0 * hb_shift_spread(v, nv, NULL, 0) : NAN;
    json_object_set_new(out, "spread_pct", isfinite(spread) ? json_real(spread) : json_null());
}

/* Each background task's achieved load, and the pace it was asked for (measured anew each
 * repeat when paced to its own rate), as the median over the repeats, as the background's
 * own record gives its value: the figure shown beside the foreground's is then the one shown
 * in the background's row, not one repeat's. */
static void repeat_background(json_t *out, json_t *const *recs, int n)
{
    static const char *const keys[] = {"achieved_GBps", "target_GBps"};
    double *v = malloc(sizeof(*v) * (size_t)n);
    size_t k;
    json_t *b;
    json_array_foreach(v ? json_object_get(out, "background") : NULL, k, b)
    {
        for (size_t key = 0; key < sizeof(keys) / sizeof(keys[0]); key++) {
            int nv = 0;
            for (int i = 0; i < n; i++) {
                json_t *x = json_array_get(json_object_get(recs[i], "background"), k);
                double a = hb_jsonl_read_num(x, keys[key], NAN);
                if (isfinite(a)) v[nv++] = a;
            }
            struct hb_interval iv;
            if (nv && hb_interval_median(v, nv, HB_CI_LEVEL, &iv) == 0)
                json_object_set_new(b, keys[key], json_real(iv.value));
        }
    }
    free(v);
}

/* Index of the representative repeat: the one whose headline is the (lower) median. */
static int repeat_middle(const double *v, const int *at, int nv)
{
    int best = 0;
    for (int i = 0; i < nv; i++) {
        int below = 0, equal_before = 0;
        for (int j = 0; j < nv; j++) {
            below += v[j] < v[i];
            equal_before += v[j] == v[i] && j < i;
        }
        if (below + equal_before == (nv - 1) / 2) best = at[i];
    }
    return best;
}

json_t *hb_repeat_merge(json_t *const *recs, int n, double noise_pct)
{
    const char *unit = "";
    const char *key = repeat_key(recs[0], &unit);
    double *v = malloc(sizeof(*v) * (size_t)n);
    int *at = malloc(sizeof(*at) * (size_t)n), nv = 0;
    json_t *values = json_array();
    if (!v || !at || !values) {
        free(v);
        free(at);
        json_decref(values);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        json_t *x = json_object_get(recs[i], key);
        bool ok = json_is_number(x) && isfinite(json_number_value(x));
        json_array_append_new(values, ok ? json_real(json_number_value(x)) : json_null());
        if (ok) {
            v[nv] = json_number_value(x);
            at[nv++] = i;
        }
    }
    json_t *out = json_deep_copy(recs[nv ? repeat_middle(v, at, nv) : 0]);
    if (out) {
        repeat_interval(out, v, nv, noise_pct);
        json_object_set_new(out, "unit", json_string(unit));
        json_object_set_new(out, "repeats", json_integer(n));
        json_object_set(out, "repeat_values", values);
        repeat_worst(out, recs, n);
        repeat_background(out, recs, n);
    }
    json_decref(values);
    free(v);
    free(at);
    return out;
}
