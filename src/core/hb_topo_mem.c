/* The firmware's account of memory (hb_topo_mem.h): kinds, tiers, memory-side caches, HMAT
 * figures and where they contradict the SLIT. */
#include "hb_topo_mem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Table order = enum order. */
static const struct {
    const char *name;
    bool latency;
} hmat_attrs[HB_HMAT_NATTRS] = {
    [HB_HMAT_LATENCY] = {"Latency", true},
    [HB_HMAT_READ_LATENCY] = {"ReadLatency", true},
    [HB_HMAT_WRITE_LATENCY] = {"WriteLatency", true},
    [HB_HMAT_BANDWIDTH] = {"Bandwidth", false},
    [HB_HMAT_READ_BANDWIDTH] = {"ReadBandwidth", false},
    [HB_HMAT_WRITE_BANDWIDTH] = {"WriteBandwidth", false},
};

const char *hb_topo_mem_hmat_attr_name(enum hb_hmat_attr a)
{
    return hmat_attrs[a].name;
}

bool hb_topo_mem_hmat_attr_is_latency(enum hb_hmat_attr a)
{
    return hmat_attrs[a].latency;
}

const char *hb_topo_mem_hmat_attr_unit(enum hb_hmat_attr a)
{
    return hmat_attrs[a].latency ? "ns" : "MB/s";
}

static bool node_ok(const struct hb_topo *t, int i)
{
    return i >= 0 && i < t->nnodes;
}

/* The exact CPUs of node index i as an hwloc cpuset (caller frees), NULL for none. */
static hwloc_bitmap_t node_cpuset(const struct hb_topo *t, int i)
{
    if (!node_ok(t, i) || !t->nodes[i].has_cpus) return NULL;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    for (int k = 0; set && k < t->nodes[i].ncpus; k++)
        hwloc_bitmap_set(set, (unsigned)t->nodes[i].cpus[k]);
    return set;
}

double hb_topo_mem_hmat_value(const struct hb_topo *t, enum hb_hmat_attr a, int i, int j)
{
    hwloc_memattr_id_t id;
    if (!node_ok(t, j) || hwloc_memattr_get_by_name(t->hw, hmat_attrs[a].name, &id) < 0) return NAN;
    hwloc_bitmap_t set = node_cpuset(t, i);
    if (!set) return NAN;
    struct hwloc_location loc = {.type = HWLOC_LOCATION_TYPE_CPUSET};
    loc.location.cpuset = set;
    hwloc_uint64_t v = 0;
    int rc = hwloc_memattr_get_value(t->hw, id, t->nodes[j].obj, &loc, 0, &v);
    hwloc_bitmap_free(set);
    return rc == 0 ? (double)v : NAN;
}

/* How many initiators give attribute a for node index j. */
static unsigned hmat_ninitiators(const struct hb_topo *t, enum hb_hmat_attr a, int j)
{
    hwloc_memattr_id_t id;
    unsigned nr = 0;
    if (hwloc_memattr_get_by_name(t->hw, hmat_attrs[a].name, &id) < 0) return 0;
    if (hwloc_memattr_get_initiators(t->hw, id, t->nodes[j].obj, 0, &nr, NULL, NULL) < 0) return 0;
    return nr;
}

bool hb_topo_mem_hmat_present(const struct hb_topo *t)
{
    for (int j = 0; j < t->nnodes; j++)
        for (int a = 0; a < HB_HMAT_NATTRS; a++)
            if (hmat_ninitiators(t, (enum hb_hmat_attr)a, j) > 0) return true;
    return false;
}

const char *hb_topo_mem_kind(const struct hb_topo *t, int i)
{
    if (!node_ok(t, i)) return "unknown";
    const char *sub = t->nodes[i].obj->subtype;
    return sub && *sub ? sub : "DRAM";
}

int hb_topo_mem_tier(const struct hb_topo *t, int i)
{
    if (!node_ok(t, i)) return -1;
    const char *info = hwloc_obj_get_info_by_name(t->nodes[i].obj, "MemoryTier");
    if (info) return atoi(info);
    return t->nodes[i].kernel_tier;
}

bool hb_topo_mem_same_tier(const struct hb_topo *t, int i, int j)
{
    if (strcmp(hb_topo_mem_kind(t, i), hb_topo_mem_kind(t, j)) != 0) return false;
    int a = hb_topo_mem_tier(t, i), b = hb_topo_mem_tier(t, j);
    return a < 0 || b < 0 || a == b;
}

/* Linux keeps the write policy hwloc drops: memory_side_cache/indexL/write_policy. */
static const char *memcache_policy(const struct hb_topo *t, int os_index, unsigned level)
{
    if (!t->is_this_system) return "unknown";
    char path[256];
    snprintf(path, sizeof(path),
             "/sys/devices/system/node/node%d/memory_side_cache/index%u/"
             "write_policy",
             os_index, level);
    FILE *f = fopen(path, "r");
    int v = -1;
    if (!f) return "unknown";
    if (fscanf(f, "%d", &v) != 1) v = -1;
    fclose(f);
    return v == 0 ? "write-back" : v == 1 ? "write-through" : "unknown";
}

