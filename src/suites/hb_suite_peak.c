/* `peak`: peak injection bandwidth, as Intel's MLC --peak_injection_bandwidth measures it.
 * For each read:write mix (--kernel, default every mix), one experiment with one task per CPU
 * node, every core of each node at once, each on its own node's memory (or with --policy
 * interleave, each over every memory node). Under mpirun each rank runs its node's task at
 * the same time through the executor; the records are per node, and a derived `peak` record
 * per experiment and host sums them into the machine's total (its interval over the sums of
 * the nodes' repeats, each of which ran at once) and says how well the nodes' timed spans
 * overlapped (a total of runs that did not overlap is not a peak). */
#include "hb_suite_kit.h"
#include "hb_opt_doc.h"

#include "hb_error.h"
#include "hb_interval.h"
#include "hb_jsonl_read.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MLC's ratios: all reads, 3:1, 2:1, 1:1, with plain and non-temporal stores. */
static const char *const peak_mixes[] = {
    "read", "mix3:1", "mix2:1", "mix1:1", "mix3:1-nt", "mix2:1-nt", "mix1:1-nt", NULL,
};

/* Below this share of common time the nodes did not run together. */
#define HB_PEAK_MIN_OVERLAP 0.9

static int peak_check_mix(const char *kernel)
{
    for (int i = 0; peak_mixes[i]; i++)
        if (strcmp(kernel, peak_mixes[i]) == 0) return 0;
    hb_error_set("peak: '%s' is not a read:write mix; valid mixes: read, mix3:1, mix2:1, mix1:1, "
                 "mix3:1-nt, mix2:1-nt, mix1:1-nt",
                 kernel);
    return -EINVAL;
}

static int peak_add(const struct hb_suite_env *env, struct hb_plan *out, const char *kernel,
                    enum hb_policy policy, uint64_t bytes)
{
    const struct hb_options *o = env->opts;
    const struct hb_topo *t = env->topo;
    struct hb_experiment e;
    char name[HB_NAME_LEN];
    snprintf(name, sizeof(name), "peak-%s-%s", kernel, hb_placement_policy_name(policy));
    hb_suite_kit_experiment(env, &e, "peak", name, "bandwidth");
    for (int i = 0; i < t->nnodes; i++) {
        const struct hb_node *n = &t->nodes[i];
        /* Bound to its own node, a node needs memory of its own. */
        if (!n->has_cpus || (policy == HB_POLICY_BIND && !n->has_memory) ||
            !hb_suite_kit_node_on(env, i))
            continue;
        int threads = o->threads ? o->threads : n->ncores;
        struct hb_task *task = hb_plan_experiment_task(&e);
        int rc = task ? hb_suite_kit_task(env, task, n->os_index, 0, threads, kernel, policy,
                                          n->os_index, bytes)
                      : -ENOMEM;
        if (rc) {
            hb_plan_experiment_clear(&e);
            return rc;
        }
    }
    if (e.ntasks == 0) {
        hb_error_set("peak: no CPU node%s has memory of its own to bind to; use --policy "
                     "interleave",
                     env->opts->nodes ? " of --nodes" : "");
        return -EINVAL;
    }
    return hb_plan_add(out, &e);
}

static int suite_peak_plan(const struct hb_suite_env *env, struct hb_plan *out)
{
    const struct hb_options *o = env->opts;
    enum hb_policy policy = o->policy_set ? o->policy : HB_POLICY_BIND;
    if (policy == HB_POLICY_FIRSTTOUCH || policy == HB_POLICY_WEIGHTED) {
        hb_error_set("peak: --policy %s is not a placement to peak at; use bind (each node its own "
                     "memory, the default) or interleave%s",
                     hb_placement_policy_name(policy),
                     policy == HB_POLICY_WEIGHTED ? " (bw takes weighted)" : "");
        return -EINVAL;
    }
    uint64_t bytes = o->size ? o->size : env->default_bytes;
    char list[sizeof(o->kernels)];
    snprintf(list, sizeof(list), "%s", o->kernels);
    int rc = 0;
    if (!list[0]) {
        for (int i = 0; peak_mixes[i] && rc == 0; i++)
            rc = peak_add(env, out, peak_mixes[i], policy, bytes);
        return rc;
    }
    char *save = NULL;
    for (char *k = strtok_r(list, ",", &save); k && rc == 0; k = strtok_r(NULL, ",", &save))
        if ((rc = peak_check_mix(k)) == 0) rc = peak_add(env, out, k, policy, bytes);
    return rc;
}

/* One experiment on one host: the nodes' records so far. */
struct hb_peak_sum {
    const char *experiment, *host, *kernel, *policy;
    json_t *nodes, *node_GBps;
    double total, start, end, min_span;
    bool failed;
    /* Repeat k of every node ran at once: their sum is repeat k of the total. NULL when a
     * node has no repeats or another count of them (the total then has no interval). */
    json_t *repeat_sums;
};

