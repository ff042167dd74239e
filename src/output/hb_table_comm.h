/* Table lines for comm's node x node matrices, its --bg comparisons, links and NIC locality. */
#ifndef HB_TABLE_COMM_H
#define HB_TABLE_COMM_H

#include <jansson.h>
#include <stdio.h>

/* A comm_matrix record: the figures (sending node x receiving node), then the hop classes. */
void hb_table_comm_matrix(FILE *f, json_t *rec);
/* A comm_bg record: the load, then latency and bandwidth idle -> loaded with their ratio. */
void hb_table_comm_bg(FILE *f, json_t *rec);

/* A comm_links record: per host pair, latency and bandwidth with intervals, and the verdict. */
void hb_table_comm_links(FILE *f, json_t *rec);

/* A comm_nic record: near and far ranks' figures and their ratio, or why none is compared. */
void hb_table_comm_nic(FILE *f, json_t *rec);

#endif
