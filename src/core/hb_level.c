/* The working set's level from hwloc's caches above the CPUs that run (core layer). */
#include "hb_level.h"

#include "hb_plan.h"
#include "hb_bytes.h"
#include "hb_default_size.h"
#include "hb_topo_mem.h"

#include <stdio.h>
#include <string.h>

/* Of the task's CPUs, how many sit under cache c. */
static int level_sharers(const struct hb_topo *t, hwloc_obj_t c, const int *cpus, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t->hw, (unsigned)cpus[i]);
        k += pu && hwloc_bitmap_isincluded(pu->cpuset, c->cpuset);
    }
    return k > 0 ? k : 1;
}

void hb_level_of(const struct hb_topo *t, const int *cpus, int n, uint64_t bytes, int mem,
                 struct hb_level *out)
{
    memset(out, 0, sizeof(*out));
    snprintf(out->name, sizeof(out->name), "memory");
    out->per_thread = n > 0 ? bytes / (uint64_t)n : bytes;
    hwloc_obj_t pu = n > 0 ? hwloc_get_pu_obj_by_os_index(t->hw, (unsigned)cpus[0]) : NULL;
    /* Nearest first: the first cache that holds each thread's part is the level. */
    for (hwloc_obj_t c = pu ? pu->parent : NULL; c; c = c->parent) {
        if (!hwloc_obj_type_is_dcache(c->type) || hb_topo_caches_is_memory_side_cache(c) ||
            !c->attr)
            continue;
        int cores = hwloc_get_nbobjs_inside_cpuset_by_type(t->hw, c->cpuset, HWLOC_OBJ_CORE);
        uint64_t size = c->attr->cache.size;
        /* A size no real part has is taken as the most one has, as the default size does. */
        if (hb_default_size_llc_unbelievable(size, cores))
            size = HB_LLC_PER_CORE_MAX * (uint64_t)(cores > 0 ? cores : 1);
        int k = level_sharers(t, c, cpus, n);
        if (out->per_thread > size / (uint64_t)k) continue;
        *out = (struct hb_level){.share_bytes = size / (uint64_t)k,
                                 .cache_bytes = size,
                                 .sharers = k,
                                 .per_thread = out->per_thread,
                                 .threads = n > k ? n : k};
        snprintf(out->name, sizeof(out->name), "L%u", c->attr->cache.depth);
        return;
    }
    struct hb_memcache mc[4];
    int nmc = mem >= 0 ? hb_topo_mem_caches(t, mem, mc, 4) : 0;
    for (int i = 0; i < nmc && i < 4; i++)
        if (bytes <= mc[i].size_bytes) {
            snprintf(out->name, sizeof(out->name), "memory-side cache");
            out->cache_bytes = out->share_bytes = mc[i].size_bytes;
            out->sharers = 1;
            out->threads = 1;
            return;
        }
}

int hb_level_plan(const struct hb_topo *t, const struct hb_plan *plan, char *buf, size_t len)
{
    int count = 0;
    buf[0] = '\0';
    for (int x = 0; x < plan->n; x++)
        for (int k = 0; k < plan->exps[x].ntasks; k++) {
            const struct hb_task *task = &plan->exps[x].tasks[k];
            int ni = hb_topo_nodes_index(t, task->cpu_node);
            if (task->role != HB_ROLE_FG || ni < 0) continue;
            int n = task->threads < t->nodes[ni].ncpus ? task->threads : t->nodes[ni].ncpus;
            int mem = task->policy == HB_POLICY_BIND ? hb_topo_nodes_index(t, task->mem_node) : -1;
            struct hb_level l;
            uint64_t touched = hb_level_footprint(task->bytes, task->chase_stride);
            hb_level_of(t, t->nodes[ni].cpus, n, touched, mem, &l);
            if (strcmp(l.name, "memory") == 0) continue;
            if (count++ > 0) continue;
            /* A chase says what it touches: its set alone would not fit where it is said to. */
            char set[32], line[224];
            hb_level_line(&l, touched, line, sizeof(line));
            if (touched == task->bytes)
                snprintf(buf, len, "%s", line);
            else
                snprintf(buf, len, "a chase over %s holds a 128-byte line pair per %llu bytes: %s",
                         hb_bytes_format(task->bytes, set, sizeof(set)),
                         (unsigned long long)task->chase_stride, line);
        }
    return count;
}

void hb_level_line(const struct hb_level *l, uint64_t bytes, char *buf, size_t len)
{
    char a[32], b[32], c[32], d[32], set[96];
    if (strcmp(l->name, "memory") == 0) {
        snprintf(buf, len, "%s", "");
        return;
    }
    /* Threads under caches of their own: the set is more than one cache holds, each thread's
     * part is what fits ("64 KiB fits in L1 (48 KiB)" of 2 threads would contradict). */
    hb_bytes_format(bytes, a, sizeof(a));
    if (l->threads > l->sharers)
        snprintf(set, sizeof(set), "%s over %d threads (%s each)", a, l->threads,
                 hb_bytes_format(l->per_thread, d, sizeof(d)));
    else
        snprintf(set, sizeof(set), "%s", a);
    if (l->sharers > 1)
        snprintf(buf, len,
                 "%s fits in %s (%s shared by %d threads, %s each): this measures %s, not memory",
                 set, l->name, hb_bytes_format(l->cache_bytes, b, sizeof(b)), l->sharers,
                 hb_bytes_format(l->share_bytes, c, sizeof(c)), l->name);
    else if (l->threads > 1)
        snprintf(buf, len, "%s fits in %s (%s per thread): this measures %s, not memory", set,
                 l->name, hb_bytes_format(l->cache_bytes, b, sizeof(b)), l->name);
    else
        snprintf(buf, len, "%s fits in %s (%s): this measures %s, not memory", set, l->name,
                 hb_bytes_format(l->cache_bytes, b, sizeof(b)), l->name);
}
