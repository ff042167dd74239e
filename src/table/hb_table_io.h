/* Table lines for a machine's I/O: the NICs of a topology record, the nodes near each, and
 * the launch lines that place ranks. */
#ifndef HB_TABLE_IO_H
#define HB_TABLE_IO_H

#include <jansson.h>
#include <stdio.h>

/* After the memory lines of a topology record: one line per NIC, or one saying none. */
void hb_table_io_topology_nics(FILE *f, json_t *rec);

/* Last, the launch lines topo adds to its record (one rank per node; two hosts near a NIC). */
void hb_table_io_topology_launch(FILE *f, json_t *rec);

#endif
