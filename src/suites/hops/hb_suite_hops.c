/* `hops`: AMD 40555's foreground/background experiments (single threads, pairs, crossfire,
 * background load levels at three subscriptions) planned from the topology. What the runs
 * mean (per-thread times as % of the local read, pair totals, the two myth verdicts) is in
 * hb_suite_hops_derive.c. */
#include "hb_suite_hops.h"
#include "hb_opt_doc.h"

#include "hb_error.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* 40555: every foreground thread walks its own 64 MB array. */
#define HB_HOPS_BYTES ((uint64_t)64 << 20)
/* Up to this many CPU nodes the loaded cases run from every one of them. */
#define HB_HOPS_LOADED_FROM_ALL 8

struct hb_hops {
    const struct hb_suite_env *env;
    struct hb_plan *out;
    uint64_t bytes;
};

static const char *hops_kernel(const char *access)
{
    return strcmp(access, "r") == 0 ? "read" : strcmp(access, "w") == 0 ? "write" : "copy";
}

/* One foreground thread: cpu node, team slot, access, memory node (OS indexes). */
struct hb_fg {
    int cpu, thread, mem;
};

/* keys: the experiment's suite keys, name and value in turn, NULL-ended. */
static int hops_add(struct hb_hops *h, const char *name, const char *const *keys,
                    const char *access, const struct hb_fg *fg, int nfg, int level,
                    int subscription)
{
    struct hb_experiment e;
    hb_suite_kit_experiment(h->env, &e, "hops", name, "bandwidth");
    int rc = 0;
    for (int k = 0; keys[k] && rc == 0; k += 2)
        rc = hb_plan_param_str(&e, keys[k], keys[k + 1]);
    for (int k = 0; k < nfg && rc == 0; k++) {
        struct hb_task *task = hb_plan_experiment_task(&e);
        rc = task ? hb_suite_kit_task(h->env, task, fg[k].cpu, fg[k].thread, 1, hops_kernel(access),
                                      HB_POLICY_BIND, fg[k].mem, h->bytes)
                  : -ENOMEM;
    }
    if (rc == 0 && level > 0) {
        rc = hb_suite_bg_add_background(h->env, &e, subscription, level, h->bytes);
        /* No node is left to load at this subscription (one-node machines): nothing to show. */
        if (rc == 0 && e.ntasks == nfg) {
            hb_plan_experiment_clear(&e);
            return 0;
        }
    }
    if (rc) {
        hb_plan_experiment_clear(&e);
        return rc;
    }
    return hb_plan_add(h->out, &e);
}

/* Node indexes in order, of the nodes taking part: CPU nodes, memory nodes. */
static int hops_nodes(const struct hb_suite_env *env, bool cpus, int *idx)
{
    const struct hb_topo *t = env->topo;
    int n = 0;
    for (int i = 0; i < t->nnodes; i++)
        if ((cpus ? t->nodes[i].has_cpus : t->nodes[i].has_memory) && hb_suite_kit_node_on(env, i))
            idx[n++] = i;
    return n;
}

static int os(const struct hb_topo *t, int i)
{
    return t->nodes[i].os_index;
}

/* The memory node (index) closest to CPU node c: its reference "local" target. */
static int hops_nearest(const struct hb_topo *t, int c, const int *mem, int nmem)
{
    int best = mem[0];
    for (int m = 0; m < nmem; m++) {
        if (mem[m] == c) return c;
        uint64_t d = hb_topo_distances_between(t, c, mem[m]);
        if (d && d < hb_topo_distances_between(t, c, best)) best = mem[m];
    }
    return best;
}

