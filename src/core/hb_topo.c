#include "hb_topo.h"

#include "hb_error.h"
#include "hb_nodeset.h"
#include "hb_size.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

uint64_t hb_topo_memfree_read(const struct hb_topo *t, int i)
{
    if (i < 0 || i >= t->nnodes) return 0;
    uint64_t now = t->is_this_system ? topo_sysfs_memfree(t->nodes[i].os_index) : 0;
    return now ? now : t->nodes[i].mem_free_bytes;
}

static int topo_cmp_obj(const void *a, const void *b)
{
    const hwloc_obj_t *x = a, *y = b;
    return ((*x)->os_index > (*y)->os_index) - ((*x)->os_index < (*y)->os_index);
}

static int topo_cmp_u64(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    return (*x > *y) - (*x < *y);
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
        hb_err_set("out of memory listing the CPUs of NUMA node %d", node->os_index);
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
        int owner = hb_topo_node_of_cpu(t, first);
        node->cpus_state = HB_CPUS_SHARED;
        node->cpus_shared_with = owner >= 0 ? t->nodes[owner].os_index : -1;
    } else if (obj->complete_cpuset && !hwloc_bitmap_iszero(obj->complete_cpuset)) {
        node->cpus_state = HB_CPUS_NOT_ALLOWED;
    }
}

const char *hb_topo_cpus_state_name(enum hb_cpus_state s)
{
    static const char *const names[] = {"own", "memory-only", "not-allowed", "shared"};
    return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "unknown";
}

int hb_topo_check_usable(const struct hb_topo *t)
{
    int rc = t->is_this_system ? -HB_EENV : -EINVAL;
    if (hb_topo_count_cpu_nodes(t) == 0) {
        int exist = 0;
        for (int i = 0; i < t->nnodes; i++)
            exist += t->nodes[i].cpus_state == HB_CPUS_NOT_ALLOWED;
        if (t->is_this_system)
            hb_err_set("no NUMA node of this machine has a CPU this process may use (%s); run "
                       "where the cgroup or affinity mask allows the CPUs of a node",
                       exist ? "CPUs exist but none is allowed" : "hwloc shows none");
        else
            hb_err_set("topology file '%s' has no NUMA node with a CPU its process could use (%s); "
                       "export it where the CPUs are allowed: lstopo --of xml FILE.xml",
                       t->source, exist ? "CPUs exist but none is allowed" : "hwloc shows none");
        return rc;
    }
    if (hb_topo_count_mem_nodes(t) == 0) {
        if (t->is_this_system)
            hb_err_set("hwloc reports no memory size for any NUMA node of this machine; check "
                       "that /sys/devices/system/node is readable");
        else
            hb_err_set("topology file '%s' gives no memory size for any NUMA node (an x86 CPUID "
                       "export has none); export it on the machine itself: lstopo --of xml "
                       "FILE.xml",
                       t->source);
        return rc;
    }
    return 0;
}

bool hb_topo_is_cpu_node_of_machine(const struct hb_topo *t, int i)
{
    return i >= 0 && i < t->nnodes &&
           (t->nodes[i].has_cpus || t->nodes[i].cpus_state == HB_CPUS_NOT_ALLOWED);
}

