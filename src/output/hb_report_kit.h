/* Helpers the report's section files share: record tests, captions, bar panels, table
 * cells, left-out lines. They know no section. */
#ifndef HB_REPORT_KIT_H
#define HB_REPORT_KIT_H

#include "hb_report_data.h"
#include "hb_report_draw.h"

#include <stdio.h>

/* Whether a kept record of the inputs (run, note, matrix, fleet, verdict, knee) is of type
 * (and suite, and has key, when not NULL). */
int hb_report_has(const struct hb_report_in *in, int nin, const char *type, const char *suite,
                  const char *key);
int hb_report_is(const json_t *rec, const char *type, const char *suite, const char *key);
void hb_report_caption(FILE *f, const struct hb_results *r, const char *what);
/* The number at key as an int (clamped to int's range), or def. */
int hb_report_int(const json_t *rec, const char *key, int def);
/* The bars of b in drawing order (ascending key, file order inside): *sorted the kept bars in
 * that order and the return value what hb_svg_bars draws of them (both for the caller to
 * free); NULL when out of memory. */
struct hb_bar *hb_report_bars(const struct hb_report_in *in, const struct hb_rbars *b,
                              struct hb_rbar **sorted);
/* A panel of the bars b (hb_report_bars order) titled what, with its numbers table (column
 * heads heads, ncells of them) below: at most HB_REPORT_MAX_BARS of each, and the line that
 * says what was left out (select: the jq filter of its records). */
void hb_report_bar_panel(FILE *f, const struct hb_report_in *in, const struct hb_rbars *b,
                         const char *what, const char *ylabel, const char *const *heads, int ncells,
                         const char *select);
/* When b left items out: one line saying that the first b->drawn of b->total `what` are
 * drawn, and how to see them all (jq -c 'select' on the results file at path, or the
 * results files when path is NULL). A table row spanning colspan columns, or a paragraph
 * when colspan is 0. */
void hb_report_left_out(FILE *f, int colspan, const struct hb_rbudget *b, const char *what,
                        const char *path, const char *select);
/* The same for the first max of n items. */
void hb_report_left_out_n(FILE *f, size_t n, size_t max, const char *what, const char *path,
                          const char *select);
/* A kept row of ncells cells as <tr>...</tr>. */
void hb_report_row(FILE *f, const struct hb_report_in *in, uint32_t row, int ncells);

/* When rows or cols exceed HB_REPORT_MAX_SIDE, or values (an array of rows) is not rows x
 * cols: one paragraph naming what, its size, and min/mean/max of its numbers; returns 1.
 * Else writes nothing and returns 0. Tables of a verdict's evidence stop at as many rows. */
int hb_report_too_big(FILE *f, const char *what, const json_t *values, size_t rows, size_t cols);

#endif
