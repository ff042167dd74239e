/* Report section of the comm suite: per host, MPI message latency and bandwidth between NUMA
 * nodes as heatmaps with hop classes, and latency and bandwidth against message size, one
 * curve per pair class (the median over the rank pairs of the class). */
#include "hb_report_kit.h"
#include "hb_units.h"
#include "hb_report_sections.h"

#include "hb_report_axis.h"
#include "hb_bytes.h"
#include "hb_stats.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The three figures against message size, in HB_RCOMM_* order. */
static const struct hb_comm_fig {
    const char *metric, *title, *ylabel, *scale, *select;
} comm_figs[HB_RCOMM_METRICS] = {
    {"latency", "MPI message latency vs message size", "one-way latency (us, p50)", "comm latency",
     "select(.type == \"measurement\" and .suite == \"comm\" and .metric == \"latency\" and "
     "(.bg_level // \"idle\") == \"idle\")"},
    {"bandwidth", "MPI streaming bandwidth vs message size", "bandwidth (GB/s)", "comm bandwidth",
     "select(.type == \"measurement\" and .suite == \"comm\" and .metric == \"bandwidth\" and "
     "(.bg_level // \"idle\") == \"idle\")"},
    {"bibandwidth", "MPI bidirectional bandwidth vs message size",
     "bandwidth, both directions (GB/s)", "comm bibandwidth",
     "select(.type == \"measurement\" and .suite == \"comm\" and .metric == \"bibandwidth\" and "
     "(.bg_level // \"idle\") == \"idle\")"},
};

int hb_report_comm_take(struct hb_report_in *in, const json_t *m)
{
    /* The curves are idle pairs: comm --bg's loaded twins are its comm_bg records. */
    if (!hb_report_kit_is(m, "measurement", "comm", NULL) ||
        strcmp(hb_jsonl_read_str(m, "status", ""), "ok") != 0 ||
        strcmp(hb_jsonl_read_str(m, "bg_level", "idle"), "idle") != 0 ||
        !json_is_number(json_object_get(m, hb_jsonl_read_headline_key(m))))
        return 0;
    struct hb_rcomm p = {.metric = -1, .bytes = hb_jsonl_read_num(m, "message_bytes", NAN)};
    for (int mi = 0; mi < HB_RCOMM_METRICS; mi++)
        if (strcmp(hb_jsonl_read_str(m, "metric", ""), comm_figs[mi].metric) == 0) p.metric = mi;
    if (p.metric < 0 || !(p.bytes > 0)) return 0;
    /* Hop classes are one host's: a pair across hosts has its own class. */
    const json_t *hops = json_object_get(m, "hops");
    if (strcmp(hb_jsonl_read_str(m, "src_host", ""), hb_jsonl_read_str(m, "dst_host", "")) != 0)
        p.cls = HB_RCOMM_HOSTS;
    else if (json_is_integer(hops) && json_integer_value(hops) >= 0 &&
             json_integer_value(hops) < INT_MAX)
        p.cls = (int)json_integer_value(hops);
    else
        p.cls = HB_RCOMM_UNKNOWN;
    p.y = hb_report_data_fig(m, hb_jsonl_read_headline_key(m));
    return hb_report_data_add_comm(&in->comm, &p);
}

/* Pair classes in drawing order: hop classes ascending, then between hosts, then unknown. */
static int comm_rank(int cls)
{
    return cls >= 0 ? cls : cls == HB_RCOMM_HOSTS ? INT_MAX - 1 : INT_MAX;
}

static int comm_cmp(const void *a, const void *b)
{
    const struct hb_rcomm *x = a, *y = b;
    int rx = comm_rank(x->cls), ry = comm_rank(y->cls);
    if (rx != ry) return rx < ry ? -1 : 1;
    return (x->bytes > y->bytes) - (x->bytes < y->bytes);
}

/* How many of the n figures from p on are of p's size (the pairs measured at it). */
static size_t comm_run(const struct hb_rcomm *p, size_t n)
{
    size_t k = 1;
    while (k < n && p[k].bytes == p[0].bytes)
        k++;
    return k;
}

