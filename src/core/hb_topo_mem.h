/* What the firmware says about memory beyond SLIT: each node's kind and tier, its
 * memory-side caches (HBM in cache mode, Optane memory mode...) and the ACPI HMAT figures
 * (latency and bandwidth per initiator x target) as hwloc shows them (memory attributes,
 * MemCache objects, node subtypes). Read from the topology on demand; node arguments are
 * node indexes (hb_topo nodes[]), not OS indexes. */
#ifndef HB_TOPO_MEM_H
#define HB_TOPO_MEM_H

#include "hb_topo.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

/* The HMAT attributes hopbench reads, in hwloc's names. Latency in ns; bandwidth in MB/s as
 * ACPI and Linux give it (hwloc's documentation says MiB/s, it passes the number through). */
enum hb_hmat_attr {
    HB_HMAT_LATENCY,
    HB_HMAT_READ_LATENCY,
    HB_HMAT_WRITE_LATENCY,
    HB_HMAT_BANDWIDTH,
    HB_HMAT_READ_BANDWIDTH,
    HB_HMAT_WRITE_BANDWIDTH,
    HB_HMAT_NATTRS
};

/* hwloc's name ("ReadBandwidth") and unit ("ns" or "MB/s") of an attribute. */
const char *hb_topo_mem_hmat_attr_name(enum hb_hmat_attr a);
const char *hb_topo_mem_hmat_attr_unit(enum hb_hmat_attr a);
bool hb_topo_mem_hmat_attr_is_latency(enum hb_hmat_attr a);

/* The attribute value for initiator = the CPUs of CPU node index i, target = node index j,
 * NAN when the firmware gives none (a node without CPUs is no initiator). */
double hb_topo_mem_hmat_value(const struct hb_topo *t, enum hb_hmat_attr a, int i, int j);

/* True when any node has any HMAT attribute. */
bool hb_topo_mem_hmat_present(const struct hb_topo *t);

/* Node kind: hwloc's subtype (HBM, NVM, SPM, GPUMemory, CXL-DRAM...) or "DRAM" without one. */
const char *hb_topo_mem_kind(const struct hb_topo *t, int i);

/* Memory tier: hwloc's MemoryTier info, else (this machine) the Linux memory_tierN that lists
 * the node; -1 when neither says. */
int hb_topo_mem_tier(const struct hb_topo *t, int i);

/* True when nodes i and j are the same kind and (where both are known) the same tier. */
bool hb_topo_mem_same_tier(const struct hb_topo *t, int i, int j);

/* One memory-side cache in front of a node. */
struct hb_memcache {
    unsigned level;
    uint64_t size_bytes;
    unsigned line_bytes;
    int associativity;  /* ways; 1 = direct-mapped, -1 = fully, 0 = unknown */
    const char *policy; /* "write-back", "write-through", or "unknown" (hwloc keeps none) */
};

/* The memory-side caches of node index i, nearest first, into out[max]. Returns how many
 * there are (may exceed max). */
int hb_topo_mem_caches(const struct hb_topo *t, int i, struct hb_memcache *out, int max);

/* Largest memory-side cache of any node with memory, 0 when there is none. */
uint64_t hb_topo_mem_cache_max(const struct hb_topo *t);

/* Per node: kind, tier, memory_side_caches and hmat ([{attribute, value, unit, initiators
 * (CPU node OS indexes), initiator_cpuset}]). Adds them to the node objects of a topology
 * record's `nodes` array (same order as t->nodes). */
void hb_topo_mem_annotate(const struct hb_topo *t, json_t *nodes);

/* Where the firmware contradicts itself: from one initiator, SLIT orders two targets one way
 * and HMAT latency or bandwidth the other. [{cpu_node, mem_nodes, attribute, slit, hmat,
 * reason}]. New reference (empty array when none or no HMAT). */
json_t *hb_topo_mem_hmat_conflicts(const struct hb_topo *t);

/* Memory nodes grouped by kind and tier: [{kind, tier, nodes, memory_only}], one group per
 * kind/tier in node order. New reference. */
json_t *hb_topo_mem_tiers(const struct hb_topo *t);

#endif
