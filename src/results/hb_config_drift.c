/* Configuration drift: the knobs in which each host of a fleet differs from its majority,
 * each pair of hosts compared (hb_config_diff), each knob's agreement counted per host; a
 * host differs in a knob when fewer hosts share its value than share the most common one. */
#include "hb_config_drift.h"

#include "hb_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* hb_config_diff_fn: one more host differs from this one in key; its own value kept. */
static int fleet_count(const char *key, const json_t *mine, const json_t *other, void *ctx)
{
    (void)other;
    json_t *counts = ctx, *c = json_object_get(counts, key);
    if (c)
        return json_integer_set(json_object_get(c, "n"),
                                json_integer_value(json_object_get(c, "n")) + 1);
    char *words = hb_config_diff_words(mine);
    json_t *entry = words ? json_pack("{s:i, s:s}", "n", 1, "words", words) : NULL;
    free(words);
    return entry ? json_object_set_new(counts, key, entry) : -1;
}

/* Per host, {key: {"n": hosts that differ from it there, "words": its value}}. */
static json_t *fleet_counts(const json_t *host_configs)
{
    size_t nh = json_array_size(host_configs);
    json_t *all = json_array();
    for (size_t h = 0; all && h < nh; h++) {
        json_t *counts = json_object();
        const json_t *mine = json_object_get(json_array_get(host_configs, h), "config");
        for (size_t g = 0; counts && g < nh; g++) {
            const json_t *other = json_object_get(json_array_get(host_configs, g), "config");
            if (g != h && hb_config_diff(mine, other, fleet_count, counts) != 0) {
                json_decref(counts);
                counts = NULL;
            }
        }
        if (!counts || json_array_append_new(all, counts)) {
            json_decref(all);
            all = NULL;
        }
    }
    return all;
}

json_t *hb_config_drift_fleet(const json_t *host_configs)
{
    size_t nh = json_array_size(host_configs), h;
    json_t *counts = fleet_counts(host_configs), *out = counts ? json_object() : NULL;
    /* Most hosts that share one value, per knob. */
    json_t *most = counts ? json_object() : NULL, *c, *k;
    const char *key;
    json_array_foreach(counts, h, c) json_object_foreach(c, key, k)
    {
        json_int_t agree = (json_int_t)nh - json_integer_value(json_object_get(k, "n"));
        json_t *m = json_object_get(most, key);
        if (most && (!m || json_integer_value(m) < agree))
            json_object_set_new(most, key, json_integer(agree));
    }
    for (h = 0; out && most && h < nh; h++) {
        json_t *mine = json_object(), *own = json_array_get(counts, h);
        json_object_foreach(own, key, k)
        {
            json_int_t agree = (json_int_t)nh - json_integer_value(json_object_get(k, "n"));
            if (mine && agree < json_integer_value(json_object_get(most, key)))
                json_object_set(mine, key, json_object_get(k, "words"));
        }
        const char *host =
            json_string_value(json_object_get(json_array_get(host_configs, h), "host"));
        if (!mine || json_object_set_new(out, host ? host : "?", mine)) {
            json_decref(out);
            out = NULL;
        }
    }
    if (!most) {
        json_decref(out);
        out = NULL;
    }
    json_decref(most);
    json_decref(counts);
    return out;
}
