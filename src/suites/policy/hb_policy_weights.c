/* policy --weights auto: the weighted-interleave weight search for a pair of memory nodes A
 * (the faster, DRAM) and B (the slower: CXL, a far node): bandwidth bound to each, then
 * interleaved at a ladder of weights A:B; the derived `weights` record names the best ratio
 * beside the ratio of the two nodes' own bandwidths, the usual rule of thumb, and whether the
 * best step beats the next beyond the noise (intervals apart and the rank test passing the
 * adjustment over the searches derived together, hb_family_rec.h: one per host, and hosts are
 * derived one at a time). */
#include "hb_family_rec.h"
#include "hb_suite_policy.h"
#include "hb_opt_doc.h"

#include "hb_error.h"
#include "hb_jsonl_read.h"
#include "hb_topo_mem.h"
#include "hb_interleave_weights.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The weights of A for one page of B: from even to DRAM-heavy, as DRAM + CXL parts need. */
static const int weight_ladder[] = {1, 2, 3, 4, 6, 8, 12, 16};
#define HB_LADDER (sizeof(weight_ladder) / sizeof(weight_ladder[0]))

/* --mem-node A,B, or the CPU node's own memory and the memory node farthest from it. */
static int weights_pair(const struct hb_suite_env *env, int cpu, int pair[2])
{
    const struct hb_options *o = env->opts;
    const struct hb_topo *t = env->topo;
    if (o->nmem_nodes) {
        if (o->nmem_nodes != 2) {
            hb_error_set("policy --weights auto weighs a pair: --mem-node gives %d node%s; give "
                         "two, A,B (A the faster)",
                         o->nmem_nodes, o->nmem_nodes == 1 ? "" : "s");
            return -EINVAL;
        }
        for (int k = 0; k < 2; k++) {
            int rc = hb_suite_kit_check_mem_node(t, o->mem_nodes[k], "--mem-node");
            if (rc) return rc;
            pair[k] = o->mem_nodes[k];
        }
        return 0;
    }
    /* The slower node: of another kind or tier (CXL, a memory-only node) before the farthest
     * of the CPU node's own. */
    int ci = hb_topo_nodes_index(t, cpu), far = -1;
    uint64_t far_d = 0;
    for (int j = 0; ci >= 0 && t->nodes[ci].has_memory && j < t->nnodes; j++) {
        uint64_t d = (t->distances ? hb_topo_distances_between(t, ci, j) : 1) +
                     (hb_topo_mem_same_tier(t, ci, j) ? 0 : (uint64_t)1 << 32);
        if (j == ci || !t->nodes[j].has_memory || (far >= 0 && d <= far_d)) continue;
        far = j;
        far_d = d;
    }
    if (far < 0) {
        hb_error_set("policy --weights auto needs two memory nodes, node %d's own and another; "
                     "%s: nothing to weigh (give the pair with --mem-node A,B)",
                     cpu,
                     ci >= 0 && t->nodes[ci].has_memory ? "this machine has no other"
                                                        : "it has no memory of its own");
        return -HB_EENV; /* the machine's memory, not the command line */
    }
    pair[0] = cpu;
    pair[1] = t->nodes[far].os_index;
    return 0;
}

/* One step: bound to one node (weights 1:0 or 0:1) or weighted over both. */
static int weights_add(const struct hb_suite_env *env, struct hb_plan *out, const char *kernel,
                       int cpu, int threads, uint64_t bytes, const int pair[2],
                       const long long weights[2])
{
    bool weighted = weights[0] && weights[1];
    char name[HB_NAME_LEN];
    if (weighted)
        snprintf(name, sizeof(name), "policy-weights-%s-%lldto%lld", kernel, weights[0],
                 weights[1]);
    else
        snprintf(name, sizeof(name), "policy-weights-%s-bind%d", kernel, pair[weights[0] ? 0 : 1]);
    struct hb_experiment e;
    hb_suite_kit_experiment(env, &e, "policy", name, "bandwidth");
    int rc = hb_plan_param_str(&e, "workload", kernel);
    if (rc == 0) rc = hb_plan_param_str(&e, "policy", weighted ? "weighted" : "bind");
    if (rc == 0) rc = hb_plan_param_str(&e, "mode", "weights");
    if (rc == 0) rc = hb_plan_param_ints(&e, "weights", weights, 2);
    const long long nodes[2] = {pair[0], pair[1]};
    if (rc == 0) rc = hb_plan_param_ints(&e, "weight_nodes", nodes, 2);
    struct hb_task *task = rc ? NULL : hb_plan_experiment_task(&e);
    if (!rc && !task) rc = -ENOMEM;
    if (rc == 0)
        rc = hb_suite_kit_task(env, task, cpu, 0, threads, kernel,
                               weighted ? HB_POLICY_WEIGHTED : HB_POLICY_BIND,
                               pair[weights[0] ? 0 : 1], bytes);
    if (rc == 0 && weighted) { /* the pair, whatever --mem-node said */
        hwloc_bitmap_only(task->mem_nodes, (unsigned)pair[0]);
        hwloc_bitmap_set(task->mem_nodes, (unsigned)pair[1]);
    }
    if (rc) {
        hb_plan_experiment_clear(&e);
        return rc;
    }
    return hb_plan_add(out, &e);
}

