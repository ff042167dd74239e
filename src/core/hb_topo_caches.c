/* CPU and memory-side caches above a node's CPUs. */
#include "hb_topo.h"

#include "hb_bytes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool hb_topo_caches_is_memory_side_cache(const struct hwloc_obj *o)
{
    return o->type == HWLOC_OBJ_MEMCACHE || (hwloc_obj_type_is_dcache(o->type) && o->subtype &&
                                             strcmp(o->subtype, "MemorySideCache") == 0);
}

/* The highest-level data (or unified) CPU cache above a PU. */
static hwloc_obj_t topo_pu_llc(hwloc_obj_t pu)
{
    hwloc_obj_t llc = NULL;
    for (hwloc_obj_t o = pu->parent; o; o = o->parent)
        if (hwloc_obj_type_is_dcache(o->type) && !hb_topo_caches_is_memory_side_cache(o)) llc = o;
    return llc;
}

uint64_t hb_topo_caches_llc_bytes(const struct hb_topo *t, int i, const char **source)
{
    static _Thread_local char text[96];
    uint64_t total = 0;
    *source = "unknown (no such node)";
    if (i < 0 || i >= t->nnodes) return 0;
    const struct hb_node *node = &t->nodes[i];
    *source = "none (node has no CPUs)";
    if (!node->has_cpus) return 0;
    /* At most one cache per CPU of the node. */
    hwloc_obj_t *seen = calloc((size_t)node->ncpus, sizeof(*seen));
    int nseen = 0;
    bool same_size = true;
    *source = "unknown (out of memory)";
    if (!seen) return 0;
    for (int k = 0; k < node->ncpus; k++) {
        hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t->hw, (unsigned)node->cpus[k]);
        hwloc_obj_t llc = pu ? topo_pu_llc(pu) : NULL;
        bool dup = llc == NULL;
        for (int s = 0; s < nseen && !dup; s++)
            dup = seen[s] == llc;
        if (dup) continue;
        same_size = same_size && (nseen == 0 || seen[0]->attr->cache.size == llc->attr->cache.size);
        seen[nseen++] = llc;
        total += llc->attr->cache.size;
    }
    *source = "unknown (hwloc shows no cache)";
    if (nseen == 0) {
        free(seen);
        return 0;
    }
    char size[32];
    if (same_size)
        snprintf(text, sizeof(text), "hwloc L%u (%d x %s)", seen[0]->attr->cache.depth, nseen,
                 hb_bytes_format(seen[0]->attr->cache.size, size, sizeof(size)));
    else
        snprintf(text, sizeof(text), "hwloc L%u (%d caches, %s)", seen[0]->attr->cache.depth, nseen,
                 hb_bytes_format(total, size, sizeof(size)));
    free(seen);
    *source = text;
    return total;
}

int hb_topo_caches_sizes(const struct hb_topo *t, int i, uint64_t levels[4])
{
    int filled = 0;
    memset(levels, 0, 4 * sizeof(levels[0]));
    if (i < 0 || i >= t->nnodes || !t->nodes[i].has_cpus) return 0;
    hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t->hw, (unsigned)t->nodes[i].cpus[0]);
    for (hwloc_obj_t o = pu ? pu->parent : NULL; o; o = o->parent) {
        unsigned level =
            o->attr && hwloc_obj_type_is_dcache(o->type) && !hb_topo_caches_is_memory_side_cache(o)
                ? o->attr->cache.depth
                : 0;
        if (level < 1 || level > 4) continue;
        levels[level - 1] = o->attr->cache.size;
        if ((int)level > filled) filled = (int)level;
    }
    return filled;
}
