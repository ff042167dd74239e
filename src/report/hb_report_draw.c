/* The report's inline SVG (hb_report_draw.h): heatmaps, bars, curves, whiskers. */
#include "hb_report_draw.h"

#include "hb_report_axis.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

static const char *const colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                     "#9467bd", "#8c564b", "#e377c2", "#17becf"};
#define HB_NCOLORS ((int)(sizeof(colors) / sizeof(colors[0])))

static int cell_flag(const json_t *flags, json_int_t row, json_int_t col)
{
    size_t i;
    json_t *fl;
    json_array_foreach(flags, i, fl)
    {
        if (json_integer_value(json_object_get(fl, "cpu_node")) == row &&
            json_integer_value(json_object_get(fl, "mem_node")) == col)
            return 1;
    }
    return 0;
}

/* A heatmap cell's width and height in px. */
enum { HB_CELL_W = 70, HB_CELL_H = 34 };

/* What a heatmap draws: its matrices, the names of its axes and how its cells read. */
struct hb_heat {
    const json_t *rows, *cols, *values, *flags;
    const json_t *hops; /* each cell's hop class, written under its value; NULL: none */
    const char *kind, *unit, *row_name, *col_name;
    bool higher_better;
};

/* Cell (r, c) at x, y (cw x ch px) coloured between lo and hi, with its value (and its hop
 * class when the heatmap has them). */
static void heat_cell(FILE *f, const struct hb_heat *h, size_t r, size_t c, int x, int y, double lo,
                      double hi)
{
    const int cw = HB_CELL_W, ch = HB_CELL_H;
    json_int_t row = json_integer_value(json_array_get(h->rows, r));
    json_int_t col = json_integer_value(json_array_get(h->cols, c));
    json_t *v = json_array_get(json_array_get(h->values, r), c);
    const json_t *hop = h->hops ? json_array_get(json_array_get(h->hops, r), c) : NULL;
    if (!json_is_number(v)) {
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#ddd\"/>\n", x, y,
                cw - 2, ch - 2);
        return;
    }
    double val = json_number_value(v);
    /* t: 1 at the better end, whichever way the metric is better. */
    double t = hi > lo ? (val - lo) / (hi - lo) : 1.0;
    char col_hex[8];
    hb_report_axis_heat_color(h->higher_better || !(hi > lo) ? t : 1.0 - t, col_hex);
    int flag = cell_flag(h->flags, row, col);
    fprintf(f,
            "<rect class=\"cell%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
            "fill=\"%s\" data-kind=\"",
            flag ? " flagged" : "", x, y, cw - 2, ch - 2, col_hex);
    hb_escape_html(f, h->kind);
    fprintf(f, "\" data-row=\"%lld\" data-col=\"%lld\" data-value=\"%.17g\"", (long long)row,
            (long long)col, val);
    if (json_is_integer(hop)) fprintf(f, " data-hops=\"%lld\"", (long long)json_integer_value(hop));
    fprintf(f, "%s/>\n", flag ? " stroke=\"#d00\" stroke-width=\"3\"" : "");
    char num[32];
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"val\" text-anchor=\"middle\">%s%s</text>\n",
            x + cw / 2, y + (hop ? 14 : ch / 2 + 4),
            hb_report_axis_num_plain(val, num, sizeof(num)), flag ? " !" : "");
    if (!hop) return;
    /* A hop class below 0 is one the firmware's distances do not give. */
    json_int_t n = json_integer_value(hop);
    if (json_is_integer(hop) && n >= 0)
        fprintf(f,
                "<text x=\"%d\" y=\"%d\" class=\"hop\" text-anchor=\"middle\">%lld hop%s</text>\n",
                x + cw / 2, y + 28, (long long)n, n == 1 ? "" : "s");
    else
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"hop\" text-anchor=\"middle\">hops ?</text>\n",
                x + cw / 2, y + 28);
}