static int hops_single(struct hb_hops *h, const int *cpu, int ncpu, const int *mem, int nmem,
                       const char *const *access, int level, int subscription)
{
    const struct hb_topo *t = h->env->topo;
    const char *lvl = hb_options_bg_level_names[level];
    const char *sub = level ? hb_options_subscription_names[subscription] : NULL;
    /* The reference 0.0.r.0 runs first, so every later record can be put against it. */
    int first_mem = hops_nearest(t, cpu[0], mem, nmem);
    for (int a = 0; access[a]; a++)
        for (int c = 0; c < ncpu; c++)
            for (int pass = 0; pass < 2; pass++)
                for (int m = 0; m < nmem; m++) {
                    bool ref = c == 0 && mem[m] == first_mem;
                    if ((pass == 0) != ref) continue;
                    char name[HB_NAME_LEN];
                    snprintf(name, sizeof(name), "hops-%s%s%s-%s-%d-%d", lvl, sub ? "-" : "",
                             sub ? sub : "", access[a], os(t, cpu[c]), os(t, mem[m]));
                    const char *keys[] = {"case",         "single", "bg_level", sub ? lvl : "idle",
                                          "subscription", sub,      NULL};
                    if (!sub) keys[4] = NULL;
                    struct hb_fg fg = {os(t, cpu[c]), 0, os(t, mem[m])};
                    int rc = hops_add(h, name, keys, access[a], &fg, 1, level, subscription);
                    if (rc) return rc;
                }
    return 0;
}

/* First memory node (index) at hop class `hop` from CPU node c, preferring one not `avoid`. */
static int hops_at(const struct hb_topo *t, int c, int hop, const int *mem, int nmem, int avoid)
{
    int found = -1;
    for (int m = 0; m < nmem; m++)
        if (hb_topo_distances_hops(t, c, mem[m]) == hop) {
            if (mem[m] != avoid) return mem[m];
            found = mem[m];
        }
    return found;
}

/* Hop classes run from 0 to nclasses - 1 (just 0, local, without a distance table). */
static int hops_nclasses(const struct hb_topo *t)
{
    return t->nclasses > 1 ? t->nclasses : 1;
}

static int hops_classes(const struct hb_topo *t, int c, const int *mem, int nmem, int *cls)
{
    int n = 0;
    for (int hop = 0; hop < hops_nclasses(t); hop++)
        if (hops_at(t, c, hop, mem, nmem, -1) >= 0) cls[n++] = hop;
    return n;
}

/* Two threads, both on node c0 (c1 < 0) or one on c0 and one on c1, for every pair of hop
 * classes the topology offers from those nodes. */
static int hops_pairs(struct hb_hops *h, int c0, int c1, const int *mem, int nmem,
                      const char *access)
{
    const struct hb_topo *t = h->env->topo;
    int second = c1 < 0 ? c0 : c1;
    if (c1 < 0 && t->nodes[c0].ncpus < 2) return 0;
    int *ca = calloc((size_t)hops_nclasses(t), sizeof(int));
    int *cb = calloc((size_t)hops_nclasses(t), sizeof(int));
    int rc = ca && cb ? 0 : -ENOMEM;
    if (rc) hb_error_set("out of memory for %d hop classes", hops_nclasses(t));
    int na = rc ? 0 : hops_classes(t, c0, mem, nmem, ca);
    int nb = rc ? 0 : hops_classes(t, second, mem, nmem, cb);
    for (int x = 0; x < na && rc == 0; x++)
        for (int y = 0; y < nb && rc == 0; y++) {
            if (cb[y] < ca[x]) continue;
            int ma = hops_at(t, c0, ca[x], mem, nmem, -1);
            int mb = hops_at(t, second, cb[y], mem, nmem, ma);
            struct hb_fg fg[2] = {{os(t, c0), 0, os(t, ma)},
                                  {os(t, second), c1 < 0 ? 1 : 0, os(t, mb)}};
            char name[HB_NAME_LEN], pair[32];
            snprintf(name, sizeof(name), "hops-pair-%s-%d.%d.%d-%d.%d.%d", access, fg[0].cpu,
                     fg[0].thread, fg[0].mem, fg[1].cpu, fg[1].thread, fg[1].mem);
            snprintf(pair, sizeof(pair), "%d-%d", ca[x], cb[y]);
            const char *keys[] = {"case",     "pair",      "pair",
                                  pair,       "placement", c1 < 0 ? "one-node" : "two-node",
                                  "bg_level", "idle",      NULL};
            rc = hops_add(h, name, keys, access, fg, 2, 0, 0);
        }
    free(ca);
    free(cb);
    return rc;
}