/* The study's options that the search has no use for: refused, never ignored. */
static const int weights_refuses[] = {OPT_MODE,  OPT_INTENSITY, OPT_TIER,
                                      OPT_NODES, OPT_THRESHOLD, 0};

int hb_policy_weights_plan(const struct hb_suite_env *env, struct hb_plan *out, int cpu)
{
    const struct hb_options *o = env->opts;
    const struct hb_topo *t = env->topo;
    for (int i = 0; weights_refuses[i]; i++)
        if (o->given & ((uint64_t)1 << (weights_refuses[i] - OPT_KERNEL))) {
            hb_error_set("policy --weights auto takes no --%s: it weighs one pair of nodes from "
                         "one task on --cpu-node",
                         hb_opt_doc_name(weights_refuses[i]));
            return -EINVAL;
        }
    char kernel[sizeof(o->kernels)];
    snprintf(kernel, sizeof(kernel), "%s", o->kernels[0] ? o->kernels : "read");
    struct hb_kernel_ref k;
    int rc = strchr(kernel, ',') ? -EINVAL : env->lookup(kernel, &k);
    if (rc == 0 && k.latency) rc = -EINVAL;
    if (rc) {
        hb_error_set("policy --weights auto measures one bandwidth kernel; --kernel %s is not one "
                     "(e.g. read, triad)",
                     kernel);
        return rc;
    }
    if (t->is_this_system && (rc = hb_interleave_weights_check("policy --weights auto"))) return rc;
    int pair[2];
    if ((rc = weights_pair(env, cpu, pair))) return rc;
    if (t->is_this_system && !hb_interleave_weights_writable()) {
        hb_error_set("policy --weights auto sets the kernel's weighted-interleave weights in %s: "
                     "run it as root",
                     HB_INTERLEAVE_WEIGHTS_DIR);
        return -HB_EENV;
    }
    int threads = o->threads ? o->threads : t->nodes[hb_topo_nodes_index(t, cpu)].ncores;
    uint64_t bytes = o->size ? o->size : env->default_bytes;
    const long long binds[2][2] = {{1, 0}, {0, 1}};
    for (int b = 0; b < 2 && rc == 0; b++)
        rc = weights_add(env, out, kernel, cpu, threads, bytes, pair, binds[b]);
    for (size_t r = 0; r < HB_LADDER && rc == 0; r++) {
        const long long w[2] = {weight_ladder[r], 1};
        rc = weights_add(env, out, kernel, cpu, threads, bytes, pair, w);
    }
    return rc;
}

/* The weights [a, b] of a search record, or false. */
static bool weights_of(const json_t *rec, long long w[2])
{
    const json_t *a = json_object_get(rec, "weights");
    if (strcmp(hb_jsonl_read_str(rec, "mode", ""), "weights") != 0 || json_array_size(a) != 2)
        return false;
    w[0] = json_integer_value(json_array_get(a, 0));
    w[1] = json_integer_value(json_array_get(a, 1));
    return true;
}

/* One host's search: the ladder, the two binds, the best step and the bandwidth ratio; best
 * against next a candidate of fam ({"best_vs_next": its word}). */
