/* Report section for the suites without a figure of their own (the default suite, bw, lat
 * and any new suite): bandwidth per kernel and thread count and latency per placement as
 * bars with their numbers. */
#include "hb_report.h"

#include "hb_report_draw.h"

#include <stdlib.h>
#include <string.h>

/* Suites whose measurements another section draws (heatmaps, hop bars, curves). */
static int hb_suite_has_section(const char *suite)
{
    static const char *const own[] = {"matrix", "hops",   "run", "loaded",
                                      "sweep",  "policy", "c2c", NULL};
    for (int i = 0; own[i]; i++)
        if (strcmp(suite, own[i]) == 0) return 1;
    return 0;
}

static int hb_basic_is(const json_t *m, const char *metric)
{
    return hb_report_is(m, "measurement", NULL, NULL) &&
           !hb_suite_has_section(hb_rec_str(m, "suite", "")) &&
           strcmp(hb_rec_str(m, "role", "foreground"), "background") != 0 &&
           strcmp(hb_rec_str(m, "metric", ""), metric) == 0;
}

struct hb_basic_bar {
    char group[32], series[64];
    const json_t *rec;
};

/* "node C -> M" (or the policy when the memory is not one node): one colour per placement. */
static void hb_basic_series(char *dst, size_t len, const json_t *m)
{
    const json_t *mem = json_object_get(m, "mem_node");
    if (json_is_integer(mem))
        snprintf(dst, len, "node %d \xe2\x86\x92 node %d", (int)hb_rec_num(m, "cpu_node", -1),
                 (int)json_integer_value(mem));
    else
        snprintf(dst, len, "node %d \xe2\x86\x92 %s", (int)hb_rec_num(m, "cpu_node", -1),
                 hb_rec_str(m, "policy", "?"));
}

static void hb_basic_numbers(FILE *f, struct hb_basic_bar *b, size_t n, const char *value_key)
{
    static const char *const keys[] = {"suite",   "experiment", "label",    "kernel",
                                       "threads", "cpu_node",   "mem_node", "policy",
                                       "bytes",   "pages",      NULL,       "status"};
    fputs("<table class=\"numbers\"><tr>", f);
    for (int c = 0; c < 12; c++)
        fprintf(f, "<th>%s</th>", keys[c] ? keys[c] : value_key);
    fputs("</tr>\n", f);
    for (size_t i = 0; i < n; i++) {
        fputs("<tr>", f);
        for (int c = 0; c < 12; c++)
            hb_report_cell_key(f, keys[c] ? keys[c] : value_key,
                               json_object_get(b[i].rec, keys[c] ? keys[c] : value_key));
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

/* One figure: the records of metric, grouped by thread count (bandwidth) or CPU node
 * (latency), in record order inside a group. */
static void hb_basic_figure(FILE *f, const struct hb_results *r, const char *metric,
                            const char *value_key, const char *title, const char *ylabel)
{
    size_t total = json_array_size(r->records), n = 0, k;
    struct hb_basic_bar *b = calloc(total + 1, sizeof(*b));
    struct hb_bar *bars = calloc(total + 1, sizeof(*bars));
    if (!b || !bars) goto out;
    int bw = strcmp(metric, "bandwidth") == 0;
    /* Groups in ascending order of their key; each record lands in exactly one. */
    for (int key = -1, next;; key = next) {
        next = -1;
        json_t *m;
        json_array_foreach(r->records, k, m)
        {
            if (!hb_basic_is(m, metric)) continue;
            int v = (int)hb_rec_num(m, bw ? "threads" : "cpu_node", 0);
            if (v == key) {
                b[n].rec = m;
                if (bw)
                    snprintf(b[n].group, sizeof(b[n].group), "%d thread%s", v, v == 1 ? "" : "s");
                else
                    snprintf(b[n].group, sizeof(b[n].group), "CPU node %d", v);
                hb_basic_series(b[n].series, sizeof(b[n].series), m);
                bars[n] = (struct hb_bar){
                    b[n].group, bw ? hb_rec_str(m, "kernel", "?") : hb_rec_str(m, "label", "?"),
                    b[n].series, hb_rec_num(m, value_key, 0)};
                n++;
            } else if (v > key && (next < 0 || v < next)) {
                next = v;
            }
        }
        if (next < 0) break;
    }
    if (n) {
        fputs("<div class=\"panel\">", f);
        hb_report_caption(f, r, title);
        hb_svg_bars(f, bars, (int)n, ylabel);
        hb_basic_numbers(f, b, n, value_key);
        fputs("</div>\n", f);
    }
out:
    free(b);
    free(bars);
}

void hb_report_basic(FILE *f, const struct hb_results *in, int nin)
{
    int any = 0;
    for (int i = 0; i < nin; i++) {
        size_t k;
        json_t *m;
        json_array_foreach(in[i].records, k, m) any |= hb_basic_is(m, "bandwidth") ||
                                                       hb_basic_is(m, "latency");
    }
    if (!any) return;
    fputs("<section id=\"basic\"><h2>Bandwidth and latency</h2><div class=\"row\">\n", f);
    for (int i = 0; i < nin; i++) {
        hb_basic_figure(f, &in[i], "bandwidth", "bw_GBps_best",
                        "bandwidth per kernel and thread count", "GB/s (best sample)");
        hb_basic_figure(f, &in[i], "latency", "lat_ns_median", "idle latency",
                        "ns per load (median)");
    }
    fputs("</div></section>\n", f);
}
