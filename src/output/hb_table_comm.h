/* Table lines for comm's node x node matrices, and the grid printer the matrix tables share
 * (hb_table.c). */
#ifndef HB_TABLE_COMM_H
#define HB_TABLE_COMM_H

#include <jansson.h>
#include <stdio.h>

/* rows x cols of m under a header of the cols, `corner` above the row labels; cells with
 * `decimals` digits after the point, integers as they are, "-" for null. */
void hb_table_grid(FILE *f, const char *corner, json_t *rows, json_t *cols, json_t *m,
                   int decimals);

/* A comm_matrix record: the figures (sending node x receiving node), then the hop classes. */
void hb_table_comm_matrix(FILE *f, json_t *rec);

#endif
