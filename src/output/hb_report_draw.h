/* Inline SVG figures for the HTML report: heatmaps, grouped bars, curves. No scripts. */
#ifndef HB_REPORT_DRAW_H
#define HB_REPORT_DRAW_H

#include "hb_escape.h"

#include <jansson.h>
#include <stdio.h>

/* A heatmap of values[r][c] with the value in every cell; cells named in flags
 * ([{cpu_node, mem_node, reason}]) are outlined and marked "!". Each cell is a <rect> with
 * data-row (CPU node), data-col (memory node), data-value and data-kind = kind. */
void hb_svg_heatmap(FILE *f, const json_t *rows, const json_t *cols, const json_t *values,
                    const json_t *flags, const char *kind, const char *unit);

struct hb_bar {
    const char *group;  /* e.g. background level */
    const char *label;  /* 40555 label */
    const char *series; /* e.g. crossfire / no-crossfire */
    double value;
    double lo, hi; /* its 95% interval over repeats; NaN when it has none */
};

/* Grouped bars in record order, one colour per series, a legend, value above each bar and
 * its interval as a whisker (class "ci", data-lo and data-hi) where it has one. */
void hb_svg_bars(FILE *f, const struct hb_bar *bars, int n, const char *ylabel);

struct hb_series {
    const char *name;
    int n;
    double *x, *y;
    double *lo, *hi;   /* each point's 95% interval over repeats; NaN where it has none */
    char (*level)[20]; /* each point's memory level, for the numbers table ("" = none) */
};

struct hb_mark {
    double x;
    const char *label;
};

/* Curves with points, each point's interval as a vertical whisker (class "ci"); log axes
 * when asked (only positive values are drawn there); vertical marks (cache sizes, knees)
 * dashed and labelled. */
void hb_svg_lines(FILE *f, const struct hb_series *s, int ns, int logx, int logy,
                  const struct hb_mark *marks, int nmarks, const char *xlabel, const char *ylabel);

#endif
