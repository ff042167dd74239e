/* The topology record for people (hb_table_topo.h): the facts of its JSON, as topo prints
 * them on the terminal and into a table file alike. */
#include "hb_table_topo.h"

#include "hb_bytes.h"
#include "hb_table_grid.h"
#include "hb_table_io.h"
#include "hb_table_mem.h"

#include <hwloc.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* A JSON array of integers as "0,1" (to free); "" when empty, NULL when out of memory. */
static char *table_int_list(const json_t *a)
{
    char *text = NULL;
    size_t len = 0, i;
    FILE *m = open_memstream(&text, &len);
    json_t *v;
    if (!m) return NULL;
    json_array_foreach(a, i, v)
        fprintf(m, "%s%lld", i ? "," : "", (long long)json_integer_value(v));
    fclose(m);
    return text;
}

/* The CPU caches of each node with CPUs: "node 0: L1d 48 KiB x2 (1 CPU each), ...". */
static void table_topology_caches(FILE *f, json_t *rec)
{
    size_t i, k;
    json_t *n, *c;
    bool any = false;
    json_array_foreach(json_object_get(rec, "nodes"), i, n)
    {
        json_t *caches = json_object_get(n, "caches");
        if (!json_array_size(caches)) continue;
        if (!any) fprintf(f, "CPU caches (per node: size x how many, CPUs sharing each):\n");
        any = true;
        fprintf(f, "  node %lld:", (long long)json_integer_value(json_object_get(n, "os_index")));
        json_array_foreach(caches, k, c)
        {
            char size[32];
            const char *type = json_string_value(json_object_get(c, "type"));
            long long each = json_integer_value(json_object_get(c, "cpus_each"));
            fprintf(f, "%s L%lld%s %s x%lld (%lld CPU%s each%s)", k ? "," : "",
                    (long long)json_integer_value(json_object_get(c, "level")),
                    type && strcmp(type, "data") == 0 ? "d" : "",
                    hb_bytes_format((uint64_t)json_integer_value(json_object_get(c, "bytes")), size,
                                    sizeof(size)),
                    (long long)json_integer_value(json_object_get(c, "count")), each,
                    each == 1 ? "" : "s",
                    json_is_false(json_object_get(c, "believable"))
                        ? "; not believable, over 32 MiB per core: taken as 32 MiB per core"
                        : "");
        }
        fputc('\n', f);
    }
    if (!any) fprintf(f, "CPU caches: none shown by hwloc\n");
}

void hb_table_topology(FILE *f, json_t *rec)
{
    size_t i;
    json_t *n;
    fprintf(f, "%-5s %5s %5s %4s %-9s %10s %10s  %s\n", "node", "cpus", "cores", "smt", "packages",
            "memory", "free", "cpu list");
    json_array_foreach(json_object_get(rec, "nodes"), i, n)
    {
        char a[32], b[32], why[64] = "";
        json_t *cpus = json_object_get(n, "cpus"), *c;
        size_t nc = json_array_size(cpus), k;
        /* The list as hwloc writes it: 0-7,64-71; one CPU as 5. */
        hwloc_bitmap_t set = hwloc_bitmap_alloc();
        char *list = NULL;
        json_array_foreach(cpus, k, c) hwloc_bitmap_set(set, (unsigned)json_integer_value(c));
        if (set && hwloc_bitmap_list_asprintf(&list, set) < 0) list = NULL;
        hwloc_bitmap_free(set);
        /* Why a node without CPUs has none: it takes no task either way. */
        const char *state = json_string_value(json_object_get(n, "cpus_state"));
        json_t *with = json_object_get(n, "cpus_shared_with");
        if (json_is_true(json_object_get(n, "has_cpus")))
            snprintf(why, sizeof(why), "%s",
                     json_is_true(json_object_get(n, "has_memory")) ? "" : "  no memory");
        else if (state && strcmp(state, "not-allowed") == 0)
            snprintf(why, sizeof(why), "  CPUs not allowed to this process");
        else if (state && strcmp(state, "shared") == 0 && json_is_integer(with))
            snprintf(why, sizeof(why), "  no CPUs of its own (hwloc gives it node %lld's)",
                     (long long)json_integer_value(with));
        else
            snprintf(why, sizeof(why), "  memory-only");
        char *pk = table_int_list(json_object_get(n, "packages"));
        /* The list last: it is as long as the node's CPUs make it. */
        fprintf(f, "%-5lld %5zu %5lld %4lld %-9s %10s %10s  %s%s\n",
                (long long)json_integer_value(json_object_get(n, "os_index")), nc,
                (long long)json_integer_value(json_object_get(n, "cores")),
                (long long)json_integer_value(json_object_get(n, "smt")), pk && *pk ? pk : "-",
                hb_bytes_format((uint64_t)json_integer_value(json_object_get(n, "mem_bytes")), a,
                                sizeof(a)),
                hb_bytes_format((uint64_t)json_integer_value(json_object_get(n, "mem_free_bytes")),
                                b, sizeof(b)),
                nc && list ? list : "(none)", why);
        free(pk);
        free(list);
    }
    table_topology_caches(f, rec);
    hb_table_mem_topology(f, rec);
    hb_table_io_topology_nics(f, rec);
    json_t *d = json_object_get(rec, "distances");
    if (!d || json_is_null(d)) {
        fprintf(f, "distances: none (the firmware gives no distance table)\n");
        hb_table_io_topology_launch(f, rec);
        return;
    }
    json_t *ids = json_array();
    json_array_foreach(json_object_get(rec, "nodes"), i, n)
        json_array_append(ids, json_object_get(n, "os_index"));
    fprintf(f, "firmware distances:\n");
    hb_table_grid(f, "cpu\\mem", ids, ids, d, 0);
    /* A pair with a node without CPUs has no hop class (-1 in the record): "-" here. */
    json_t *hops = json_deep_copy(json_object_get(rec, "hop_class")), *row, *c;
    size_t r, k;
    json_array_foreach(hops, r, row) json_array_foreach(row, k, c) if (json_integer_value(c) < 0)
        json_array_set_new(row, k, json_null());
    fprintf(f, "hop classes (0 local; 1, 2, ... by rising firmware distance between CPU nodes; "
               "-: a node without CPUs):\n");
    hb_table_grid(f, "cpu\\mem", ids, ids, hops, 0);
    json_decref(hops);
    json_decref(ids);
    hb_table_io_topology_launch(f, rec);
}
