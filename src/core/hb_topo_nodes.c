/* The NUMA nodes: which CPUs and memory each has, from hwloc and sysfs, and lookups. */
#include "hb_topo.h"
#include "hb_topo_read.h"

#include "hb_error.h"
#include "hb_nodeset.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HB_SYSFS_NODE "/sys/devices/system/node/node%d/%s"

/* The whole text of a sysfs file of node os_index, however long (a CPU list of thousands of
 * CPUs), to free(); NULL when it cannot be read. */
static char *topo_sysfs_read(int os_index, const char *file)
{
    char path[128];
    snprintf(path, sizeof(path), HB_SYSFS_NODE, os_index, file);
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    char *text = NULL;
    size_t cap = 0;
    /* sysfs text holds no NUL: one getdelim reads it all (an empty file is ""). */
    ssize_t got = getdelim(&text, &cap, '\0', f);
    bool ok = !ferror(f);
    fclose(f);
    if (ok && got < 0) {
        free(text);
        text = strdup("");
    }
    if (!ok) {
        free(text);
        return NULL;
    }
    return text;
}

/* MemFree of one node as numactl -H shows it; 0 when sysfs cannot say. */
static uint64_t topo_sysfs_memfree(int os_index)
{
    char *text = topo_sysfs_read(os_index, "meminfo");
    const char *line = text ? strstr(text, "MemFree:") : NULL;
    uint64_t kib = 0;
    if (!line || sscanf(line, "MemFree: %" SCNu64, &kib) != 1) kib = 0;
    free(text);
    return kib * 1024;
}

uint64_t hb_topo_nodes_memfree_read(const struct hb_topo *t, int i)
{
    if (i < 0 || i >= t->nnodes) return 0;
    uint64_t now = t->is_this_system ? topo_sysfs_memfree(t->nodes[i].os_index) : 0;
    return now ? now : t->nodes[i].mem_free_bytes;
}

/* Linux: the memory_tierN directory whose nodelist holds the node (the kernel's own tier,
 * beside hwloc's); -1 when none does. */
