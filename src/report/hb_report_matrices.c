/* Report sections built from derived records: matrices (incl. c2c) and fleet. */
#include "hb_report_kit.h"
#include "hb_units.h"
#include "hb_report_sections.h"

#include "hb_report_draw.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static void report_matrix_numbers(FILE *f, const json_t *m, const char *path)
{
    const json_t *rows = json_object_get(m, "rows"), *cols = json_object_get(m, "cols");
    bool c2c = strcmp(hb_jsonl_read_str(m, "metric", ""), "c2c") == 0;
    fprintf(f,
            "<table class=\"numbers\"><tr><th>%s</th><th>%s</th><th>value</th>"
            "<th>relative</th><th>distance</th><th>hop class</th><th>measured class</th></tr>\n",
            c2c ? "writer" : "cpu_node", c2c ? "reader" : "mem_node");
    static const char *const mats[] = {"values", "relative", "distances", "hop_class",
                                       "measured_class"};
    for (size_t r = 0; r < json_array_size(rows); r++)
        for (size_t c = 0; c < json_array_size(cols); c++) {
            fputs("<tr>", f);
            hb_report_data_cell(f, json_array_get(rows, r));
            hb_report_data_cell(f, json_array_get(cols, c));
            for (int k = 0; k < 5; k++)
                hb_report_data_cell(
                    f, json_array_get(json_array_get(json_object_get(m, mats[k]), r), c));
            fputs("</tr>\n", f);
        }
    fputs("</table>\n", f);
    size_t i;
    json_t *fl;
    const json_t *flags = json_object_get(m, "flags");
    json_array_foreach(flags, i, fl)
    {
        if (i >= HB_REPORT_MAX_ROWS) break;
        fprintf(f, "<p class=\"warn flag\">! CPU node %lld, memory node %lld: ",
                (long long)hb_jsonl_read_num(fl, "cpu_node", -1),
                (long long)hb_jsonl_read_num(fl, "mem_node", -1));
        hb_escape_html(f, hb_jsonl_read_str(fl, "reason", ""));
        fputs("</p>\n", f);
    }
    hb_report_kit_left_out_n(f, json_array_size(flags), HB_REPORT_MAX_ROWS, "flags", path,
                             "select(.type == \"matrix\") | .flags[]?");
}

size_t hb_report_matrices_weight(const json_t *m)
{
    size_t rows = json_array_size(json_object_get(m, "rows")),
           cols = json_array_size(json_object_get(m, "cols"));
    /* A summarised matrix is one line; every panel weighs at least a side's worth. */
    if (rows > HB_REPORT_MAX_SIDE || cols > HB_REPORT_MAX_SIDE || rows * cols < HB_REPORT_MAX_SIDE)
        return HB_REPORT_MAX_SIDE;
    return rows * cols;
}

void hb_report_matrices(FILE *f, const struct hb_report_in *in, int nin, int c2c)
{
    int any = 0;
    for (int i = 0; i < nin; i++) {
        size_t k;
        json_t *m;
        json_array_foreach(in[i].res.records, k, m) if (hb_report_kit_is(m, "matrix", NULL, NULL))
            any |= (strcmp(hb_jsonl_read_str(m, "metric", ""), "c2c") == 0) == c2c;
        /* The c2c section also has the false-sharing and lock studies. */
        any |= c2c && in[i].c2c_studies.total > 0;
    }
    if (!any) return;
    fprintf(f, "<section id=\"%s\"><h2>%s</h2>\n", c2c ? "c2c" : "matrices",
            c2c ? "Core-to-core latency" : "Latency and bandwidth matrices");
    if (!c2c)
        fputs("<p>Cells outlined in red with ! are where the firmware hop class and the "
              "measured class disagree; on the HMAT maps, where the measured order or ratio of "
              "two targets from one CPU node disagrees with the firmware's. A node the kernel puts "
              "in a "
              "slower memory tier that measures faster than one of a faster tier is listed under "
              "its matrix.</p>\n",
              f);
    fputs("<div class=\"row\">\n", f);
    for (int i = 0; i < nin; i++) {
        size_t k;
        json_t *m;
        json_array_foreach(in[i].res.records, k, m)
        {
            if (!hb_report_kit_is(m, "matrix", NULL, NULL) ||
                (strcmp(hb_jsonl_read_str(m, "metric", ""), "c2c") == 0) != c2c)
                continue;
            char what[256];
            snprintf(what, sizeof(what), "%s: %s %s (%s)", hb_jsonl_read_str(m, "host", "?"),
                     hb_jsonl_read_str(m, "metric", "?"), hb_jsonl_read_str(m, "kernel", "?"),
                     hb_units_shown(hb_jsonl_read_str(m, "unit", "?")));
            fputs("<div class=\"panel\">", f);
            hb_report_kit_caption(f, &in[i].res, what);
            const json_t *rows = json_object_get(m, "rows"), *cols = json_object_get(m, "cols");
            if (hb_report_kit_too_big(f, "values", json_object_get(m, "values"),
                                      json_array_size(rows), json_array_size(cols))) {
                fputs("</div>\n", f);
                continue;
            }
            const json_t *flags = json_object_get(m, "flags");
            /* Bandwidth is better higher; latency, c2c and relative cost lower. */
            hb_report_draw_svg_heatmap(
                f, rows, cols, json_object_get(m, "values"), flags, c2c ? "c2c" : "value",
                hb_units_shown(hb_jsonl_read_str(m, "unit", "")),
                strcmp(hb_jsonl_read_str(m, "metric", ""), "bandwidth") == 0);
            if (!c2c && json_is_array(json_object_get(m, "relative"))) {
                fputs("<p>relative cost (1.0 = fastest)</p>\n", f);
                hb_report_draw_svg_heatmap(f, rows, cols, json_object_get(m, "relative"), flags,
                                           "relative", "x fastest", false);
            }
            report_matrix_numbers(f, m, in[i].res.path);
            hb_report_c2c_matrix_notes(f, m);
            hb_report_hmat_matrix(f, m, in[i].res.path);
            hb_report_hmat_kernel_tiers(f, m, in[i].res.path);
            fputs("</div>\n", f);
        }
        hb_report_kit_left_out(f, 0, &in[i].matrices[c2c], c2c ? "c2c matrices" : "matrices",
                               in[i].res.path,
                               c2c ? "select(.type == \"matrix\" and .metric == \"c2c\")"
                                   : "select(.type == \"matrix\" and .metric != \"c2c\")");
    }
    fputs("</div>\n", f);
    if (c2c) hb_report_c2c_studies(f, in, nin);
    fputs("</section>\n", f);
}

