/* Output sinks: JSON Lines (canonical), CSV (same keys, same order), a table for people.
 * Records are flushed one by one into the output file of hb_outfile.h: FILE appears only
 * when the run completes, and a failed or interrupted run keeps its complete records as
 * FILE.partial. */
#ifndef HB_OUTPUT_H
#define HB_OUTPUT_H

#include "hb_options.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

struct hb_sink;

/* Open a sink for format f at path ("" or "-" = stdout; check it first with
 * hb_outfile_check). -errno with a message naming the path when it cannot be written
 * (nothing is created then). */
int hb_sink_open(enum hb_format f, const char *path, struct hb_sink **out);

/* Write one record and flush. 0 or -errno (disk full...). */
int hb_sink_write(struct hb_sink *s, json_t *rec);

/* Close; complete: PATH is written; else the records so far are kept in PATH.partial and
 * hb_err_msg() says so. Returns 0 when PATH is complete, else -errno. */
int hb_sink_close(struct hb_sink *s, bool complete);

/* Table format: print one record for people (run, topology, measurement, matrix, fleet,
 * summary); other formats ignore this. */
void hb_table_print(FILE *f, json_t *rec);

#endif