static int topo_sysfs_kernel_tier(int os_index)
{
    const char *base = "/sys/devices/virtual/memory_tiering";
    DIR *d = opendir(base);
    if (!d) return -1;
    int tier = -1;
    struct dirent *e;
    while (tier < 0 && (e = readdir(d)) != NULL) {
        int n = -1;
        if (sscanf(e->d_name, "memory_tier%d", &n) != 1) continue;
        char path[512], *list = NULL;
        size_t cap = 0;
        snprintf(path, sizeof(path), "%s/%s/nodelist", base, e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        ssize_t got = getline(&list, &cap, f); /* as long as the list is */
        fclose(f);
        if (got > 0) list[strcspn(list, "\n")] = '\0';
        hwloc_bitmap_t set = hwloc_bitmap_alloc();
        if (got > 0 && set && hwloc_bitmap_list_sscanf(set, list) == 0 &&
            hwloc_bitmap_isset(set, (unsigned)os_index))
            tier = n;
        hwloc_bitmap_free(set);
        free(list);
    }
    closedir(d);
    return tier;
}

static int topo_cmp_obj(const void *a, const void *b)
{
    const hwloc_obj_t *x = a, *y = b;
    return ((*x)->os_index > (*y)->os_index) - ((*x)->os_index < (*y)->os_index);
}

/* Nodes that hwloc marks as special memory (HBM, GPU memory, SPM/CXL dax...) are never the
 * one that keeps the CPUs of a shared cpuset when a plain DRAM node is there too. */
static bool topo_node_is_plain(hwloc_obj_t obj)
{
    return !obj->subtype || strcmp(obj->subtype, "DRAM") == 0;
}

/* Which CPUs are "nearest" to each node.
 *
 * hwloc gives a CPU-less node (CXL expander, HBM, GPU memory) the cpuset of the object it is
 * attached to, so it equals (or contains) the cpuset of a node that really has those CPUs.
 * On this machine the kernel knows: /sys/devices/system/node/nodeN/cpulist is empty for a
 * memory-only node; it is intersected with hwloc's cpuset, which leaves out CPUs our cgroup
 * may not use. From an XML file every PU goes to the node with the smallest cpuset that
 * contains it (the most local one); among equal cpusets a plain node beats a special one
 * (subtype HBM, GPUMemory, SPM...) and then the lowest OS index wins. A node left with no
 * PU is memory-only. */
static int topo_assign_cpus(struct hb_topo *t, hwloc_bitmap_t *cpus)
{
    hwloc_const_bitmap_t all = hwloc_topology_get_topology_cpuset(t->hw);
    if (t->is_this_system) {
        bool sysfs_ok = true;
        for (int i = 0; i < t->nnodes && sysfs_ok; i++) {
            char *list = topo_sysfs_read(t->nodes[i].os_index, "cpulist");
            /* hwloc 2.9 parses "0\n" (a one-CPU node) as an empty set and still returns 0,
             * which made every one-CPU node look memory-only: drop the newline first. */
            if (list) list[strcspn(list, "\n")] = '\0';
            sysfs_ok = list && hwloc_bitmap_list_sscanf(cpus[i], list) == 0;
            free(list);
            bool some = !hwloc_bitmap_iszero(cpus[i]);
            hwloc_bitmap_and(cpus[i], cpus[i], all);
            /* The kernel lists CPUs our cgroup or affinity may not use. */
            if (some && hwloc_bitmap_iszero(cpus[i])) t->nodes[i].cpus_state = HB_CPUS_NOT_ALLOWED;
        }
        if (sysfs_ok) return 0;
        /* No usable sysfs (an unusual container): the XML rule below is the best guess. */
        for (int i = 0; i < t->nnodes; i++) {
            hwloc_bitmap_zero(cpus[i]);
            t->nodes[i].cpus_state = HB_CPUS_OWN;
        }
    }
    hwloc_obj_t pu = NULL;
    while ((pu = hwloc_get_next_obj_by_type(t->hw, HWLOC_OBJ_PU, pu)) != NULL) {
        int best = -1;
        for (int i = 0; i < t->nnodes; i++) {
            hwloc_obj_t obj = t->nodes[i].obj;
            if (!hwloc_bitmap_isset(obj->cpuset, pu->os_index)) continue;
            if (best < 0) {
                best = i;
                continue;
            }
            hwloc_obj_t cur = t->nodes[best].obj;
            int w = hwloc_bitmap_weight(obj->cpuset), wb = hwloc_bitmap_weight(cur->cpuset);
            if (w < wb || (w == wb && topo_node_is_plain(obj) && !topo_node_is_plain(cur)))
                best = i;
        }
        if (best >= 0) hwloc_bitmap_set(cpus[best], pu->os_index);
    }
    return 0;
}

/* Fill cpus[], ncpus, ncores of one node from its CPU set. */
static int topo_node_fill_cpus(struct hb_topo *t, struct hb_node *node, hwloc_const_bitmap_t set)
{
    int rc = 0;
    hwloc_bitmap_t cores = hwloc_bitmap_alloc();
    node->ncpus = hwloc_bitmap_weight(set);
    node->cpus = calloc(node->ncpus > 0 ? (size_t)node->ncpus : 1, sizeof(*node->cpus));
    if (!node->cpus || !cores) {
        hb_error_set("out of memory listing the CPUs of NUMA node %d", node->os_index);
        rc = -ENOMEM;
        goto out;
    }
    int k = 0;
    int cpu;
    int coreless = 0;
    hwloc_bitmap_foreach_begin(cpu, set)
    {
        node->cpus[k++] = cpu;
        hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t->hw, (unsigned)cpu);
        hwloc_obj_t core = pu ? hwloc_get_ancestor_obj_by_type(t->hw, HWLOC_OBJ_CORE, pu) : NULL;
        if (core)
            hwloc_bitmap_set(cores, core->logical_index);
        else
            coreless++; /* hwloc shows no core: count the CPU itself as one */
    }
    hwloc_bitmap_foreach_end();
    node->ncores = hwloc_bitmap_weight(cores) + coreless;
    node->has_cpus = node->ncpus > 0;
out:
    hwloc_bitmap_free(cores);
    return rc;
}