size_t hb_report_matrices_fleet_weight(const json_t *fl)
{
    size_t n = json_array_size(json_object_get(fl, "hosts"));
    return n < HB_REPORT_MAX_SIDE   ? HB_REPORT_MAX_SIDE
           : n < HB_REPORT_MAX_BARS ? n
                                    : HB_REPORT_MAX_BARS;
}

void hb_report_matrices_fleet(FILE *f, const struct hb_report_in *in, int nin)
{
    if (!hb_report_kit_has(in, nin, "fleet", NULL, NULL)) return;
    fputs("<section id=\"fleet\"><h2>Fleet</h2><div class=\"row\">\n", f);
    for (int i = 0; i < nin; i++) {
        size_t k;
        json_t *fl;
        json_array_foreach(in[i].res.records, k, fl)
        {
            if (!hb_report_kit_is(fl, "fleet", NULL, NULL)) continue;
            const json_t *hosts = json_object_get(fl, "hosts");
            size_t nh = json_array_size(hosts), h;
            size_t n = nh < HB_REPORT_MAX_BARS ? nh : HB_REPORT_MAX_BARS;
            struct hb_bar *bars = malloc((n + 1) * sizeof(*bars));
            if (!bars) continue;
            json_t *host;
            json_array_foreach(hosts, h, host) if (h < n) bars[h] =
                (struct hb_bar){"local latency",
                                hb_jsonl_read_str(host, "host", "?"),
                                json_is_true(json_object_get(host, "outlier")) ? "outlier" : "ok",
                                hb_jsonl_read_num(host, "lat_ns_local", 0),
                                NAN,
                                NAN};
            fputs("<div class=\"panel\">", f);
            hb_report_kit_caption(f, &in[i].res, "hosts");
            hb_report_kit_left_out_n(f, nh, HB_REPORT_MAX_BARS, "hosts", in[i].res.path,
                                     "select(.type == \"fleet\") | .hosts[]?");
            hb_report_draw_svg_bars(f, bars, (int)n, bars, (int)n, "local latency (ns)",
                                    "fleet local latency");
            free(bars);
            fputs("<table class=\"numbers\"><tr><th>host</th><th>lat_ns_local</th>"
                  "<th>bw_GBps_local_read</th><th>worst_remote_ratio</th><th>outlier</th>"
                  "<th>reason</th></tr>\n",
                  f);
            json_array_foreach(hosts, h, host)
            {
                if (h >= n) break;
                int out = json_is_true(json_object_get(host, "outlier"));
                fprintf(f, "<tr class=\"%s\">", out ? "outlier" : "ok");
                static const char *const keys[] = {
                    "host",    "lat_ns_local", "bw_GBps_local_read", "worst_remote_ratio",
                    "outlier", "reason"};
                for (int c = 0; c < 6; c++)
                    hb_report_data_cell(f, json_object_get(host, keys[c]));
                fputs("</tr>\n", f);
            }
            const json_t *med = json_object_get(fl, "median");
            fputs("<tr><td>median</td>", f);
            hb_report_data_cell(f, json_object_get(med, "lat_ns_local"));
            hb_report_data_cell(f, json_object_get(med, "bw_GBps_local_read"));
            hb_report_data_cell(f, json_object_get(med, "worst_remote_ratio"));
            fputs("<td></td><td></td></tr></table></div>\n", f);
        }
        hb_report_kit_left_out(f, 0, &in[i].fleets, "fleet records", in[i].res.path,
                               "select(.type == \"fleet\")");
    }
    fputs("</div></section>\n", f);
}
