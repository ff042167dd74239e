/* A fleet's pictures (hb_report_fleet.h): box plots of its cells over the hosts (SVG, a
 * bounded number of boxes) and the host x cell heatmap of costs as one PNG image inside an SVG
 * that carries its axes and colour scale, so that thousands of rows cost one element. */
#include "hb_report_fleet.h"

#include "hb_report_axis.h"
#include "hb_report_kit.h"
#include "hb_units.h"
#include "hb_report_png.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HB_BOX_W 24        /* px per box */
#define HB_BOX_TOP 20      /* above the plot */
#define HB_BOX_LEFT 64     /* y ticks and title */
#define HB_BOX_PLOT 260    /* plot height */
#define HB_BOX_LABELS 150  /* below it: the cells' names, written downwards */
#define HB_BOX_NAME 22     /* characters of a cell's name shown */
#define HB_MAP_COLS 1000   /* image columns at most: more cells share a column */
#define HB_MAP_ROWS 800    /* image rows at most: more hosts share a row */
#define HB_MAP_LEFT 70     /* the y axis */
#define HB_MAP_TOP 12      /* above the image */
#define HB_MAP_MISSING 255 /* palette index of a cell a host did not measure */
static const uint8_t map_grey[3] = {0xb0, 0xb0, 0xb0}; /* not measured */

/* A cell's short name under its box: "#N experiment label", cut to HB_BOX_NAME characters. */
static void box_name(FILE *f, const struct hb_rfleet *fl, uint32_t c)
{
    char *e = hb_report_fleet_cell_field(fl, c, 1), *l = hb_report_fleet_cell_field(fl, c, 2);
    char name[HB_BOX_NAME + 8];
    int n = snprintf(name, sizeof(name), "#%u %s %s", c + 1, e ? e : "?", l ? l : "?");
    if (n >= HB_BOX_NAME) strcpy(name + HB_BOX_NAME - 3, "...");
    hb_escape_html(f, name);
    free(e);
    free(l);
}

static void draw_box(FILE *f, const struct hb_rfleet *fl, uint32_t c, int x,
                     const struct hb_axis *a)
{
    const struct hb_rfleet_cell *cs = &fl->cell[c];
#define HB_Y(v) (HB_BOX_TOP + HB_BOX_PLOT * (1.0 - hb_report_axis_pos(a, (v))))
    fprintf(f,
            "<g class=\"box\" data-cell=\"%u\" data-min=\"%g\" data-q1=\"%g\" data-median=\"%g\" "
            "data-q3=\"%g\" data-max=\"%g\"><line class=\"ax\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" "
            "y2=\"%.1f\"/><rect class=\"bar\" x=\"%d\" width=\"%d\" y=\"%.1f\" height=\"%.1f\" "
            "fill=\"#9fbbe6\" stroke=\"#444\"/><line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" "
            "stroke=\"#000\" stroke-width=\"2\"/></g>",
            c + 1, cs->min, cs->q1, cs->med, cs->q3, cs->max, x, x, HB_Y(cs->min), HB_Y(cs->max),
            x - HB_BOX_W / 3, 2 * (HB_BOX_W / 3), HB_Y(cs->q3),
            fmax(HB_Y(cs->q1) - HB_Y(cs->q3), 1), x - HB_BOX_W / 3, x + HB_BOX_W / 3, HB_Y(cs->med),
            HB_Y(cs->med));
    int ly = HB_BOX_TOP + HB_BOX_PLOT + 8;
    fprintf(f,
            "<text class=\"tick xtick\" x=\"%d\" y=\"%d\" text-anchor=\"end\" "
            "transform=\"rotate(-90 %d %d)\">",
            x + 4, ly, x + 4, ly);
    box_name(f, fl, c);
    fputs("</text>\n", f);
#undef HB_Y
}

/* The y axis of a plot from top to top + h, left of x, titled. */
static void fleet_yaxis(FILE *f, const struct hb_axis *a, int x, int top, int h, const char *title)
{
    double t[HB_AXIS_MAX_TICKS];
    int nt = hb_report_axis_ticks(a, t, HB_AXIS_MAX_TICKS);
    char buf[32];
    for (int k = 0; k < nt; k++) {
        double y = top + h * (1.0 - hb_report_axis_pos(a, t[k]));
        fprintf(f, "<text class=\"tick ytick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
                x - 6, y + 4, hb_report_axis_label(a, t[k], buf, sizeof(buf)));
    }
    fprintf(f,
            "<text class=\"axis\" x=\"14\" y=\"%d\" text-anchor=\"middle\" "
            "transform=\"rotate(-90 14 %d)\">",
            top + h / 2, top + h / 2);
    hb_escape_html(f, title);
    fputs("</text>\n", f);
}

