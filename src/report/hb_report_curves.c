/* Report sections built from measurement records: hop study bars, loaded-latency, sweep,
 * policy and intensity curves. */
#include "hb_report_kit.h"
#include "hb_units.h"
#include "hb_report_sections.h"

#include "hb_report_axis.h"
#include "hb_figure_text.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The hop study's table columns. pair: the hop classes of a two-thread case; link: a
 * crossfire's nodes. */
static const char *const hops_keys[] = {"bg_level",
                                        "case",
                                        "label",
                                        "pair",
                                        "link",
                                        "host",
                                        "value",
                                        "ci95",
                                        "unit",
                                        "pct_of_local_read",
                                        "pct_of_local_read_ci95",
                                        "ratio_to_reference"};
#define HB_HOPS_COLS 12
/* Their heads in words ("ci95" heads the interval column with what the intervals are). */
static const char *const hops_heads[] = {"background",   "case",
                                         "label",        "pair",
                                         "link",         "host",
                                         "figure",       "ci95",
                                         "unit",         "time per byte, % of the local read's",
                                         "its interval", "against the local read"};

int hb_report_curves_hops_take(struct hb_report_in *in, const json_t *m)
{
    if (!hb_report_kit_is(m, "measurement", NULL, "pct_of_local_read")) return 0;
    /* One group per background level, in load order (unknown levels last). */
    const char *bg = hb_jsonl_read_str(m, "bg_level", "idle");
    struct hb_rbar bar = {.key = hb_report_data_bg_rank(bg),
                          .fig = hb_report_data_fig(m, "pct_of_local_read")};
    int rc = hb_report_data_intern(in, bg, &bar.group);
    if (rc == 0) rc = hb_report_data_intern(in, hb_jsonl_read_str(m, "label", "?"), &bar.label);
    if (rc == 0 && hb_report_words_label_add(&in->labels[1], hb_jsonl_read_str(m, "label", "")) < 0)
        rc = -ENOMEM;
    if (rc == 0)
        rc = hb_report_data_intern(in, hb_jsonl_read_str(m, "case", "single"), &bar.series);
    if (rc == 0) rc = hb_report_data_add_row(in, m, hops_keys, HB_HOPS_COLS, false, &bar.row);
    return rc ? rc : hb_report_data_add_bar(&in->hops, &bar);
}

void hb_report_curves_hops(FILE *f, const struct hb_report_in *in, int nin)
{
    bool any = false;
    struct hb_strtab labels = {0};
    for (int i = 0; i < nin; i++) {
        any |= in[i].hops.n > 0;
        for (uint32_t l = 0; l < in[i].labels[1].n; l++)
            hb_report_words_label_add(&labels, hb_strtab_get(&in[i].labels[1], l));
    }
    if (any) {
        fputs("<section id=\"hops\"><h2>Hop study (% of local read; 100 = the local read of "
              "the same CPU node)</h2><p>One figure per background load level; bars are the "
              "placements, coloured by case (single thread, two-thread pair, crossfire), each "
              "the time per byte its figure means in percent of the local read's (from the "
              "figures, lower is faster). The table gives each figure with its interval and "
              "its ratio to the local read's, in the figure's own terms.</p>\n",
              f);
        /* The labels in words first, beside the bars and rows that use them. */
        hb_report_words_label_key(f, &labels);
        fputs("<div class=\"row\">\n", f);
        const struct hb_bar_fig fig = {
            "time per byte in % of local read",
            "% of local read (lower is faster)",
            "pct_of_local_read",
            hops_heads,
            HB_HOPS_COLS,
            "select(.type == \"measurement\" and has(\"pct_of_local_read\"))"};
        for (int i = 0; i < nin; i++)
            hb_report_kit_bar_panel(f, &in[i], &in[i].hops, &fig);
        fputs("</div>\n</section>\n", f);
    }
    hb_strtab_free(&labels);
}

