/* The `bw` suite: bandwidth of kernels from one CPU node to one memory node or a policy
 * (weighted interleave: with the weights it sets and records). */
#include "hb_local_plan.h"
#include "hb_opt_doc.h"

#include "hb_error.h"
#include "hb_jsonl_read.h"
#include "hb_interleave_weights.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* --policy weighted: --mem-node's nodes hold memory and this kernel has the policy (another
 * machine's topology only plans). Without root the kernel's own weights will be used. */
static int bw_check_weighted(const struct hb_suite_env *env)
{
    const struct hb_options *o = env->opts;
    for (int k = 0; k < o->nmem_nodes; k++) {
        int rc = hb_suite_kit_check_mem_node(env->topo, o->mem_nodes[k], "--mem-node");
        if (rc) return rc;
    }
    if (!env->topo->is_this_system) return 0;
    int rc = hb_interleave_weights_check("--policy weighted");
    if (rc == 0 && !hb_interleave_weights_writable())
        hb_suite_kit_say(env, "bw: not root, so --weights cannot be set: the kernel's current "
                              "weights are used (the records say weights_set false)");
    return rc;
}

/* The weights in force during the run (hb_interleave_weights.h), the share of pages they give each
 * node and whether hopbench set them, beside each weighted record's pages_share_pct. */
static void bw_annotate(const struct hb_suite_env *env, const json_t *measured, json_t *rec)
{
    (void)env;
    (void)measured;
    const struct hb_interleave_weights_state *w = hb_interleave_weights_current();
    if (!w || strcmp(hb_jsonl_read_str(rec, "policy", ""), "weighted") != 0) return;
    json_t *weights = json_object(), *share = json_object();
    long sum = 0;
    for (int k = 0; k < w->n; k++)
        sum += w->weights[k];
    for (int k = 0; k < w->n && sum > 0; k++) {
        char key[16];
        snprintf(key, sizeof(key), "%d", w->nodes[k]);
        json_object_set_new(weights, key, json_integer(w->weights[k]));
        json_object_set_new(share, key,
                            json_real(round(10000.0 * w->weights[k] / (double)sum) / 100.0));
    }
    json_object_set_new(rec, "weights", weights);
    json_object_set_new(rec, "weights_set", json_boolean(w->set));
    json_object_set_new(rec, "weights_share_pct", share);
}

static int suite_bw_plan(const struct hb_suite_env *env, struct hb_plan *out)
{
    const struct hb_options *o = env->opts;
    if (o->policy_set && o->policy == HB_POLICY_WEIGHTED) {
        int rc = bw_check_weighted(env);
        if (rc) return rc;
    } else if (o->policy_set && o->policy != HB_POLICY_BIND && o->mem_node >= 0) {
        /* A policy that places the pages itself leaves no node to bind them to. */
        hb_error_set("bw --policy %s places the pages itself (%s): --mem-node %d contradicts it; "
                     "give one or the other",
                     hb_placement_policy_name(o->policy),
                     o->policy == HB_POLICY_INTERLEAVE ? "over every node with memory"
                                                       : "where each thread first touches them",
                     o->mem_node);
        return -EINVAL;
    }
    return hb_local_plan(env, out, hb_local_plan_bw);
}

/* The options of its own it takes, besides the run options (hb_opt_doc.h). */
static const int bw_takes[] = {
    OPT_KERNEL, OPT_CPU_NODE, OPT_MEM_NODE,  OPT_POLICY, OPT_WEIGHTS, OPT_THREADS, OPT_SIZE,
    OPT_PAGES,  OPT_STRIDE,   OPT_TLB_GROUP, 0};

const struct hb_suite hb_suite_bw = {
    .takes = bw_takes,
    .kernels = HB_BW_KERNELS,
    .name = "bw",
    .help = "bandwidth of --kernel on --cpu-node to --mem-node or --policy (weighted: "
            "--weights over --mem-node's nodes)",
    .plan = suite_bw_plan,
    .annotate = bw_annotate,
};