void hb_report_fleet_draw_boxes(FILE *f, const struct hb_rfleet *fl, uint32_t unit)
{
    size_t n, total;
    uint32_t *cells = hb_report_fleet_stats_pick(fl, unit, HB_RFLEET_BOXES, &n, &total);
    if (!cells || n == 0) {
        free(cells);
        return;
    }
    const char *words = hb_units_shown(hb_strtab_get(&fl->units, unit));
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        lo = fmin(lo, fl->cell[cells[i]].min);
        hi = fmax(hi, fl->cell[cells[i]].max);
    }
    struct hb_axis a = {0};
    hb_report_axis_nice(&a, lo, hi);
    int w = HB_BOX_LEFT + (int)n * HB_BOX_W + 20, h = HB_BOX_TOP + HB_BOX_PLOT + HB_BOX_LABELS;
    fputs("<figure><p class=\"figtitle\">Cells in ", f);
    hb_escape_html(f, words);
    fprintf(f,
            " over the hosts</p>\n<svg class=\"boxplot fig\" viewBox=\"0 0 %d %d\" "
            "width=\"%d\" height=\"%d\">\n",
            w, h, w, h);
    fprintf(f, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>", HB_BOX_LEFT,
            HB_BOX_TOP, (int)n * HB_BOX_W, HB_BOX_PLOT);
    fleet_yaxis(f, &a, HB_BOX_LEFT, HB_BOX_TOP, HB_BOX_PLOT, words);
    for (size_t i = 0; i < n; i++)
        draw_box(f, fl, cells[i], HB_BOX_LEFT + (int)i * HB_BOX_W + HB_BOX_W / 2, &a);
    fprintf(f, "</svg><figcaption>The %zu of %zu cells in ", n, total);
    hb_escape_html(f, words);
    fprintf(f,
            "%s, in cell order: box from the first to the third quartile of the hosts' "
            "values, line at the median, whiskers to the least and the most. Numbers as in "
            "the cells table.</figcaption></figure>\n",
            n < total ? " whose costliest host is furthest above the cell's median" : "");
    free(cells);
}

/* The heatmap's pixels: each the highest cost of its hosts (rows, costliest first, ky a row)
 * and cells (columns, kx a column) as palette indices, missing where none measured it.
 * NULL when out of memory. */
static uint8_t *map_pixels(const struct hb_rfleet *fl, uint32_t kx, uint32_t ky, uint32_t cols,
                           uint32_t rows)
{
    float *worst = malloc((size_t)cols * rows * sizeof(*worst));
    uint32_t *pos = malloc((fl->hosts.n + 1) * sizeof(*pos));
    uint8_t *px = worst && pos ? malloc((size_t)cols * rows) : NULL;
    if (px) {
        for (size_t i = 0; i < (size_t)cols * rows; i++)
            worst[i] = NAN;
        for (uint32_t r = 0; r < fl->hosts.n; r++)
            pos[fl->rank[r]] = r;
        for (size_t i = 0; i < fl->n; i++) {
            float *at = &worst[(size_t)(pos[fl->v[i].host] / ky) * cols + fl->v[i].cell / kx];
            if (isnan(*at) || fl->v[i].v > *at) *at = (float)fl->v[i].v;
        }
        double span = fl->cost_max - fl->cost_min;
        for (size_t i = 0; i < (size_t)cols * rows; i++)
            px[i] = isnan(worst[i]) ? HB_MAP_MISSING
                    : span > 0      ? (uint8_t)lround((worst[i] - fl->cost_min) / span * 254)
                                    : 0;
    }
    free(worst);
    free(pos);
    return px;
}

/* Palette: 0 the lowest cost (better) to 254 the highest, then the missing grey. */
static void map_palette(uint8_t pal[256 * 3])
{
    for (int i = 0; i < 255; i++) {
        char col[8];
        hb_report_axis_heat_color(1.0 - i / 254.0, col);
        unsigned long rgb = strtoul(col + 1, NULL, 16);
        pal[3 * i] = (uint8_t)(rgb >> 16);
        pal[3 * i + 1] = (uint8_t)(rgb >> 8);
        pal[3 * i + 2] = (uint8_t)rgb;
    }
    memcpy(pal + 3 * HB_MAP_MISSING, map_grey, 3);
}

/* Ticks numbering 1..n items along the image (k items a pixel, s px a pixel): below it at y
 * (columns) or left of it (rows, from HB_MAP_TOP), with the axis title. */
