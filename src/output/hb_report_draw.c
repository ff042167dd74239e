/* The report's inline SVG (hb_report_draw.h): heatmaps, bars, curves, whiskers. */
#include "hb_report_draw.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

static const char *const hb_colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                        "#9467bd", "#8c564b", "#e377c2", "#17becf"};
#define HB_NCOLORS ((int)(sizeof(hb_colors) / sizeof(hb_colors[0])))

static int hb_flagged(const json_t *flags, json_int_t row, json_int_t col)
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

void hb_svg_heatmap(FILE *f, const json_t *rows, const json_t *cols, const json_t *values,
                    const json_t *flags, const char *kind, const char *unit)
{
    int nr = (int)json_array_size(rows), nc = (int)json_array_size(cols);
    const int cw = 70, ch = 34, left = 70, top = 40;
    double lo = INFINITY, hi = -INFINITY;
    for (int r = 0; r < nr; r++)
        for (int c = 0; c < nc; c++) {
            json_t *v = json_array_get(json_array_get(values, (size_t)r), (size_t)c);
            if (json_is_number(v)) {
                lo = fmin(lo, json_number_value(v));
                hi = fmax(hi, json_number_value(v));
            }
        }
    /* c2c matrices are writer x reader; the others CPU node x memory node. */
    bool c2c = strcmp(kind, "c2c") == 0;
    int width = left + nc * cw + 10;
    fprintf(f,
            "<svg class=\"fig heatmap\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" role=\"img\">\n",
            width < left + 200 ? left + 200 : width, top + nr * ch + 10);
    fprintf(f, "<text x=\"%d\" y=\"14\" class=\"axis\">%s &#8594; (", left,
            c2c ? "reader" : "memory node");
    hb_html_esc(f, unit);
    fputs(")</text>\n", f);
    fprintf(f, "<text x=\"4\" y=\"%d\" class=\"axis\">%s</text>\n", top - 6,
            c2c ? "writer" : "CPU node");
    for (int c = 0; c < nc; c++)
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">%lld</text>\n",
                left + c * cw + cw / 2, top - 6,
                (long long)json_integer_value(json_array_get(cols, (size_t)c)));
    for (int r = 0; r < nr; r++) {
        json_int_t row = json_integer_value(json_array_get(rows, (size_t)r));
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"tick\" text-anchor=\"end\">%lld</text>\n",
                left - 8, top + r * ch + ch / 2 + 4, (long long)row);
        for (int c = 0; c < nc; c++) {
            json_int_t col = json_integer_value(json_array_get(cols, (size_t)c));
            json_t *v = json_array_get(json_array_get(values, (size_t)r), (size_t)c);
            int x = left + c * cw, y = top + r * ch;
            if (!json_is_number(v)) {
                fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#eee\"/>\n",
                        x, y, cw - 2, ch - 2);
                continue;
            }
            double val = json_number_value(v);
            double t = hi > lo ? (val - lo) / (hi - lo) : 0.0;
            int flag = hb_flagged(flags, row, col);
            /* Light to dark blue so black text stays readable on every cell. */
            fprintf(f,
                    "<rect class=\"cell%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                    "fill=\"rgb(%d,%d,255)\" data-kind=\"",
                    flag ? " flagged" : "", x, y, cw - 2, ch - 2, (int)(235 - 110 * t),
                    (int)(245 - 90 * t));
            hb_html_esc(f, kind);
            fprintf(f, "\" data-row=\"%lld\" data-col=\"%lld\" data-value=\"%.17g\"%s/>\n",
                    (long long)row, (long long)col, val,
                    flag ? " stroke=\"#d00\" stroke-width=\"3\"" : "");
            fprintf(f,
                    "<text x=\"%d\" y=\"%d\" class=\"val\" text-anchor=\"middle\">%.4g%s</text>\n",
                    x + cw / 2, y + ch / 2 + 4, val, flag ? " !" : "");
        }
    }
    fputs("</svg>\n", f);
}

/* An interval drawn as a vertical line with caps from y_hi (top) to y_lo, in pixels. */
static void hb_svg_whisker(FILE *f, double x, double y_hi, double y_lo, double lo, double hi)
{
    fprintf(f,
            "<path class=\"ci\" d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\" "
            "stroke=\"#333\" stroke-width=\"1.2\" fill=\"none\" data-lo=\"%.17g\" "
            "data-hi=\"%.17g\"/>\n",
            x, y_hi, y_lo, x - 4, y_hi, x + 4, x - 4, y_lo, x + 4, lo, hi);
}

