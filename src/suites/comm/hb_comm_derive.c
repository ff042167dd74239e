/* comm's derived records: per host, the node x node matrices of message latency at the
 * smallest size and of streaming bandwidth at the largest, beside the pairs' hop classes;
 * across hosts, the links (hb_comm_links.c) and NIC locality (hb_comm_nic.c). */
#include "hb_suite_comm.h"
#include "hb_comm_bg.h"

#include "hb_jsonl_read.h"
#include "hb_stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Whether the record is a pair of two ranks on host `host` of `metric` and `bytes`, idle (not
 * under --bg's load). */
static bool comm_cell_of(const json_t *rec, const char *host, const char *metric, double bytes)
{
    return strcmp(hb_jsonl_read_str(rec, "suite", ""), "comm") == 0 &&
           strcmp(hb_jsonl_read_str(rec, "bg_level", "idle"), "idle") == 0 &&
           strcmp(hb_jsonl_read_str(rec, "src_host", ""), host) == 0 &&
           strcmp(hb_jsonl_read_str(rec, "dst_host", ""), host) == 0 &&
           strcmp(hb_jsonl_read_str(rec, "metric", ""), metric) == 0 &&
           hb_jsonl_read_num(rec, "message_bytes", -1) == bytes;
}

/* The records measured without --bg's load (a new array; NULL when out of memory). */
static json_t *comm_idle(json_t *measured)
{
    json_t *idle = json_array();
    size_t i;
    json_t *rec;
    json_array_foreach(measured, i, rec)
    {
        if (idle && strcmp(hb_jsonl_read_str(rec, "bg_level", "idle"), "idle") == 0 &&
            json_array_append(idle, rec) != 0) {
            json_decref(idle);
            idle = NULL;
        }
    }
    return idle;
}

/* The figure of cell (src, dst): the median over the rank pairs on those nodes (several when
 * ranks share a node), null when none measured it. */
static json_t *comm_cell(json_t *measured, const char *host, const char *metric, double bytes,
                         int src, int dst)
{
    size_t i, n = 0;
    json_t *rec;
    double *v = malloc(sizeof(*v) * (json_array_size(measured) + 1));
    if (!v) return NULL;
    json_array_foreach(measured, i, rec)
    {
        double x = hb_jsonl_read_num(rec, "value", NAN);
        if (comm_cell_of(rec, host, metric, bytes) &&
            hb_jsonl_read_num(rec, "src_node", -1) == src &&
            hb_jsonl_read_num(rec, "dst_node", -1) == dst && isfinite(x) &&
            strcmp(hb_jsonl_read_str(rec, "status", ""), "ok") == 0)
            v[n++] = x;
    }
    json_t *out = n ? json_real(hb_stats_median(v, (int)n)) : json_null();
    free(v);
    return out;
}

/* One matrix of host: rows the src nodes, cols the dst nodes, in `nodes` order. */
static json_t *matrix_record(const struct hb_suite_env *env, json_t *measured, const char *host,
                             const char *metric, double bytes, const char *unit)
{
    const struct hb_topo *t = env->topo;
    json_t *nodes = json_array(), *values = json_array(), *hops = json_array();
    for (int i = 0; i < t->nnodes; i++)
        if (t->nodes[i].has_cpus && hb_suite_kit_node_on(env, i))
            json_array_append_new(nodes, json_integer(t->nodes[i].os_index));
    size_t a, b;
    json_t *x, *y;
    json_array_foreach(nodes, a, x)
    {
        json_t *row = json_array(), *hrow = json_array();
        json_array_foreach(nodes, b, y)
        {
            int src = (int)json_integer_value(x), dst = (int)json_integer_value(y);
            int si = hb_topo_nodes_index(t, src), di = hb_topo_nodes_index(t, dst);
            json_array_append_new(row, comm_cell(measured, host, metric, bytes, src, dst));
            json_array_append_new(hrow, json_integer(hb_topo_distances_hops(t, si, di)));
        }
        json_array_append_new(values, row);
        json_array_append_new(hops, hrow);
    }
    return json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:O, s:o, s:o, s:o}", "type", "comm_matrix",
                     "suite", "comm", "host", host, "metric", metric, "unit", unit, "message_bytes",
                     (json_int_t)bytes, "rows", nodes, "cols", nodes, "values", values, "hop_class",
                     hops);
}

int hb_comm_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived)
{
    double least, most;
    hb_comm_pool_sizes(measured, &least, &most);
    json_t *hosts = json_array();
    size_t i, k;
    json_t *rec, *h;
    /* The hosts in order of first appearance, each with a pair of its own. */
    json_array_foreach(measured, i, rec)
    {
        const char *host = hb_jsonl_read_str(rec, "src_host", "");
        bool seen = strcmp(host, hb_jsonl_read_str(rec, "dst_host", "")) != 0;
        json_array_foreach(hosts, k, h) seen = seen || strcmp(json_string_value(h), host) == 0;
        if (!seen) json_array_append_new(hosts, json_string(host));
    }
    int rc = 0;
    json_array_foreach(hosts, k, h)
    {
        const char *host = json_string_value(h);
        json_t *lat = matrix_record(env, measured, host, "latency", least, "us");
        json_t *bw = matrix_record(env, measured, host, "bandwidth", most, "GBps");
        if (!lat || json_array_append_new(derived, lat)) rc = -ENOMEM;
        if (!bw || json_array_append_new(derived, bw)) rc = -ENOMEM;
    }
    json_decref(hosts);
    /* Across hosts: the links side by side, and what a rank's distance from a NIC costs, from
     * the idle records (--bg's loaded ones are compared with them in comm_bg). */
    json_t *idle = rc == 0 ? comm_idle(measured) : NULL;
    if (rc == 0 && !idle) rc = -ENOMEM;
    if (rc == 0)
        rc = hb_comm_links_derive(idle, env->opts->fleet_threshold_pct, env->host_configs, derived);
    if (rc == 0) rc = hb_comm_nic_derive(idle, env->host_nics, derived);
    json_decref(idle);
    return rc ? rc : hb_comm_bg_derive(env, measured, derived);
}
