/* Output sinks: JSON Lines (canonical), CSV (same keys, same order), a table for people.
 * A file is written as FILE.partial, flushed record by record, and renamed to FILE when the
 * run completes, so an interrupted run keeps what it measured and FILE is never half-made. */
#ifndef HB_OUTPUT_H
#define HB_OUTPUT_H

#include "hb_options.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

struct hb_sink;

/* Open a sink for format f at path ("" = stdout). Creates PATH.partial only; -errno with a
 * message naming the path when it cannot be written (nothing is created then). */
int hb_sink_open(enum hb_format f, const char *path, struct hb_sink **out);

/* Write one record and flush. 0 or -errno (disk full...). */
int hb_sink_write(struct hb_sink *s, json_t *rec);

/* Close; when complete, rename PATH.partial to PATH. Returns 0 or -errno. */
int hb_sink_close(struct hb_sink *s, bool complete);

/* Table format: print one record for people (run, topology, measurement, matrix, fleet,
 * summary); other formats ignore this. */
void hb_table_print(FILE *f, json_t *rec);

#endif