static int hb_index_of(const char **names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0) return i;
    return -1;
}

void hb_svg_bars(FILE *f, const struct hb_bar *bars, int n, const char *ylabel)
{
    const char *series[HB_NCOLORS];
    int ns = 0;
    double hi = 0.0;
    for (int i = 0; i < n; i++) {
        if (hb_index_of(series, ns, bars[i].series) < 0 && ns < HB_NCOLORS)
            series[ns++] = bars[i].series;
        hi = fmax(hi, bars[i].value);
        if (isfinite(bars[i].hi)) hi = fmax(hi, bars[i].hi);
    }
    hi = hi > 0 ? hi * 1.15 : 1.0;
    const int bw = 34, gap = 26, left = 60, top = 30, h = 260;
    int groups = 0;
    for (int i = 0; i < n; i++)
        groups += i == 0 || strcmp(bars[i].group, bars[i - 1].group) != 0;
    int width = left + n * bw + groups * gap + 20;
    fprintf(f,
            "<svg class=\"fig bars\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" role=\"img\">\n",
            width, top + h + 70);
    fprintf(f, "<text x=\"4\" y=\"16\" class=\"axis\">");
    hb_html_esc(f, ylabel);
    fputs("</text>\n", f);
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"ax\"/>\n", left, top + h,
            width - 10, top + h);
    int x = left;
    for (int i = 0; i < n; i++) {
        if (i == 0 || strcmp(bars[i].group, bars[i - 1].group) != 0) {
            x += gap;
            fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"group\">", x, top + h + 58);
            hb_html_esc(f, bars[i].group);
            fputs("</text>\n", f);
        }
        int si = hb_index_of(series, ns, bars[i].series);
        double bh = bars[i].value / hi * h;
        fprintf(f,
                "<rect class=\"bar\" x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" "
                "fill=\"%s\" data-group=\"",
                x, top + h - bh, bw - 4, bh, hb_colors[si < 0 ? 0 : si]);
        hb_html_esc(f, bars[i].group);
        fputs("\" data-label=\"", f);
        hb_html_esc(f, bars[i].label);
        fputs("\" data-series=\"", f);
        hb_html_esc(f, bars[i].series);
        fprintf(f, "\" data-value=\"%.17g\"/>\n", bars[i].value);
        if (isfinite(bars[i].lo) && isfinite(bars[i].hi))
            hb_svg_whisker(f, x + bw / 2 - 2, top + h - bars[i].hi / hi * h,
                           top + h - bars[i].lo / hi * h, bars[i].lo, bars[i].hi);
        /* Three significant digits: 8.06 GB/s, 123 %, 1052 ns. */
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" class=\"val\" text-anchor=\"middle\">%.*f</text>\n",
                x + bw / 2 - 2, top + h - bh - 3,
                bars[i].value >= 100  ? 0
                : bars[i].value >= 10 ? 1
                                      : 2,
                bars[i].value);
        fprintf(f, "<text class=\"tick\" transform=\"translate(%d,%d) rotate(45)\">", x + 6,
                top + h + 10);
        hb_html_esc(f, bars[i].label);
        fputs("</text>\n", f);
        x += bw;
    }
    for (int s = 0; s < ns; s++) {
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>", width - 150,
                top + s * 14, hb_colors[s]);
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"tick\">", width - 136, top + s * 14 + 9);
        hb_html_esc(f, series[s]);
        fputs("</text>\n", f);
    }
    fputs("</svg>\n", f);
}

static double hb_tr(double v, int logv)
{
    return logv ? log10(v) : v;
}

