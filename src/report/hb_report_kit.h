/* Helpers the report's section files share: record tests, captions, bar panels, table
 * cells, left-out lines. They know no section. */
#ifndef HB_REPORT_KIT_H
#define HB_REPORT_KIT_H

#include "hb_report_data.h"
#include "hb_report_draw.h"
#include "hb_label_words.h"

#include <stdbool.h>
#include <stdio.h>

/* An interval's ends from ci ([lo, hi]): true when it is two numbers, else both NaN. */
bool hb_report_words_ci(const json_t *ci, double *lo, double *hi);
/* The ends of v's interval as "[lo, hi]", at v's rounding (hb_figure_text.h), in buf; ""
 * when it has none. */
const char *hb_report_words_ends(double v, double lo, double hi, char *buf, size_t len);
/* A comm pair class (a hop class, HB_RCOMM_HOSTS or HB_RCOMM_UNKNOWN) of `pairs` rank pairs in
 * words: "1 hop, 4 pairs", "same node (0 hops), 2 pairs", "between hosts, 2 pairs". */
void hb_report_words_comm_class(int cls, size_t pairs, char *buf, size_t len);
/* label into labels when it is a 40555 label (0, or -1 when out of memory). */
int hb_report_words_label_add(struct hb_strtab *labels, const char *label);
/* The labels spelled out, sorted: a <dl class="labelkey">; nothing when there are none. */
void hb_report_words_label_key(FILE *f, const struct hb_strtab *labels);

/* Whether a kept record of the inputs (run, note, matrix, fleet, verdict, knee) is of type
 * (and suite, and has key, when not NULL). */
int hb_report_kit_has(const struct hb_report_in *in, int nin, const char *type, const char *suite,
                      const char *key);
int hb_report_kit_is(const json_t *rec, const char *type, const char *suite, const char *key);
void hb_report_kit_caption(FILE *f, const struct hb_results *r, const char *what);
/* Below a figure: what its whiskers are ("Whiskers: 93.75% interval, 5 repeats."); nothing
 * when no figure of c has an interval. */
void hb_report_kit_whiskers(FILE *f, const struct hb_coverage *c);
/* A numbers table's head of the intervals of c, in words: "93.75% interval, 5 repeats". */
void hb_report_kit_interval_head(FILE *f, const struct hb_coverage *c);
/* The number at key as an int (clamped to int's range), or def. */
int hb_report_kit_int(const json_t *rec, const char *key, int def);
/* The bars of b in drawing order (ascending key, file order inside): *sorted the kept bars in
 * that order and the return value what hb_report_draw_svg_bars draws of them (both for the caller
 * to free); NULL when out of memory. */
struct hb_bar *hb_report_kit_bars(const struct hb_report_in *in, const struct hb_rbars *b,
                                  struct hb_rbar **sorted);
/* How a panel of bars is drawn: its title, y label and scale, numbers table heads (a "ci95"
 * head says what the intervals are: hb_report_kit_interval_head) and the jq filter of its
 * records. */
struct hb_bar_fig {
    const char *what, *ylabel;
    const char *metric; /* what the y axis measures (data-metric) */
    const char *const *heads;
    int ncells;
    const char *select;
};
/* The bars (n, in groups) as figures that fit a 1280 px page: whole groups together in
 * figures of at most 24 bars, a group of more in figures of its own, each titled with its
 * group and which of its bars it shows (hb_report_draw_svg_bars for ylabel and metric). */
void hb_report_kit_bar_figs(FILE *f, const struct hb_bar *bars, size_t n, const char *ylabel,
                            const char *metric);
/* A panel of the bars b (hb_report_kit_bars order), in figures that fit the page, with the
 * numbers table below: at most HB_REPORT_MAX_BARS of each, and the line that says what was
 * left out. */
void hb_report_kit_bar_panel(FILE *f, const struct hb_report_in *in, const struct hb_rbars *b,
                             const struct hb_bar_fig *fig);
/* Around a numbers table of rows rows: a long one is folded under a summary line. */
void hb_report_kit_numbers_open(FILE *f, size_t rows);
void hb_report_kit_numbers_close(FILE *f, size_t rows);
/* When b left items out: one line saying that the first b->drawn of b->total `what` are
 * drawn, and how to see them all (jq -c 'select' on the results file at path, or the
 * results files when path is NULL). A table row spanning colspan columns, or a paragraph
 * when colspan is 0. */
void hb_report_kit_left_out(FILE *f, int colspan, const struct hb_rbudget *b, const char *what,
                            const char *path, const char *select);
/* The same for the first max of n items. */
void hb_report_kit_left_out_n(FILE *f, size_t n, size_t max, const char *what, const char *path,
                              const char *select);
/* A kept row of ncells cells as <tr>...</tr>. */
void hb_report_kit_row(FILE *f, const struct hb_report_in *in, uint32_t row, int ncells);

/* How a curve figure is drawn: axes, the numbers table's heads, the jq filter of its
 * records; levelhead heads the column of the points' level strings (NULL: "level"). */
struct hb_curve_fig {
    struct hb_lines_opt opt;
    const char *select; /* the records drawn, as a jq filter (for what was left out) */
    const char *levelhead;
};
/* The curves c with their marks and numbers: at most HB_REPORT_MAX_ROWS points (series in
 * order of first appearance, each by x), and the line that says what was left out. */
void hb_report_curves_figure(FILE *f, const struct hb_report_in *in, const struct hb_rcurves *c,
                             const struct hb_mark *marks, int nm, const struct hb_curve_fig *fig);

/* When rows or cols exceed HB_REPORT_MAX_SIDE, or values (an array of rows) is not rows x
 * cols: one paragraph naming what, its size, and min/mean/max of its numbers; returns 1.
 * Else writes nothing and returns 0. Tables of a verdict's evidence stop at as many rows. */
int hb_report_kit_too_big(FILE *f, const char *what, const json_t *values, size_t rows,
                          size_t cols);

#endif
