/* Table lines for comm's node x node matrices and its --bg comparisons. */
#ifndef HB_TABLE_COMM_H
#define HB_TABLE_COMM_H

#include <jansson.h>
#include <stdio.h>

/* A comm_matrix record: the figures (sending node x receiving node), then the hop classes. */
void hb_table_comm_matrix(FILE *f, json_t *rec);
/* A comm_bg record: the load, then latency and bandwidth idle -> loaded with their ratio. */
void hb_table_comm_bg(FILE *f, json_t *rec);

#endif
