/* check's configuration verdict (hb_health_config.h): the knobs' table, the lines, the peers'
 * majority. */
#include "hb_health_config.h"

#include "hb_config.h"
#include "hb_strf.h"

#include <stdlib.h>
#include <string.h>

/* The knobs a node must share with its reference: each moves latency or bandwidth. */
static const char *const health_knobs[] = {
    "thp_enabled", "thp_defrag", "governor",     "boost", "numa_balancing",
    "smt",         "microcode",  "memory_speed", NULL,
};

int hb_health_config_lines(const json_t *cfg, const json_t *ref, const char *what, json_t *lines)
{
    for (int k = 0; health_knobs[k]; k++) {
        const json_t *a = json_object_get(cfg, health_knobs[k]);
        const json_t *b = json_object_get(ref, health_knobs[k]);
        if (!b || json_equal((json_t *)a, (json_t *)b)) continue;
        char *aw = a ? hb_config_diff_words(a) : strdup("(not recorded)");
        char *bw = hb_config_diff_words(b);
        char *line = aw && bw ? hb_strf("config differs from %s: %s %s (%s: %s)", what,
                                        health_knobs[k], aw, what, bw)
                              : NULL;
        int rc = line ? json_array_append_new(lines, json_string(line)) : -1;
        free(aw);
        free(bw);
        free(line);
        if (rc) return -1;
    }
    return 0;
}

json_t *hb_health_config_majority(const json_t *const *cfgs, int n)
{
    json_t *out = json_object();
    for (int k = 0; out && health_knobs[k]; k++) {
        const json_t *best = NULL;
        int best_n = 0;
        for (int i = 0; i < n; i++) {
            const json_t *v = json_object_get(cfgs[i], health_knobs[k]);
            int same = 0;
            for (int j = 0; v && j < n; j++)
                same += json_equal((json_t *)v, json_object_get(cfgs[j], health_knobs[k]));
            if (same > best_n) best = v, best_n = same;
        }
        if (best && json_object_set(out, health_knobs[k], (json_t *)best)) {
            json_decref(out);
            out = NULL;
        }
    }
    return out;
}