static void heatmap_draw(FILE *f, const struct hb_heat *h)
{
    size_t nr = json_array_size(h->rows), nc = json_array_size(h->cols);
    const int cw = HB_CELL_W, ch = HB_CELL_H, left = 70, top = 40, scale_w = 300;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t r = 0; r < nr; r++)
        for (size_t c = 0; c < nc; c++) {
            json_t *v = json_array_get(json_array_get(h->values, r), c);
            if (json_is_number(v)) {
                lo = fmin(lo, json_number_value(v));
                hi = fmax(hi, json_number_value(v));
            }
        }
    int width = left + ((int)nc * cw > scale_w ? (int)nc * cw : scale_w) + 10;
    int height = top + (int)nr * ch + (lo <= hi ? 50 : 10);
    fprintf(f,
            "<svg class=\"fig heatmap\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" data-better-is=\"%s\" "
            "data-unit=\"",
            width, height, width, height, h->higher_better ? "higher" : "lower");
    hb_escape_html(f, h->unit);
    fprintf(f, "\">\n<text x=\"%d\" y=\"14\" class=\"axis\">%s &#8594; (", left, h->col_name);
    hb_escape_html(f, h->unit);
    fputs(")</text>\n", f);
    fprintf(f, "<text x=\"4\" y=\"%d\" class=\"axis\">%s</text>\n", top - 6, h->row_name);
    for (size_t c = 0; c < nc; c++)
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">%lld</text>\n",
                left + (int)c * cw + cw / 2, top - 6,
                (long long)json_integer_value(json_array_get(h->cols, c)));
    for (size_t r = 0; r < nr; r++) {
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"tick\" text-anchor=\"end\">%lld</text>\n",
                left - 8, top + (int)r * ch + ch / 2 + 4,
                (long long)json_integer_value(json_array_get(h->rows, r)));
        for (size_t c = 0; c < nc; c++)
            heat_cell(f, h, r, c, left + (int)c * cw, top + (int)r * ch, lo, hi);
    }
    if (lo <= hi)
        hb_report_axis_svg_colorscale(f, left, top + (int)nr * ch + 4, width - left - 10, lo, hi,
                                      h->higher_better, h->unit);
    fputs("</svg>\n", f);
}

void hb_report_draw_svg_heatmap(FILE *f, const json_t *rows, const json_t *cols,
                                const json_t *values, const json_t *flags, const char *kind,
                                const char *unit, bool higher_better)
{
    /* c2c matrices are writer x reader; the others CPU node x memory node. */
    bool c2c = strcmp(kind, "c2c") == 0;
    const struct hb_heat h = {rows,
                              cols,
                              values,
                              flags,
                              NULL,
                              kind,
                              unit,
                              c2c ? "writer" : "CPU node",
                              c2c ? "reader" : "memory node",
                              higher_better};
    heatmap_draw(f, &h);
}

void hb_report_draw_svg_heatmap_hops(FILE *f, const json_t *rows, const json_t *cols,
                                     const json_t *values, const json_t *hops, const char *kind,
                                     const char *unit, bool higher_better)
{
    const struct hb_heat h = {rows, cols,           values,           NULL,         hops, kind,
                              unit, "sending node", "receiving node", higher_better};
    heatmap_draw(f, &h);
}

/* How far an interval may reach beyond the figures [lo, hi] of a plot before its scale stops
 * following it: on a linear axis twice the highest figure and 0 (where its scale starts); on
 * a log axis a decade beyond either end (a decade more takes a fraction of the plot there).
 * So one run's wild interval cannot squash the figures beside it: the end beyond is cut at
 * the plot's edge (svg_whisker). */
static void whisker_reach(double lo, double hi, bool log, double *rlo, double *rhi)
{
    *rhi = log ? hi * 10 : hi + fabs(hi);
    *rlo = log ? lo / 10 : lo >= 0 ? 0.0 : lo + lo;
}

/* Widens [*y0, *y1] (the figures' range) to the interval [lo, hi] where it stays within
 * reach of the figures' range [f0, f1]. */
static void whisker_widen(double lo, double hi, double f0, double f1, bool log, double *y0,
                          double *y1)
{
    double rlo, rhi;
    whisker_reach(f0, f1, log, &rlo, &rhi);
    if (isfinite(hi) && hi <= rhi) *y1 = fmax(*y1, hi);
    if (isfinite(lo) && lo >= rlo && (!log || lo > 0)) *y0 = fmin(*y0, lo);
}

/* One end of an interval cut at the plot's edge (y px, up: the top): an arrow there and the
 * end's value written along the whisker, inside the plot. */
static void svg_cut_end(FILE *f, double x, double y, bool up, double v)
{
    char num[32];
    fprintf(f,
            "<path class=\"cutmark\" d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1f\" stroke=\"#b00\" "
            "stroke-width=\"1.5\" fill=\"none\"/>",
            x - 4, up ? y + 6 : y - 6, x, y, x + 4, up ? y + 6 : y - 6);
    fprintf(f,
            "<text class=\"tick cutval\" transform=\"translate(%.1f,%.1f) rotate(-90)\" "
            "text-anchor=\"%s\">%s %s</text>",
            x + 12, up ? y + 2 : y - 2, up ? "end" : "start", up ? "to" : "from",
            hb_report_axis_num_plain(v, num, sizeof(num)));
}