static int topo_nodes(struct hb_topo *t)
{
    int rc = 0;
    int n = hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_NUMANODE);
    if (n <= 0) {
        hb_err_set("hwloc finds no NUMA node in %s; hopbench needs at least one", t->source);
        return -ENODEV;
    }
    hwloc_bitmap_t *cpus = calloc((size_t)n, sizeof(*cpus));
    hwloc_obj_t *objs = calloc((size_t)n, sizeof(*objs));
    t->nodes = calloc((size_t)n, sizeof(*t->nodes));
    if (!cpus || !objs || !t->nodes) {
        hb_err_set("out of memory reading %d NUMA nodes", n);
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
        cpus[i] = hwloc_bitmap_alloc();
        if (!cpus[i]) {
            hb_err_set("out of memory reading NUMA node %d", node->os_index);
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

int hb_topo_classify(const uint64_t *distances, int n, const bool *cpu_node, int *hop_class)
{
    if (!distances || !hop_class || n < 1) {
        hb_err_set("cannot classify a %d x %d distance matrix: need at least 1 x 1", n, n);
        return -EINVAL;
    }
    size_t cells = (size_t)n * (size_t)n;
    uint64_t *sorted = malloc(cells * sizeof(*sorted));
    if (!sorted) {
        hb_err_set("out of memory ranking a %d x %d distance matrix", n, n);
        return -ENOMEM;
    }
    /* The interconnect: distances between two different CPU nodes only. */
    size_t nremote = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (i != j && (!cpu_node || (cpu_node[i] && cpu_node[j])))
                sorted[nremote++] = distances[(size_t)i * (size_t)n + (size_t)j];
    qsort(sorted, nremote, sizeof(*sorted), topo_cmp_u64);
    size_t ndistinct = 0;
    for (size_t k = 0; k < nremote; k++)
        if (k == 0 || sorted[k] != sorted[ndistinct - 1]) sorted[ndistinct++] = sorted[k];
    int nclasses = 1;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            size_t c = (size_t)i * (size_t)n + (size_t)j;
            if (i == j) {
                hop_class[c] = 0; /* local by definition, whatever the firmware says */
                continue;
            }
            if (cpu_node && !(cpu_node[i] && cpu_node[j])) {
                hop_class[c] = -1; /* no interconnect hop: reported by distance and kind */
                continue;
            }
            const uint64_t *at =
                bsearch(&distances[c], sorted, ndistinct, sizeof(*sorted), topo_cmp_u64);
            hop_class[c] = 1 + (int)(at - sorted);
            if (hop_class[c] + 1 > nclasses) nclasses = hop_class[c] + 1;
        }
    }
    free(sorted);
    return nclasses;
}

/* The firmware latency matrix between NUMA nodes: "NUMALatency" as Linux (ACPI SLIT) and XML
 * give it, else any latency matrix between NUMA nodes. One that leaves a node out is not
 * used: hop classes need every pair. */
static int topo_distances(struct hb_topo *t)
{
    int rc = 0;
    struct hwloc_distances_s *d = NULL;
    unsigned nr = 1;
    if (hwloc_distances_get_by_name(t->hw, "NUMALatency", &nr, &d, 0) < 0 || nr == 0) {
        nr = 1;
        d = NULL;
        if (hwloc_distances_get_by_type(t->hw, HWLOC_OBJ_NUMANODE, &nr, &d,
                                        HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0) < 0 ||
            nr == 0)
            return 0;
    }
    int n = t->nnodes;
    int *idx = NULL;
    bool *cpu_node = NULL;
    if (d->nbobjs != (unsigned)n) goto out;
    idx = calloc((size_t)n, sizeof(*idx));
    if (!idx) {
        hb_err_set("out of memory reading the %d x %d distance matrix", n, n);
        rc = -ENOMEM;
        goto out;
    }
    for (int k = 0; k < n; k++) {
        idx[k] = d->objs[k]->type == HWLOC_OBJ_NUMANODE
                     ? hb_topo_node_index(t, (int)d->objs[k]->os_index)
                     : -1;
        if (idx[k] < 0) goto out;
    }
    size_t cells = (size_t)n * (size_t)n;
    t->distances = calloc(cells, sizeof(*t->distances));
    t->hop_class = calloc(cells, sizeof(*t->hop_class));
    if (!t->distances || !t->hop_class) {
        hb_err_set("out of memory storing the %d x %d distance matrix", n, n);
        rc = -ENOMEM;
        goto out;
    }
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            t->distances[idx[a] * n + idx[b]] = d->values[a * n + b];
    cpu_node = calloc((size_t)n, sizeof(*cpu_node));
    if (!cpu_node) {
        hb_err_set("out of memory ranking the %d x %d distance matrix", n, n);
        rc = -ENOMEM;
        goto out;
    }
    for (int k = 0; k < n; k++)
        cpu_node[k] = hb_topo_is_cpu_node_of_machine(t, k);
    rc = hb_topo_classify(t->distances, n, cpu_node, t->hop_class);
    if (rc > 0) {
        t->nclasses = rc;
        rc = 0;
    }
out:
    free(idx);
    free(cpu_node);
    hwloc_distances_release(t->hw, d);
    return rc;
}

