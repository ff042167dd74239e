/* The network and OpenFabrics devices of a topology and the NUMA nodes local to each (hwloc's
 * I/O discovery), and launch lines that put a rank on a NIC's node, as topo shows them. */
#include "hb_topo.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

/* "network" or "openfabrics"; NULL for every other kind of OS device (disks, GPUs, DMA). */
static const char *topo_nic_kind(hwloc_obj_t o)
{
    if (o->attr->osdev.type == HWLOC_OBJ_OSDEV_NETWORK) return "network";
    if (o->attr->osdev.type == HWLOC_OBJ_OSDEV_OPENFABRICS) return "openfabrics";
    return NULL;
}

/* The PCI address of the device above o ("0000:06:00.0"), or null (a virtual device). */
static json_t *topo_nic_pci(hwloc_obj_t o)
{
    for (hwloc_obj_t p = o->parent; p; p = p->parent)
        if (p->type == HWLOC_OBJ_PCI_DEVICE) {
            const struct hwloc_pcidev_attr_s *a = &p->attr->pcidev;
            char id[32];
            snprintf(id, sizeof(id), "%04x:%02x:%02x.%01x", (unsigned)a->domain, (unsigned)a->bus,
                     (unsigned)a->dev, (unsigned)a->func);
            return json_string(id);
        }
    return json_null();
}

/* The NUMA nodes local to o: those under its first non-I/O ancestor (the package or group
 * the PCI bus hangs from; the whole machine when the firmware does not say). */
static json_t *topo_nic_nodes(hwloc_topology_t hw, hwloc_obj_t o)
{
    json_t *nodes = json_array();
    hwloc_obj_t above = hwloc_get_non_io_ancestor_obj(hw, o);
    unsigned id;
    if (above && above->nodeset)
        hwloc_bitmap_foreach_begin(id, above->nodeset)
            json_array_append_new(nodes, json_integer(id));
    hwloc_bitmap_foreach_end();
    return nodes;
}

json_t *hb_topo_nics_json(const struct hb_topo *t)
{
    json_t *list = json_array();
    for (hwloc_obj_t o = hwloc_get_next_osdev(t->hw, NULL); o; o = hwloc_get_next_osdev(t->hw, o)) {
        const char *kind = topo_nic_kind(o);
        if (!kind || !o->name) continue;
        json_array_append_new(list,
                              json_pack("{s:s, s:s, s:o, s:o}", "name", o->name, "kind", kind,
                                        "pci", topo_nic_pci(o), "nodes", topo_nic_nodes(t->hw, o)));
    }
    return list;
}

/* The CPU node a rank should sit on to be near a NIC: the first of its local nodes with
 * CPUs, or -1 when it is near every CPU node alike (nothing to choose) or near none. */
static int topo_nic_cpu_node(const struct hb_topo *t, const json_t *nodes)
{
    int first = -1, near = 0;
    size_t k;
    json_t *v;
    json_array_foreach(nodes, k, v)
    {
        int i = hb_topo_nodes_index(t, (int)json_integer_value(v));
        if (i < 0 || !t->nodes[i].has_cpus) continue;
        if (first < 0) first = i;
        near++;
    }
    return near > 0 && near < hb_topo_nodes_count_cpu_nodes(t) ? first : -1;
}

/* One rank on each of two hosts, both on node i's CPUs: mpirun through taskset (its mapping
 * language cannot name one NUMA node), srun with the node's CPU mask. */
static json_t *topo_nic_launch(const struct hb_topo *t, int i)
{
    const struct hb_node *node = &t->nodes[i];
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    char *list = NULL, *mask = NULL, *mpirun = NULL, *srun = NULL;
    for (int k = 0; set && k < node->ncpus; k++)
        hwloc_bitmap_set(set, (unsigned)node->cpus[k]);
    json_t *out = NULL;
    if (set && hwloc_bitmap_list_asprintf(&list, set) >= 0 &&
        hwloc_bitmap_taskset_asprintf(&mask, set) >= 0 &&
        asprintf(&mpirun,
                 "mpirun -np 2 --host HOST1,HOST2 --map-by ppr:1:node --bind-to none taskset -c "
                 "%s hopbench comm",
                 list) >= 0 &&
        asprintf(&srun, "srun --nodes=2 --ntasks-per-node=1 --cpu-bind=mask_cpu:%s hopbench comm",
                 mask) >= 0)
        out = json_pack("{s:i, s:[], s:s, s:s}", "node", node->os_index, "nics", "mpirun", mpirun,
                        "srun", srun);
    hwloc_bitmap_free(set);
    free(list);
    free(mask);
    free(mpirun);
    free(srun);
    return out;
}

json_t *hb_topo_nics_launch_json(const struct hb_topo *t, const json_t *nics)
{
    json_t *lines = json_array(), **at_node = calloc((size_t)t->nnodes + 1, sizeof(*at_node));
    if (!at_node) {
        json_decref(lines);
        return NULL;
    }
    size_t k;
    json_t *nic;
    json_array_foreach(nics, k, nic)
    {
        int i = topo_nic_cpu_node(t, json_object_get(nic, "nodes"));
        if (i < 0) continue;
        if (!at_node[i]) {
            at_node[i] = topo_nic_launch(t, i);
            if (!at_node[i]) {
                json_decref(lines);
                free(at_node);
                return NULL;
            }
            json_array_append_new(lines, at_node[i]);
        }
        json_array_append(json_object_get(at_node[i], "nics"), json_object_get(nic, "name"));
    }
    free(at_node);
    return lines;
}