/* An interval [lo, hi] as a vertical whisker at x on the axis ya of a plot (top, h px tall),
 * class "ci" with data-lo and data-hi. An end beyond the axis is cut at the plot's edge
 * (class "ci cut", in a g.cut with its value written), never stretched off the page. */
static void svg_whisker(FILE *f, double x, const struct hb_axis *ya, int top, int h, double lo,
                        double hi)
{
    bool cut_hi = hi > ya->hi, cut_lo = lo < ya->lo;
    double y_hi = cut_hi ? top : top + h - hb_report_axis_pos(ya, hi) * h;
    double y_lo = cut_lo ? top + h : top + h - hb_report_axis_pos(ya, lo) * h;
    if (cut_hi || cut_lo) fputs("<g class=\"cut\">", f);
    fprintf(f, "<path class=\"ci%s\" d=\"M%.1f %.1fV%.1f", cut_hi || cut_lo ? " cut" : "", x, y_hi,
            y_lo);
    if (!cut_hi) fprintf(f, "M%.1f %.1fH%.1f", x - 4, y_hi, x + 4);
    if (!cut_lo) fprintf(f, "M%.1f %.1fH%.1f", x - 4, y_lo, x + 4);
    fprintf(f,
            "\" stroke=\"#333\" stroke-width=\"1.2\" fill=\"none\" data-lo=\"%.17g\" "
            "data-hi=\"%.17g\"/>\n",
            lo, hi);
    if (cut_hi) svg_cut_end(f, x, y_hi, true, hi);
    if (cut_lo) svg_cut_end(f, x, y_lo, false, lo);
    if (cut_hi || cut_lo) fputs("</g>\n", f);
}

static int index_of(const char **names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0) return i;
    return -1;
}

/* Approximate width of s in pixels at the 11 px tick font (layout only; no script measures). */
static int text_px(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80; /* UTF-8: count characters */
    return n * 7;
}

/* A legend: one entry per name (colour box of colour[k], or the k-th colour when colour is
 * NULL, and text), flowing in rows of width w from x, y; returns its height. */
static int svg_legend(FILE *f, const char *const *names, const int *colour, int n, int x, int y,
                      int w)
{
    int cx = x, cy = y;
    fputs("<g class=\"legend\">\n", f);
    for (int k = 0; k < n; k++) {
        int ew = 20 + text_px(names[k]);
        if (cx > x && cx + ew > x + w) {
            cx = x;
            cy += 16;
        }
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>", cx, cy,
                colors[(colour ? colour[k] : k) % HB_NCOLORS]);
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"tick\">", cx + 14, cy + 9);
        hb_escape_html(f, names[k]);
        fputs("</text>\n", f);
        cx += ew + 12;
    }
    fputs("</g>\n", f);
    return n ? cy - y + 16 : 0;
}

/* Horizontal y ticks from the left edge of a plot (x0..x1, value v at pixel py(v)). */
static void svg_yticks(FILE *f, const struct hb_axis *a, int x0, int x1, int top, int h)
{
    double v[HB_AXIS_MAX_TICKS];
    char num[48];
    int n = hb_report_axis_ticks(a, v, HB_AXIS_MAX_TICKS);
    for (int i = 0; i < n; i++) {
        double py = top + h - hb_report_axis_pos(a, v[i]) * h;
        fprintf(f,
                "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>"
                "<text x=\"%d\" y=\"%.1f\" class=\"tick ytick\" text-anchor=\"end\">%s</text>\n",
                x0, py, x1, py, x0 - 5, py + 4, hb_report_axis_label(a, v[i], num, sizeof(num)));
    }
}

/* One bar of width bw - 4 at x of a plot (top, h tall, y axis ya): its rect with data-*, its
 * whisker (cut at the plot's edge where the scale does not follow it), its value and its
 * label. */