/* hwloc says why it refuses an XML file only on stderr, and only with HWLOC_XML_VERBOSE: its
 * first line is kept (without the newline) in reason[], not shown. */
struct topo_quiet {
    int saved_fd;
    FILE *capture;
};

static void topo_quiet_begin(struct topo_quiet *q)
{
    fflush(stderr);
    q->capture = tmpfile();
    q->saved_fd = q->capture ? dup(STDERR_FILENO) : -1;
    if (q->saved_fd >= 0) dup2(fileno(q->capture), STDERR_FILENO);
    setenv("HWLOC_XML_VERBOSE", "1", 0);
}

static void topo_quiet_end(struct topo_quiet *q, char *reason, size_t len)
{
    reason[0] = '\0';
    if (q->saved_fd >= 0) {
        fflush(stderr);
        dup2(q->saved_fd, STDERR_FILENO);
        close(q->saved_fd);
        rewind(q->capture);
        if (fgets(reason, (int)len, q->capture)) reason[strcspn(reason, "\n")] = '\0';
    }
    if (q->capture) fclose(q->capture);
}

/* One line for an XML file hwloc refused: hwloc's own reason, and how to write a file this
 * hwloc reads (a newer hwloc writes its own format version unless asked for v2). */
static void topo_xml_refused(const char *path, const char *reason)
{
    unsigned v = hwloc_get_api_version();
    char why[400];
    snprintf(why, sizeof(why), "%s", reason[0] ? reason : "no reason given");
    /* hwloc prefixes its reason with the file's name; once in the line is enough. */
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t plen = strlen(base);
    const char *r = strncmp(why, base, plen) == 0 && why[plen] == ':' ? why + plen + 1 : why;
    r += strspn(r, " ");
    if (strstr(r, "XML version"))
        hb_err_set("topology file '%s': the installed hwloc (API %u.%u) refuses it: %s; on the "
                   "machine, write one this hwloc reads with: lstopo --of xml --export-xml-flags "
                   "v2 FILE.xml",
                   path, v >> 16, (v >> 8) & 0xff, r);
    else
        hb_err_set("topology file '%s' cannot be loaded by the installed hwloc (API %u.%u): %s; "
                   "make one with: lstopo --of xml FILE.xml",
                   path, v >> 16, (v >> 8) & 0xff, r);
}

/* Open and load the XML file or say in one line why it cannot be a topology. */
static int topo_load_xml(struct hb_topo *t, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        int err = errno;
        if (err == ENOENT)
            hb_err_set("topology file '%s' does not exist", path);
        else
            hb_err_set("topology file '%s' cannot be read: %s", path, strerror(err));
        return -err;
    }
    struct topo_quiet q;
    char reason[400];
    topo_quiet_begin(&q);
    int rc = hwloc_topology_set_xml(t->hw, path);
    if (rc == 0) rc = hwloc_topology_load(t->hw);
    topo_quiet_end(&q, reason, sizeof(reason));
    if (rc < 0) {
        topo_xml_refused(path, reason);
        return -EINVAL;
    }
    return 0;
}

