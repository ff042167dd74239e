/* The table format of the run's records, for people: the layout's table hooks
 * (hb_run_layout.h). */
#ifndef HB_TABLE_H
#define HB_TABLE_H

#include <jansson.h>
#include <stdio.h>

/* Table format of the run's records: print one for people (run, topology, measurement,
 * matrix, fleet, summary); other formats ignore this. */
void hb_table_print(FILE *f, json_t *rec);
/* The table's end: the rows it holds until their group is complete (comm's blocks). */
void hb_table_end(FILE *f);

#endif
