/* `loaded`: pointer-chase latency from one CPU node to one memory node while load threads on
 * chosen nodes inject read, write or 2:1 traffic into the same memory, at a sweep of injection
 * delays; the knee is the load bandwidth at which latency has doubled. */
#include "hb_suite_kit.h"
#include "hb_opt_doc.h"

#include "hb_error.h"
#include "hb_jsonl_read.h"
#include "hb_knee.h"
#include "hb_result.h"
#include "hb_bytes.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Injection delay between 64-byte lines of one load thread, in ns; 0 = unpaced. A line per
 * delay is 64/delay GB/s per thread. The idle point (no load) comes first; 6400 ns is about
 * MLC's 20000-cycle end of the sweep at 3 GHz. */
static const int delays_full[] = {6400, 3200, 1600, 800, 400, 200, 100, 50, 25, 0, -1};
static const int delays_quick[] = {1600, 400, 100, 0, -1};

/* The load kernel of each --mix (hb_options_mix_names): triad reads two arrays per one written. */
static const char *const mix_kernels[] = {"read", "write", "triad"};

/* load_bytes: each load thread's buffer, bytes: the chase's. */
static int loaded_add(const struct hb_suite_env *env, struct hb_plan *out, int cpu, int mem,
                      const bool *load_on, int delay, uint64_t bytes, uint64_t load_bytes)
{
    const struct hb_options *o = env->opts;
    const struct hb_topo *t = env->topo;
    struct hb_experiment e;
    char name[HB_NAME_LEN];
    if (delay < 0)
        snprintf(name, sizeof(name), "loaded-%d-%d-idle", cpu, mem);
    else
        snprintf(name, sizeof(name), "loaded-%d-%d-%s-%dns", cpu, mem, hb_options_mix_names[o->mix],
                 delay);
    hb_suite_kit_experiment(env, &e, "loaded", name, "latency");
    int rc;
    if (delay < 0)
        rc = hb_plan_param_null(&e, "delay");
    else
        rc = hb_plan_param_int(&e, "delay", delay);
    if (rc == 0) rc = hb_plan_param_str(&e, "mix", hb_options_mix_names[o->mix]);
    if (rc == 0 && delay < 0) rc = hb_plan_param_str(&e, "bg_level", "idle");
    struct hb_task *fg = rc ? NULL : hb_plan_experiment_task(&e);
    if (rc == 0)
        rc = fg ? hb_suite_kit_task(env, fg, cpu, 0, 1, "chase", HB_POLICY_BIND, mem, bytes)
                : -ENOMEM;
    for (int i = 0; rc == 0 && delay >= 0 && i < t->nnodes; i++) {
        if (!load_on[i]) continue;
        int first = t->nodes[i].os_index == cpu ? 1 : 0;
        int threads = t->nodes[i].ncpus - first;
        if (threads < 1) continue;
        struct hb_task *task = hb_plan_experiment_task(&e);
        uint64_t all = 0;
        rc = task ? hb_bytes_mul("load size per thread", load_bytes, (uint64_t)threads, &all)
                  : -ENOMEM;
        if (rc == 0)
            rc = hb_suite_kit_task(env, task, t->nodes[i].os_index, first, threads,
                                   mix_kernels[o->mix], HB_POLICY_BIND, mem, all);
        if (rc) break;
        task->role = HB_ROLE_BG;
        task->bg_rate_GBps = delay > 0 ? 64.0 / delay : 0.0;
    }
    if (rc == 0 && delay >= 0 && e.ntasks == 1) {
        hb_error_set("loaded: no CPU is left for load threads on --load-nodes %s (node %d's only "
                     "CPU runs the chase); choose load nodes with more CPUs",
                     o->nload_nodes ? o->load_nodes_text : "(every CPU node)", cpu);
        rc = -EINVAL;
    }
    if (rc) {
        hb_plan_experiment_clear(&e);
        return rc;
    }
    return hb_plan_add(out, &e);
}

/* Every load thread's buffer and the chase's share memory node mem: without --size each load
 * thread gets the share that lets them fit there together (on 64 CPU nodes 511 threads of
 * 256 MiB would need 128 GiB), and the plan says so. */
static uint64_t loaded_load_bytes(const struct hb_suite_env *env, int cpu, int mem,
                                  const bool *load_on, uint64_t bytes)
{
    const struct hb_topo *t = env->topo;
    uint64_t threads = 0, free_bytes = t->nodes[hb_topo_nodes_index(t, mem)].mem_free_bytes;
    for (int i = 0; i < t->nnodes; i++)
        if (load_on[i]) threads += (uint64_t)(t->nodes[i].ncpus - (t->nodes[i].os_index == cpu));
    if (env->opts->size || !threads || free_bytes <= bytes || bytes * (threads + 1) <= free_bytes)
        return bytes;
    uint64_t share = (free_bytes - bytes) / threads & ~(uint64_t)((1 << 20) - 1);
    char a[32], b[32];
    hb_suite_kit_say(env,
                     "loaded: %llu load threads share node %d: %s each, not %s (--size sets it)",
                     (unsigned long long)threads, mem, hb_bytes_format(share, a, sizeof(a)),
                     hb_bytes_format(bytes, b, sizeof(b)));
    return share;
}

