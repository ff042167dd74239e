/* Axes of the report's SVG figures: nice ranges and ticks (linear steps of 1, 2 or 5, decades,
 * powers of two for byte counts), their numbers without exponents, the colour scale that every
 * heatmap shares. */
#ifndef HB_REPORT_AXIS_H
#define HB_REPORT_AXIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define HB_AXIS_MAX_TICKS 12

struct hb_axis {
    double lo, hi; /* the range drawn, in data units */
    bool log;      /* logarithmic */
    bool bytes;    /* byte counts: log2, ticks at powers of two read in B/KiB/MiB/GiB */
};

/* The range [lo, hi] widened to round ends: a linear axis from 0 when lo >= 0 up to a whole
 * step, a log axis from decade to decade (powers of two for bytes). Empty or invalid ranges
 * become a small range around what there is. */
void hb_report_axis_nice(struct hb_axis *a, double lo, double hi);
/* The range [lo, hi] widened to whole steps of 1, 2 or 5 without reaching for 0: a time
 * plot, where a few percent of change matter and the figure's size does not. */
void hb_report_axis_fit(struct hb_axis *a, double lo, double hi);
/* The ticks of a, ascending: their count (at most max). */
int hb_report_axis_ticks(const struct hb_axis *a, double *v, int max);
/* Where v lies along a: 0 at lo, 1 at hi. */
double hb_report_axis_pos(const struct hb_axis *a, double v);
/* A tick's text: "64 KiB" for bytes, else hb_report_axis_num_plain. */
const char *hb_report_axis_label(const struct hb_axis *a, double v, char *buf, size_t len);
/* v with about three significant digits and never an exponent ("0.25", "1200", "3.5"). */
const char *hb_report_axis_num_plain(double v, char *buf, size_t len);

/* The heatmaps' colours: t = 0 is the worse end, 1 the better; the same for every metric. */
void hb_report_axis_heat_color(double t, char buf[8]);
/* A colour scale (class "colorscale", data-better its better colour) at x, y, w wide: the
 * better end left, labelled "min/max VALUE UNIT" at its ends and "better"/"worse" above. */
void hb_report_axis_svg_colorscale(FILE *f, int x, int y, int w, double lo, double hi,
                                   bool higher_better, const char *unit);

#endif