/* Why a node without CPUs of its own has none. On this machine the kernel's empty cpulist
 * (memory-only) or one outside our allowed set (not-allowed) was seen while assigning. From
 * XML: CPUs in complete_cpuset but not in cpuset are not allowed to whoever wrote the file; a
 * cpuset whose CPUs went to another node is shared (hwloc gives an HBM, CXL or Cluster-on-Die
 * node without groups its package's CPUs). */
static void topo_cpus_state(struct hb_topo *t, struct hb_node *node)
{
    node->cpus_shared_with = -1;
    if (node->has_cpus) {
        node->cpus_state = HB_CPUS_OWN;
        return;
    }
    if (node->cpus_state == HB_CPUS_NOT_ALLOWED) return;
    node->cpus_state = HB_CPUS_NONE;
    if (t->is_this_system) return;
    hwloc_obj_t obj = node->obj;
    int first = hwloc_bitmap_first(obj->cpuset);
    if (first >= 0) {
        int owner = hb_topo_nodes_of_cpu(t, first);
        node->cpus_state = HB_CPUS_SHARED;
        node->cpus_shared_with = owner >= 0 ? t->nodes[owner].os_index : -1;
    } else if (obj->complete_cpuset && !hwloc_bitmap_iszero(obj->complete_cpuset)) {
        node->cpus_state = HB_CPUS_NOT_ALLOWED;
    }
}

const char *hb_topo_nodes_cpus_state_name(enum hb_cpus_state s)
{
    static const char *const names[] = {"own", "memory-only", "not-allowed", "shared"};
    return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "unknown";
}

int hb_topo_nodes_check_usable(const struct hb_topo *t)
{
    int rc = t->is_this_system ? -HB_EENV : -EINVAL;
    if (hb_topo_nodes_count_cpu_nodes(t) == 0) {
        int exist = 0;
        for (int i = 0; i < t->nnodes; i++)
            exist += t->nodes[i].cpus_state == HB_CPUS_NOT_ALLOWED;
        if (t->is_this_system)
            hb_error_set("no NUMA node of this machine has a CPU this process may use (%s); run "
                         "where the cgroup or affinity mask allows the CPUs of a node",
                         exist ? "CPUs exist but none is allowed" : "hwloc shows none");
        else
            hb_error_set(
                "topology file '%s' has no NUMA node with a CPU its process could use (%s); "
                "export it where the CPUs are allowed: lstopo --of xml FILE.xml",
                t->source, exist ? "CPUs exist but none is allowed" : "hwloc shows none");
        return rc;
    }
    if (hb_topo_nodes_count_mem_nodes(t) == 0) {
        if (t->is_this_system)
            hb_error_set("hwloc reports no memory size for any NUMA node of this machine; check "
                         "that /sys/devices/system/node is readable");
        else
            hb_error_set("topology file '%s' gives no memory size for any NUMA node (an x86 CPUID "
                         "export has none); export it on the machine itself: lstopo --of xml "
                         "FILE.xml",
                         t->source);
        return rc;
    }
    return 0;
}

bool hb_topo_nodes_is_cpu_node_of_machine(const struct hb_topo *t, int i)
{
    return i >= 0 && i < t->nnodes &&
           (t->nodes[i].has_cpus || t->nodes[i].cpus_state == HB_CPUS_NOT_ALLOWED);
}