/* The experiments once the chase and its load nodes are known. */
static int loaded_plan_load(const struct hb_suite_env *env, struct hb_plan *out, int cpu, int mem,
                            bool *load_on)
{
    const struct hb_options *o = env->opts;
    const struct hb_topo *t = env->topo;
    int rc = 0;
    if (o->nload_nodes) {
        for (int k = 0; k < o->nload_nodes; k++) {
            if ((rc = hb_suite_kit_check_cpu_node(t, o->load_nodes[k], "--load-nodes"))) return rc;
            load_on[hb_topo_nodes_index(t, o->load_nodes[k])] = true;
        }
    } else {
        for (int i = 0; i < t->nnodes; i++)
            load_on[i] = t->nodes[i].has_cpus && hb_suite_kit_node_on(env, i);
        /* One CPU node: a study of its own load only, said before anything runs. */
        if (hb_topo_nodes_count_cpu_nodes(t) == 1)
            hb_suite_kit_say(env,
                             "loaded: one NUMA node: the load comes from node %d's own other CPUs "
                             "into its own memory; latency under load from other nodes needs a "
                             "multi-node machine",
                             cpu);
    }
    uint64_t bytes = o->size ? o->size : env->default_bytes;
    uint64_t load_bytes = loaded_load_bytes(env, cpu, mem, load_on, bytes);
    const int *delays = o->quick ? delays_quick : delays_full;
    if ((rc = loaded_add(env, out, cpu, mem, load_on, -1, bytes, load_bytes))) return rc;
    for (int d = 0; delays[d] >= 0; d++)
        if ((rc = loaded_add(env, out, cpu, mem, load_on, delays[d], bytes, load_bytes))) return rc;
    return 0;
}

static int suite_loaded_plan(const struct hb_suite_env *env, struct hb_plan *out)
{
    const struct hb_options *o = env->opts;
    const struct hb_topo *t = env->topo;
    int cpu = o->cpu_node, mem = o->mem_node;
    for (int i = 0; cpu < 0 && i < t->nnodes; i++)
        if (t->nodes[i].has_cpus && hb_suite_kit_node_on(env, i)) cpu = t->nodes[i].os_index;
    if (mem < 0) mem = cpu;
    int rc = hb_suite_kit_check_cpu_node(t, cpu, "--cpu-node");
    if (rc || (rc = hb_suite_kit_check_mem_node(t, mem, "--mem-node"))) return rc;
    bool *load_on = calloc((size_t)t->nnodes, sizeof(*load_on));
    if (!load_on) {
        hb_error_set("out of memory choosing load nodes among %d", t->nnodes);
        return -ENOMEM;
    }
    rc = loaded_plan_load(env, out, cpu, mem, load_on);
    free(load_on);
    return rc;
}

static void suite_loaded_annotate(const struct hb_suite_env *env, const json_t *measured,
                                  json_t *rec)
{
    (void)env;
    (void)measured;
    json_t *bg = json_object_get(rec, "background");
    if (!json_is_array(bg)) return;
    double sum = 0.0;
    size_t i;
    json_t *b;
    json_array_foreach(bg, i, b) sum += json_number_value(json_object_get(b, "achieved_GBps"));
    /* Unrounded: the table and the knee's line round it once, as every figure shown. */
    json_object_set_new(rec, "total_GBps", json_real(sum));
}

static int suite_loaded_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived)
{
    (void)env;
    double idle = NAN;
    size_t most = json_array_size(measured);
    double *bw = calloc(most + 1, sizeof(*bw)), *lat = calloc(most + 1, sizeof(*lat));
    if (!bw || !lat) {
        free(bw);
        free(lat);
        hb_error_set("loaded: out of memory for the knee of %zu records", most);
        return -ENOMEM;
    }
    int n = 0, cpu = -1, mem = -1;
    size_t i;
    json_t *r;
    json_array_foreach(measured, i, r)
    {
        const char *role = json_string_value(json_object_get(r, "role"));
        json_t *l = json_object_get(r, hb_jsonl_read_headline_key(r));
        if (!role || strcmp(role, "foreground") || !json_is_number(l)) continue;
        cpu = (int)json_integer_value(json_object_get(r, "cpu_node"));
        mem = (int)json_integer_value(json_object_get(r, "mem_node"));
        if (json_is_null(json_object_get(r, "delay")))
            idle = json_number_value(l);
        else {
            bw[n] = json_number_value(json_object_get(r, "total_GBps"));
            lat[n++] = json_number_value(l);
        }
    }
    int oom = 0;
    double knee = isnan(idle) || n == 0 ? NAN : hb_knee_loaded(bw, lat, n, idle, &oom);
    if (oom) hb_error_set("loaded: out of memory sorting %d points", n);
    if (!oom && !isnan(idle) && n > 0)
        json_array_append_new(
            derived, json_pack("{s:s, s:s, s:s, s:i, s:i, s:o, s:s, s:f, s:f, s:s}", "type", "knee",
                               "suite", "loaded", "curve", "loaded", "cpu_node", cpu, "mem_node",
                               mem, "value", isnan(knee) ? json_null() : json_real(knee), "unit",
                               "GBps", "lat_ns_idle", idle, "max_total_GBps", bw[n - 1], "note",
                               isnan(knee) ? "latency never doubled over the load sweep" : ""));
    free(bw);
    free(lat);
    return oom ? -ENOMEM : 0;
}

/* The options of its own it takes, besides the run options (hb_opt_doc.h). */
static const int loaded_takes[] = {OPT_CPU_NODE, OPT_MEM_NODE,  OPT_SIZE,  OPT_PAGES,
                                   OPT_STRIDE,   OPT_TLB_GROUP, OPT_NODES, OPT_LOAD_NODES,
                                   OPT_MIX,      OPT_QUICK,     0};

const struct hb_suite hb_suite_loaded = {
    .takes = loaded_takes,
    .name = "loaded",
    .help = "pointer-chase latency under a sweep of injected load (the knee), loaded from every "
            "CPU node (one node: its own other CPUs)",
    .plan = suite_loaded_plan,
    .annotate = suite_loaded_annotate,
    .derive = suite_loaded_derive,
};
