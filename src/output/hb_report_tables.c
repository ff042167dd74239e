/* Report sections built from derived records: machine, matrices (incl. c2c), fleet, verdicts. */
#include "hb_report_kit.h"
#include "hb_report_sections.h"

#include "hb_report_draw.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static void hb_report_matrix_table(FILE *f, const char *name, const json_t *m)
{
    if (!json_is_array(m)) return;
    size_t width = 0, r;
    json_t *row;
    json_array_foreach(m, r, row) if (json_array_size(row) > width) width = json_array_size(row);
    if (hb_report_too_big(f, name, m, json_array_size(m), width)) return;
    fprintf(f, "<table><tr><th>%s</th>", name);
    for (size_t c = 0; c < json_array_size(m); c++)
        fprintf(f, "<th>%zu</th>", c);
    fputs("</tr>\n", f);
    json_array_foreach(m, r, row)
    {
        fprintf(f, "<tr><th>%zu</th>", r);
        size_t c;
        json_t *v;
        json_array_foreach(row, c, v) hb_report_cell(f, v);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

/* What the machine cannot show (the notes every run of a one-node machine carries): each
 * distinct text once, however many result files repeat it, at most HB_REPORT_MAX_PANELS. */
static void hb_report_notes(FILE *f, const struct hb_report_in *in, int nin)
{
    struct hb_strtab seen = {0};
    struct hb_rbudget b = {0};
    for (int i = 0; i < nin; i++)
        for (uint32_t id = 0; id < in[i].notes.n; id++) {
            const char *text = hb_strtab_get(&in[i].notes, id);
            uint32_t n = seen.n;
            if (hb_strtab_add(&seen, text, strlen(text)) == HB_STRTAB_NONE) break;
            if (seen.n == n || !hb_report_budget_take(&b, 1, HB_REPORT_MAX_PANELS)) continue;
            fputs("<p class=\"note\">", f);
            hb_html_esc(f, text);
            fputs("</p>\n", f);
        }
    hb_strtab_free(&seen);
    hb_report_left_out(f, 0, &b, "notes", nin == 1 ? in[0].res.path : NULL,
                       "select(.type == \"note\" and has(\"text\")) | .text");
}

void hb_report_machine(FILE *f, const struct hb_report_in *in, int nin)
{
    int any = 0;
    for (int i = 0; i < nin; i++)
        any |= in[i].res.run != NULL;
    if (!any) return;
    fputs("<section id=\"machine\"><h2>Machine</h2><div class=\"row\">\n", f);
    static const char *const keys[] = {"hosts",    "ranks",        "hopbench_version",
                                       "git_sha",  "command_line", "start_time",
                                       "versions", "build",        "simd",
                                       "omp",      "thp",          "numa_balancing",
                                       "sizes",    "caches",       "timer",
                                       NULL};
    for (int i = 0; i < nin; i++) {
        const json_t *run = in[i].res.run;
        if (!run) continue;
        fputs("<div class=\"panel\">", f);
        hb_report_caption(f, &in[i].res, "run");
        fputs("<table>\n", f);
        for (int k = 0; keys[k]; k++) {
            fprintf(f, "<tr><th>%s</th>", keys[k]);
            hb_report_cell_key(f, keys[k], json_object_get(run, keys[k]));
            fputs("</tr>\n", f);
        }
        fputs("</table>\n", f);
        const json_t *topo = json_object_get(run, "topology");
        fputs("<table><tr><th>node</th><th>cpus</th><th>memory GiB</th></tr>\n", f);
        size_t n;
        json_t *node;
        const json_t *nodes = json_object_get(topo, "nodes");
        json_array_foreach(nodes, n, node)
        {
            if (n >= HB_REPORT_MAX_ROWS) break;
            fputs("<tr>", f);
            hb_report_cell(f, json_object_get(node, "os_index"));
            hb_report_cell(f, json_object_get(node, "cpus"));
            fprintf(f, "<td>%.1f</td></tr>\n", hb_rec_num(node, "mem_bytes", 0) / 1073741824.0);
        }
        fputs("</table>\n", f);
        hb_report_left_out_n(f, json_array_size(nodes), HB_REPORT_MAX_ROWS, "nodes", in[i].res.path,
                             "select(.type == \"run\") | .topology.nodes[]?");
        if (!json_is_array(json_object_get(topo, "distances")))
            fputs("<p>No firmware distance matrix.</p>\n", f);
        hb_report_matrix_table(f, "distance", json_object_get(topo, "distances"));
        hb_report_matrix_table(f, "hop class", json_object_get(topo, "hop_class"));
        fputs("</div>\n", f);
    }
    fputs("</div>\n", f);
    hb_report_notes(f, in, nin);
    fputs("</section>\n", f);
}

static void hb_report_matrix_numbers(FILE *f, const json_t *m, const char *path)
{
    const json_t *rows = json_object_get(m, "rows"), *cols = json_object_get(m, "cols");
    bool c2c = strcmp(hb_rec_str(m, "metric", ""), "c2c") == 0;
    fprintf(f,
            "<table class=\"numbers\"><tr><th>%s</th><th>%s</th><th>value</th>"
            "<th>relative</th><th>distance</th><th>hop class</th><th>measured class</th></tr>\n",
            c2c ? "writer" : "cpu_node", c2c ? "reader" : "mem_node");
    static const char *const mats[] = {"values", "relative", "distances", "hop_class",
                                       "measured_class"};
    for (size_t r = 0; r < json_array_size(rows); r++)
        for (size_t c = 0; c < json_array_size(cols); c++) {
            fputs("<tr>", f);
            hb_report_cell(f, json_array_get(rows, r));
            hb_report_cell(f, json_array_get(cols, c));
            for (int k = 0; k < 5; k++)
                hb_report_cell(f,
                               json_array_get(json_array_get(json_object_get(m, mats[k]), r), c));
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
                (long long)hb_rec_num(fl, "cpu_node", -1),
                (long long)hb_rec_num(fl, "mem_node", -1));
        hb_html_esc(f, hb_rec_str(fl, "reason", ""));
        fputs("</p>\n", f);
    }
    hb_report_left_out_n(f, json_array_size(flags), HB_REPORT_MAX_ROWS, "flags", path,
                         "select(.type == \"matrix\") | .flags[]?");
}

size_t hb_report_matrix_weight(const json_t *m)
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
        json_array_foreach(in[i].res.records, k, m) if (hb_report_is(m, "matrix", NULL, NULL))
            any |= (strcmp(hb_rec_str(m, "metric", ""), "c2c") == 0) == c2c;
    }
    if (!any) return;
    fprintf(f, "<section id=\"%s\"><h2>%s</h2>\n", c2c ? "c2c" : "matrices",
            c2c ? "Core-to-core latency" : "Latency and bandwidth matrices");
    if (!c2c)
        fputs("<p>Cells outlined in red with ! are where the firmware hop class and the "
              "measured class disagree; on the HMAT maps, where the measured order or ratio of "
              "two targets from one CPU node disagrees with the firmware's.</p>\n",
              f);
    fputs("<div class=\"row\">\n", f);
    for (int i = 0; i < nin; i++) {
        size_t k;
        json_t *m;
        json_array_foreach(in[i].res.records, k, m)
        {
            if (!hb_report_is(m, "matrix", NULL, NULL) ||
                (strcmp(hb_rec_str(m, "metric", ""), "c2c") == 0) != c2c)
                continue;
            char what[256];
            snprintf(what, sizeof(what), "%s: %s %s (%s)", hb_rec_str(m, "host", "?"),
                     hb_rec_str(m, "metric", "?"), hb_rec_str(m, "kernel", "?"),
                     hb_rec_str(m, "unit", "?"));
            fputs("<div class=\"panel\">", f);
            hb_report_caption(f, &in[i].res, what);
            const json_t *rows = json_object_get(m, "rows"), *cols = json_object_get(m, "cols");
            if (hb_report_too_big(f, "values", json_object_get(m, "values"), json_array_size(rows),
                                  json_array_size(cols))) {
                fputs("</div>\n", f);
                continue;
            }
            const json_t *flags = json_object_get(m, "flags");
            /* Bandwidth is better higher; latency, c2c and relative cost lower. */
            hb_svg_heatmap(f, rows, cols, json_object_get(m, "values"), flags,
                           c2c ? "c2c" : "value", hb_rec_str(m, "unit", ""),
                           strcmp(hb_rec_str(m, "metric", ""), "bandwidth") == 0);
            if (!c2c && json_is_array(json_object_get(m, "relative"))) {
                fputs("<p>relative cost (1.0 = fastest)</p>\n", f);
                hb_svg_heatmap(f, rows, cols, json_object_get(m, "relative"), flags, "relative",
                               "x fastest", false);
            }
            hb_report_matrix_numbers(f, m, in[i].res.path);
            hb_report_matrix_hmat(f, m, in[i].res.path);
            fputs("</div>\n", f);
        }
        hb_report_left_out(f, 0, &in[i].matrices[c2c], c2c ? "c2c matrices" : "matrices",
                           in[i].res.path,
                           c2c ? "select(.type == \"matrix\" and .metric == \"c2c\")"
                               : "select(.type == \"matrix\" and .metric != \"c2c\")");
    }
    fputs("</div></section>\n", f);
}