/* The median over k pairs' figures of one size; its interval the medians of their intervals'
 * ends (it holds the median: each end's order statistics bound the values'), none unless
 * every pair has one. buf: room for k numbers. */
static struct hb_rfig comm_median(const struct hb_rcomm *p, size_t k, double *buf)
{
    struct hb_rfig fig = {NAN, NAN, NAN, NAN, 0};
    bool ci = true;
    for (size_t i = 0; i < k; i++) {
        buf[i] = p[i].y.v;
        ci = ci && isfinite(p[i].y.lo) && isfinite(p[i].y.hi);
    }
    fig.v = hb_stats_median(buf, (int)k);
    for (int end = 0; ci && end < 2; end++) {
        for (size_t i = 0; i < k; i++)
            buf[i] = end ? p[i].y.hi : p[i].y.lo;
        *(end ? &fig.hi : &fig.lo) = hb_stats_median(buf, (int)k);
    }
    return fig;
}

/* The curves of metric mi into out: per pair class (series in drawing order, named with the
 * most pairs it has at a size) its median at each size. 0 or -ENOMEM. */
static int comm_curves(const struct hb_rcomms *c, int mi, struct hb_rcurves *out)
{
    size_t n = 0;
    struct hb_rcomm *p = malloc((c->n + 1) * sizeof(*p));
    double *buf = malloc((c->n + 1) * sizeof(*buf));
    int rc = p && buf ? 0 : -ENOMEM;
    for (size_t i = 0; rc == 0 && i < c->n; i++)
        if (c->v[i].metric == mi) p[n++] = c->v[i];
    if (rc == 0) qsort(p, n, sizeof(*p), comm_cmp);
    for (size_t a = 0, end = 0; rc == 0 && a < n; a = end) {
        size_t most = 0;
        while (end < n && p[end].cls == p[a].cls)
            end++;
        for (size_t s = a, k; s < end; s += k) {
            k = comm_run(p + s, end - s);
            most = k > most ? k : most;
        }
        char name[64];
        hb_report_words_comm_class(p[a].cls, most, name, sizeof(name));
        for (size_t s = a, k; rc == 0 && s < end; s += k) {
            k = comm_run(p + s, end - s);
            rc = hb_report_data_add_point(out, name, p[s].bytes, comm_median(p + s, k, buf), "");
        }
    }
    /* Its whiskers are the medians of the pairs' intervals: those say what they are. */
    out->cov = c->cov[mi];
    free(p);
    free(buf);
    return rc;
}

/* A comm_matrix's cells as rows: sending node, receiving node, hop class, figure. */
static void comm_numbers(FILE *f, const json_t *m, const char *what)
{
    const json_t *rows = json_object_get(m, "rows"), *cols = json_object_get(m, "cols");
    size_t n = json_array_size(rows) * json_array_size(cols);
    hb_report_kit_numbers_open(f, n);
    fputs("<table class=\"numbers comm\"><tr><th>sending node</th><th>receiving node</th>"
          "<th>hop class</th><th>",
          f);
    hb_escape_html(f, what);
    fputs("</th></tr>\n", f);
    for (size_t r = 0; r < json_array_size(rows); r++)
        for (size_t c = 0; c < json_array_size(cols); c++) {
            fputs("<tr>", f);
            hb_report_data_cell(f, json_array_get(rows, r));
            hb_report_data_cell(f, json_array_get(cols, c));
            hb_report_data_cell(
                f, json_array_get(json_array_get(json_object_get(m, "hop_class"), r), c));
            hb_report_data_cell(f,
                                json_array_get(json_array_get(json_object_get(m, "values"), r), c));
            fputs("</tr>\n", f);
        }
    fputs("</table>\n", f);
    hb_report_kit_numbers_close(f, n);
}

