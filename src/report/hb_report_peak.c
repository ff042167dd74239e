/* Report section of the peak suite: per read:write mix and placement, each node's injection
 * bandwidth and the machine's total, as bars with their intervals and as a table. A node's
 * interval is its measurement's (the peak record names the experiment); the total's is the
 * record's total_GBps_ci95 when it has one. */
#include "hb_report_kit.h"
#include "hb_report_sections.h"

#include "hb_figure_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int hb_report_peak_take(struct hb_report_in *in, const json_t *m)
{
    if (!hb_report_kit_is(m, "measurement", "peak", NULL) ||
        strcmp(hb_jsonl_read_str(m, "role", "foreground"), "background") == 0)
        return 0;
    struct hb_rbar bar = {.key = hb_report_kit_int(m, "cpu_node", -1),
                          .fig = hb_report_data_fig(m, hb_jsonl_read_headline_key(m))};
    int rc = hb_report_data_intern(in, hb_jsonl_read_str(m, "experiment", ""), &bar.group);
    if (rc == 0) rc = hb_report_data_intern(in, hb_jsonl_read_str(m, "host", ""), &bar.label);
    return rc ? rc : hb_report_data_add_bar(&in->peak_nodes, &bar);
}

/* The figure of node j of peak record r: its measurement's, with its interval; else the
 * record's figure alone. */
static struct hb_rfig peak_node(const struct hb_report_in *in, const json_t *r, size_t j)
{
    double node = (double)json_integer_value(json_array_get(json_object_get(r, "nodes"), j));
    const char *exp = hb_jsonl_read_str(r, "experiment", ""),
               *host = hb_jsonl_read_str(r, "host", "");
    for (size_t k = 0; k < in->peak_nodes.n; k++) {
        const struct hb_rbar *b = &in->peak_nodes.v[k];
        if (b->key == node && strcmp(hb_strtab_get(&in->str, b->group), exp) == 0 &&
            strcmp(hb_strtab_get(&in->str, b->label), host) == 0)
            return b->fig;
    }
    return (struct hb_rfig){json_number_value(json_array_get(json_object_get(r, "node_GBps"), j)),
                            NAN, NAN, NAN, 0};
}

/* The peak records of a file as bars: per record (a group), one bar per node and the total.
 * Names of the node bars go to names[] (room for max); returns the bars made. */
static size_t peak_bars(const struct hb_report_in *in, struct hb_bar *bars, size_t max,
                        char (*names)[32])
{
    size_t n = 0, k;
    json_t *r;
    json_array_foreach(in->res.records, k, r)
    {
        if (!hb_report_kit_is(r, "peak", NULL, NULL)) continue;
        const json_t *nodes = json_object_get(r, "nodes"), *gb = json_object_get(r, "node_GBps");
        for (size_t j = 0; j < json_array_size(gb) && n < max; j++, n++) {
            snprintf(names[n], sizeof(names[n]), "node %lld",
                     (long long)json_integer_value(json_array_get(nodes, j)));
            struct hb_rfig fig = peak_node(in, r, j);
            bars[n] = (struct hb_bar){hb_jsonl_read_str(r, "kernel", "?"),      names[n], names[n],
                                      json_number_value(json_array_get(gb, j)), fig.lo,   fig.hi};
        }
        struct hb_rfig total = hb_report_data_fig(r, "total_GBps");
        if (n < max)
            bars[n++] = (struct hb_bar){hb_jsonl_read_str(r, "kernel", "?"),
                                        "machine total",
                                        "machine total",
                                        total.v,
                                        total.lo,
                                        total.hi};
    }
    return n;
}

/* The table: mix, placement, per node, total (GB/s, each with its interval where it has one). */
static void peak_table(FILE *f, const struct hb_report_in *in)
{
    char text[HB_FIGURE_LEN];
    fputs("<table class=\"numbers peak\"><tr><th>mix (kernel)</th><th>placement</th>"
          "<th>per node GB/s [lo, hi] (in node order)</th><th>machine total GB/s</th></tr>\n",
          f);
    size_t k;
    json_t *r;
    json_array_foreach(in->res.records, k, r)
    {
        if (!hb_report_kit_is(r, "peak", NULL, NULL)) continue;
        fputs("<tr><td>", f);
        hb_escape_html(f, hb_jsonl_read_str(r, "kernel", "?"));
        fputs("</td><td>", f);
        hb_escape_html(f, hb_jsonl_read_str(r, "policy", "?"));
        fputs("</td><td>", f);
        size_t j;
        json_t *v;
        json_array_foreach(json_object_get(r, "node_GBps"), j, v)
        {
            struct hb_rfig fig = peak_node(in, r, j);
            fprintf(f, "%s%s", j ? " / " : "",
                    hb_figure_text_interval_text(json_number_value(v), fig.lo, fig.hi, text,
                                                 sizeof(text)));
        }
        struct hb_rfig total = hb_report_data_fig(r, "total_GBps");
        fprintf(f, "</td><td class=\"total\">%s</td></tr>\n",
                hb_figure_text_interval_text(total.v, total.lo, total.hi, text, sizeof(text)));
    }
    fputs("</table>\n", f);
}

void hb_report_peak(FILE *f, const struct hb_report_in *in, int nin)
{
    size_t most = 0;
    for (int i = 0; i < nin; i++) {
        size_t k;
        json_t *r;
        json_array_foreach(in[i].res.records, k, r) if (hb_report_kit_is(r, "peak", NULL, NULL))
            most += json_array_size(json_object_get(r, "node_GBps")) + 1;
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
        hb_report_kit_caption(f, &in[i].res, "per node and machine total");
        hb_report_kit_left_out(f, 0, &in[i].peaks, "peak records", in[i].res.path,
                               "select(.type == \"peak\")");
        size_t n = peak_bars(&in[i], bars, most, names);
        hb_report_kit_bar_figs(f, bars, n, "GB/s (peak injection)", "peak bandwidth");
        hb_report_kit_whiskers(f, &in[i].peak_nodes.cov);
        peak_table(f, &in[i]);
        fputs("</div>\n", f);
    }
    fputs("</div></section>\n", f);
    free(bars);
    free(names);
}