size_t hb_report_fleet_weight(const json_t *fl)
{
    size_t n = json_array_size(json_object_get(fl, "hosts"));
    return n < HB_REPORT_MAX_SIDE   ? HB_REPORT_MAX_SIDE
           : n < HB_REPORT_MAX_BARS ? n
                                    : HB_REPORT_MAX_BARS;
}

void hb_report_fleet(FILE *f, const struct hb_report_in *in, int nin)
{
    if (!hb_report_has(in, nin, "fleet", NULL, NULL)) return;
    fputs("<section id=\"fleet\"><h2>Fleet</h2><div class=\"row\">\n", f);
    for (int i = 0; i < nin; i++) {
        size_t k;
        json_t *fl;
        json_array_foreach(in[i].res.records, k, fl)
        {
            if (!hb_report_is(fl, "fleet", NULL, NULL)) continue;
            const json_t *hosts = json_object_get(fl, "hosts");
            size_t nh = json_array_size(hosts), h;
            size_t n = nh < HB_REPORT_MAX_BARS ? nh : HB_REPORT_MAX_BARS;
            struct hb_bar *bars = malloc((n + 1) * sizeof(*bars));
            if (!bars) continue;
            json_t *host;
            json_array_foreach(hosts, h, host) if (h < n) bars[h] =
                (struct hb_bar){"local latency",
                                hb_rec_str(host, "host", "?"),
                                json_is_true(json_object_get(host, "outlier")) ? "outlier" : "ok",
                                hb_rec_num(host, "lat_ns_local", 0),
                                NAN,
                                NAN};
            fputs("<div class=\"panel\">", f);
            hb_report_caption(f, &in[i].res, "hosts");
            hb_report_left_out_n(f, nh, HB_REPORT_MAX_BARS, "hosts", in[i].res.path,
                                 "select(.type == \"fleet\") | .hosts[]?");
            hb_svg_bars(f, bars, (int)n, "local latency (ns)", "fleet local latency", NAN);
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
                    hb_report_cell(f, json_object_get(host, keys[c]));
                fputs("</tr>\n", f);
            }
            const json_t *med = json_object_get(fl, "median");
            fputs("<tr><td>median</td>", f);
            hb_report_cell(f, json_object_get(med, "lat_ns_local"));
            hb_report_cell(f, json_object_get(med, "bw_GBps_local_read"));
            hb_report_cell(f, json_object_get(med, "worst_remote_ratio"));
            fputs("<td></td><td></td></tr></table></div>\n", f);
        }
        hb_report_left_out(f, 0, &in[i].fleets, "fleet records", in[i].res.path,
                           "select(.type == \"fleet\")");
    }
    fputs("</div></section>\n", f);
}
