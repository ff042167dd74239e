/* How the run's records are written (hb_record.h): JSONL whole, measurements and matrix
 * cells as CSV rows, the table of hb_table.h. */
#ifndef HB_RUN_LAYOUT_H
#define HB_RUN_LAYOUT_H

#include "hb_sink.h"

extern const struct hb_layout hb_run_layout;

#endif
