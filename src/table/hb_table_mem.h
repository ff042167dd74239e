/* Table lines for what the firmware says about memory: node kinds and tiers, memory-side
 * caches, HMAT figures, SLIT/HMAT contradictions, and a matrix's HMAT and kernel-tier
 * comparisons. */
#ifndef HB_TABLE_MEM_H
#define HB_TABLE_MEM_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* Set once a topology table has said the firmware gives no HMAT, so the same run's note
 * about it is not printed twice. */
extern bool hb_table_mem_hmat_said;

/* After the node list of a topology record. */
void hb_table_mem_topology(FILE *f, json_t *rec);

/* After a matrix record: the firmware's HMAT figure per cell, ratios, and flags. */
void hb_table_mem_matrix_hmat(FILE *f, json_t *rec);

/* After a matrix record: the kernel's memory tiers of its nodes and where the measured order
 * contradicts them; nothing when the record has no kernel_tiers. */
void hb_table_mem_matrix_kernel_tiers(FILE *f, json_t *rec);

/* A `tiers` record: memory nodes grouped by kind and tier. */
void hb_table_mem_tiers(FILE *f, json_t *rec);

#endif
