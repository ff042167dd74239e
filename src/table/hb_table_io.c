/* Table lines for a machine's I/O (hb_table_io.h): which NUMA nodes each NIC is near. */
#include "hb_table_io.h"

#include "hb_jsonl_read.h"

void hb_table_io_topology_nics(FILE *f, json_t *rec)
{
    json_t *nics = json_object_get(rec, "nics"), *nic, *v;
    size_t i, k;
    if (!json_array_size(nics)) {
        fprintf(f, "NICs: none found by hwloc (network and OpenFabrics devices)\n");
        return;
    }
    fprintf(f, "NICs (the NUMA nodes each is near):\n");
    json_array_foreach(nics, i, nic)
    {
        json_t *nodes = json_object_get(nic, "nodes");
        fprintf(f, "  %s: %s, PCI %s, near node%s ", hb_jsonl_read_str(nic, "name", "?"),
                hb_jsonl_read_str(nic, "kind", "?"),
                hb_jsonl_read_str(nic, "pci", "none (virtual)"),
                json_array_size(nodes) == 1 ? "" : "s");
        json_array_foreach(nodes, k, v)
            fprintf(f, "%s%lld", k ? "," : "", (long long)json_integer_value(v));
        fputc('\n', f);
    }
}

void hb_table_io_topology_launch(FILE *f, json_t *rec)
{
    json_t *l, *name;
    size_t k, m;
    if (!json_is_string(json_object_get(rec, "mpirun"))) return;
    fprintf(f, "one rank per NUMA node:\n  %s\n  %s\n", hb_jsonl_read_str(rec, "mpirun", ""),
            hb_jsonl_read_str(rec, "srun", ""));
    json_array_foreach(json_object_get(rec, "nic_launch"), k, l)
    {
        fprintf(f, "two hosts, one rank each on node %lld, near",
                (long long)json_integer_value(json_object_get(l, "node")));
        json_array_foreach(json_object_get(l, "nics"), m, name)
            fprintf(f, "%s %s", m ? "," : "", json_string_value(name));
        fprintf(f, ":\n  %s\n  %s\n", hb_jsonl_read_str(l, "mpirun", ""),
                hb_jsonl_read_str(l, "srun", ""));
    }
}
