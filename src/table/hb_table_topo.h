/* The topology record as a table: nodes with packages, cores, SMT and CPU lists, caches,
 * memory kinds, NICs, distances, hop classes and launch lines (what topo prints). */
#ifndef HB_TABLE_TOPO_H
#define HB_TABLE_TOPO_H

#include <jansson.h>
#include <stdio.h>

/* A `topology` record, the same facts as its JSON. */
void hb_table_topology(FILE *f, json_t *rec);

#endif