/* Every hop-class-1 link a-b with CPUs and memory on both ends: a and b write (read) each
 * other's memory (crossfire), then b's thread turns to another node at the same hop class
 * from b (no crossfire). */
static int hops_crossfire(struct hb_hops *h, const char *access)
{
    const struct hb_topo *t = h->env->topo;
    for (int a = 0; a < t->nnodes; a++)
        for (int b = a + 1; b < t->nnodes; b++) {
            const struct hb_node *na = &t->nodes[a], *nb = &t->nodes[b];
            if (!na->has_cpus || !na->has_memory || !nb->has_cpus || !nb->has_memory ||
                !hb_suite_kit_node_on(h->env, a) || !hb_suite_kit_node_on(h->env, b) ||
                hb_topo_distances_hops(t, a, b) != 1 || hb_topo_distances_hops(t, b, a) != 1)
                continue;
            char name[HB_NAME_LEN], link[32];
            struct hb_fg fg[2] = {{na->os_index, 0, nb->os_index}, {nb->os_index, 0, na->os_index}};
            snprintf(name, sizeof(name), "hops-crossfire-%s-%d-%d", access, na->os_index,
                     nb->os_index);
            snprintf(link, sizeof(link), "%d-%d", na->os_index, nb->os_index);
            const char *keys[] = {"case", "crossfire", "link", link, "bg_level", "idle", NULL};
            int rc = hops_add(h, name, keys, access, fg, 2, 0, 0);
            if (rc) return rc;
            for (int k = 0; k < t->nnodes; k++) {
                if (k == a || k == b || !t->nodes[k].has_memory ||
                    !hb_suite_kit_node_on(h->env, k) || hb_topo_distances_hops(t, b, k) != 1)
                    continue;
                fg[1].mem = t->nodes[k].os_index;
                snprintf(name, sizeof(name), "hops-no-crossfire-%s-%d-%d", access, na->os_index,
                         nb->os_index);
                keys[1] = "no-crossfire";
                if ((rc = hops_add(h, name, keys, access, fg, 2, 0, 0))) return rc;
                break;
            }
        }
    return 0;
}

/* Which of names a comma list selects, as flags by index; all when the list is empty. */
static void hops_select(unsigned mask, const char *const *names, bool *on)
{
    for (int i = 0; names[i]; i++)
        on[i] = mask & (1u << i);
}

