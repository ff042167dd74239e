/* `hopbench report RESULTS.jsonl... -o report.html`: one self-contained HTML file (inline
 * SVG and CSS, no scripts, nothing fetched) with a section per kind of record found. */
#ifndef HB_REPORT_H
#define HB_REPORT_H

#include "hb_jsonl_read.h"

#include <stdio.h>

/* argv[0] is "report". Returns the exit code: 0 written, 2 bad usage or input (nothing
 * written), 3 the output could not be written. */
int hb_report_main(int argc, char **argv);

/* Sections; each writes nothing when no input has records for it. */
void hb_report_machine(FILE *f, const struct hb_results *in, int nin);
void hb_report_matrices(FILE *f, const struct hb_results *in, int nin, int c2c);
void hb_report_fleet(FILE *f, const struct hb_results *in, int nin);
void hb_report_hops(FILE *f, const struct hb_results *in, int nin);
void hb_report_verdicts(FILE *f, const struct hb_results *in, int nin);
void hb_report_loaded(FILE *f, const struct hb_results *in, int nin);
void hb_report_sweep(FILE *f, const struct hb_results *in, int nin);
void hb_report_policy(FILE *f, const struct hb_results *in, int nin);
void hb_report_basic(FILE *f, const struct hb_results *in, int nin);

/* Helpers shared by the section files. */
int hb_report_has(const struct hb_results *in, int nin, const char *type, const char *suite,
                  const char *key);
int hb_report_is(const json_t *rec, const char *type, const char *suite, const char *key);
void hb_report_caption(FILE *f, const struct hb_results *r, const char *what);
void hb_report_cell(FILE *f, const json_t *v);
/* A cell whose value is named key (byte counts, "_bytes", are shown in KiB/MiB/GiB). */
void hb_report_cell_key(FILE *f, const char *key, const json_t *v);

/* Below a matrix panel: the firmware's HMAT figures and measured/firmware ratios as
 * heatmaps (data-kind "hmat" and "hmat-ratio"), HMAT flags outlined and listed; nothing when
 * the matrix carries no HMAT comparison. */
void hb_report_matrix_hmat(FILE *f, const json_t *m);

/* Output stays bounded by what a person can read: a matrix with more rows or columns than
 * this is summarised, not drawn cell by cell. */
#define HB_REPORT_MAX_SIDE 64

/* When rows or cols exceed HB_REPORT_MAX_SIDE, or values (an array of rows) is not rows x
 * cols: one paragraph naming what, its size, and min/mean/max of its numbers; returns 1.
 * Else writes nothing and returns 0. Tables of a verdict's evidence stop at as many rows. */
int hb_report_too_big(FILE *f, const char *what, const json_t *values, size_t rows, size_t cols);

#endif
