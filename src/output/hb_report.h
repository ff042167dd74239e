/* `hopbench report RESULTS.jsonl... -o report.html`: one self-contained HTML file (inline
 * SVG and CSS, no scripts, nothing fetched) with a section per kind of record found. */
#ifndef HB_REPORT_H
#define HB_REPORT_H

#include "hb_report_data.h"
#include "hb_report_draw.h"

#include <stdio.h>

/* argv[0] is "report". Returns the exit code: 0 written, 2 bad usage or input (nothing
 * written), 3 the output could not be written or memory ran out. */
int hb_report_main(int argc, char **argv);

/* The whole report of the files read (hb_report_read). 0, or -EIO when f failed. */
int hb_report_write(FILE *f, const struct hb_report_in *in, int nin);

/* Sections; each writes nothing when no input has records for it. */
void hb_report_machine(FILE *f, const struct hb_report_in *in, int nin);
void hb_report_matrices(FILE *f, const struct hb_report_in *in, int nin, int c2c);
void hb_report_fleet(FILE *f, const struct hb_report_in *in, int nin);
void hb_report_hops(FILE *f, const struct hb_report_in *in, int nin);
void hb_report_verdicts(FILE *f, const struct hb_report_in *in, int nin);
void hb_report_loaded(FILE *f, const struct hb_report_in *in, int nin);
void hb_report_sweep(FILE *f, const struct hb_report_in *in, int nin);
void hb_report_policy(FILE *f, const struct hb_report_in *in, int nin);
void hb_report_basic(FILE *f, const struct hb_report_in *in, int nin);

/* What each section keeps of a measurement or throughput record as it is read: 0 or
 * -ENOMEM. */
int hb_report_basic_take(struct hb_report_in *in, const json_t *rec);
int hb_report_hops_take(struct hb_report_in *in, const json_t *rec);
int hb_report_evidence_take(struct hb_report_in *in, const json_t *rec);
int hb_report_curves_take(struct hb_report_in *in, const json_t *rec);

/* Helpers shared by the section files. */
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
/* How much of its section's HB_REPORT_MAX_CELLS a kept matrix or fleet record takes. */
size_t hb_report_matrix_weight(const json_t *m);
size_t hb_report_fleet_weight(const json_t *fl);
/* A kept row of ncells cells as <tr>...</tr>. */
void hb_report_row(FILE *f, const struct hb_report_in *in, uint32_t row, int ncells);
void hb_report_cell(FILE *f, const json_t *v);
/* A cell whose value is named key (byte counts, "_bytes", are shown in KiB/MiB/GiB). */
void hb_report_cell_key(FILE *f, const char *key, const json_t *v);

/* Below a matrix panel: the firmware's HMAT figures and measured/firmware ratios as
 * heatmaps (data-kind "hmat" and "hmat-ratio"), HMAT flags outlined and listed; nothing when
 * the matrix carries no HMAT comparison. path: its results file, for the left-out line. */
void hb_report_matrix_hmat(FILE *f, const json_t *m, const char *path);

/* When rows or cols exceed HB_REPORT_MAX_SIDE, or values (an array of rows) is not rows x
 * cols: one paragraph naming what, its size, and min/mean/max of its numbers; returns 1.
 * Else writes nothing and returns 0. Tables of a verdict's evidence stop at as many rows. */
int hb_report_too_big(FILE *f, const char *what, const json_t *values, size_t rows, size_t cols);

#endif