static void svg_bar(FILE *f, const struct hb_bar *bar, int x, int bw, int top, int h,
                    const struct hb_axis *ya, const char *colour)
{
    double bh = hb_report_axis_pos(ya, bar->value) * h;
    fprintf(f,
            "<rect class=\"bar\" x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" "
            "fill=\"%s\" data-group=\"",
            x, top + h - bh, bw - 4, bh, colour);
    hb_escape_html(f, bar->group);
    fputs("\" data-label=\"", f);
    hb_escape_html(f, bar->label);
    fputs("\" data-series=\"", f);
    hb_escape_html(f, bar->series);
    fprintf(f, "\" data-value=\"%.17g\"/>\n", bar->value);
    double top_px = top + h - bh;
    if (isfinite(bar->lo) && isfinite(bar->hi)) {
        svg_whisker(f, x + bw / 2 - 2, ya, top, h, bar->lo, bar->hi);
        top_px =
            fmin(top_px, bar->hi > ya->hi ? top : top + h - hb_report_axis_pos(ya, bar->hi) * h);
    }
    char num[32];
    fprintf(f, "<text x=\"%d\" y=\"%.1f\" class=\"val\" text-anchor=\"middle\">%s</text>\n",
            x + bw / 2 - 2, top_px - 3, hb_report_axis_num_plain(bar->value, num, sizeof(num)));
    fprintf(f, "<text class=\"tick\" transform=\"translate(%d,%d) rotate(45)\">", x + 6,
            top + h + 10);
    hb_escape_html(f, bar->label);
    fputs("</text>\n", f);
}

/* The room a group's name (12 px bold, under the bars) needs beyond its bars' width, so that
 * it never runs into the next group's name: the group starting at bar i, bars bw px apart. */
static int group_pad(const struct hb_bar *bars, int n, int i, int bw)
{
    int k = i + 1;
    while (k < n && strcmp(bars[k].group, bars[i].group) == 0)
        k++;
    int need = text_px(bars[i].group) * 8 / 7 + 6, span = (k - i) * bw;
    return need > span ? need - span : 0;
}

void hb_report_draw_svg_bars(FILE *f, const struct hb_bar *bars, int n, const struct hb_bar *all,
                             int nall, const char *ylabel, const char *metric)
{
    /* Colours follow the series' order in all, so that every figure of a split set agrees. */
    const char *palette[HB_NCOLORS], *series[HB_NCOLORS];
    int np = 0, ns = 0, colour[HB_NCOLORS], longest = 0;
    for (int i = 0; i < nall; i++)
        if (index_of(palette, np, all[i].series) < 0 && np < HB_NCOLORS)
            palette[np++] = all[i].series;
    double hi = 0.0;
    for (int i = 0; i < n; i++) {
        if (index_of(series, ns, bars[i].series) < 0 && ns < HB_NCOLORS) {
            colour[ns] = index_of(palette, np, bars[i].series);
            colour[ns] = colour[ns] < 0 ? 0 : colour[ns];
            series[ns++] = bars[i].series;
        }
        hi = fmax(hi, bars[i].value);
        if (text_px(bars[i].label) > longest) longest = text_px(bars[i].label);
    }
    /* The scale is this figure's own: its bars and the intervals within reach of them. */
    double top_v = hi, lo0 = 0.0;
    for (int i = 0; i < n; i++)
        whisker_widen(bars[i].lo, bars[i].hi, 0.0, hi, false, &lo0, &top_v);
    struct hb_axis ya = {0};
    hb_report_axis_nice(&ya, 0.0, top_v * 1.05);
    const int bw = 34, gap = 26, left = 60, h = 260;
    /* Labels under the bars are turned 45 degrees: they reach down and right by 0.71 of
     * their length. */
    int drop = 14 + longest * 71 / 100, groups = 0, pads = 0;
    for (int i = 0; i < n; i++)
        if (i == 0 || strcmp(bars[i].group, bars[i - 1].group) != 0) {
            groups++;
            pads += group_pad(bars, n, i, bw);
        }
    int width = left + n * bw + groups * gap + pads + drop + 10;
    if (width < left + 360) width = left + 360;
    /* The legend above the plot, clear of every bar. */
    char *legend = NULL;
    size_t llen = 0;
    FILE *lf = open_memstream(&legend, &llen);
    int lh = lf ? svg_legend(lf, series, colour, ns, left, 24, width - left - 10) : 0;
    if (lf) fclose(lf);
    int top = 24 + lh + 18, height = top + h + drop + 24;
    fprintf(f,
            "<svg class=\"fig bars\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" data-metric=\"",
            width, height, width, height);
    hb_escape_html(f, metric);
    fputs("\">\n<text x=\"4\" y=\"14\" class=\"axis\">", f);
    hb_escape_html(f, ylabel);
    fputs("</text>\n", f);
    if (legend) fputs(legend, f);
    free(legend);
    svg_yticks(f, &ya, left, width - 10, top, h);
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"ax\"/>\n", left, top + h,
            width - 10, top + h);
    int x = left, pad = 0;
    for (int i = 0; i < n; i++) {
        if (i == 0 || strcmp(bars[i].group, bars[i - 1].group) != 0) {
            x += gap + pad;
            pad = group_pad(bars, n, i, bw);
            fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"group\">", x, top + h + drop + 16);
            hb_escape_html(f, bars[i].group);
            fputs("</text>\n", f);
        }
        int si = index_of(palette, np, bars[i].series);
        svg_bar(f, &bars[i], x, bw, top, h, &ya, colors[si < 0 ? 0 : si]);
        x += bw;
    }
    fputs("</svg>\n", f);
}

