/* Physical bounds of a measurement record's figures (hb_bounds.h). */
#include "hb_bounds.h"

#include "hb_jsonl_read.h"

#include <math.h>
#include <string.h>

/* Appends to list the figure `key` of value v when it is outside [lo, hi]. */
static void hb_bounds_one(json_t *list, const char *key, const json_t *v, double lo, double hi,
                          const char *why)
{
    if (!json_is_number(v)) return;
    double x = json_number_value(v);
    if (x >= lo && x <= hi) return;
    json_array_append_new(list, json_pack("{s:s, s:f, s:f, s:s}", "key", key, "value", x, "bound",
                                          x < lo ? lo : hi, "why", why));
}

void hb_bounds_check(json_t *rec)
{
    if (strcmp(hb_rec_str(rec, "type", ""), "measurement") != 0) return;
    json_t *list = json_array();
    if (!list) return;
    /* Little's law cannot put more loads in flight than there are chains to issue them. */
    double chains = (double)json_integer_value(json_object_get(rec, "chains"));
    double threads = (double)json_integer_value(json_object_get(rec, "threads"));
    if (chains >= 1 && threads >= 1)
        hb_bounds_one(list, "concurrency", json_object_get(rec, "concurrency"), 0.0,
                      chains * threads,
                      "chains x threads: no more loads can be in flight; the one-chain latency "
                      "it is computed from disagrees with this record's");
    hb_bounds_one(list, "pages_on_target_pct", json_object_get(rec, "pages_on_target_pct"), 0.0,
                  100.0, "a share of the pages");
    const char *node;
    json_t *pct;
    json_object_foreach(json_object_get(rec, "pages_share_pct"), node, pct)
        hb_bounds_one(list, "pages_share_pct", pct, 0.0, 100.0, "a share of the pages");
    hb_bounds_one(list, "bg_overlap", json_object_get(rec, "bg_overlap"), 0.0, 1.0,
                  "a fraction of the foreground's span");
    if (strcmp(hb_rec_str(rec, "status", ""), "ok") == 0)
        hb_bounds_one(list, "value", json_object_get(rec, "value"), nextafter(0.0, 1.0), INFINITY,
                      "a time or a rate of work done is above 0");
    if (json_array_size(list))
        json_object_set_new(rec, "out_of_bounds", list);
    else {
        json_object_del(rec, "out_of_bounds");
        json_decref(list);
    }
}
