/* Topology: NUMA nodes, their CPUs and memory, firmware distances, hop classes.
 *
 * Loaded from this machine or from an hwloc XML file (then it cannot bind). Nodes are kept
 * in OS-index order; every matrix is nnodes x nnodes in that order, row = CPU (initiator)
 * node, column = memory node. */
#ifndef HB_TOPO_H
#define HB_TOPO_H

#include <hwloc.h>
#include <stdbool.h>
#include <stdint.h>

/* Why a node has (or lacks) CPUs of its own: a node without CPUs takes no task. */
enum hb_cpus_state {
    HB_CPUS_OWN = 0,     /* CPUs whose nearest memory is this node */
    HB_CPUS_NONE,        /* memory-only: no CPUs at all (HBM, CXL, GPU memory) */
    HB_CPUS_NOT_ALLOWED, /* CPUs exist (complete_cpuset) but none is allowed to this process */
    HB_CPUS_SHARED,      /* hwloc gives it CPUs that another node has (same cpuset) */
};

struct hb_node {
    int os_index;            /* NUMA node OS index (numactl's number) */
    int ncpus;               /* CPUs whose nearest memory is this node (0 for memory-only) */
    int *cpus;               /* their OS indexes, ascending */
    int ncores;              /* physical cores among those CPUs */
    uint64_t mem_bytes;      /* local memory size */
    uint64_t mem_free_bytes; /* free now (sysfs MemFree on this machine; = mem_bytes in XML) */
    bool has_cpus;
    bool has_memory;
    enum hb_cpus_state cpus_state;
    int cpus_shared_with; /* HB_CPUS_SHARED: OS index of the node that has them, else -1 */
    int kernel_tier;      /* the Linux memory_tierN that holds it (this machine), else -1 */
    hwloc_obj_t obj;      /* the hwloc NUMA node object */
};

struct hb_topo {
    hwloc_topology_t hw;
    bool is_this_system; /* false when loaded from XML: nothing may be bound or run */
    char *source;        /* "this machine" or the XML path (or host name), whole */
    int nnodes;
    struct hb_node *nodes; /* nnodes of them: as many as hwloc reports */
    uint64_t *distances;   /* nnodes*nnodes firmware (NUMALatency) distances, or NULL */
    int *hop_class;        /* nnodes*nnodes, rank of the distance (local = 0), or NULL */
    int nclasses;          /* distinct hop classes (0 when no distances) */
    int ncpus_total;
};

/* Cell (i, j) of an nnodes x nnodes matrix m of topology t, stored row by row. */
#define HB_AT(m, t, i, j) ((m)[(size_t)(i) * (size_t)(t)->nnodes + (size_t)(j)])

/* Load this machine (xml_path NULL) or an hwloc XML file. Returns 0 and *out, -ENOENT when
 * the file does not exist, -EINVAL when it is not hwloc XML, -ENODEV when hwloc finds no
 * NUMA node. Free with hb_topo_load_free(). */
int hb_topo_load(const char *xml_path, struct hb_topo **out);
/* The same from hwloc XML in memory (len bytes, its NUL included), e.g. another host's;
 * `name` says where it came from in messages and in t->source. */
int hb_topo_load_xmlbuffer(const char *buf, int len, const char *name, struct hb_topo **out);
void hb_topo_load_free(struct hb_topo *t);

/* Index into nodes[] of the node with this OS index, or -1. */
int hb_topo_nodes_index(const struct hb_topo *t, int os_index);

/* Firmware distance / hop class between node indexes (not OS indexes); 0 and -1
 * respectively when the machine has no distance table (except hop 0 for i == j); hop class
 * -1 also when either node has no CPUs (see hb_topo_distances_classify). */
uint64_t hb_topo_distances_between(const struct hb_topo *t, int i, int j);
int hb_topo_distances_hops(const struct hb_topo *t, int i, int j);

/* Hop classes of an n x n distance matrix, defined on the interconnect: the distinct
 * distances between two different CPU nodes ranked ascending from 1 (10/16/22 -> 0/1/2,
 * 10/21 -> 0/1; a remote pair is never class 0, even where firmware gives it the local
 * value); the diagonal is 0 (local by definition); a pair with a node that has no CPUs
 * (memory-only: HBM, CXL, GPU memory) is -1, reported by its own distance and memory kind.
 * cpu_node[n] says which nodes have CPUs (NULL: all). Fills hop_class[n*n]; returns the
 * number of classes (1 + the largest), -EINVAL when n < 1 or a pointer is NULL, -ENOMEM. */