/* The x ticks of a plot (x0 + pos * w) below it at y, with data-x. */
static void svg_xticks(FILE *f, const struct hb_axis *a, int x0, int w, int y)
{
    double v[HB_AXIS_MAX_TICKS];
    char num[48];
    int n = hb_report_axis_ticks(a, v, HB_AXIS_MAX_TICKS);
    for (int i = 0; i < n; i++)
        fprintf(f,
                "<text x=\"%.1f\" y=\"%d\" class=\"tick xtick\" text-anchor=\"middle\" "
                "data-x=\"%.17g\">%s</text>\n",
                x0 + hb_report_axis_pos(a, v[i]) * w, y, v[i],
                hb_report_axis_label(a, v[i], num, sizeof(num)));
}

/* Whether point i of s is drawn on these axes (log axes take positive values only). */
static bool point_drawn(const struct hb_series *s, int i, const struct hb_lines_opt *o)
{
    return (!(o->logx || o->xbytes) || s->x[i] > 0) && (!o->logy || s->y[i] > 0);
}

/* The data's range on each axis (marks count on x; on y the intervals within reach of the
 * points: the scale is this figure's own). */
static void lines_axes(const struct hb_series *s, int ns, const struct hb_mark *marks, int nmarks,
                       const struct hb_lines_opt *o, struct hb_axis *xa, struct hb_axis *ya)
{
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (int k = 0; k < ns; k++)
        for (int i = 0; i < s[k].n; i++) {
            if (!point_drawn(&s[k], i, o)) continue;
            x0 = fmin(x0, s[k].x[i]);
            x1 = fmax(x1, s[k].x[i]);
            y0 = fmin(y0, s[k].y[i]);
            y1 = fmax(y1, s[k].y[i]);
        }
    double f0 = y0, f1 = y1;
    for (int k = 0; k < ns; k++)
        for (int i = 0; s[k].lo && s[k].hi && i < s[k].n; i++)
            if (point_drawn(&s[k], i, o))
                whisker_widen(s[k].lo[i], s[k].hi[i], f0, f1, o->logy, &y0, &y1);
    for (int m = 0; m < nmarks; m++)
        if (!(o->logx || o->xbytes) || marks[m].x > 0) {
            x0 = fmin(x0, marks[m].x);
            x1 = fmax(x1, marks[m].x);
        }
    *xa = (struct hb_axis){.log = o->logx, .bytes = o->xbytes};
    *ya = (struct hb_axis){.log = o->logy};
    hb_report_axis_nice(xa, x0, x1);
    hb_report_axis_nice(ya, y0, y1);
}

/* The vertical marks: dashed lines through the plot, labels in three rows above it. */
static void svg_marks(FILE *f, const struct hb_mark *marks, int nmarks, const struct hb_axis *xa,
                      int left, int w, int top, int h)
{
    for (int m = 0; m < nmarks; m++) {
        if ((xa->log || xa->bytes) && marks[m].x <= 0) continue;
        double px = left + hb_report_axis_pos(xa, marks[m].x) * w;
        bool end = px > left + w * 0.6;
        fprintf(
            f,
            "<line class=\"mark%s\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" data-x=\"%.17g\"",
            marks[m].level ? " cache" : "", px, top, px, top + h, marks[m].x);
        if (marks[m].level) {
            fputs(" data-level=\"", f);
            hb_escape_html(f, marks[m].level);
            fputc('"', f);
        }
        fprintf(f, "/><text x=\"%.1f\" y=\"%d\" class=\"marklabel\"%s>", end ? px - 3 : px + 3,
                top - 36 + 12 * (m % 3), end ? " text-anchor=\"end\"" : "");
        hb_escape_html(f, marks[m].label);
        fputs("</text>\n", f);
    }
}

