/* compare and configuration drift: the knobs in which BASE's machine and NEW's differ (host
 * by host when both are fleets), said before any verdict, and the ones known to move a
 * metric marked on its verdicts. */
#include "hb_compare_config.h"

#include "hb_config.h"
#include "hb_error.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

struct hb_cmp_config_ctx {
    json_t *diffs;
    const char *host; /* a fleet's host, NULL for a run's one configuration */
};

/* hb_config_diff_fn: one config_diff record. */
static int cmp_config_add(const char *key, const json_t *base, const json_t *new_, void *ctx)
{
    struct hb_cmp_config_ctx *c = ctx;
    /* A knob one side does not have (hugepages.node1 on a one-node machine) is left out of
     * that side: read as "absent", where null is a knob that could not be read. */
    /* kind and record name it in CSV's columns too, where base and new give the values. */
    json_t *rec = json_pack("{s:s, s:s, s:s, s:s}", "type", "config_diff", "kind", "config_diff",
                            "record", key, "key", key);
    if (rec && ((base && json_object_set(rec, "base", (json_t *)base)) ||
                (new_ && json_object_set(rec, "new", (json_t *)new_)))) {
        json_decref(rec);
        rec = NULL;
    }
    if (rec && c->host &&
        (json_object_set_new(rec, "host", json_string(c->host)) ||
         json_object_set_new(rec, "where", json_string(c->host)))) {
        json_decref(rec);
        rec = NULL;
    }
    return rec ? json_array_append_new(c->diffs, rec) : -1;
}

/* Fleets on both sides: each host's configuration against the same host's in NEW. */
static int cmp_config_hosts(const json_t *b, const json_t *n, struct hb_cmp_config_ctx *c)
{
    size_t i, j;
    const json_t *hb, *hn;
    json_array_foreach(b, i, hb) json_array_foreach(n, j, hn)
    {
        const char *host = json_string_value(json_object_get(hb, "host"));
        if (!host || !json_equal(json_object_get(hb, "host"), json_object_get(hn, "host")))
            continue;
        c->host = host;
        if (hb_config_diff(json_object_get(hb, "config"), json_object_get(hn, "config"),
                           cmp_config_add, c))
            return -1;
    }
    return 0;
}

json_t *hb_compare_config_diffs(const json_t *base_run, const json_t *new_run)
{
    struct hb_cmp_config_ctx c = {json_array(), NULL};
    const json_t *b = json_object_get(base_run, "config"), *n = json_object_get(new_run, "config");
    const json_t *bh = json_object_get(base_run, "host_configs");
    const json_t *nh = json_object_get(new_run, "host_configs");
    int rc = c.diffs ? 0 : -1;
    if (rc == 0 && json_is_array(bh) && json_is_array(nh))
        rc = cmp_config_hosts(bh, nh, &c);
    else if (rc == 0 && b && n)
        rc = hb_config_diff(b, n, cmp_config_add, &c);
    if (rc) {
        json_decref(c.diffs);
        return NULL;
    }
    return c.diffs;
}

/* Knobs known to move a metric (NULL: every metric): the CPU's clock and sleep states move
 * every figure; THP changes TLB misses, which a latency chase pays for on every load;
 * NUMA balancing and zone reclaim move pages; the NPS/SNC mode and the DIMMs' speed change
 * the memory itself. */
static const struct {
    const char *key, *metric;
} cmp_moves[] = {
    {"governor", NULL},          {"boost", NULL},
    {"max_cstate", NULL},        {"acpi_max_cstate", NULL},
    {"cpuidle_driver", NULL},    {"smt", NULL},
    {"thp_enabled", "latency"},  {"thp_defrag", "latency"},
    {"numa_balancing", NULL},    {"zone_reclaim_mode", NULL},
    {"nodes_per_package", NULL}, {"memory_speed", NULL},
};

json_t *hb_compare_config_marks(const json_t *diffs, const char *metric, const char *host)
{
    json_t *marks = NULL;
    size_t i;
    const json_t *d;
    json_array_foreach(diffs, i, d)
    {
        const char *key = json_string_value(json_object_get(d, "key"));
        const char *of = json_string_value(json_object_get(d, "host"));
        if (of && strcmp(of, host) != 0) continue;
        for (size_t k = 0; key && k < sizeof(cmp_moves) / sizeof(cmp_moves[0]); k++)
            if (strcmp(key, cmp_moves[k].key) == 0 &&
                (!cmp_moves[k].metric || strcmp(metric, cmp_moves[k].metric) == 0)) {
                if (!marks) marks = json_array();
                if (marks) json_array_append_new(marks, json_string(key));
            }
    }
    return marks;
}