/* The curves of one record: loaded latency, sweep, intensity. */
int hb_report_curves_take(struct hb_report_in *in, const json_t *m)
{
    char name[200];
    int rc = 0;
    if (hb_report_kit_is(m, "measurement", "loaded", "total_GBps")) {
        in->has |= HB_RHAS_LOADED;
        hb_report_data_series_name(name, sizeof(name), m, NULL);
        /* Each point's injection delay, as the table shows it (none: the idle point). */
        char delay[32] = "idle";
        json_t *d = json_object_get(m, "delay");
        if (json_is_integer(d))
            snprintf(delay, sizeof(delay), "%lld ns", (long long)json_integer_value(d));
        if (json_is_number(json_object_get(m, hb_jsonl_read_headline_key(m))))
            rc = hb_report_data_add_point(&in->loaded, name, hb_jsonl_read_num(m, "total_GBps", 0),
                                          hb_report_data_fig(m, hb_jsonl_read_headline_key(m)),
                                          delay);
    }
    static const char *const metrics[] = {"latency", "bandwidth"};
    if (rc == 0 && hb_report_kit_is(m, "measurement", "sweep", "ws_bytes")) {
        in->has |= HB_RHAS_SWEEP;
        for (int mi = 0; rc == 0 && mi < 2; mi++) {
            const char *ykey = hb_jsonl_read_headline_key(m);
            if (strcmp(hb_jsonl_read_str(m, "metric", ""), metrics[mi]) != 0 ||
                !json_is_number(json_object_get(m, ykey)))
                continue;
            /* 4k and THP pages are separate curves, as lat_mem_rd plots them. */
            hb_report_data_series_name(name, sizeof(name), m, hb_jsonl_read_str(m, "pages", NULL));
            /* x is each thread's part: where it outgrows a cache, the curve steps. */
            int threads = hb_report_kit_int(m, "threads", 1);
            threads = threads > 0 ? threads : 1;
            if (threads > in->sweep_threads) in->sweep_threads = threads;
            if (mi == 0 && !in->sweep_stride)
                in->sweep_stride = (uint64_t)fmax(0.0, hb_jsonl_read_num(m, "chase_stride", 0));
            rc = hb_report_data_add_point(
                &in->sweep[mi], name, hb_jsonl_read_num(m, "ws_bytes", 0) / threads,
                hb_report_data_fig(m, ykey), hb_jsonl_read_str(m, "level", ""));
        }
    }
    if (rc == 0 && hb_report_kit_is(m, "measurement", "policy", NULL)) in->has |= HB_RHAS_POLICY;
    /* The policy suite sums a rate run's tasks into throughput records: those are drawn when
     * the file has them, else each measurement. One curve per placement and mode. */
    for (int sums = 0; rc == 0 && sums < 2; sums++) {
        const char *ykey = sums ? "value" : hb_jsonl_read_headline_key(m);
        /* A run without --intensity writes intensity null: no point of this curve. */
        if (!hb_report_kit_is(m, sums ? "throughput" : "measurement", "policy", NULL) ||
            !json_is_number(json_object_get(m, "intensity")))
            continue;
        if (sums) in->has |= HB_RHAS_SUMS;
        if (!json_is_number(json_object_get(m, ykey))) continue;
        snprintf(name, sizeof(name), "%s %s %s", hb_jsonl_read_str(m, "host", "?"),
                 hb_jsonl_read_str(m, "policy", "?"), hb_jsonl_read_str(m, "mode", "?"));
        rc = hb_report_data_add_point(
            &in->intensity[sums], name, hb_jsonl_read_num(m, "intensity", 0),
            hb_report_data_fig(m, ykey), hb_jsonl_read_str(m, "level", ""));
    }
    return rc;
}

static int pt_cmp(const void *a, const void *b)
{
    const struct hb_rpoint *x = a, *y = b;
    return (x->x > y->x) - (x->x < y->x);
}

static void curves_free(struct hb_series *s, int n)
{
    for (int k = 0; s && k < n; k++) {
        free(s[k].x);
        free(s[k].y);
        free(s[k].lo);
        free(s[k].hi);
        free(s[k].level);
    }
    free(s);
}

/* The kept curves as series for hb_report_draw_svg_lines, points sorted by x; NULL when out of
 * memory (nothing to free). */
static struct hb_series *curves_build(const struct hb_rcurves *c)
{
    uint32_t ns = c->names.n;
    struct hb_series *s = calloc((size_t)ns + 1, sizeof(*s));
    struct hb_rpoint *pts = malloc((c->n + 1) * sizeof(*pts));
    size_t *at = calloc((size_t)ns + 1, sizeof(*at));
    bool ok = s && pts && at;
    for (size_t i = 0; ok && i < c->n; i++)
        s[c->v[i].series].n++;
    for (uint32_t k = 0; ok && k < ns; k++) {
        size_t room = ((size_t)s[k].n + 1) * sizeof(double);
        s[k].name = hb_strtab_get(&c->names, k);
        s[k].x = malloc(room);
        s[k].y = malloc(room);
        s[k].lo = malloc(room);
        s[k].hi = malloc(room);
        s[k].level = malloc(((size_t)s[k].n + 1) * sizeof(*s[k].level));
        ok = s[k].x && s[k].y && s[k].lo && s[k].hi && s[k].level;
        if (k + 1 < ns) at[k + 1] = at[k] + (size_t)s[k].n;
    }
    /* Each series' points side by side in file order, then sorted by x. */
    for (size_t i = 0; ok && i < c->n; i++)
        pts[at[c->v[i].series]++] = c->v[i];
    for (uint32_t k = 0, first = 0; ok && k < ns; first += (uint32_t)s[k].n, k++) {
        struct hb_rpoint *p = pts + first;
        qsort(p, (size_t)s[k].n, sizeof(*p), pt_cmp);
        for (int i = 0; i < s[k].n; i++) {
            s[k].x[i] = p[i].x;
            s[k].y[i] = p[i].y.v;
            s[k].lo[i] = p[i].y.lo;
            s[k].hi[i] = p[i].y.hi;
            memcpy(s[k].level[i], p[i].level, sizeof(s[k].level[i]));
        }
    }
    if (!ok) {
        curves_free(s, s ? (int)ns : 0);
        s = NULL;
    }
    free(pts);
    free(at);
    return s;
}