/* The curves, their points and whiskers. */
static void svg_curves(FILE *f, const struct hb_series *s, int ns, const struct hb_lines_opt *o,
                       const struct hb_axis *xa, const struct hb_axis *ya, int left, int w, int top,
                       int h)
{
#define HB_PX(v) (left + hb_report_axis_pos(xa, (v)) * w)
#define HB_PY(v) (top + h - hb_report_axis_pos(ya, (v)) * h)
    for (int k = 0; k < ns; k++) {
        const char *col = colors[k % HB_NCOLORS];
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", col);
        for (int i = 0; i < s[k].n; i++)
            if (point_drawn(&s[k], i, o))
                fprintf(f, "%.1f,%.1f ", HB_PX(s[k].x[i]), HB_PY(s[k].y[i]));
        fputs("\"/>\n", f);
        for (int i = 0; i < s[k].n; i++) {
            if (!point_drawn(&s[k], i, o)) continue;
            fprintf(f,
                    "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\" "
                    "data-x=\"%.17g\" data-y=\"%.17g\"",
                    HB_PX(s[k].x[i]), HB_PY(s[k].y[i]), col, s[k].x[i], s[k].y[i]);
            if (s[k].level && s[k].level[i][0]) {
                fputs(" data-level=\"", f);
                hb_escape_html(f, s[k].level[i]);
                fputc('"', f);
            }
            fputs("/>\n", f);
        }
        for (int i = 0; s[k].lo && s[k].hi && i < s[k].n; i++)
            if (point_drawn(&s[k], i, o) && isfinite(s[k].lo[i]) && isfinite(s[k].hi[i]))
                svg_whisker(f, HB_PX(s[k].x[i]), ya, top, h, s[k].lo[i], s[k].hi[i]);
    }
#undef HB_PX
#undef HB_PY
}

/* Series named in a legend at most; the numbers table below names them all. */
#define HB_LEGEND_MAX 24

void hb_report_draw_svg_lines(FILE *f, const struct hb_series *s, int ns,
                              const struct hb_mark *marks, int nmarks, const struct hb_lines_opt *o)
{
    struct hb_axis xa, ya;
    lines_axes(s, ns, marks, nmarks, o, &xa, &ya);
    const int left = 70, w = 600, h = 280, width = left + w + 50;
    int top = nmarks ? 70 : 30;
    const char *names[HB_LEGEND_MAX + 1];
    int nl = ns < HB_LEGEND_MAX ? ns : HB_LEGEND_MAX;
    for (int k = 0; k < nl; k++)
        names[k] = s[k].name;
    char more[64];
    if (ns > nl) {
        snprintf(more, sizeof(more), "and %d more series (in the table)", ns - nl);
        names[nl] = more;
    }
    char *legend = NULL;
    size_t llen = 0;
    FILE *lf = open_memstream(&legend, &llen);
    int lh = lf ? svg_legend(lf, names, NULL, nl + (ns > nl), left, top + h + 52, w) : 0;
    if (lf) fclose(lf);
    int height = top + h + 56 + lh;
    fprintf(f,
            "<svg class=\"fig lines\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\"%s data-metric=\"",
            width, height, width, height, o->xbytes ? " data-xunit=\"bytes\"" : "");
    hb_escape_html(f, o->metric);
    fprintf(f, "\">\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"frame\"/>\n", left,
            top, w, h);
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"axis\" text-anchor=\"middle\">", left + w / 2,
            top + h + 40);
    hb_escape_html(f, o->xlabel);
    fprintf(f, "%s</text>\n<text x=\"4\" y=\"14\" class=\"axis\">",
            o->logx || o->xbytes ? " (log)" : "");
    hb_escape_html(f, o->ylabel);
    fprintf(f, "%s</text>\n", o->logy ? " (log)" : "");
    svg_yticks(f, &ya, left, left + w, top, h);
    svg_xticks(f, &xa, left, w, top + h + 20);
    svg_marks(f, marks, nmarks, &xa, left, w, top, h);
    svg_curves(f, s, ns, o, &xa, &ya, left, w, top, h);
    if (legend) fputs(legend, f);
    free(legend);
    fputs("</svg>\n", f);
}