static json_t *weights_record(json_t *measured, const char *host, struct hb_family_rec *fam)
{
    const json_t *bind[2] = {NULL, NULL}, *best = NULL, *next = NULL;
    json_t *ladder = json_array(), *rec;
    size_t i;
    json_array_foreach(measured, i, rec)
    {
        long long w[2];
        if (strcmp(hb_jsonl_read_str(rec, "host", ""), host) != 0 || !weights_of(rec, w)) continue;
        if (!w[0] || !w[1]) {
            bind[w[0] ? 0 : 1] = rec;
            continue;
        }
        json_t *step = hb_jsonl_read_figure(rec);
        json_object_set_new(step, "weights", json_pack("[I,I]", w[0], w[1]));
        json_object_set_new(step, "ratio", json_real((double)w[0] / (double)w[1]));
        json_array_append_new(ladder, step);
        double v = hb_jsonl_read_num(rec, "value", 0.0);
        if (!best || v > hb_jsonl_read_num(best, "value", 0.0)) {
            next = best;
            best = rec;
        } else if (!next || v > hb_jsonl_read_num(next, "value", 0.0)) {
            next = rec;
        }
    }
    double a = bind[0] ? hb_jsonl_read_num(bind[0], "value", 0.0) : 0.0;
    double b = bind[1] ? hb_jsonl_read_num(bind[1], "value", 0.0) : 0.0;
    long long bw[2] = {0, 0};
    if (best) weights_of(best, bw);
    double best_ratio = best ? (double)bw[0] / (double)bw[1] : 0.0, bw_ratio = b > 0 ? a / b : 0;
    enum hb_separation sep = best && next ? hb_jsonl_read_separation(best, next) : HB_NO_INTERVAL;
    json_t *e = json_pack("{s:s}", "best_vs_next", hb_jsonl_read_separation_name(sep));
    hb_family_rec_add(fam, e, sep == HB_NO_INTERVAL ? NAN : hb_family_rec_p(best, next, 1.0),
                      sep == HB_SEPARATE);
    json_decref(e);
    return json_pack(
        "{s:s, s:s, s:s, s:[o,o], s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:s}", "type", "weights",
        "suite", "policy", "host", host, "nodes",
        bind[0] ? json_incref(json_object_get(bind[0], "mem_node")) : json_null(),
        bind[1] ? json_incref(json_object_get(bind[1], "mem_node")) : json_null(), "ladder", ladder,
        "bind", json_pack("[o,o]", hb_jsonl_read_figure(bind[0]), hb_jsonl_read_figure(bind[1])),
        "bw_ratio", bw_ratio > 0 ? json_real(bw_ratio) : json_null(), "best_weights",
        best ? json_pack("[I,I]", bw[0], bw[1]) : json_null(), "best", hb_jsonl_read_figure(best),
        "best_ratio", best ? json_real(best_ratio) : json_null(), "best_vs_bw_ratio",
        best && bw_ratio > 0 ? json_real(best_ratio / bw_ratio) : json_null(), "best_vs_next",
        hb_jsonl_read_separation_name(sep));
}

int hb_policy_weights_derive(json_t *measured, json_t *derived)
{
    size_t i, first = json_array_size(derived);
    json_t *rec;
    struct hb_family_rec fam = {0};
    int rc = 0;
    json_array_foreach(measured, i, rec)
    {
        long long w[2];
        const char *host = hb_jsonl_read_str(rec, "host", "");
        bool first_of_host = weights_of(rec, w);
        for (size_t j = 0; first_of_host && j < i; j++)
            first_of_host =
                strcmp(hb_jsonl_read_str(json_array_get(measured, j), "host", ""), host) != 0 ||
                !weights_of(json_array_get(measured, j), w);
        json_t *out = first_of_host ? weights_record(measured, host, &fam) : NULL;
        if (first_of_host && (!out || json_array_append_new(derived, out))) {
            rc = -ENOMEM;
            break;
        }
    }
    /* The family: every search's best against its next; each record says its own. */
    if (rc == 0) rc = hb_family_rec_decide(&fam);
    hb_family_rec_demote(&fam, "best_vs_next", "inconclusive", NULL);
    for (size_t k = 0; rc == 0 && k < fam.n; k++) {
        json_t *e = json_array_get(fam.entries, k), *r = json_array_get(derived, first + k);
        json_object_set(r, "best_vs_next", json_object_get(e, "best_vs_next"));
        json_object_set(r, "best_vs_next_p", json_object_get(e, "p"));
        json_object_set(r, "best_vs_next_p_adjusted", json_object_get(e, "p_adjusted"));
        json_object_set_new(r, "family", hb_family_rec_json(&fam));
    }
    hb_family_rec_free(&fam);
    return rc;
}