static void curves_table(FILE *f, const struct hb_series *s, int n, const struct hb_curve_fig *fig,
                         const struct hb_coverage *cov)
{
    size_t rows = 0;
    bool levels = false; /* a level column only when a point has one (comm's have none) */
    for (int k = 0; k < n; k++) {
        rows += (size_t)s[k].n;
        for (int i = 0; i < s[k].n; i++)
            levels |= s[k].level[i][0] != '\0';
    }
    hb_report_kit_numbers_open(f, rows);
    /* Heads in words, as the axes say them (the record keys are in the figure's query). */
    fprintf(f, "<table class=\"numbers\"><tr><th>series</th><th>%s</th><th>%s</th>",
            fig->opt.xlabel, fig->opt.ylabel);
    hb_report_kit_interval_head(f, cov);
    if (levels) fprintf(f, "<th>%s</th>", fig->levelhead ? fig->levelhead : "level");
    fputs("</tr>\n", f);
    char a[48], b[48];
    const struct hb_axis xa = {.bytes = fig->opt.xbytes};
    for (int k = 0; k < n; k++)
        for (int i = 0; i < s[k].n; i++) {
            fputs("<tr><td>", f);
            hb_escape_html(f, s[k].name);
            fprintf(f, "</td><td>%s</td>", hb_report_axis_label(&xa, s[k].x[i], a, sizeof(a)));
            /* The figure and its interval at one rounding: "272.2" and "[221.0, 1201.3]". */
            char ends[HB_FIGURE_LEN];
            fprintf(f, "<td>%s</td><td>%s", hb_figure_text(s[k].y[i], b, sizeof(b)),
                    hb_report_words_ends(s[k].y[i], s[k].lo[i], s[k].hi[i], ends, sizeof(ends)));
            fputs(levels ? "</td><td>" : "", f);
            hb_escape_html(f, s[k].level[i]);
            fputs("</td></tr>\n", f);
        }
    fputs("</table>\n", f);
    hb_report_kit_numbers_close(f, rows);
}

/* The marks of the knee records kept for curve (at most HB_REPORT_MAX_MARKS). */
static int knee_marks(const json_t *records, const char *curve, struct hb_mark *marks,
                      char labels[][96])
{
    int n = 0;
    size_t k;
    json_t *r;
    json_array_foreach(records, k, r)
    {
        /* A curve that never reached its knee has a null value: nothing to mark. */
        if (n >= HB_REPORT_MAX_MARKS || !hb_report_kit_is(r, "knee", NULL, NULL) ||
            strcmp(hb_jsonl_read_str(r, "curve", ""), curve) != 0 ||
            !json_is_number(json_object_get(r, "value")))
            continue;
        char v[32];
        hb_report_axis_num_plain(hb_jsonl_read_num(r, "value", 0), v, sizeof(v));
        /* Intensity knees compare local with another placement; loaded knees are per pair. */
        if (json_object_get(r, "against"))
            snprintf(labels[n], 96, "knee local/%s %s: %s %s", hb_jsonl_read_str(r, "against", ""),
                     hb_jsonl_read_str(r, "mode", ""), v,
                     hb_units_shown(hb_jsonl_read_str(r, "unit", "")));
        else
            snprintf(labels[n], 96, "knee of CPU node %lld \xe2\x86\x92 memory node %lld: %s %s",
                     (long long)hb_jsonl_read_num(r, "cpu_node", -1),
                     (long long)hb_jsonl_read_num(r, "mem_node", -1), v,
                     hb_units_shown(hb_jsonl_read_str(r, "unit", "")));
        marks[n] = (struct hb_mark){hb_jsonl_read_num(r, "value", 0), labels[n], NULL};
        n++;
    }
    return n;
}

