/* Report section of the peak suite: per read:write mix and placement, each node's injection
 * bandwidth and the machine's total, as bars and as a table. */
#include "hb_report_kit.h"
#include "hb_report_sections.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The peak records of a file as bars: per record (a group), one bar per node and the total.
 * Names of the node bars go to names[] (room for max); returns the bars made. */
static size_t hb_peak_bars(const struct hb_report_in *in, struct hb_bar *bars, size_t max,
                           char (*names)[32])
{
    size_t n = 0, k;
    json_t *r;
    json_array_foreach(in->res.records, k, r)
    {
        if (!hb_report_is(r, "peak", NULL, NULL)) continue;
        const json_t *nodes = json_object_get(r, "nodes"), *gb = json_object_get(r, "node_GBps");
        for (size_t j = 0; j < json_array_size(gb) && n < max; j++, n++) {
            snprintf(names[n], sizeof(names[n]), "node %lld",
                     (long long)json_integer_value(json_array_get(nodes, j)));
            bars[n] = (struct hb_bar){hb_rec_str(r, "kernel", "?"),
                                      names[n],
                                      names[n],
                                      json_number_value(json_array_get(gb, j)),
                                      NAN,
                                      NAN};
        }
        if (n < max)
            bars[n++] = (struct hb_bar){hb_rec_str(r, "kernel", "?"),
                                        "machine total",
                                        "machine total",
                                        hb_rec_num(r, "total_GBps", 0),
                                        NAN,
                                        NAN};
    }
    return n;
}

/* The table: mix, placement, per node, total (GB/s, one decimal). */
static void hb_peak_table(FILE *f, const struct hb_report_in *in)
{
    fputs("<table class=\"numbers peak\"><tr><th>mix (kernel)</th><th>placement</th>"
          "<th>per node GB/s (in node order)</th><th>machine total GB/s</th></tr>\n",
          f);
    size_t k;
    json_t *r;
    json_array_foreach(in->res.records, k, r)
    {
        if (!hb_report_is(r, "peak", NULL, NULL)) continue;
        fputs("<tr><td>", f);
        hb_html_esc(f, hb_rec_str(r, "kernel", "?"));
        fputs("</td><td>", f);
        hb_html_esc(f, hb_rec_str(r, "policy", "?"));
        fputs("</td><td>", f);
        size_t j;
        json_t *v;
        json_array_foreach(json_object_get(r, "node_GBps"), j, v)
            fprintf(f, "%s%.1f", j ? " / " : "", json_number_value(v));
        fprintf(f, "</td><td class=\"total\">%.1f</td></tr>\n", hb_rec_num(r, "total_GBps", 0));
    }
    fputs("</table>\n", f);
}

void hb_report_peak(FILE *f, const struct hb_report_in *in, int nin)
{
    size_t most = 0;
    for (int i = 0; i < nin; i++) {
        size_t k;
        json_t *r;
        json_array_foreach(in[i].res.records, k, r) if (hb_report_is(r, "peak", NULL, NULL)) most +=
            json_array_size(json_object_get(r, "node_GBps")) + 1;
    }
    if (!most) return;
    struct hb_bar *bars = malloc(most * sizeof(*bars));
    char(*names)[32] = malloc(most * sizeof(*names));
    fputs("<section id=\"peak\"><h2>Peak injection bandwidth</h2><p>Every CPU node's cores "
          "at once, each on its own memory (or interleaved over all): the figure per node and "
          "the machine's total, per read:write mix.</p><div class=\"row\">\n",
          f);
    for (int i = 0; bars && names && i < nin; i++) {
        if (!in[i].peaks.total) continue;
        fputs("<div class=\"panel\">", f);
        hb_report_caption(f, &in[i].res, "per node and machine total");
        hb_report_left_out(f, 0, &in[i].peaks, "peak records", in[i].res.path,
                           "select(.type == \"peak\")");
        size_t n = hb_peak_bars(&in[i], bars, most, names);
        hb_report_bar_figs(f, bars, n, "GB/s (peak injection)", "peak bandwidth");
        hb_peak_table(f, &in[i]);
        fputs("</div>\n", f);
    }
    fputs("</div></section>\n", f);
    free(bars);
    free(names);
}
