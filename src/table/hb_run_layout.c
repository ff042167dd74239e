/* The run's layout (hb_run_layout.h): the record columns of hb_record.h and the table. */
#include "hb_run_layout.h"

#include "hb_record.h"
#include "hb_table.h"

#include <stddef.h>

/* The run's records: JSONL whole, measurements and matrix cells as CSV rows. */
static const struct hb_layout_type run_types[] = {
    {"measurement", NULL, false, true}, {"cell", NULL, false, true}, {NULL, NULL, false, false}};
const struct hb_layout hb_run_layout = {10,   hb_record_columns, false,        run_types,
                                        NULL, hb_table_print,    hb_table_end, false};
