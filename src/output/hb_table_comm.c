/* comm's derived records as a table (hb_table_comm.h): message latency or bandwidth per node
 * pair, and what --bg's load did to a pair. */
#include "hb_table_comm.h"

#include "hb_table_grid.h"

#include "hb_jsonl_read.h"
#include "hb_size.h"

#include <stdint.h>
#include <string.h>

void hb_table_comm_matrix(FILE *f, json_t *rec)
{
    json_t *rows = json_object_get(rec, "rows"), *cols = json_object_get(rec, "cols");
    const char *unit = hb_rec_str(rec, "unit", "");
    char size[32];
    hb_size_format((uint64_t)hb_rec_num(rec, "message_bytes", 0), size, sizeof(size));
    fprintf(f, "\nMPI message %s at %s (%s), sending node x receiving node, host %s:\n",
            hb_rec_str(rec, "metric", ""), size, strcmp(unit, "GBps") == 0 ? "GB/s" : unit,
            hb_rec_str(rec, "host", ""));
    hb_table_grid(f, "src\\dst", rows, cols, json_object_get(rec, "values"), 2);
    if (json_array_size(rows) < 2) return;
    fprintf(f, "firmware hop classes:\n");
    hb_table_grid(f, "src\\dst", rows, cols, json_object_get(rec, "hop_class"), 0);
}

/* One metric of a comm_bg record: idle -> loaded, the ratio and what it comes to. */
static void hb_table_comm_bg_line(FILE *f, const char *what, const json_t *m)
{
    if (!json_is_object(m)) {
        fprintf(f, "  %s: not measured both idle and loaded\n", what);
        return;
    }
    const char *unit = hb_rec_str(m, "unit", "");
    char size[32];
    hb_size_format((uint64_t)hb_rec_num(m, "message_bytes", 0), size, sizeof(size));
    const json_t *ci = json_object_get(m, "ratio_ci95");
    const json_t *verdict = json_object_get(m, "verdict");
    fprintf(f, "  %s at %s: %.4g -> %.4g %s, x%.3f", what, size,
            hb_rec_num(json_object_get(m, "idle"), "value", 0),
            hb_rec_num(json_object_get(m, "loaded"), "value", 0),
            strcmp(unit, "GBps") == 0 ? "GB/s" : unit, hb_rec_num(m, "ratio", 0));
    if (json_is_array(ci))
        fprintf(f, " (95%%: x%.3f to x%.3f)", json_number_value(json_array_get(ci, 0)),
                json_number_value(json_array_get(ci, 1)));
    fprintf(f, ": %s\n",
            json_is_string(verdict) ? json_string_value(verdict) : hb_rec_str(m, "separation", ""));
}

void hb_table_comm_bg(FILE *f, json_t *rec)
{
    fprintf(f, "\nMPI messages under --bg %s, ranks %lld -> %lld (node %lld -> %lld, host %s):",
            hb_rec_str(rec, "bg_level", ""), (long long)hb_rec_num(rec, "src_rank", -1),
            (long long)hb_rec_num(rec, "dst_rank", -1), (long long)hb_rec_num(rec, "src_node", -1),
            (long long)hb_rec_num(rec, "dst_node", -1), hb_rec_str(rec, "host", ""));
    size_t i;
    json_t *n;
    const json_t *gbps = json_object_get(rec, "bg_GBps"), *th = json_object_get(rec, "bg_threads");
    json_array_foreach(json_object_get(rec, "bg_nodes"), i, n)
        fprintf(f, "%s node %lld %lld thread(s) %.2f GB/s",
                i ? "," : " load:", (long long)json_integer_value(n),
                (long long)json_integer_value(json_array_get(th, i)),
                json_number_value(json_array_get(gbps, i)));
    fprintf(f, "\n");
    hb_table_comm_bg_line(f, "latency", json_object_get(rec, "latency"));
    hb_table_comm_bg_line(f, "bandwidth", json_object_get(rec, "bandwidth"));
}
