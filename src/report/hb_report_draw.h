/* Inline SVG figures for the HTML report: heatmaps, grouped bars, curves. No scripts. */
#ifndef HB_REPORT_DRAW_H
#define HB_REPORT_DRAW_H

#include "hb_escape.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* A heatmap of values[r][c] with the value in every cell and a colour scale below (its min
 * and max in unit; the better end is the same colour for every metric: higher_better says
 * which end that is); cells named in flags ([{cpu_node, mem_node, reason}]) are outlined and
 * marked "!". Each cell is a <rect> with data-row (CPU node), data-col (memory node),
 * data-value and data-kind = kind. */
void hb_report_draw_svg_heatmap(FILE *f, const json_t *rows, const json_t *cols,
                                const json_t *values, const json_t *flags, const char *kind,
                                const char *unit, bool higher_better);
/* The same for MPI messages between NUMA nodes: rows the sending node, columns the receiving
 * node, each cell's hop class (hops: rows x cols integers, below 0 unknown) written under its
 * value and in data-hops; nothing outlined. */
void hb_report_draw_svg_heatmap_hops(FILE *f, const json_t *rows, const json_t *cols,
                                     const json_t *values, const json_t *hops, const char *kind,
                                     const char *unit, bool higher_better);

struct hb_bar {
    const char *group;  /* e.g. background level */
    const char *label;  /* 40555 label */
    const char *series; /* e.g. crossfire / no-crossfire */
    double value;
    double lo, hi; /* its 95% interval over repeats; NaN when it has none */
};

/* Grouped bars in record order, one colour per series, a legend above them, y ticks from 0 to
 * the figure's own top (its bars and the intervals within reach of them), value above each
 * bar and its interval as a whisker (class "ci", data-lo and data-hi) where it has one; an
 * interval beyond the scale is cut at the plot's edge with an arrow and its end written
 * (class "ci cut" in a g.cut). metric names what the y axis measures (data-metric); colours
 * follow the order of the series in all (nall bars: those of every figure the bars are split
 * into). */
void hb_report_draw_svg_bars(FILE *f, const struct hb_bar *bars, int n, const struct hb_bar *all,
                             int nall, const char *ylabel, const char *metric);

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
    const char *level; /* a cache's level ("L2"), NULL for other marks (knees) */
};

/* How a curve figure is drawn. */
struct hb_lines_opt {
    bool logx, logy;
    bool xbytes; /* x is a byte count: log2 axis, ticks at powers of two in KiB/MiB/GiB */
    const char *xlabel, *ylabel;
    const char *metric; /* names what the y axis measures (data-metric) */
};

/* Curves with points (data-x, data-y, data-level), each point's interval as a vertical
 * whisker (class "ci"; cut as hb_report_draw_svg_bars cuts it); the y scale the figure's own; log
 * axes when asked (only positive values are drawn there); vertical marks (cache sizes: class "mark
 * cache" with data-level; knees) dashed and labelled above the plot; the legend below it. */
void hb_report_draw_svg_lines(FILE *f, const struct hb_series *s, int ns,
                              const struct hb_mark *marks, int nmarks,
                              const struct hb_lines_opt *o);

#endif
