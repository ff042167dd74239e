/* comm's matrices as a table (hb_table_comm.h): message latency or bandwidth per node pair. */
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
