/* Table lines for a machine's I/O: the NICs of a topology record and the nodes near each. */
#ifndef HB_TABLE_IO_H
#define HB_TABLE_IO_H

#include <jansson.h>
#include <stdio.h>

/* After the memory lines of a topology record: one line per NIC, or one saying none. */
void hb_table_topology_nics(FILE *f, json_t *rec);

#endif
