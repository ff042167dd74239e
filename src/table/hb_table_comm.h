/* Table lines for comm's measurements (a block per rank pair and metric, as OSU prints them),
 * its node x node matrices, its --bg comparisons, links and NIC locality. */
#ifndef HB_TABLE_COMM_H
#define HB_TABLE_COMM_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* A record for the table: true when it is one of comm's measurements, held and printed with
 * the rest of its node pair and metric as a block per rank pair (size, p50 [lo, hi], p99, max;
 * or size, GB/s [lo, hi]); any other record first prints the blocks held (false). */
bool hb_table_comm_hold(FILE *f, json_t *rec);
/* Print the blocks held (the table's end). */
void hb_table_comm_flush(FILE *f);

/* A run record's "messages" (comm's) in words into buf: "messages 8 B to 4 MiB (7 sizes,
 * --size), each end ..."; NULL when it has none (a suite with a working set). */
const char *hb_table_comm_sizes(const json_t *run, char *buf, size_t len);

/* A comm_matrix record: the figures (sending node x receiving node), then the hop classes. */
void hb_table_comm_matrix(FILE *f, json_t *rec);
/* A comm_bg record: the load, then latency and bandwidth idle -> loaded with their ratio. */
void hb_table_comm_bg(FILE *f, json_t *rec);

/* A comm_links record: per host pair, latency and bandwidth with intervals, and the verdict. */
void hb_table_comm_links(FILE *f, json_t *rec);

/* A comm_nic record: near and far ranks' figures and their ratio, or why none is compared. */
void hb_table_comm_nic(FILE *f, json_t *rec);

#endif
