/* The table format's matrix grid: rows x cols of figures under a header of the cols, shared
 * by the memory matrices and topology (hb_table.c) and comm's matrices (hb_table_comm.c). */
#ifndef HB_TABLE_GRID_H
#define HB_TABLE_GRID_H

#include <jansson.h>
#include <stdio.h>

/* `decimals` for figures that rows elsewhere show too: each rounded as hb_figure_text rounds
 * it, so one figure reads the same in its row and in its cell. */
#define HB_GRID_FIGURES (-1)

/* rows x cols of m, `corner` above the row labels; cells with `decimals` digits after the
 * point (HB_GRID_FIGURES: as hb_figure_text), integers as they are, "-" for null. */
void hb_table_grid(FILE *f, const char *corner, json_t *rows, json_t *cols, json_t *m,
                   int decimals);

#endif
