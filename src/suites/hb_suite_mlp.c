/* Memory-level parallelism of chase records with --chains: how many loads a second the
 * chains complete, and how many misses the core overlapped (Little's law). */
#include "hb_suite_kit.h"

#include "hb_interval.h"
#include "hb_jsonl_read.h"

#include <math.h>
#include <string.h>

/* Same host, nodes, method and threads as rec, one chain: its idle latency. */
static bool mlp_same_pair(const json_t *a, const json_t *b)
{
    static const char *const keys[] = {"suite",    "host",         "cpu_node",
                                       "mem_node", "chase_stride", "threads",
                                       "pages",    "bytes",        "chase_group_bytes"};
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        if (!json_equal(json_object_get(a, keys[i]), json_object_get(b, keys[i]))) return false;
    return true;
}

bool hb_suite_mlp_refers(const json_t *rec)
{
    return json_integer_value(json_object_get(rec, "chains")) == 1 &&
           strcmp(hb_jsonl_read_str(rec, "status", ""), "ok") == 0;
}

static const json_t *mlp_one_chain(const json_t *measured, const json_t *rec)
{
    for (size_t i = json_array_size(measured); i-- > 0;) {
        const json_t *m = json_array_get(measured, i);
        if (hb_suite_mlp_refers(m) && mlp_same_pair(m, rec)) return m;
    }
    return NULL;
}

static json_t *mlp_pair(double lo, double hi)
{
    return isfinite(lo) && isfinite(hi) ? json_pack("[f, f]", lo, hi) : json_null();
}

/* The chase's latency (ns per step of each chain) and its interval when it has one. */
static double mlp_latency(const json_t *rec, double *lo, double *hi)
{
    struct hb_interval iv;
    bool have = hb_jsonl_read_interval(rec, &iv);
    *lo = have && iv.n > 1 ? iv.lo : NAN;
    *hi = have && iv.n > 1 ? iv.hi : NAN;
    return hb_jsonl_read_num(rec, hb_jsonl_read_headline_key(rec), NAN);
}

void hb_suite_mlp_annotate(const json_t *measured, json_t *rec)
{
    json_int_t chains = json_integer_value(json_object_get(rec, "chains"));
    double loads = (double)chains * (double)json_integer_value(json_object_get(rec, "threads"));
    double lo, hi, lat = mlp_latency(rec, &lo, &hi);
    if (chains < 1 || strcmp(hb_jsonl_read_str(rec, "metric", ""), "latency") != 0 || !(lat > 0))
        return;
    /* ns per step of each chain -> loads a second over all chains and threads. */
    json_object_set_new(rec, "loads_per_s", json_real(loads * 1e9 / lat));
    json_object_set_new(rec, "loads_per_s_ci95", mlp_pair(loads * 1e9 / hi, loads * 1e9 / lo));
    /* Misses in flight = throughput x the latency of one miss alone (one chain's). */
    const json_t *one = chains == 1 ? rec : mlp_one_chain(measured, rec);
    double lo1, hi1, lat1 = one ? mlp_latency(one, &lo1, &hi1) : NAN;
    if (!(lat1 > 0)) return;
    json_object_set_new(rec, "concurrency", json_real(loads * lat1 / lat));
    /* One chain overlaps one miss by definition: no uncertainty to give. */
    json_object_set_new(rec, "concurrency_ci95",
                        chains > 1 ? mlp_pair(loads * lo1 / hi, loads * hi1 / lo) : json_null());
}