void hb_report_curves_figure(FILE *f, const struct hb_report_in *in, const struct hb_rcurves *c,
                             const struct hb_mark *marks, int nm, const struct hb_curve_fig *fig)
{
    struct hb_series *s = c->n ? curves_build(c) : NULL;
    if (!s) return;
    int ns = (int)c->names.n, shown = 0;
    size_t left = HB_REPORT_MAX_ROWS;
    int *all = malloc(((size_t)ns + 1) * sizeof(*all));
    if (!all) {
        curves_free(s, ns);
        return;
    }
    /* The first points in drawing order; series left without any are not drawn. */
    for (int k = 0; k < ns; k++) {
        all[k] = s[k].n;
        if ((size_t)s[k].n > left) s[k].n = (int)left;
        left -= (size_t)s[k].n;
        if (s[k].n) shown = k + 1;
    }
    hb_report_kit_left_out_n(f, c->n, HB_REPORT_MAX_ROWS, "curve points and rows", in->res.path,
                             fig->select);
    hb_report_draw_svg_lines(f, s, shown, marks, nm, &fig->opt);
    hb_report_kit_whiskers(f, &c->cov);
    curves_table(f, s, shown, fig, &c->cov);
    for (int k = 0; k < ns; k++)
        s[k].n = all[k];
    free(all);
    curves_free(s, ns);
}

void hb_report_curves_loaded(FILE *f, const struct hb_report_in *in, int nin)
{
    int any = 0;
    for (int i = 0; i < nin; i++)
        any |= (in[i].has & HB_RHAS_LOADED) != 0;
    if (!any) return;
    fputs("<section id=\"loaded\"><h2>Loaded latency</h2><div class=\"row\">\n", f);
    const struct hb_curve_fig fig = {
        {false, false, false, "total bandwidth of load (GB/s)", "latency (ns)", "loaded latency"},
        "select(.type == \"measurement\" and .suite == \"loaded\" and has(\"total_GBps\") and "
        "(.lat_ns_median | type) == \"number\")",
        "injection delay"};
    for (int i = 0; i < nin; i++) {
        if (!in[i].loaded.n) continue;
        struct hb_mark marks[HB_REPORT_MAX_MARKS];
        char labels[HB_REPORT_MAX_MARKS][96];
        int nm = knee_marks(in[i].res.records, "loaded", marks, labels);
        fputs("<div class=\"panel\">", f);
        hb_report_kit_caption(f, &in[i].res, "latency under load");
        hb_report_kit_left_out(
            f, 0, &in[i].knees[0], "knees marked", in[i].res.path,
            "select(.type == \"knee\" and .curve == \"loaded\" and (.value | type) == \"number\")");
        hb_report_curves_figure(f, &in[i], &in[i].loaded, marks, nm, &fig);
        fputs("</div>\n", f);
    }
    fputs("</div></section>\n", f);
}

void hb_report_curves_policy(FILE *f, const struct hb_report_in *in, int nin)
{
    int any = 0;
    for (int i = 0; i < nin; i++)
        any |= (in[i].has & HB_RHAS_POLICY) != 0;
    if (!any) return;
    fputs("<section id=\"policy\"><h2>Placement policy</h2><p>Each workload under each "
          "placement: its throughput (a rate run's tasks summed) with the interval of the "
          "policy suite's <code>gain</code> record, and local placement's NUMA gain over each "
          "other placement as that record gives it, with its verdict.</p><div class=\"row\">\n",
          f);
    for (int i = 0; i < nin; i++) {
        if (!(in[i].has & HB_RHAS_POLICY)) continue;
        fputs("<div class=\"panel\">", f);
        hb_report_kit_caption(f, &in[i].res, "policies per workload");
        hb_report_policy_gains(f, &in[i]);
        bool sums = (in[i].has & HB_RHAS_SUMS) != 0;
        const struct hb_rcurves *c = &in[i].intensity[sums];
        /* Only a run with --intensity has this curve. */
        if (c->n) {
            const struct hb_curve_fig fig = {
                {true, false, false, "intensity (flops/byte)", "bandwidth (GB/s)",
                 "intensity bandwidth"},
                sums ? "select(.type == \"throughput\" and .suite == \"policy\" and "
                       "(.intensity | type) == \"number\" and (.value | type) == \"number\")"
                     : "select(.type == \"measurement\" and .suite == \"policy\" and "
                       "(.intensity | type) == \"number\" and (.bw_GBps_best | type) == "
                       "\"number\")",
                NULL};
            struct hb_mark marks[HB_REPORT_MAX_MARKS];
            char labels[HB_REPORT_MAX_MARKS][96];
            int nm = knee_marks(in[i].res.records, "intensity", marks, labels);
            fputs("<p class=\"figtitle\">bandwidth by compute intensity</p>\n", f);
            hb_report_kit_left_out(f, 0, &in[i].knees[1], "knees marked", in[i].res.path,
                                   "select(.type == \"knee\" and .curve == \"intensity\" and "
                                   "(.value | type) == \"number\")");
            hb_report_curves_figure(f, &in[i], c, marks, nm, &fig);
        }
        fputs("</div>\n", f);
    }
    fputs("</div></section>\n", f);
}
