/* What comm's cross-host derivations share: message sizes, the host pairs (links), and a
 * group of rank pairs' figure pooled over their repeats (hb_suite_comm.h). */
#include "hb_suite_comm.h"

#include "hb_jsonl_read.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void hb_comm_pool_sizes(const json_t *measured, double *least, double *most)
{
    size_t i;
    json_t *rec;
    *least = INFINITY;
    *most = 0;
    json_array_foreach(measured, i, rec)
    {
        double b = hb_jsonl_read_num(rec, "message_bytes", NAN);
        if (!isfinite(b)) continue;
        *least = fmin(*least, b);
        *most = fmax(*most, b);
    }
}

/* Whether rec is an ok comm record of metric and bytes. */
static bool comm_pool_of(const json_t *rec, const char *metric, double bytes)
{
    return strcmp(hb_jsonl_read_str(rec, "suite", ""), "comm") == 0 &&
           strcmp(hb_jsonl_read_str(rec, "metric", ""), metric) == 0 &&
           hb_jsonl_read_num(rec, "message_bytes", -1) == bytes &&
           strcmp(hb_jsonl_read_str(rec, "status", ""), "ok") == 0;
}

/* Append rec's repeat values (its value when it has none) to v; the count of them. */
static int comm_pool_values(const json_t *rec, double *v)
{
    const json_t *rv = json_object_get(rec, "repeat_values"), *x;
    size_t i;
    int n = 0;
    json_array_foreach(rv, i, x) if (json_is_number(x)) v[n++] = json_number_value(x);
    double one = hb_jsonl_read_num(rec, "value", NAN);
    if (n == 0 && isfinite(one)) v[n++] = one;
    return n;
}

int hb_comm_pool(const json_t *measured, const char *metric, double bytes, hb_comm_pick_fn pick,
                 const void *ctx, struct hb_interval *out, double **values)
{
    size_t i, cap = 1;
    json_t *rec;
    json_array_foreach(measured, i, rec) if (comm_pool_of(rec, metric, bytes) && pick(rec, ctx))
        cap += json_array_size(json_object_get(rec, "repeat_values")) + 1;
    double *v = malloc(sizeof(*v) * cap);
    if (!v) return -ENOMEM;
    int n = 0, taken = 0;
    json_array_foreach(measured, i, rec) if (comm_pool_of(rec, metric, bytes) && pick(rec, ctx))
    {
        n += comm_pool_values(rec, v + n);
        taken++;
    }
    *out = (struct hb_interval){n, NAN, NAN, NAN, 0.0};
    if (n > 0) hb_interval_median(v, n, HB_CI_LEVEL, out);
    if (n == 1) out->lo = out->hi = NAN;
    if (values)
        *values = v;
    else
        free(v);
    return taken;
}

json_t *hb_comm_pool_figure_json(const struct hb_interval *iv)
{
    bool ci = !isnan(iv->lo);
    return json_pack("{s:o, s:o, s:o, s:o}", "value",
                     isfinite(iv->value) ? json_real(iv->value) : json_null(), "ci95",
                     ci ? json_pack("[f, f]", iv->lo, iv->hi) : json_null(), "ci_coverage",
                     ci && iv->coverage > 0.0 ? json_real(iv->coverage) : json_null(), "repeats",
                     iv->n > 0 ? json_integer(iv->n) : json_null());
}

json_t *hb_comm_pool_links_of(const json_t *measured)
{
    json_t *links = json_array(), *rec, *l;
    size_t i, k;
    json_array_foreach(measured, i, rec)
    {
        const char *a = hb_jsonl_read_str(rec, "src_host", ""),
                   *b = hb_jsonl_read_str(rec, "dst_host", "");
        bool seen = strcmp(hb_jsonl_read_str(rec, "suite", ""), "comm") != 0 || strcmp(a, b) == 0;
        json_array_foreach(links, k, l)
        {
            const char *x = json_string_value(json_array_get(l, 0)),
                       *y = json_string_value(json_array_get(l, 1));
            seen = seen || (strcmp(x, a) == 0 && strcmp(y, b) == 0) ||
                   (strcmp(x, b) == 0 && strcmp(y, a) == 0);
        }
        if (!seen && json_array_append_new(links, json_pack("[s, s]", a, b))) {
            json_decref(links);
            return NULL;
        }
    }
    return links;
}
