/* Report section of the coll suite: per operation, the p50 latency against message size, one
 * curve per placement class (communicator); each timed communicator's ranks by hop distance
 * from the root; and the best and worst placement of each operation and size with their ratio
 * and verdict (coll_placement records). */
#include "hb_report_kit.h"
#include "hb_report_sections.h"

#include "hb_grow.h"
#include "hb_options.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The per-hop table's columns. */
static const char *const coll_keys[] = {"op",        "message_bytes", "coll_class",   "ranks",
                                        "root_node", "p50_us",        "slowest_rank", "hop_split",
                                        "buffers",   "coll_component"};
#define COLL_COLS ((int)(sizeof(coll_keys) / sizeof(coll_keys[0])))

int hb_report_coll_take(struct hb_report_in *in, const json_t *m)
{
    if (!hb_report_kit_is(m, "measurement", "coll", NULL) ||
        strcmp(hb_jsonl_read_str(m, "status", ""), "ok") != 0 ||
        strcmp(hb_jsonl_read_str(m, "bg_level", "idle"), "idle") != 0 ||
        !json_is_number(json_object_get(m, "p50_us")))
        return 0;
    int op = hb_coll_op_index(hb_jsonl_read_str(m, "op", ""));
    if (op < 0) return 0;
    int rc = 0;
    in->coll_total++;
    if (in->ncoll_rows < HB_REPORT_MAX_ROWS) {
        rc = hb_grow((void **)&in->coll_rows, &in->coll_rowcap, in->ncoll_rows,
                     sizeof(*in->coll_rows));
        if (rc == 0)
            rc = hb_report_data_add_row(in, m, coll_keys, COLL_COLS, true,
                                        &in->coll_rows[in->ncoll_rows]);
        if (rc == 0) in->ncoll_rows++;
    }
    /* The curve of a rooted op is its communicator's first node as root (each root: the
     * table). */
    const json_t *root = json_object_get(m, "root_node");
    if (rc || (json_is_integer(root) &&
               !json_equal(root, json_array_get(json_object_get(m, "nodes"), 0))))
        return rc;
    /* A barrier moves no message: nothing to place on a size axis (its row is in the table). */
    if (hb_jsonl_read_num(m, "message_bytes", 0) <= 0) return 0;
    char name[96], span[24] = "unknown";
    if (json_is_integer(json_object_get(m, "span_hops")))
        snprintf(span, sizeof(span), "%lld", (long long)hb_jsonl_read_num(m, "span_hops", 0));
    snprintf(name, sizeof(name), "%s (%lld ranks, %s hops)",
             hb_jsonl_read_str(m, "coll_class", "?"), (long long)hb_jsonl_read_num(m, "ranks", 0),
             span);
    return hb_report_data_add_point(&in->coll[op], name, hb_jsonl_read_num(m, "message_bytes", 0),
                                    hb_report_data_fig(m, "p50_us"), "");
}

/* One op's curves. */
static void coll_figure(FILE *f, const struct hb_report_in *in, int op)
{
    char title[96], select[200];
    snprintf(title, sizeof(title), "MPI %s latency vs message size", hb_coll_op_names[op]);
    snprintf(select, sizeof(select),
             "select(.type == \"measurement\" and .suite == \"coll\" and .op == \"%s\")",
             hb_coll_op_names[op]);
    const struct hb_curve_fig fig = {
        {false, true, true, "message size", "latency (us, p50 of the slowest rank)", "coll"},
        select,
        NULL};
    fputs("<div class=\"panel\">", f);
    hb_report_kit_caption(f, &in->res, title);
    fputs("<figure>", f);
    hb_report_curves_figure(f, in, &in->coll[op], NULL, 0, &fig);
    fputs("<figcaption>One curve per placement class (its communicator's ranks and the most hops "
          "between two of its nodes); a rooted operation with its first node as root. Whiskers: "
          "the interval over repeats.</figcaption></figure></div>\n",
          f);
}

