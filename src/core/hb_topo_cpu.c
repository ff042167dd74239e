/* What a user checks before choosing --threads and --size: per node, its packages, cores,
 * hardware threads per core and the CPU caches above its CPUs (each level: how many
 * instances, how big, how many CPUs share one), as topo shows them. */
#include "hb_topo.h"

#include "hb_default_size.h"

#include <jansson.h>
#include <stdlib.h>

/* The distinct objects of `type` (or, with cache_level > 0, the data or unified CPU caches
 * of that level) above node i's CPUs, in the order first met; *n of them (to free). */
static hwloc_obj_t *topo_above(const struct hb_topo *t, int i, hwloc_obj_type_t type,
                               unsigned cache_level, int *n)
{
    const struct hb_node *node = &t->nodes[i];
    hwloc_obj_t *seen = calloc((size_t)(node->ncpus ? node->ncpus : 1), sizeof(*seen));
    *n = 0;
    for (int k = 0; seen && k < node->ncpus; k++) {
        hwloc_obj_t o = hwloc_get_pu_obj_by_os_index(t->hw, (unsigned)node->cpus[k]);
        for (o = o ? o->parent : NULL; o; o = o->parent) {
            bool hit = cache_level ? hwloc_obj_type_is_dcache(o->type) &&
                                         !hb_topo_caches_is_memory_side_cache(o) &&
                                         o->attr->cache.depth == cache_level
                                   : o->type == type;
            if (hit) break;
        }
        bool dup = !o;
        for (int s = 0; s < *n && !dup; s++)
            dup = seen[s] == o;
        if (!dup) seen[(*n)++] = o;
    }
    return seen;
}

static const char *topo_cache_kind(const struct hwloc_obj *o)
{
    switch (o->attr->cache.type) {
    case HWLOC_OBJ_CACHE_DATA:
        return "data";
    case HWLOC_OBJ_CACHE_INSTRUCTION:
        return "instruction";
    default:
        return "unified";
    }
}

json_t *hb_topo_cpu_json(const struct hb_topo *t, int i)
{
    json_t *out = json_object(), *packages = json_array(), *caches = json_array();
    int n = 0, smt = 0;
    hwloc_obj_t *pk = topo_above(t, i, HWLOC_OBJ_PACKAGE, 0, &n);
    for (int k = 0; pk && k < n; k++)
        json_array_append_new(packages, json_integer(pk[k]->os_index));
    free(pk);
    hwloc_obj_t *cores = topo_above(t, i, HWLOC_OBJ_CORE, 0, &n);
    for (int k = 0; cores && k < n; k++) {
        int pus = hwloc_bitmap_weight(cores[k]->cpuset);
        if (pus > smt) smt = pus;
    }
    free(cores);
    /* A file without Core objects: each CPU counts as a core of its own, as ncores does. */
    if (smt == 0 && t->nodes[i].ncpus > 0) smt = 1;
    for (unsigned level = 1; level <= 5; level++) {
        hwloc_obj_t *c = topo_above(t, i, HWLOC_OBJ_TYPE_MAX, level, &n);
        if (c && n > 0) {
            /* Firmware can lie (a VM's 508 MiB L3 per core): say when no real part has it. */
            int cores_each =
                hwloc_get_nbobjs_inside_cpuset_by_type(t->hw, c[0]->cpuset, HWLOC_OBJ_CORE);
            json_array_append_new(
                caches,
                json_pack("{s:i, s:s, s:I, s:i, s:i, s:b}", "level", (int)level, "type",
                          topo_cache_kind(c[0]), "bytes", (json_int_t)c[0]->attr->cache.size,
                          "count", n, "cpus_each", hwloc_bitmap_weight(c[0]->cpuset), "believable",
                          !hb_default_size_llc_unbelievable(c[0]->attr->cache.size,
                                                            cores_each > 0 ? cores_each : 1)));
        }
        free(c);
    }
    json_object_set_new(out, "packages", packages);
    json_object_set_new(out, "smt", json_integer(smt));
    json_object_set_new(out, "caches", caches);
    return out;
}