int hb_topo_distances_classify(const uint64_t *distances, int n, const bool *cpu_node,
                               int *hop_class);

/* A memory-side cache: hwloc's MemCache, or a CPU-cache object that an early hwloc 2 export
 * marks subtype "MemorySideCache" (KNL's MCDRAM cache). Never counted as a CPU cache. */
bool hb_topo_caches_is_memory_side_cache(const struct hwloc_obj *o);

/* Index of the node whose CPU list contains this OS CPU number, or -1. */
int hb_topo_nodes_of_cpu(const struct hb_topo *t, int cpu);

/* What a topology must have before anything is planned on it: a node with CPUs this process
 * may use and a node with a memory size. Returns 0, or one line saying what is lacking and
 * what to do: -EINVAL for an XML file (exit 2), -HB_EENV for this machine (exit 3). */
int hb_topo_nodes_check_usable(const struct hb_topo *t);

/* "own", "memory-only", "not-allowed" or "shared" (records and tables). */
const char *hb_topo_nodes_cpus_state_name(enum hb_cpus_state s);

/* Does node index i take part in the interconnect's hop classes: CPUs of its own, allowed to
 * this process or not? */
bool hb_topo_nodes_is_cpu_node_of_machine(const struct hb_topo *t, int i);

/* Number of nodes with CPUs / with memory. */
int hb_topo_nodes_count_cpu_nodes(const struct hb_topo *t);
int hb_topo_nodes_count_mem_nodes(const struct hb_topo *t);

/* Free bytes of node index i now (memory use changes between experiments): sysfs MemFree
 * re-read on this machine, mem_free_bytes from XML or when sysfs cannot say; 0 for a bad i. */
uint64_t hb_topo_nodes_memfree_read(const struct hb_topo *t, int i);

/* Node index i's CPU side as topo shows it: {"packages": [OS indexes], "smt": hardware
 * threads per core (0 without CPUs), "caches": [{level, type, bytes, count, cpus_each,
 * believable (false over 32 MiB per core: hb_default_size_llc_unbelievable)}]}, the
 * data or unified CPU caches of each level above its CPUs (memory-side caches are the memory's;
 * hb_topo_mem.h). A new json_t. */
struct json_t;
struct json_t *hb_topo_cpu_json(const struct hb_topo *t, int i);

/* Last-level cache bytes that serve the CPUs of node index i (sum over the distinct caches),
 * and where the figure came from ("hwloc L3 (2 x 16 MiB)"; the text stays valid until the
 * next call in the same thread). 0 when unknown. */
uint64_t hb_topo_caches_llc_bytes(const struct hb_topo *t, int i, const char **source);

/* Cache sizes seen by the first CPU of node index i, per level: levels[k] = size of L(k+1)
 * data/unified cache in bytes, 0 when absent. Returns the number of levels filled. */
int hb_topo_caches_sizes(const struct hb_topo *t, int i, uint64_t levels[4]);

/* The exact launch lines for one rank per node with CPUs on this topology, e.g.
 * "mpirun -np 4 --map-by numa --bind-to numa hopbench ..." and
 * "srun --ntasks-per-node=4 --cpus-per-task=8 --cpu-bind=... hopbench ...", with `args`
 * (hopbench's arguments) in place of "..." unless NULL. They avoid ranks on memory-only
 * nodes and are complete however many nodes there are: 0 and two strings to free(), or
 * -ENOMEM with a message. */
int hb_topo_launch_lines(const struct hb_topo *t, const char *args, char **mpirun, char **srun);

/* The network and OpenFabrics devices hwloc's I/O discovery found: [{name, kind ("network"
 * or "openfabrics"), pci (bus id or null), nodes: [OS indexes of the NUMA nodes local to it]}],
 * a new json_t. */
struct json_t *hb_topo_nics_json(const struct hb_topo *t);

/* For each CPU node that some NIC of `nics` is nearer than to other CPU nodes: {node, nics:
 * [names], mpirun, srun} with one rank on each of two hosts on that node's CPUs; a new
 * json_t, NULL when out of memory. */
struct json_t *hb_topo_nics_launch_json(const struct hb_topo *t, const struct json_t *nics);

/* The nodes matching has_cpus / has_memory as a set of OS indexes (hwloc_bitmap_free it),
 * or NULL when out of memory. */
hwloc_bitmap_t hb_topo_nodeset(const struct hb_topo *t, bool need_cpus, bool need_memory);

/* The same as comma-separated OS indexes for messages ("0,1,4"), to free(); NULL when out
 * of memory. */
char *hb_topo_nodes_list(const struct hb_topo *t, bool need_cpus, bool need_memory);

#endif
