/* Axes, tick numbers and the heatmaps' colour scale for the report's figures (hb_report_axis.h). */
#include "hb_report_axis.h"

#include "hb_escape.h"
#include "hb_bytes.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* 1, 2 or 5 times a power of ten: the step that cuts span into about n parts. */
static double nice_step(double span, int n)
{
    double raw = span / n, p = pow(10, floor(log10(raw))), m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

void hb_report_axis_nice(struct hb_axis *a, double lo, double hi)
{
    if (a->log || a->bytes) {
        if (!(lo > 0) || !isfinite(lo)) lo = hi > 0 && isfinite(hi) ? hi / 10 : 1;
        if (!(hi > lo) || !isfinite(hi)) hi = lo * 10;
        if (a->bytes) {
            a->lo = exp2(floor(log2(lo)));
            a->hi = exp2(ceil(log2(hi)));
            if (!(a->hi > a->lo)) a->hi = a->lo * 2;
        } else {
            a->lo = pow(10, floor(log10(lo) + 1e-9));
            a->hi = pow(10, ceil(log10(hi) - 1e-9));
            if (!(a->hi > a->lo)) a->hi = a->lo * 10;
        }
        return;
    }
    if (!isfinite(lo) || !isfinite(hi)) lo = hi = 0;
    if (lo > 0) lo = 0;
    if (!(hi > lo)) hi = lo + 1;
    double step = nice_step(hi - lo, 5);
    a->lo = floor(lo / step) * step;
    a->hi = ceil(hi / step - 1e-9) * step;
}

void hb_report_axis_fit(struct hb_axis *a, double lo, double hi)
{
    a->log = a->bytes = false;
    if (!isfinite(lo) || !isfinite(hi)) lo = hi = 0;
    if (!(hi > lo)) {
        double d = fabs(lo) * 0.05 + 0.5;
        lo -= d;
        hi = lo + 2 * d;
    }
    double step = nice_step(hi - lo, 5);
    a->lo = floor(lo / step) * step;
    a->hi = ceil(hi / step - 1e-9) * step;
}

int hb_report_axis_ticks(const struct hb_axis *a, double *v, int max)
{
    int n = 0;
    if (a->bytes) {
        int e0 = (int)lround(log2(a->lo)), e1 = (int)lround(log2(a->hi)), s = 1;
        while ((e1 - e0) / s + 1 > max - 2)
            s++;
        for (int e = e0; e <= e1 && n < max; e += s)
            v[n++] = exp2(e);
        return n;
    }
    if (a->log) {
        int e0 = (int)lround(log10(a->lo)), e1 = (int)lround(log10(a->hi));
        /* One or two decades read better with 2 and 5 between them. */
        static const double few[] = {1, 2, 5}, one[] = {1};
        const double *m = e1 - e0 <= 2 ? few : one;
        int nm = e1 - e0 <= 2 ? 3 : 1;
        for (int e = e0; e <= e1; e++)
            for (int k = 0; k < nm && n < max; k++)
                if (m[k] * pow(10, e) <= a->hi * (1 + 1e-9)) v[n++] = m[k] * pow(10, e);
        return n;
    }
    double step = nice_step(a->hi - a->lo, 5);
    for (double t = a->lo; t <= a->hi + step * 1e-6 && n < max; t += step)
        v[n++] = fabs(t) < step * 1e-9 ? 0.0 : t;
    return n;
}

double hb_report_axis_pos(const struct hb_axis *a, double v)
{
    if (a->log || a->bytes) return (log(v) - log(a->lo)) / (log(a->hi) - log(a->lo));
    return (v - a->lo) / (a->hi - a->lo);
}

const char *hb_report_axis_num_plain(double v, char *buf, size_t len)
{
    double m = fabs(v);
    int decimals = m == 0 || m >= 100 ? 0 : 2 - (int)floor(log10(m));
    if (decimals > 9) decimals = 9;
    snprintf(buf, len, "%.*f", decimals, v);
    /* Trailing zeros of a fraction say nothing: 0.250 is 0.25. */
    if (strchr(buf, '.')) {
        char *end = buf + strlen(buf) - 1;
        while (*end == '0')
            *end-- = '\0';
        if (*end == '.') *end = '\0';
    }
    return buf;
}

const char *hb_report_axis_label(const struct hb_axis *a, double v, char *buf, size_t len)
{
    if (a->bytes && v >= 1 && v < 0x1p63) return hb_bytes_format((uint64_t)v, buf, len);
    return hb_report_axis_num_plain(v, buf, len);
}

void hb_report_axis_heat_color(double t, char buf[8])
{
    /* Near white (worse) to a mid blue (better): black text stays readable on both. */
    static const int worse[3] = {0xf4, 0xf6, 0xfb}, better[3] = {0x5b, 0x8f, 0xd6};
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    int c[3];
    for (int k = 0; k < 3; k++)
        c[k] = (int)lround(worse[k] + (better[k] - worse[k]) * t);
    snprintf(buf, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}

void hb_report_axis_svg_colorscale(FILE *f, int x, int y, int w, double lo, double hi,
                                   bool higher_better, const char *unit)
{
    char col[8], best[8], a[32], b[32];
    hb_report_axis_heat_color(1.0, best);
    fprintf(f, "<g class=\"colorscale\" data-better=\"%s\">\n", best);
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"tick\">better</text>", x, y + 10);
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"tick\" text-anchor=\"end\">worse</text>\n", x + w,
            y + 10);
    const int steps = 20;
    for (int i = 0; i < steps; i++) {
        hb_report_axis_heat_color(1.0 - (double)i / (steps - 1), col);
        fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"10\" fill=\"%s\"/>",
                x + (double)w * i / steps, y + 14, (double)w / steps + 0.5, col);
    }
    fputc('\n', f);
    /* The better end is the minimum when lower is better. */
    const char *left = higher_better ? "max" : "min", *right = higher_better ? "min" : "max";
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"tick\">%s %s ", x, y + 37, left,
            hb_report_axis_num_plain(higher_better ? hi : lo, a, sizeof(a)));
    hb_escape_html(f, unit);
    fprintf(f, "</text><text x=\"%d\" y=\"%d\" class=\"tick\" text-anchor=\"end\">%s %s ", x + w,
            y + 37, right, hb_report_axis_num_plain(higher_better ? lo : hi, b, sizeof(b)));
    hb_escape_html(f, unit);
    fputs("</text></g>\n", f);
}