static void map_axis(FILE *f, uint32_t n, uint32_t k, int s, bool rows, int y)
{
    struct hb_axis a = {0};
    hb_report_axis_nice(&a, 1, n);
    double t[HB_AXIS_MAX_TICKS];
    int nt = hb_report_axis_ticks(&a, t, HB_AXIS_MAX_TICKS);
    char buf[32];
    for (int i = 0; i < nt; i++) {
        if (t[i] < 1 || t[i] > n) continue;
        double at = (floor((t[i] - 1) / k) + 0.5) * s;
        if (rows)
            fprintf(f, "<text class=\"tick ytick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
                    HB_MAP_LEFT - 6, HB_MAP_TOP + at + 4);
        else
            fprintf(f,
                    "<text class=\"tick xtick\" x=\"%.1f\" y=\"%d\" "
                    "text-anchor=\"middle\">",
                    HB_MAP_LEFT + at, y + 12);
        fprintf(f, "%s</text>", hb_report_axis_num_plain(t[i], buf, sizeof(buf)));
    }
    if (rows)
        fprintf(f,
                "<text class=\"axis\" x=\"14\" y=\"%d\" text-anchor=\"middle\" "
                "transform=\"rotate(-90 14 %d)\">host rank (1 = costliest)</text>\n",
                (HB_MAP_TOP + y) / 2, (HB_MAP_TOP + y) / 2);
    else
        fprintf(f,
                "<text class=\"axis\" x=\"%d\" y=\"%d\">cell (number as in the cells "
                "table)</text>\n",
                HB_MAP_LEFT, y + 28);
}

void hb_report_fleet_draw_heatmap(FILE *f, const struct hb_rfleet *fl)
{
    uint32_t kx = (fl->cells.n + HB_MAP_COLS - 1) / HB_MAP_COLS;
    uint32_t ky = (fl->hosts.n + HB_MAP_ROWS - 1) / HB_MAP_ROWS;
    uint32_t cols = kx ? (fl->cells.n + kx - 1) / kx : 0, rows = (fl->hosts.n + ky - 1) / ky;
    uint8_t *px = fl->n ? map_pixels(fl, kx, ky, cols, rows) : NULL;
    if (!px) {
        fputs("<p class=\"nodata\">No heatmap: no host has a figure.</p>\n", f);
        return;
    }
    uint8_t pal[256 * 3];
    map_palette(pal);
    int sx = cols < HB_MAP_COLS ? HB_MAP_COLS / (int)cols : 1;
    int sy = rows < 600 ? 600 / (int)rows : 1;
    int dw = (int)cols * sx, dh = (int)rows * sy, bottom = HB_MAP_TOP + dh;
    int w = HB_MAP_LEFT + (dw > 420 ? dw : 420) + 20, h = bottom + 40 + 50;
    fputs("<figure><p class=\"figtitle\">Cost of every host in every cell</p>\n", f);
    fprintf(f,
            "<svg class=\"heatmap fleetmap\" data-unit=\"x median\" viewBox=\"0 0 %d %d\" "
            "width=\"%d\" height=\"%d\">\n",
            w, h, w, h);
    fprintf(f,
            "<image class=\"fleetmap-image\" data-cols=\"%u\" data-rows=\"%u\" x=\"%d\" "
            "y=\"%d\" width=\"%d\" height=\"%d\" preserveAspectRatio=\"none\" "
            "style=\"image-rendering:pixelated\" href=\"data:image/png;base64,",
            cols, rows, HB_MAP_LEFT, HB_MAP_TOP, dw, dh);
    hb_report_png_base64(f, px, cols, rows, pal, 256);
    fputs("\"/>\n", f);
    free(px);
    map_axis(f, fl->hosts.n, ky, sy, true, bottom);
    map_axis(f, fl->cells.n, kx, sx, false, bottom);
    hb_report_axis_svg_colorscale(f, HB_MAP_LEFT, bottom + 40, 300, fl->cost_min, fl->cost_max,
                                  false, "x median");
    fprintf(f,
            "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"10\" fill=\"#%02x%02x%02x\"/>"
            "<text class=\"tick\" x=\"%d\" y=\"%d\">not measured</text>\n",
            HB_MAP_LEFT + 320, bottom + 54, map_grey[0], map_grey[1], map_grey[2],
            HB_MAP_LEFT + 338, bottom + 63);
    fprintf(f,
            "</svg><figcaption>One row a host, costliest at the top; one column a cell; "
            "coloured by the host's cost in the cell (x its median host). An image of %u x "
            "%u pixels",
            cols, rows);
    if (ky > 1) fprintf(f, "; a row is the costliest of %u hosts", ky);
    if (kx > 1) fprintf(f, "; a column the costliest of %u cells", kx);
    fputs(".</figcaption></figure>\n", f);
}