/* Every communicator timed, its ranks by hops from the root. */
static void coll_split_table(FILE *f, const struct hb_report_in *in)
{
    if (!in->ncoll_rows) return;
    fputs("<div class=\"panel\">", f);
    hb_report_kit_caption(f, &in->res, "Per rank, by hops from the root");
    hb_report_kit_numbers_open(f, in->ncoll_rows);
    fputs("<table class=\"numbers coll\"><tr>", f);
    for (int c = 0; c < COLL_COLS; c++)
        fprintf(f, "<th>%s</th>", coll_keys[c]);
    fputs("</tr>\n", f);
    for (size_t r = 0; r < in->ncoll_rows; r++)
        hb_report_kit_row(f, in, in->coll_rows[r], COLL_COLS);
    hb_report_kit_left_out_n(f, in->coll_total, HB_REPORT_MAX_ROWS, "coll measurements",
                             in->res.path,
                             "select(.type == \"measurement\" and .suite == \"coll\")");
    fputs("</table>\n", f);
    hb_report_kit_numbers_close(f, in->ncoll_rows);
    fputs("</div>\n", f);
}

/* One placement as a cell: class, root, ranks, p50 with its interval. */
static void coll_place_cell(FILE *f, const json_t *p)
{
    const json_t *fig = json_object_get(p, "p50_us");
    fputs("<td>", f);
    hb_escape_html(f, hb_jsonl_read_str(p, "coll_class", "?"));
    if (json_is_integer(json_object_get(p, "root_node")))
        fprintf(f, ", root node %lld", (long long)hb_jsonl_read_num(p, "root_node", 0));
    fprintf(f, ", %lld ranks: ", (long long)hb_jsonl_read_num(p, "ranks", 0));
    hb_report_data_value_text(f, "p50_us", json_object_get(fig, "value"));
    fputs(" us</td>", f);
}

/* The coll_placement records: best, worst, ratio, verdict. */
static void coll_places_table(FILE *f, const struct hb_report_in *in)
{
    size_t k, rows = 0;
    json_t *m;
    json_array_foreach(in->res.records, k, m) rows +=
        hb_report_kit_is(m, "coll_placement", NULL, NULL);
    if (!rows) return;
    fputs("<div class=\"panel\">", f);
    hb_report_kit_caption(f, &in->res, "Best and worst placement");
    fputs("<table class=\"numbers coll\"><tr><th>op</th><th>message</th><th>placements</th>"
          "<th>best</th><th>worst</th><th>ratio</th><th>ratio ci95</th><th>verdict</th></tr>\n",
          f);
    json_array_foreach(in->res.records, k, m)
    {
        if (!hb_report_kit_is(m, "coll_placement", NULL, NULL)) continue;
        fputs("<tr>", f);
        hb_report_data_cell(f, json_object_get(m, "op"));
        hb_report_data_cell_key(f, "message_bytes", json_object_get(m, "message_bytes"));
        hb_report_data_cell(f, json_object_get(m, "placements"));
        coll_place_cell(f, json_object_get(m, "best"));
        coll_place_cell(f, json_object_get(m, "worst"));
        hb_report_data_cell(f, json_object_get(m, "ratio"));
        hb_report_data_cell(f, json_object_get(m, "ratio_ci95"));
        const json_t *v = json_object_get(m, "verdict");
        fputs("<td>", f);
        hb_escape_html(f, json_is_string(v) ? json_string_value(v)
                                            : "within the noise (or no interval)");
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
    hb_report_kit_left_out(f, 0, &in->coll_places, "coll_placement records", in->res.path,
                           "select(.type == \"coll_placement\")");
    fputs("</div>\n", f);
}

void hb_report_coll(FILE *f, const struct hb_report_in *in, int nin)
{
    bool any = false;
    for (int i = 0; i < nin; i++)
        any |= in[i].ncoll_rows > 0 || in[i].coll_places.total > 0;
    if (!any) return;
    fputs("<section id=\"coll\"><h2>MPI collectives across NUMA nodes</h2><p>Per operation, the "
          "latency of the slowest rank (p50 over the calls) against message size, one curve per "
          "placement class: the ranks of a package, of nodes within 1, 2 ... hops, the world. "
          "Then every communicator timed, its ranks grouped by hops from the root (hop_split), "
          "and the best and worst placement of each operation and size.</p><div class=\"row\">\n",
          f);
    for (int i = 0; i < nin; i++) {
        for (int op = 0; op < HB_COLL_OPS; op++)
            if (in[i].coll[op].n) coll_figure(f, &in[i], op);
        coll_split_table(f, &in[i]);
        coll_places_table(f, &in[i]);
    }
    fputs("</div></section>\n", f);
}
