/* `sweep`: latency and memcpy bandwidth against working-set size, lmbench lat_mem_rd style.
 * One thread on --cpu-node against memory bound to --mem-node (default: the CPU node), sizes
 * from 1 KiB doubling up to --max-size (default 2 GiB), never above a quarter of the memory
 * node's free memory, each under 4k and THP pages. Records carry `ws_bytes`, the per-level
 * cache sizes of the CPU node (`cache_bytes`, from hwloc) and, on the largest size that still
 * lives in a cache level, `cache_end` ("L1", "L3", "memory-side cache" for the memory node's
 * memory-side cache, `memside_cache_bytes`), which the table marks: the level as each
 * record's `level` takes it (hb_level_of: believable sizes, shared caches). The team runner
 * calibrates sweeps per sample to --min-time, so tiny sets still give a real figure.
 *
 * The chase loads one line per --stride bytes and the adjacent-line prefetcher brings its
 * 128-byte pair, so what it keeps in a cache is `touched_bytes` = ws_bytes x 128 / stride
 * (hb_level_footprint); the cache marks compare that with each level, and
 * the chase's sizes start where the ring holds HB_SWEEP_MIN_LINES lines. Each stride of a
 * --stride list is a curve of its own. */
#include "hb_suite_kit.h"
#include "hb_opt_doc.h"

#include "hb_error.h"
#include "hb_level.h"
#include "hb_bytes.h"
#include "hb_topo_mem.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define HB_SWEEP_MIN ((uint64_t)1 << 10)
#define HB_SWEEP_MAX_DEFAULT ((uint64_t)1 << 31)
/* Fewest lines in a chase ring: fewer would time the loop more than the loads. */
#define HB_SWEEP_MIN_LINES 16

/* Largest doubling step from 1 KiB that stays within both caps. */
static uint64_t sweep_top(const struct hb_topo *t, int mem_node, uint64_t max_size)
{
    /* A quarter of the free memory leaves room for the OS and the page-location checks. */
    uint64_t cap = hb_topo_nodes_memfree_read(t, hb_topo_nodes_index(t, mem_node)) / 4;
    if (max_size < cap) cap = max_size;
    uint64_t top = HB_SWEEP_MIN;
    while (top * 2 <= cap)
        top *= 2;
    return top;
}

/* The level a working set of footprint `touched` lives in for one thread of CPU node index
 * ni with memory on node index mi: hb_level_of, as each record's level is. */
static void sweep_level(const struct hb_topo *t, int ni, int mi, uint64_t touched,
                        struct hb_level *l)
{
    hb_level_of(t, t->nodes[ni].cpus, t->nodes[ni].ncpus > 0 ? 1 : 0, touched, mi, l);
}

/* The level whose last step this footprint is ("L1", "L3", "memory-side cache"): it lives
 * there and the next size (twice the footprint) lives further out; "" for none. */
static void sweep_cache_end(const struct hb_topo *t, int ni, int mi, uint64_t touched, char *buf,
                            size_t len)
{
    struct hb_level here, next;
    sweep_level(t, ni, mi, touched, &here);
    sweep_level(t, ni, mi, touched * 2, &next);
    bool ends = strcmp(here.name, "memory") != 0 && strcmp(here.name, next.name) != 0;
    snprintf(buf, len, "%s", ends ? here.name : "");
}

/* stride: the chase's stride, 0 for a bandwidth kernel (it touches every line). */
static int sweep_add(const struct hb_suite_env *env, struct hb_plan *out, int cpu, int mem,
                     const char *kernel, enum hb_pages pages, uint64_t ws, const uint64_t levels[5],
                     uint64_t stride)
{
    const struct hb_topo *t = env->topo;
    char name[HB_NAME_LEN], mark[32], stride_text[24] = "";
    const char *pname = pages == HB_PAGES_THP ? "thp" : "4k";
    if (stride && env->opts->nstrides > 1)
        snprintf(stride_text, sizeof(stride_text), "%llu", (unsigned long long)stride);
    int n = snprintf(name, sizeof(name), "sweep-%s%s-%s-%d-%d-%llu", kernel, stride_text, pname,
                     cpu, mem, (unsigned long long)ws);
    if (n < 0 || (size_t)n >= sizeof(name)) {
        hb_error_set("sweep: the name of the %s%s experiment at %llu bytes on nodes %d/%d would "
                     "exceed %d characters; choose a smaller --stride or --max-size",
                     kernel, stride_text, (unsigned long long)ws, cpu, mem, HB_NAME_LEN - 1);
        return -EINVAL;
    }
    struct hb_experiment e;
    int rc = hb_suite_kit_single(env, &e, "sweep", name, kernel, cpu, 1, HB_POLICY_BIND, mem, ws,
                                 stride);
    if (rc) return rc;
    e.tasks[0].pages = pages;
    uint64_t touched = hb_level_footprint(ws, stride);
    sweep_cache_end(t, hb_topo_nodes_index(t, cpu), hb_topo_nodes_index(t, mem), touched, mark,
                    sizeof(mark));
    const long long caches[4] = {(long long)levels[0], (long long)levels[1], (long long)levels[2],
                                 (long long)levels[3]};
    rc = hb_plan_param_int(&e, "ws_bytes", (long long)ws);
    if (rc == 0) rc = hb_plan_param_int(&e, "touched_bytes", (long long)touched);
    if (rc == 0) rc = hb_plan_param_ints(&e, "cache_bytes", caches, 4);
    if (rc == 0) rc = hb_plan_param_int(&e, "memside_cache_bytes", (long long)levels[4]);
    if (rc == 0 && mark[0]) rc = hb_plan_param_str(&e, "cache_end", mark);
    if (rc) {
        hb_plan_experiment_clear(&e);
        return rc;
    }
    return hb_plan_add(out, &e);
}