/* The study over CPU nodes cpu[] and memory nodes mem[] (indexes). */
static int hops_plan_nodes(struct hb_hops *hp, const int *cpu, int ncpu, const int *mem, int nmem)
{
    const struct hb_suite_env *env = hp->env;
    const struct hb_options *o = env->opts;
    const struct hb_topo *t = env->topo;
    struct hb_plan *out = hp->out;
    struct hb_hops h = *hp;
    static const char *const quick_single[] = {"r", "w", NULL};
    static const char *const all_single[] = {"r", "w", "rw", NULL};
    static const char *const rw_only[] = {"r", "w", NULL};
    static const char *const r_only[] = {"r", NULL};
    int rc = hops_single(&h, cpu, ncpu, mem, nmem, o->quick ? quick_single : all_single, 0, 0);
    const char *const *pair_access = o->quick ? r_only : rw_only;
    for (int a = 0; rc == 0 && pair_access[a]; a++) {
        for (int c = 0; rc == 0 && c < (o->quick ? 1 : ncpu); c++)
            rc = hops_pairs(&h, cpu[c], -1, mem, nmem, pair_access[a]);
        for (int c = 1; rc == 0 && c < (o->quick ? (ncpu > 1 ? 2 : 1) : ncpu); c++)
            rc = hops_pairs(&h, cpu[0], cpu[c], mem, nmem, pair_access[a]);
    }
    int before = out->n;
    for (int a = 0; rc == 0 && rw_only[a]; a++)
        rc = hops_crossfire(&h, rw_only[a]);
    /* A study without its crossfire half says why, in one line. */
    if (rc == 0 && out->n == before)
        hb_suite_kit_say(env, "hops: no crossfire planned: %s",
                         ncpu < 2 ? "fewer than two CPU nodes"
                         : !t->hop_class
                             ? "the firmware gives no distance table, so no hop class 1"
                             : "no two CPU nodes with memory are linked at hop class 1");
    /* Quick: the two ends of the load range at under subscription, from the first node. */
    bool level_on[8], sub_on[4];
    hops_select(o->level_mask ? o->level_mask >> 1
                : o->quick    ? 1u | 1u << 3
                              : ~0u,
                hb_options_bg_level_names + 1, level_on);
    hops_select(o->subscription_mask ? o->subscription_mask
                : o->quick           ? 1u
                                     : ~0u,
                hb_options_subscription_names, sub_on);
    /* Loaded cases from every CPU node to every memory node grow as nodes squared times
     * levels and subscriptions (98304 experiments of 65 tasks on 64 nodes): past a few
     * nodes they run from the first one unless --nodes chose the nodes. */
    int from = o->quick ? 1 : ncpu;
    if (from > HB_HOPS_LOADED_FROM_ALL && !env->opts->nodes) {
        from = 1;
        hb_suite_kit_say(env,
                         "hops: %d CPU nodes: the loaded cases run from node %d only; choose the "
                         "nodes to load from with --nodes",
                         ncpu, os(t, cpu[0]));
    }
    for (int l = 1; rc == 0 && hb_options_bg_level_names[l]; l++)
        for (int s = 0; rc == 0 && hb_options_subscription_names[s]; s++)
            if (level_on[l - 1] && sub_on[s])
                rc = hops_single(&h, cpu, from, mem, nmem, o->quick ? r_only : rw_only, l, s);
    return rc;
}

static int suite_hops_plan(const struct hb_suite_env *env, struct hb_plan *out)
{
    const struct hb_options *o = env->opts;
    const struct hb_topo *t = env->topo;
    struct hb_hops h = {env, out, o->size ? o->size : HB_HOPS_BYTES};
    int *cpu = calloc((size_t)t->nnodes, sizeof(int)),
        *mem = calloc((size_t)t->nnodes, sizeof(int));
    int rc = 0;
    if (!cpu || !mem) {
        hb_error_set("out of memory listing %d nodes", t->nnodes);
        rc = -ENOMEM;
    }
    int ncpu = rc ? 0 : hops_nodes(env, true, cpu), nmem = rc ? 0 : hops_nodes(env, false, mem);
    if (rc == 0 && (ncpu == 0 || nmem == 0)) {
        hb_error_set("hops needs a node with CPUs and a node with memory; %s has %d and %d",
                     t->source, ncpu, nmem);
        rc = -EINVAL;
    }
    if (rc == 0) rc = hops_plan_nodes(&h, cpu, ncpu, mem, nmem);
    free(cpu);
    free(mem);
    return rc;
}

/* The options of its own it takes, besides the run options (hb_opt_doc.h). */
static const int hops_takes[] = {OPT_SIZE,      OPT_PAGES,   OPT_STRIDE, OPT_TLB_GROUP,
                                 OPT_NODES,     OPT_QUICK,   OPT_LEVEL,  OPT_SUBSCRIPTION,
                                 OPT_TOLERANCE, OPT_BG_RATE, 0};

/* The columns its annotate and derive read beyond those always kept (hb_suite_keep.c). */
const char *const hb_suite_hops_reads[] = {"sweeps_per_sample", "t_median_s", "repeat_values",
                                           NULL};

const struct hb_suite hb_suite_hops = {
    .takes = hops_takes,
    .name = "hops",
    .help = "AMD 40555 foreground/background study: single, pairs, crossfire, background load "
            "levels, and the hop-myth verdicts",
    .plan = suite_hops_plan,
    .annotate = hb_hops_derive_annotate,
    .derive = hb_hops_derive,
    .reads = hb_suite_hops_reads,
    .refers = hb_hops_derive_refers,
    .tiers = "hops",
    .needs_mem_nodes = 2,
    .needs_why = "compares memory at different hop distances from each CPU node",
};