/* From this machine (path and buf NULL), an XML file, or an XML buffer named `name`. */
static int topo_load(const char *path, const char *buf, int len, const char *name,
                     struct hb_topo **out)
{
    int rc = 0;
    *out = NULL;
    struct hb_topo *t = calloc(1, sizeof(*t));
    if (!t) {
        hb_err_set("out of memory loading the topology");
        return -ENOMEM;
    }
    if (hwloc_topology_init(&t->hw) < 0) {
        int err = errno;
        hb_err_set("hwloc cannot start a topology: %s", strerror(err));
        rc = err ? -err : -ENOMEM;
        goto fail;
    }
    /* Decided by where it came from, not by HWLOC_THISSYSTEM: an XML file is never bound. */
    t->is_this_system = !path && !buf;
    t->source = strdup(path ? path : buf ? name : "this machine");
    if (!t->source) {
        hb_err_set("out of memory loading the topology");
        rc = -ENOMEM;
        goto fail;
    }
    /* Memory-side caches (HBM cache mode, Optane memory mode) are dropped by default. */
    hwloc_topology_set_type_filter(t->hw, HWLOC_OBJ_MEMCACHE, HWLOC_TYPE_FILTER_KEEP_ALL);
    if (path) {
        rc = topo_load_xml(t, path);
        if (rc < 0) goto fail;
    } else if (buf) {
        if (hwloc_topology_set_xmlbuffer(t->hw, buf, len) < 0 || hwloc_topology_load(t->hw) < 0) {
            hb_err_set("hwloc cannot read the topology of %s: %s", name, strerror(errno));
            rc = -EINVAL;
            goto fail;
        }
    } else if (hwloc_topology_load(t->hw) < 0) {
        int err = errno;
        hb_err_set("hwloc cannot read the topology of this machine: %s", strerror(err));
        rc = err ? -err : -ENODEV;
        goto fail;
    }
    rc = topo_nodes(t);
    if (rc < 0) goto fail;
    rc = topo_distances(t);
    if (rc < 0) goto fail;
    *out = t;
    return 0;
fail:
    hb_topo_free(t);
    return rc;
}

int hb_topo_load(const char *xml_path, struct hb_topo **out)
{
    return topo_load(xml_path, NULL, 0, NULL, out);
}

int hb_topo_load_xmlbuffer(const char *buf, int len, const char *name, struct hb_topo **out)
{
    return topo_load(NULL, buf, len, name, out);
}

void hb_topo_free(struct hb_topo *t)
{
    if (!t) return;
    free(t->source);
    for (int i = 0; i < t->nnodes; i++)
        free(t->nodes[i].cpus);
    free(t->nodes);
    free(t->distances);
    free(t->hop_class);
    if (t->hw) hwloc_topology_destroy(t->hw);
    free(t);
}

int hb_topo_node_index(const struct hb_topo *t, int os_index)
{
    for (int i = 0; i < t->nnodes; i++)
        if (t->nodes[i].os_index == os_index) return i;
    return -1;
}

static bool topo_pair_ok(const struct hb_topo *t, int i, int j)
{
    return i >= 0 && j >= 0 && i < t->nnodes && j < t->nnodes;
}

uint64_t hb_topo_distance(const struct hb_topo *t, int i, int j)
{
    if (!t->distances || !topo_pair_ok(t, i, j)) return 0;
    return t->distances[i * t->nnodes + j];
}

int hb_topo_hops(const struct hb_topo *t, int i, int j)
{
    if (!topo_pair_ok(t, i, j)) return -1;
    if (i == j) return 0;
    return t->hop_class ? t->hop_class[i * t->nnodes + j] : -1;
}

int hb_topo_node_of_cpu(const struct hb_topo *t, int cpu)
{
    for (int i = 0; i < t->nnodes; i++)
        for (int k = 0; k < t->nodes[i].ncpus; k++)
            if (t->nodes[i].cpus[k] == cpu) return i;
    return -1;
}

int hb_topo_count_cpu_nodes(const struct hb_topo *t)
{
    int n = 0;
    for (int i = 0; i < t->nnodes; i++)
        n += t->nodes[i].has_cpus;
    return n;
}

int hb_topo_count_mem_nodes(const struct hb_topo *t)
{
    int n = 0;
    for (int i = 0; i < t->nnodes; i++)
        n += t->nodes[i].has_memory;
    return n;
}

bool hb_topo_is_memory_side_cache(const struct hwloc_obj *o)
{
    return o->type == HWLOC_OBJ_MEMCACHE || (hwloc_obj_type_is_dcache(o->type) && o->subtype &&
                                             strcmp(o->subtype, "MemorySideCache") == 0);
}