/* The sweep of CPU node cpu against its memory (or --mem-node). */
static int sweep_from(const struct hb_suite_env *env, struct hb_plan *out, int cpu)
{
    const struct hb_options *o = env->opts;
    const struct hb_topo *t = env->topo;
    int rc;
    if ((rc = hb_suite_kit_check_cpu_node(t, cpu, "--cpu-node"))) return rc;
    int mem = o->mem_node >= 0 ? o->mem_node : cpu;
    if ((rc = hb_suite_kit_check_mem_node(t, mem, "--mem-node"))) return rc;
    uint64_t max_size = o->max_size ? o->max_size : HB_SWEEP_MAX_DEFAULT;
    if (max_size < HB_SWEEP_MIN) {
        hb_error_set("--max-size %llu bytes: the sweep starts at 1 KiB; give at least 1K",
                     (unsigned long long)max_size);
        return -EINVAL;
    }
    uint64_t top = sweep_top(t, mem, max_size);
    /* A --max-size past a quarter of the node's free memory is cut there: said, not silent. */
    if (o->max_size && top * 2 <= o->max_size) {
        char asked[32], got[32];
        hb_suite_kit_say(env,
                         "sweep: --max-size %s is cut to %s, the largest doubling within a quarter "
                         "of node %d's free memory",
                         hb_bytes_format(o->max_size, asked, sizeof(asked)),
                         hb_bytes_format(top, got, sizeof(got)), mem);
    }
    uint64_t levels[5];
    hb_topo_caches_sizes(t, hb_topo_nodes_index(t, cpu), levels);
    struct hb_memcache msc[4];
    int nmsc = hb_topo_mem_caches(t, hb_topo_nodes_index(t, mem), msc, 4);
    levels[4] = 0;
    for (int k = 0; k < nmsc && k < 4; k++)
        if (msc[k].size_bytes > levels[4]) levels[4] = msc[k].size_bytes;
    static const enum hb_pages pages[] = {HB_PAGES_4K, HB_PAGES_THP};
    for (int si = 0; si < o->nstrides; si++) {
        uint64_t first = HB_SWEEP_MIN;
        while (first < HB_SWEEP_MIN_LINES * o->strides[si])
            first *= 2;
        if (first > top) {
            char s[32], f[32], m[32];
            hb_error_set("sweep: --stride %s needs working sets of at least %s (%d lines), but the "
                         "largest is %s; raise --max-size or choose a smaller --stride",
                         hb_bytes_format(o->strides[si], s, sizeof(s)),
                         hb_bytes_format(first, f, sizeof(f)), HB_SWEEP_MIN_LINES,
                         hb_bytes_format(top, m, sizeof(m)));
            return -EINVAL;
        }
        for (int pi = 0; pi < 2; pi++)
            for (uint64_t ws = first; ws <= top; ws *= 2)
                if ((rc = sweep_add(env, out, cpu, mem, "chase", pages[pi], ws, levels,
                                    o->strides[si])))
                    return rc;
    }
    for (int pi = 0; pi < 2; pi++)
        for (uint64_t ws = HB_SWEEP_MIN; ws <= top; ws *= 2)
            if ((rc = sweep_add(env, out, cpu, mem, "memcpy", pages[pi], ws, levels, 0))) return rc;
    return 0;
}

static int suite_sweep_plan(const struct hb_suite_env *env, struct hb_plan *out)
{
    const struct hb_options *o = env->opts;
    const struct hb_topo *t = env->topo;
    int rc = 0;
    if (o->size) {
        hb_error_set("sweep takes no --size: it runs 1 KiB .. --max-size (default 2 GiB)");
        return -EINVAL;
    }
    /* --nodes: a sweep from every CPU node chosen, each to its own memory (or --mem-node). */
    if (env->opts->nodes && o->cpu_node < 0) {
        for (int i = 0; rc == 0 && i < t->nnodes; i++)
            if (t->nodes[i].has_cpus && hb_suite_kit_node_on(env, i))
                rc = sweep_from(env, out, t->nodes[i].os_index);
        return rc;
    }
    int cpu = o->cpu_node;
    for (int i = 0; cpu < 0 && i < t->nnodes; i++)
        if (t->nodes[i].has_cpus) cpu = t->nodes[i].os_index;
    return sweep_from(env, out, cpu);
}

/* The options of its own it takes, besides the run options (hb_opt_doc.h). */
static const int sweep_takes[] = {OPT_CPU_NODE, OPT_MEM_NODE,  OPT_NODES,  OPT_MAX_SIZE,
                                  OPT_STRIDE,   OPT_TLB_GROUP, OPT_CHAINS, 0};

const struct hb_suite hb_suite_sweep = {
    .takes = sweep_takes,
    .name = "sweep",
    .help = "latency (4k and THP) and memcpy bandwidth vs working set, 1 KiB up to --max-size, "
            "cache levels marked",
    .plan = suite_sweep_plan,
    .flags = HB_SUITE_STRIDE_LIST | HB_SUITE_CACHES,
};
