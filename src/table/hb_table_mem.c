/* Table lines about memory (hb_table_mem.h): kinds, tiers, memory-side caches, HMAT. */
#include "hb_table_mem.h"

#include "hb_figure_text.h"
#include "hb_jsonl_read.h"
#include "hb_bytes.h"
#include "hb_units.h"

#include <math.h>
#include <string.h>

bool hb_table_mem_hmat_said;

static void table_int_list(FILE *f, json_t *list)
{
    size_t k;
    json_t *v;
    json_array_foreach(list, k, v)
        fprintf(f, "%s%lld", k ? "," : "", (long long)json_integer_value(v));
}

void hb_table_mem_topology(FILE *f, json_t *rec)
{
    size_t i, k;
    json_t *n, *x;
    fprintf(f, "memory kinds and firmware figures:\n");
    json_array_foreach(json_object_get(rec, "nodes"), i, n)
    {
        json_t *tier = json_object_get(n, "tier");
        fprintf(f, "  node %lld: %s", (long long)json_integer_value(json_object_get(n, "os_index")),
                hb_jsonl_read_str(n, "kind", "DRAM"));
        json_t *ktier = json_object_get(n, "kernel_tier");
        if (json_is_integer(tier)) fprintf(f, ", tier %lld", (long long)json_integer_value(tier));
        if (json_is_integer(ktier))
            fprintf(f, ", kernel memory_tier%lld", (long long)json_integer_value(ktier));
        json_array_foreach(json_object_get(n, "memory_side_caches"), k, x)
        {
            char sz[32], ways[32];
            long long assoc = json_integer_value(json_object_get(x, "associativity"));
            snprintf(ways, sizeof(ways), "%lld-way", assoc);
            fprintf(f, "; memory-side cache L%lld %s, %lld-byte lines, %s, %s write policy",
                    (long long)json_integer_value(json_object_get(x, "level")),
                    hb_bytes_format((uint64_t)json_integer_value(json_object_get(x, "size_bytes")),
                                    sz, sizeof(sz)),
                    (long long)json_integer_value(json_object_get(x, "line_bytes")),
                    assoc == 1    ? "direct-mapped"
                    : assoc == -1 ? "fully associative"
                    : assoc == 0  ? "associativity unknown"
                                  : ways,
                    hb_jsonl_read_str(x, "policy", "unknown"));
        }
        fputc('\n', f);
        json_array_foreach(json_object_get(n, "hmat"), k, x)
        {
            fprintf(f, "    HMAT %-14s %8lld %-4s from node ",
                    hb_jsonl_read_str(x, "attribute", ""),
                    (long long)json_integer_value(json_object_get(x, "value")),
                    hb_jsonl_read_str(x, "unit", ""));
            table_int_list(f, json_object_get(x, "initiators"));
            fprintf(f, " (cpus %s)\n", hb_jsonl_read_str(x, "initiator_cpus", ""));
        }
    }
    if (!json_is_true(json_object_get(rec, "hmat"))) {
        fprintf(f, "HMAT: none (the firmware gives no latency or bandwidth per initiator)\n");
        hb_table_mem_hmat_said = true;
    }
    json_array_foreach(json_object_get(rec, "hmat_conflicts"), k, x)
        fprintf(f, "firmware contradicts itself: %s\n", hb_jsonl_read_str(x, "reason", ""));
}

void hb_table_mem_matrix_hmat(FILE *f, json_t *rec)
{
    json_t *h = json_object_get(rec, "hmat");
    if (!json_is_object(h)) {
        if (*hb_jsonl_read_str(rec, "hmat_note", ""))
            fprintf(f, "HMAT: %s\n", hb_jsonl_read_str(rec, "hmat_note", ""));
        return;
    }
    json_t *rows = json_object_get(rec, "rows"), *cols = json_object_get(rec, "cols");
    fprintf(f, "firmware HMAT %s (%s) beside measured, ratio measured/firmware:\n",
            hb_jsonl_read_str(h, "attribute", ""),
            hb_units_shown(hb_jsonl_read_str(h, "unit", "")));
    size_t i, j;
    json_t *r;
    json_array_foreach(rows, i, r)
    {
        json_t *vals = json_array_get(json_object_get(h, "values"), i);
        json_t *ratio = json_array_get(json_object_get(h, "ratio"), i);
        for (j = 0; j < json_array_size(cols); j++) {
            json_t *v = json_array_get(vals, j);
            if (!json_is_number(v)) continue;
            /* the measured figure as its row and cell print it */
            char hm[HB_FIGURE_LEN], me[HB_FIGURE_LEN];
            json_t *m = json_array_get(json_array_get(json_object_get(rec, "values"), i), j);
            fprintf(f, "  %lld -> %lld: HMAT %10s, measured %10s, ratio %.2f\n",
                    (long long)json_integer_value(r),
                    (long long)json_integer_value(json_array_get(cols, j)),
                    hb_figure_text(json_number_value(v), hm, sizeof(hm)),
                    hb_figure_text(json_is_number(m) ? json_number_value(m) : NAN, me, sizeof(me)),
                    json_number_value(json_array_get(ratio, j)));
        }
    }
    json_t *fl;
    json_array_foreach(json_object_get(h, "flags"), i, fl)
        fprintf(f, "HMAT flag: %s\n", hb_jsonl_read_str(fl, "reason", ""));
    json_array_foreach(json_object_get(h, "inconclusive"), i, fl)
        fprintf(f, "HMAT inconclusive (within the measured figures' noise): %s\n",
                hb_jsonl_read_str(fl, "reason", ""));
}

void hb_table_mem_matrix_kernel_tiers(FILE *f, json_t *rec)
{
    json_t *k = json_object_get(rec, "kernel_tiers");
    if (!json_is_object(k)) return;
    size_t i;
    json_t *x;
    fputs("kernel memory tiers:", f);
    json_array_foreach(json_object_get(k, "tiers"), i, x)
        fprintf(f, "%s node %lld memory_tier%lld", i ? "," : "",
                (long long)json_integer_value(json_object_get(x, "node")),
                (long long)json_integer_value(json_object_get(x, "kernel_tier")));
    fputc('\n', f);
    json_array_foreach(json_object_get(k, "flags"), i, x)
        fprintf(f, "kernel tier flag: %s\n", hb_jsonl_read_str(x, "reason", ""));
    json_array_foreach(json_object_get(k, "inconclusive"), i, x)
        fprintf(f, "kernel tier inconclusive (within the measured figures' noise): %s\n",
                hb_jsonl_read_str(x, "reason", ""));
}

void hb_table_mem_tiers(FILE *f, json_t *rec)
{
    size_t i;
    json_t *g;
    fprintf(f, "%s: memory nodes by kind and tier:", hb_jsonl_read_str(rec, "suite", ""));
    json_array_foreach(json_object_get(rec, "tiers"), i, g)
    {
        json_t *tier = json_object_get(g, "tier");
        fprintf(f, "%s %s", i ? ";" : "", hb_jsonl_read_str(g, "kind", ""));
        if (json_is_integer(tier)) fprintf(f, " (tier %lld)", (long long)json_integer_value(tier));
        fprintf(f, " nodes ");
        table_int_list(f, json_object_get(g, "nodes"));
        if (json_is_true(json_object_get(g, "memory_only"))) fprintf(f, " memory-only");
    }
    fputc('\n', f);
}