void hb_svg_lines(FILE *f, const struct hb_series *s, int ns, int logx, int logy,
                  const struct hb_mark *marks, int nmarks, const char *xlabel, const char *ylabel)
{
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (int k = 0; k < ns; k++)
        for (int i = 0; i < s[k].n; i++) {
            if ((logx && s[k].x[i] <= 0) || (logy && s[k].y[i] <= 0)) continue;
            x0 = fmin(x0, hb_tr(s[k].x[i], logx));
            x1 = fmax(x1, hb_tr(s[k].x[i], logx));
            y0 = fmin(y0, hb_tr(s[k].y[i], logy));
            y1 = fmax(y1, hb_tr(s[k].y[i], logy));
            if (s[k].hi && isfinite(s[k].hi[i])) y1 = fmax(y1, hb_tr(s[k].hi[i], logy));
            if (s[k].lo && isfinite(s[k].lo[i]) && (!logy || s[k].lo[i] > 0))
                y0 = fmin(y0, hb_tr(s[k].lo[i], logy));
        }
    for (int m = 0; m < nmarks; m++)
        if (!logx || marks[m].x > 0) {
            x0 = fmin(x0, hb_tr(marks[m].x, logx));
            x1 = fmax(x1, hb_tr(marks[m].x, logx));
        }
    if (!(x1 > x0)) {
        x0 = isfinite(x0) ? x0 - 1 : 0;
        x1 = x0 + 2;
    }
    if (!logy) y0 = fmin(y0, 0.0);
    if (!(y1 > y0)) {
        y0 = isfinite(y0) ? y0 - 1 : 0;
        y1 = y0 + 2;
    }
    const int left = 70, top = 30, w = 560, h = 280;
#define HB_PX(v) (left + (hb_tr((v), logx) - x0) / (x1 - x0) * w)
#define HB_PY(v) (top + h - (hb_tr((v), logy) - y0) / (y1 - y0) * h)
    fprintf(f,
            "<svg class=\"fig lines\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" role=\"img\">\n",
            left + w + 170, top + h + 50);
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"frame\"/>\n", left, top,
            w, h);
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"axis\">", left + w / 2 - 60, top + h + 40);
    hb_html_esc(f, xlabel);
    /* The y axis title sits above the frame, clear of the top tick. */
    fprintf(f, "%s</text>\n<text x=\"4\" y=\"%d\" class=\"axis\">", logx ? " (log)" : "", top - 10);
    hb_html_esc(f, ylabel);
    fprintf(f, "%s</text>\n", logy ? " (log)" : "");
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"tick\">%.3g</text>", left, top + h + 16,
            logx ? pow(10, x0) : x0);
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"tick\" text-anchor=\"end\">%.3g</text>", left + w,
            top + h + 16, logx ? pow(10, x1) : x1);
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"tick\" text-anchor=\"end\">%.3g</text>", left - 4,
            top + h, logy ? pow(10, y0) : y0);
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"tick\" text-anchor=\"end\">%.3g</text>\n", left - 4,
            top + 10, logy ? pow(10, y1) : y1);
    for (int m = 0; m < nmarks; m++) {
        if (logx && marks[m].x <= 0) continue;
        double px = HB_PX(marks[m].x);
        fprintf(f,
                "<line class=\"mark\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                "data-x=\"%.17g\"/><text x=\"%.1f\" y=\"%d\" class=\"marklabel\">",
                px, top, px, top + h, marks[m].x, px + 3, top + 12 + 12 * (m % 3));
        hb_html_esc(f, marks[m].label);
        fputs("</text>\n", f);
    }
    for (int k = 0; k < ns; k++) {
        const char *col = hb_colors[k % HB_NCOLORS];
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", col);
        for (int i = 0; i < s[k].n; i++)
            if ((!logx || s[k].x[i] > 0) && (!logy || s[k].y[i] > 0))
                fprintf(f, "%.1f,%.1f ", HB_PX(s[k].x[i]), HB_PY(s[k].y[i]));
        fputs("\"/>\n", f);
        for (int i = 0; i < s[k].n; i++)
            if ((!logx || s[k].x[i] > 0) && (!logy || s[k].y[i] > 0))
                fprintf(f,
                        "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\" "
                        "data-x=\"%.17g\" data-y=\"%.17g\"/>\n",
                        HB_PX(s[k].x[i]), HB_PY(s[k].y[i]), col, s[k].x[i], s[k].y[i]);
        for (int i = 0; s[k].lo && s[k].hi && i < s[k].n; i++)
            if ((!logx || s[k].x[i] > 0) && isfinite(s[k].lo[i]) && isfinite(s[k].hi[i]) &&
                (!logy || s[k].lo[i] > 0))
                hb_svg_whisker(f, HB_PX(s[k].x[i]), HB_PY(s[k].hi[i]), HB_PY(s[k].lo[i]),
                               s[k].lo[i], s[k].hi[i]);
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>",
                left + w + 10, top + k * 14, col);
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"tick\">", left + w + 24, top + k * 14 + 9);
        hb_html_esc(f, s[k].name);
        fputs("</text>\n", f);
    }
#undef HB_PX
#undef HB_PY
    fputs("</svg>\n", f);
}