/* The highest-level data (or unified) CPU cache above a PU. */
static hwloc_obj_t topo_pu_llc(hwloc_obj_t pu)
{
    hwloc_obj_t llc = NULL;
    for (hwloc_obj_t o = pu->parent; o; o = o->parent)
        if (hwloc_obj_type_is_dcache(o->type) && !hb_topo_is_memory_side_cache(o)) llc = o;
    return llc;
}

uint64_t hb_topo_llc_bytes(const struct hb_topo *t, int i, const char **source)
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
                 hb_size_format(seen[0]->attr->cache.size, size, sizeof(size)));
    else
        snprintf(text, sizeof(text), "hwloc L%u (%d caches, %s)", seen[0]->attr->cache.depth, nseen,
                 hb_size_format(total, size, sizeof(size)));
    free(seen);
    *source = text;
    return total;
}

int hb_topo_cache_sizes(const struct hb_topo *t, int i, uint64_t levels[4])
{
    int filled = 0;
    memset(levels, 0, 4 * sizeof(levels[0]));
    if (i < 0 || i >= t->nnodes || !t->nodes[i].has_cpus) return 0;
    hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t->hw, (unsigned)t->nodes[i].cpus[0]);
    for (hwloc_obj_t o = pu ? pu->parent : NULL; o; o = o->parent) {
        unsigned level =
            o->attr && hwloc_obj_type_is_dcache(o->type) && !hb_topo_is_memory_side_cache(o)
                ? o->attr->cache.depth
                : 0;
        if (level < 1 || level > 4) continue;
        levels[level - 1] = o->attr->cache.size;
        if ((int)level > filled) filled = (int)level;
    }
    return filled;
}

/* True when every CPU node is exactly the CPUs of one package and vice versa. */
static bool topo_nodes_are_packages(const struct hb_topo *t, int ncpu_nodes)
{
    if (hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_PACKAGE) != ncpu_nodes) return false;
    bool same = true;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    for (int i = 0; i < t->nnodes && same && set; i++) {
        const struct hb_node *node = &t->nodes[i];
        if (!node->has_cpus) continue;
        hwloc_bitmap_zero(set);
        for (int k = 0; k < node->ncpus; k++)
            hwloc_bitmap_set(set, (unsigned)node->cpus[k]);
        hwloc_obj_t pkg = hwloc_get_obj_covering_cpuset(t->hw, set);
        while (pkg && pkg->type != HWLOC_OBJ_PACKAGE)
            pkg = pkg->parent;
        same = pkg && hwloc_bitmap_isequal(pkg->cpuset, set);
    }
    same = same && set;
    hwloc_bitmap_free(set);
    return same;
}

/* The CPUs of a node as a list ("0-7,16-23") or a taskset mask ("0xff00ff") into f.
 * Returns 0 or -ENOMEM. */
static int topo_node_cpus_print(FILE *f, const struct hb_node *node, bool mask)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    char *text = NULL;
    for (int k = 0; set && k < node->ncpus; k++)
        hwloc_bitmap_set(set, (unsigned)node->cpus[k]);
    int rc = set && (mask ? hwloc_bitmap_taskset_asprintf(&text, set)
                          : hwloc_bitmap_list_asprintf(&text, set)) >= 0
                 ? 0
                 : -ENOMEM;
    if (rc == 0) fputs(text, f);
    hwloc_bitmap_free(set);
    free(text);
    return rc;
}

/* mpirun (Open MPI 4.1) with one rank per CPU node.
 *
 * --map-by numa counts every hwloc NUMA node, and a memory-only node carries the cpuset of
 * the package it hangs from, so with one present Open MPI would place a rank "on" it,
 * overlapping a real node's rank. Then: when each CPU node is exactly one package,
 * --map-by ppr:1:socket --bind-to socket gives the same binding (Open MPI 4.1 calls a
 * package "socket"; it rejects "package"). Otherwise (SNC plus CXL,
 * HBM...) nothing in Open MPI's mapping language names "CPU nodes only", so each rank gets
 * its own app context, bound by taskset to the exact CPU list of its node, with mpirun's
 * binding off; the contexts are ranked in order, rank r = r-th CPU node. */
