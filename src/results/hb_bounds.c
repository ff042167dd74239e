/* Physical bounds of a measurement record's figures (hb_bounds.h). */
#include "hb_bounds.h"

#include "hb_figure_text.h"
#include "hb_jsonl_read.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const hb_bounds_reads[] = {"type",
                                       "status",
                                       "value",
                                       "chains",
                                       "threads",
                                       "concurrency",
                                       "pages_on_target_pct",
                                       "pages_share_pct",
                                       "bg_overlap",
                                       NULL};

/* Appends to list the figure `key` of value x, past its bound: it `must` be "at most",
 * "at least" or "above" `bound`. */
static void bounds_add(json_t *list, const char *key, double x, const char *must, double bound,
                       const char *why)
{
    json_array_append_new(list, json_pack("{s:s, s:f, s:s, s:f, s:s}", "key", key, "value", x,
                                          "must", must, "bound", bound, "why", why));
}

/* Appends to list the figure `key` of value v when it is outside [lo, hi]. */
static void bounds_one(json_t *list, const char *key, const json_t *v, double lo, double hi,
                       const char *why)
{
    if (!json_is_number(v)) return;
    double x = json_number_value(v);
    if (x < lo) bounds_add(list, key, x, "at least", lo, why);
    if (x > hi) bounds_add(list, key, x, "at most", hi, why);
}

void hb_bounds_check(json_t *rec)
{
    if (strcmp(hb_jsonl_read_str(rec, "type", ""), "measurement") != 0) return;
    json_t *list = json_array();
    if (!list) return;
    /* Little's law cannot put more loads in flight than there are chains to issue them. */
    double chains = (double)json_integer_value(json_object_get(rec, "chains"));
    double threads = (double)json_integer_value(json_object_get(rec, "threads"));
    if (chains >= 1 && threads >= 1)
        bounds_one(list, "concurrency", json_object_get(rec, "concurrency"), 0.0, chains * threads,
                   "chains x threads: no more loads can be in flight; the one-chain latency "
                   "it is computed from disagrees with this record's");
    bounds_one(list, "pages_on_target_pct", json_object_get(rec, "pages_on_target_pct"), 0.0, 100.0,
               "a share of the pages");
    const char *node;
    json_t *pct;
    json_object_foreach(json_object_get(rec, "pages_share_pct"), node, pct)
        bounds_one(list, "pages_share_pct", pct, 0.0, 100.0, "a share of the pages");
    bounds_one(list, "bg_overlap", json_object_get(rec, "bg_overlap"), 0.0, 1.0,
               "a fraction of the foreground's span");
    json_t *value = json_object_get(rec, "value");
    if (strcmp(hb_jsonl_read_str(rec, "status", ""), "ok") == 0 && json_is_number(value) &&
        !(json_number_value(value) > 0.0))
        bounds_add(list, "value", json_number_value(value), "above", 0.0,
                   "a time or a rate of work done");
    if (json_array_size(list))
        json_object_set_new(rec, "out_of_bounds", list);
    else {
        json_object_del(rec, "out_of_bounds");
        json_decref(list);
    }
}

const char *hb_bounds_text(const json_t *entry, char *buf, size_t len)
{
    char v[HB_FIGURE_LEN];
    /* Bounds are counts and whole percentages: %g writes them as they are. */
    snprintf(buf, len, "%s %s, which must be %s %g (%s)", hb_jsonl_read_str(entry, "key", ""),
             hb_figure_text(hb_jsonl_read_num(entry, "value", NAN), v, sizeof(v)),
             hb_jsonl_read_str(entry, "must", "within"), hb_jsonl_read_num(entry, "bound", NAN),
             hb_jsonl_read_str(entry, "why", ""));
    return buf;
}