/* One comm_matrix as a panel: its heatmap (when a cell has a figure) and its numbers. */
static void comm_matrix_panel(FILE *f, const struct hb_report_in *in, const json_t *m)
{
    bool bw = strcmp(hb_jsonl_read_str(m, "metric", ""), "bandwidth") == 0;
    const json_t *rows = json_object_get(m, "rows"), *cols = json_object_get(m, "cols");
    const json_t *values = json_object_get(m, "values");
    char size[32], what[256], head[64];
    hb_bytes_format((uint64_t)fmax(0.0, hb_jsonl_read_num(m, "message_bytes", 0)), size,
                    sizeof(size));
    snprintf(head, sizeof(head), "%s (%s)", bw ? "bandwidth" : "latency",
             bw ? "GB/s" : hb_jsonl_read_str(m, "unit", "?"));
    snprintf(what, sizeof(what), "%s: MPI message %s at %s", hb_jsonl_read_str(m, "host", "?"),
             head, size);
    fputs("<div class=\"panel\">", f);
    hb_report_kit_caption(f, &in->res, what);
    if (!hb_report_kit_too_big(f, "values", values, json_array_size(rows), json_array_size(cols))) {
        bool any = false;
        for (size_t r = 0; r < json_array_size(rows); r++)
            for (size_t c = 0; c < json_array_size(cols); c++)
                any |= json_is_number(json_array_get(json_array_get(values, r), c));
        /* Bandwidth is better higher, latency lower. */
        if (any)
            hb_report_draw_svg_heatmap_hops(f, rows, cols, values, json_object_get(m, "hop_class"),
                                            bw ? "comm-bandwidth" : "comm-latency",
                                            hb_units_shown(hb_jsonl_read_str(m, "unit", "")), bw);
        else
            fputs("<p class=\"nodata\">No two ranks of this host measured a pair.</p>\n", f);
        comm_numbers(f, m, head);
    }
    fputs("</div>\n", f);
}

/* One figure against message size: its curves with their numbers and what they are. */
static void comm_figure(FILE *f, const struct hb_report_in *in, const struct hb_rcurves *c, int mi)
{
    const struct hb_comm_fig *cf = &comm_figs[mi];
    const struct hb_curve_fig fig = {
        {false, true, true, "message size", cf->ylabel, cf->scale}, cf->select, NULL};
    fputs("<div class=\"panel\">", f);
    hb_report_kit_caption(f, &in->res, cf->title);
    fputs("<figure>", f);
    hb_report_curves_figure(f, in, c, NULL, 0, &fig);
    fputs("<figcaption>One curve per pair class (the hop class of the two ranks' nodes, or "
          "between hosts): at each size the median over the rank pairs of the class; whiskers: "
          "the medians of their intervals over repeats.</figcaption></figure></div>\n",
          f);
}

void hb_report_comm(FILE *f, const struct hb_report_in *in, int nin)
{
    bool any = false;
    for (int i = 0; i < nin; i++)
        any |= in[i].comm.n > 0 || in[i].comm_matrices.total > 0;
    if (!any) return;
    fputs("<section id=\"comm\"><h2>MPI messages between NUMA nodes</h2><p>Per host, the "
          "one-way latency of the smallest message and the streaming bandwidth of the largest "
          "between each sending and receiving node (the median over the rank pairs on those "
          "nodes), each cell with the hop class of the two nodes; then each metric against "
          "message size per pair class.</p><div class=\"row\">\n",
          f);
    for (int i = 0; i < nin; i++) {
        size_t k;
        json_t *m;
        json_array_foreach(in[i].res.records, k,
                           m) if (hb_report_kit_is(m, "comm_matrix", NULL, NULL))
            comm_matrix_panel(f, &in[i], m);
        hb_report_kit_left_out(f, 0, &in[i].comm_matrices, "comm matrices", in[i].res.path,
                               "select(.type == \"comm_matrix\")");
        /* Each figure on its own scale: its curves made as it is drawn. */
        for (int mi = 0; mi < HB_RCOMM_METRICS; mi++) {
            struct hb_rcurves c = {0};
            if (comm_curves(&in[i].comm, mi, &c) == 0 && c.n) comm_figure(f, &in[i], &c, mi);
            hb_report_data_curves_free(&c);
        }
    }
    fputs("</div></section>\n", f);
}