static struct hb_memcache memcache_of(const struct hb_topo *t, int i, hwloc_obj_t o)
{
    return (struct hb_memcache){
        .level = o->attr->cache.depth,
        .size_bytes = o->attr->cache.size,
        .line_bytes = o->attr->cache.linesize,
        .associativity = o->attr->cache.associativity,
        .policy = memcache_policy(t, t->nodes[i].os_index, o->attr->cache.depth),
    };
}

/* hwloc_obj_is_in_subtree() compares cpusets, which a node shares with its CPU caches. */
static bool is_ancestor(hwloc_obj_t a, hwloc_obj_t o)
{
    for (o = o->parent; o; o = o->parent)
        if (o == a) return true;
    return false;
}

int hb_topo_mem_caches(const struct hb_topo *t, int i, struct hb_memcache *out, int max)
{
    int n = 0;
    if (!node_ok(t, i)) return 0;
    hwloc_obj_t node = t->nodes[i].obj, o;
    for (o = node->parent; o && hb_topo_caches_is_memory_side_cache(o); o = o->parent, n++)
        if (n < max) out[n] = memcache_of(t, i, o);
    /* An hwloc 1 export puts KNL's cache-mode MCDRAM (L3Cache "MemorySideCache") under the
     * node, among its CPUs, not above it. */
    int depth = hwloc_topology_get_depth(t->hw);
    for (int d = 0; d < depth; d++)
        for (unsigned k = 0; (o = hwloc_get_obj_by_depth(t->hw, d, k)) != NULL; k++) {
            if (o->type == HWLOC_OBJ_MEMCACHE || !hb_topo_caches_is_memory_side_cache(o) ||
                hwloc_bitmap_iszero(o->cpuset) ||
                !hwloc_bitmap_isincluded(o->cpuset, node->cpuset) || is_ancestor(o, node))
                continue;
            if (n < max) out[n] = memcache_of(t, i, o);
            n++;
        }
    return n;
}

uint64_t hb_topo_mem_cache_max(const struct hb_topo *t)
{
    uint64_t best = 0;
    for (int i = 0; i < t->nnodes; i++) {
        struct hb_memcache c[4];
        int n = hb_topo_mem_caches(t, i, c, 4);
        for (int k = 0; k < n && k < 4; k++)
            if (t->nodes[i].has_memory && c[k].size_bytes > best) best = c[k].size_bytes;
    }
    return best;
}

/* CPU nodes (OS indexes) whose CPUs all lie in an initiator cpuset. */
static json_t *initiator_nodes(const struct hb_topo *t, hwloc_const_bitmap_t set)
{
    json_t *list = json_array();
    for (int k = 0; k < t->nnodes; k++) {
        hwloc_bitmap_t mine = node_cpuset(t, k);
        if (mine && hwloc_bitmap_isincluded(mine, set))
            json_array_append_new(list, json_integer(t->nodes[k].os_index));
        hwloc_bitmap_free(mine);
    }
    return list;
}

/* Every initiator's figure of every HMAT attribute for node index j. */
static json_t *node_hmat(const struct hb_topo *t, int j)
{
    json_t *list = json_array();
    for (int a = 0; a < HB_HMAT_NATTRS; a++) {
        unsigned nr = hmat_ninitiators(t, (enum hb_hmat_attr)a, j);
        hwloc_memattr_id_t id;
        if (nr == 0 || hwloc_memattr_get_by_name(t->hw, hmat_attrs[a].name, &id) < 0) continue;
        struct hwloc_location *locs = calloc(nr, sizeof(*locs));
        hwloc_uint64_t *vals = calloc(nr, sizeof(*vals));
        if (locs && vals &&
            hwloc_memattr_get_initiators(t->hw, id, t->nodes[j].obj, 0, &nr, locs, vals) == 0) {
            for (unsigned k = 0; k < nr; k++) {
                hwloc_const_bitmap_t set =
                    locs[k].type == HWLOC_LOCATION_TYPE_CPUSET   ? locs[k].location.cpuset
                    : locs[k].type == HWLOC_LOCATION_TYPE_OBJECT ? locs[k].location.object->cpuset
                                                                 : NULL;
                char *cpus = NULL;
                if (set && hwloc_bitmap_list_asprintf(&cpus, set) < 0) cpus = NULL;
                json_array_append_new(
                    list, json_pack("{s:s, s:I, s:s, s:o, s:s}", "attribute", hmat_attrs[a].name,
                                    "value", (json_int_t)vals[k], "unit",
                                    hb_topo_mem_hmat_attr_unit((enum hb_hmat_attr)a), "initiators",
                                    set ? initiator_nodes(t, set) : json_array(), "initiator_cpus",
                                    cpus ? cpus : ""));
                free(cpus);
            }
        }
        free(locs);
        free(vals);
    }
    return list;
}

