/* How a figure is written for people, the one rounding every table, CSV note, compare line and
 * report uses: a value at HB_FIGURE_DIGITS significant digits, and a value with its interval
 * as "272.2 [221.0, 1201.3]" (never "value +-half-width": intervals over repeats are seldom
 * symmetric). Pure text, no records. */
#ifndef HB_FIGURE_TEXT_H
#define HB_FIGURE_TEXT_H

#include <stddef.h>

/* Significant digits of a figure shown alone. */
#define HB_FIGURE_DIGITS 4
/* Room that any text of this header fits. */
#define HB_FIGURE_LEN 80

/* The decimals v is written with: HB_FIGURE_DIGITS significant digits (26.4651 -> 2, 272.24
 * -> 1, 1201.3 -> 0), at most 9; 2 for 0 and what is not finite. */
int hb_figure_text_decimals(double v);

/* v as people read it: "26.47", "0.001234", "1.235e+09" from a million up; "n/a" for what is
 * not finite. Returns buf. */
const char *hb_figure_text(double v, char *buf, size_t len);

/* v and its interval, both ends at v's decimals: "272.2 [221.0, 1201.3]"; v alone (as
 * hb_figure_text) when either end is not finite. Returns buf. */
const char *hb_figure_text_interval_text(double v, double lo, double hi, char *buf, size_t len);

#endif