int hb_topo_nodes_read(struct hb_topo *t)
{
    int rc = 0;
    int n = hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_NUMANODE);
    if (n <= 0) {
        hb_error_set("hwloc finds no NUMA node in %s; hopbench needs at least one", t->source);
        return -ENODEV;
    }
    hwloc_bitmap_t *cpus = calloc((size_t)n, sizeof(*cpus));
    hwloc_obj_t *objs = calloc((size_t)n, sizeof(*objs));
    t->nodes = calloc((size_t)n, sizeof(*t->nodes));
    if (!cpus || !objs || !t->nodes) {
        hb_error_set("out of memory reading %d NUMA nodes", n);
        free(cpus);
        free(objs);
        return -ENOMEM;
    }
    for (int i = 0; i < n; i++)
        objs[i] = hwloc_get_obj_by_type(t->hw, HWLOC_OBJ_NUMANODE, (unsigned)i);
    qsort(objs, (size_t)n, sizeof(objs[0]), topo_cmp_obj);
    t->nnodes = n;
    for (int i = 0; i < n; i++) {
        struct hb_node *node = &t->nodes[i];
        node->obj = objs[i];
        node->os_index = (int)objs[i]->os_index;
        node->mem_bytes = objs[i]->attr->numanode.local_memory;
        node->has_memory = node->mem_bytes > 0;
        uint64_t free_now = t->is_this_system ? topo_sysfs_memfree(node->os_index) : 0;
        node->mem_free_bytes = free_now ? free_now : node->mem_bytes;
        node->kernel_tier = t->is_this_system ? topo_sysfs_kernel_tier(node->os_index) : -1;
        cpus[i] = hwloc_bitmap_alloc();
        if (!cpus[i]) {
            hb_error_set("out of memory reading NUMA node %d", node->os_index);
            rc = -ENOMEM;
            goto out;
        }
    }
    rc = topo_assign_cpus(t, cpus);
    for (int i = 0; i < n && rc == 0; i++) {
        rc = topo_node_fill_cpus(t, &t->nodes[i], cpus[i]);
        t->ncpus_total += t->nodes[i].ncpus;
    }
    for (int i = 0; i < n && rc == 0; i++)
        topo_cpus_state(t, &t->nodes[i]);
out:
    for (int i = 0; i < n; i++)
        hwloc_bitmap_free(cpus[i]);
    free(cpus);
    free(objs);
    return rc;
}

int hb_topo_nodes_index(const struct hb_topo *t, int os_index)
{
    for (int i = 0; i < t->nnodes; i++)
        if (t->nodes[i].os_index == os_index) return i;
    return -1;
}

int hb_topo_nodes_of_cpu(const struct hb_topo *t, int cpu)
{
    for (int i = 0; i < t->nnodes; i++)
        for (int k = 0; k < t->nodes[i].ncpus; k++)
            if (t->nodes[i].cpus[k] == cpu) return i;
    return -1;
}

int hb_topo_nodes_count_cpu_nodes(const struct hb_topo *t)
{
    int n = 0;
    for (int i = 0; i < t->nnodes; i++)
        n += t->nodes[i].has_cpus;
    return n;
}

int hb_topo_nodes_count_mem_nodes(const struct hb_topo *t)
{
    int n = 0;
    for (int i = 0; i < t->nnodes; i++)
        n += t->nodes[i].has_memory;
    return n;
}

hwloc_bitmap_t hb_topo_nodeset(const struct hb_topo *t, bool need_cpus, bool need_memory)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    for (int i = 0; set && i < t->nnodes; i++) {
        const struct hb_node *node = &t->nodes[i];
        if ((need_cpus && !node->has_cpus) || (need_memory && !node->has_memory)) continue;
        hwloc_bitmap_set(set, (unsigned)node->os_index);
    }
    return set;
}

char *hb_topo_nodes_list(const struct hb_topo *t, bool need_cpus, bool need_memory)
{
    hwloc_bitmap_t set = hb_topo_nodeset(t, need_cpus, need_memory);
    char *list = set ? hb_nodeset_print(set) : NULL;
    hwloc_bitmap_free(set);
    return list;
}