void hb_topo_mem_annotate(const struct hb_topo *t, json_t *nodes)
{
    for (int i = 0; i < t->nnodes; i++) {
        json_t *n = json_array_get(nodes, (size_t)i);
        if (!n) continue;
        int tier = hb_topo_mem_tier(t, i);
        json_object_set_new(n, "kind", json_string(hb_topo_mem_kind(t, i)));
        json_object_set_new(n, "tier", tier >= 0 ? json_integer(tier) : json_null());
        /* The kernel's own tiering, beside hwloc's: it decides promotion and demotion. */
        int kt = t->nodes[i].kernel_tier;
        json_object_set_new(n, "kernel_tier", kt >= 0 ? json_integer(kt) : json_null());
        struct hb_memcache c[8];
        int nc = hb_topo_mem_caches(t, i, c, 8);
        json_t *caches = json_array();
        for (int k = 0; k < nc && k < 8; k++)
            json_array_append_new(caches,
                                  json_pack("{s:i, s:I, s:i, s:i, s:s}", "level", (int)c[k].level,
                                            "size_bytes", (json_int_t)c[k].size_bytes, "line_bytes",
                                            (int)c[k].line_bytes, "associativity",
                                            c[k].associativity, "policy", c[k].policy));
        json_object_set_new(n, "memory_side_caches", caches);
        json_object_set_new(n, "hmat", node_hmat(t, i));
    }
}

/* The two attributes checked against SLIT: lower latency and higher bandwidth are nearer. */
static const enum hb_hmat_attr conflict_attrs[] = {HB_HMAT_LATENCY, HB_HMAT_BANDWIDTH};

json_t *hb_topo_mem_hmat_conflicts(const struct hb_topo *t)
{
    json_t *list = json_array();
    if (!t->distances) return list;
    for (size_t a = 0; a < sizeof(conflict_attrs) / sizeof(conflict_attrs[0]); a++) {
        enum hb_hmat_attr attr = conflict_attrs[a];
        bool lat = hb_topo_mem_hmat_attr_is_latency(attr);
        for (int i = 0; i < t->nnodes; i++)
            for (int j = 0; j < t->nnodes; j++)
                for (int k = j + 1; k < t->nnodes; k++) {
                    double hj = hb_topo_mem_hmat_value(t, attr, i, j),
                           hk = hb_topo_mem_hmat_value(t, attr, i, k);
                    uint64_t dj = hb_topo_distances_between(t, i, j),
                             dk = hb_topo_distances_between(t, i, k);
                    if (isnan(hj) || isnan(hk) || dj == dk || hj == hk) continue;
                    /* nearer by SLIT must be nearer by HMAT */
                    bool slit_j = dj < dk, hmat_j = lat ? hj < hk : hj > hk;
                    if (slit_j == hmat_j) continue;
                    char why[256];
                    snprintf(why, sizeof(why),
                             "from node %d SLIT puts node %d nearer (%llu vs %llu), HMAT %s puts "
                             "node %d nearer (%g vs %g %s)",
                             t->nodes[i].os_index, t->nodes[slit_j ? j : k].os_index,
                             (unsigned long long)(slit_j ? dj : dk),
                             (unsigned long long)(slit_j ? dk : dj), hmat_attrs[attr].name,
                             t->nodes[hmat_j ? j : k].os_index, hmat_j ? hj : hk, hmat_j ? hk : hj,
                             hb_topo_mem_hmat_attr_unit(attr));
                    json_array_append_new(
                        list,
                        json_pack("{s:i, s:[i,i], s:s, s:[I,I], s:[f,f], s:s}", "cpu_node",
                                  t->nodes[i].os_index, "mem_nodes", t->nodes[j].os_index,
                                  t->nodes[k].os_index, "attribute", hmat_attrs[attr].name, "slit",
                                  (json_int_t)dj, (json_int_t)dk, "hmat", hj, hk, "reason", why));
                }
    }
    return list;
}

json_t *hb_topo_mem_tiers(const struct hb_topo *t)
{
    json_t *groups = json_array();
    bool *done = calloc((size_t)t->nnodes, sizeof(*done));
    if (!done) {
        json_decref(groups);
        return NULL;
    }
    for (int i = 0; i < t->nnodes; i++) {
        if (!t->nodes[i].has_memory || done[i]) continue;
        json_t *nodes = json_array();
        bool memonly = true;
        for (int j = i; j < t->nnodes; j++) {
            if (!t->nodes[j].has_memory || done[j] || !hb_topo_mem_same_tier(t, i, j) ||
                hb_topo_mem_tier(t, i) != hb_topo_mem_tier(t, j))
                continue;
            done[j] = true;
            memonly = memonly && !t->nodes[j].has_cpus;
            json_array_append_new(nodes, json_integer(t->nodes[j].os_index));
        }
        int tier = hb_topo_mem_tier(t, i);
        json_array_append_new(groups,
                              json_pack("{s:s, s:o, s:o, s:b}", "kind", hb_topo_mem_kind(t, i),
                                        "tier", tier >= 0 ? json_integer(tier) : json_null(),
                                        "nodes", nodes, "memory_only", memonly));
    }
    free(done);
    return groups;
}