static int topo_mpirun_line(const struct hb_topo *t, const char *cmd, FILE *f)
{
    int ncpu_nodes = hb_topo_count_cpu_nodes(t);
    if (ncpu_nodes == t->nnodes) {
        fprintf(f, "mpirun -np %d --map-by numa --bind-to numa %s", ncpu_nodes, cmd);
        return 0;
    }
    if (topo_nodes_are_packages(t, ncpu_nodes)) {
        fprintf(f, "mpirun -np %d --map-by ppr:1:socket --bind-to socket %s", ncpu_nodes, cmd);
        return 0;
    }
    fputs("mpirun --bind-to none", f);
    const char *sep = "";
    for (int i = 0; i < t->nnodes; i++) {
        if (!t->nodes[i].has_cpus) continue;
        fprintf(f, "%s -np 1 taskset -c ", sep);
        if (topo_node_cpus_print(f, &t->nodes[i], false)) return -ENOMEM;
        fprintf(f, " %s", cmd);
        sep = " :";
    }
    return 0;
}

/* srun with one task per CPU node. --cpu-bind=ldoms binds each task to a NUMA locality
 * domain, which is exact while every node has CPUs; with memory-only nodes Slurm's domains
 * may include them, so each task gets the exact mask of its node instead (mask i goes to
 * local task i). --cpus-per-task is the smallest node's CPU count so every task fits. */
static int topo_srun_line(const struct hb_topo *t, const char *cmd, FILE *f)
{
    int ncpu_nodes = hb_topo_count_cpu_nodes(t);
    int per_task = 0;
    for (int i = 0; i < t->nnodes; i++)
        if (t->nodes[i].has_cpus && (per_task == 0 || t->nodes[i].ncpus < per_task))
            per_task = t->nodes[i].ncpus;
    fprintf(f, "srun --ntasks-per-node=%d --cpus-per-task=%d --cpu-bind=", ncpu_nodes, per_task);
    if (ncpu_nodes == t->nnodes) {
        fprintf(f, "ldoms %s", cmd);
        return 0;
    }
    const char *sep = "mask_cpu:";
    for (int i = 0; i < t->nnodes; i++) {
        if (!t->nodes[i].has_cpus) continue;
        fputs(sep, f);
        if (topo_node_cpus_print(f, &t->nodes[i], true)) return -ENOMEM;
        sep = ",";
    }
    fprintf(f, " %s", cmd);
    return 0;
}

/* One launch line written by `line` into a string that grows to fit. */
static char *topo_line_text(const struct hb_topo *t, const char *cmd,
                            int (*line)(const struct hb_topo *, const char *, FILE *))
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return NULL;
    int rc = line(t, cmd, f);
    if (fclose(f) != 0 || rc != 0) {
        free(text);
        return NULL;
    }
    return text;
}

int hb_topo_launch_lines(const struct hb_topo *t, const char *args, char **mpirun, char **srun)
{
    char *cmd = NULL;
    if (asprintf(&cmd, "hopbench%s%s", args && !*args ? "" : " ", args ? args : "...") < 0)
        cmd = NULL;
    *mpirun = cmd ? topo_line_text(t, cmd, topo_mpirun_line) : NULL;
    *srun = cmd ? topo_line_text(t, cmd, topo_srun_line) : NULL;
    free(cmd);
    if (*mpirun && *srun) return 0;
    free(*mpirun);
    free(*srun);
    *mpirun = *srun = NULL;
    hb_err_set("out of memory writing the launch lines for %d NUMA nodes", t->nnodes);
    return -ENOMEM;
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

char *hb_topo_node_list(const struct hb_topo *t, bool need_cpus, bool need_memory)
{
    hwloc_bitmap_t set = hb_topo_nodeset(t, need_cpus, need_memory);
    char *list = set ? hb_nodeset_print(set) : NULL;
    hwloc_bitmap_free(set);
    return list;
}