/* Adds a node's repeat values to the total's, repeat by repeat. */
static void peak_add_repeats(struct hb_peak_sum *p, const json_t *values, bool first)
{
    size_t n = json_array_size(values), k;
    json_t *v;
    if (first) p->repeat_sums = json_array();
    if (!p->repeat_sums) return;
    if (n == 0 || (!first && n != json_array_size(p->repeat_sums))) {
        json_decref(p->repeat_sums);
        p->repeat_sums = NULL;
        return;
    }
    json_array_foreach(values, k, v)
    {
        double x = json_number_value(v);
        if (first)
            json_array_append_new(p->repeat_sums, json_real(x));
        else
            json_real_set(json_array_get(p->repeat_sums, k),
                          json_real_value(json_array_get(p->repeat_sums, k)) + x);
    }
}

/* The total's interval over its repeats (the sums), or null. */
static json_t *peak_total_ci(const json_t *sums)
{
    size_t n = json_array_size(sums), k;
    json_t *v;
    double *x = n ? malloc(n * sizeof(*x)) : NULL;
    struct hb_interval iv;
    if (!x) return json_null();
    json_array_foreach(sums, k, v) x[k] = json_real_value(v);
    json_t *ci = hb_interval_median(x, (int)n, HB_CI_LEVEL, &iv) == 0 && n > 1
                     ? json_pack("[f, f]", iv.lo, iv.hi)
                     : json_null();
    free(x);
    return ci;
}

static void peak_emit(struct hb_peak_sum *p, json_t *derived)
{
    if (!p->experiment) return;
    /* Each node's share of the time all of them ran together, the smallest one. */
    double common = p->end - p->start;
    bool any = json_array_size(p->nodes) > 0;
    double overlap = any && p->min_span > 0.0 && common > 0.0 ? common / p->min_span : 0.0;
    if (overlap > 1.0) overlap = 1.0;
    const char *note = p->failed ? "a node's measurement failed: the total leaves it out"
                       : overlap < HB_PEAK_MIN_OVERLAP
                           ? "the nodes' timed spans overlapped too little: the total is not a "
                             "peak of all nodes at once"
                           : "";
    json_array_append_new(
        derived, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:f, s:s, s:f, s:s}", "type",
                           "peak", "suite", "peak", "experiment", p->experiment, "host", p->host,
                           "kernel", p->kernel, "policy", p->policy, "nodes", p->nodes, "node_GBps",
                           p->node_GBps, "total_GBps", p->total, "unit", "GBps", "fg_overlap",
                           round(overlap * 1000.0) / 1000.0, "note", note));
    json_object_set_new(json_array_get(derived, json_array_size(derived) - 1), "total_GBps_ci95",
                        p->failed ? json_null() : peak_total_ci(p->repeat_sums));
    json_decref(p->repeat_sums);
    memset(p, 0, sizeof(*p));
}

static int suite_peak_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived)
{
    (void)env;
    struct hb_peak_sum p = {0};
    size_t i;
    json_t *r;
    /* Records of one experiment and host arrive together (one gather per experiment). */
    json_array_foreach(measured, i, r)
    {
        const char *exp = json_string_value(json_object_get(r, "experiment"));
        const char *host = json_string_value(json_object_get(r, "host"));
        if (!exp || !host) continue;
        if (!p.experiment || strcmp(p.experiment, exp) || strcmp(p.host, host)) {
            peak_emit(&p, derived);
            p.experiment = exp;
            p.host = host;
            p.kernel = json_string_value(json_object_get(r, "kernel"));
            p.policy = json_string_value(json_object_get(r, "policy"));
            p.nodes = json_array();
            p.node_GBps = json_array();
            p.start = -INFINITY;
            p.end = INFINITY;
            p.min_span = INFINITY;
        }
        json_t *bw = json_object_get(r, hb_jsonl_read_headline_key(r));
        const char *status = json_string_value(json_object_get(r, "status"));
        if (!json_is_number(bw) || !status || strcmp(status, "ok") != 0) {
            p.failed = true;
            continue;
        }
        double s = json_number_value(json_object_get(r, "fg_start_s"));
        double e = json_number_value(json_object_get(r, "fg_end_s"));
        peak_add_repeats(&p, json_object_get(r, "repeat_values"), json_array_size(p.nodes) == 0);
        json_array_append(p.nodes, json_object_get(r, "cpu_node"));
        json_array_append_new(p.node_GBps, json_real(json_number_value(bw)));
        p.total += json_number_value(bw);
        if (s > p.start) p.start = s;
        if (e < p.end) p.end = e;
        if (e - s < p.min_span) p.min_span = e - s;
    }
    peak_emit(&p, derived);
    return 0;
}

/* The options of its own it takes, besides the run options (hb_opt_doc.h). */
static const int peak_takes[] = {OPT_KERNEL, OPT_POLICY, OPT_THREADS, OPT_SIZE, OPT_PAGES,
                                 OPT_NODES,  0};

/* The columns its annotate and derive read beyond those always kept (hb_suite_keep.c). */
static const char *const peak_reads[] = {"fg_start_s", "fg_end_s", "repeat_values", NULL};

const struct hb_suite hb_suite_peak = {
    .takes = peak_takes,
    .kernels = "read and every mix kernel of the list below",
    .name = "peak",
    .help = "peak injection bandwidth (MLC style): every CPU node's cores at once on its own "
            "memory (--policy interleave: over all), per read:write mix (--kernel "
            "read,mix3:1,...); per-node records and the machine's total",
    .plan = suite_peak_plan,
    .derive = suite_peak_derive,
    .reads = peak_reads,
};
