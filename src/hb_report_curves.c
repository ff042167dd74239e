/* Report sections built from measurement records: hop study bars, loaded-latency, sweep,
 * policy and intensity curves. */
#include "hb_report.h"

#include "hb_report_draw.h"
#include "hb_size.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const char *const hb_bg_order[] = {"idle", "low", "medium", "high", "very-high", NULL};

static int hb_bg_rank(const char *bg)
{
    for (int i = 0; hb_bg_order[i]; i++)
        if (strcmp(hb_bg_order[i], bg) == 0) return i;
    return 99;
}

void hb_report_hops(FILE *f, const struct hb_results *in, int nin)
{
    if (!hb_report_has(in, nin, "measurement", NULL, "pct_of_local_read")) return;
    fputs("<section id=\"hops\"><h2>Hop study (% of local read, 0.0.r.0 = 100)</h2>"
          "<div class=\"row\">\n",
          f);
    for (int i = 0; i < nin; i++) {
        size_t n = json_array_size(in[i].records), k, nb = 0;
        struct hb_bar *bars = calloc(n + 1, sizeof(*bars));
        const json_t **src = calloc(n + 1, sizeof(*src));
        if (!bars || !src) {
            free(bars);
            free(src);
            continue;
        }
        /* One group per background level, in load order (unknown levels last); record order
         * inside a group. */
        static const int ranks[] = {0, 1, 2, 3, 4, 99};
        for (size_t ri = 0; ri < sizeof(ranks) / sizeof(ranks[0]); ri++) {
            int lvl = ranks[ri];
            json_t *m;
            json_array_foreach(in[i].records, k, m)
            {
                if (!hb_report_is(m, "measurement", NULL, "pct_of_local_read")) continue;
                const char *bg = hb_rec_str(m, "bg_level", "idle");
                if (hb_bg_rank(bg) != lvl) continue;
                src[nb] = m;
                bars[nb++] = (struct hb_bar){bg, hb_rec_str(m, "label", "?"),
                                             hb_rec_str(m, "case", "single"),
                                             hb_rec_num(m, "pct_of_local_read", 0)};
            }
        }
        if (nb) {
            fputs("<div class=\"panel\">", f);
            hb_report_caption(f, &in[i], "time in % of local read");
            hb_svg_bars(f, bars, (int)nb, "% of local read");
            fputs("<table class=\"numbers\"><tr><th>bg_level</th><th>case</th><th>label</th>"
                  "<th>pair</th><th>link</th><th>host</th><th>pct_of_local_read</th></tr>\n",
                  f);
            for (size_t b = 0; b < nb; b++) {
                fputs("<tr>", f);
                /* pair: the hop classes of a two-thread case; link: a crossfire's nodes. */
                static const char *const keys[] = {
                    "bg_level", "case", "label", "pair", "link", "host", "pct_of_local_read"};
                for (int c = 0; c < 7; c++)
                    hb_report_cell(f, json_object_get(src[b], keys[c]));
                fputs("</tr>\n", f);
            }
            fputs("</table></div>\n", f);
        }
        free(bars);
        free(src);
    }
    fputs("</div></section>\n", f);
}

struct hb_curveset {
    json_t *groups; /* series name -> [[x, y], ...] */
    int n;
    struct hb_series *s;
};

static int hb_pt_cmp(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

static void hb_curves_add(struct hb_curveset *cs, const char *name, double x, double y)
{
    if (!cs->groups) cs->groups = json_object();
    json_t *pts = json_object_get(cs->groups, name);
    if (!pts) {
        pts = json_array();
        json_object_set_new(cs->groups, name, pts);
    }
    json_array_append_new(pts, json_pack("[f, f]", x, y));
}

/* Turn the groups into series, points sorted by x. */
static void hb_curves_build(struct hb_curveset *cs)
{
    cs->n = (int)json_object_size(cs->groups);
    cs->s = calloc((size_t)cs->n + 1, sizeof(*cs->s));
    const char *name;
    json_t *pts;
    int k = 0;
    json_object_foreach(cs->groups, name, pts)
    {
        if (!cs->s) break;
        size_t n = json_array_size(pts);
        double *xy = calloc(2 * n + 2, sizeof(*xy));
        struct hb_series *s = &cs->s[k++];
        s->name = name;
        s->x = calloc(n + 1, sizeof(double));
        s->y = calloc(n + 1, sizeof(double));
        if (!xy || !s->x || !s->y) {
            free(xy);
            continue;
        }
        for (size_t i = 0; i < n; i++) {
            xy[2 * i] = json_real_value(json_array_get(json_array_get(pts, i), 0));
            xy[2 * i + 1] = json_real_value(json_array_get(json_array_get(pts, i), 1));
        }
        qsort(xy, n, 2 * sizeof(double), hb_pt_cmp);
        for (size_t i = 0; i < n; i++) {
            s->x[i] = xy[2 * i];
            s->y[i] = xy[2 * i + 1];
        }
        s->n = (int)n;
        free(xy);
    }
}

static void hb_curves_free(struct hb_curveset *cs)
{
    for (int k = 0; cs->s && k < cs->n; k++) {
        free(cs->s[k].x);
        free(cs->s[k].y);
    }
    free(cs->s);
    json_decref(cs->groups);
    *cs = (struct hb_curveset){0};
}

/* The numbers behind a curve figure. */
static void hb_curves_table(FILE *f, const struct hb_curveset *cs, const char *xl, const char *yl)
{
    fprintf(f, "<table class=\"numbers\"><tr><th>series</th><th>%s</th><th>%s</th></tr>\n", xl, yl);
    for (int k = 0; k < cs->n; k++)
        for (int i = 0; i < cs->s[k].n; i++) {
            fputs("<tr><td>", f);
            hb_html_esc(f, cs->s[k].name);
            fprintf(f, "</td><td>%.6g</td><td>%.6g</td></tr>\n", cs->s[k].x[i], cs->s[k].y[i]);
        }
    fputs("</table>\n", f);
}

static int hb_knees(const json_t *records, const char *curve, struct hb_mark *marks, int max,
                    char labels[][96])
{
    int n = 0;
    size_t k;
    json_t *r;
    json_array_foreach(records, k, r)
    {
        /* A curve that never reached its knee has a null value: nothing to mark. */
        if (n >= max || !hb_report_is(r, "knee", NULL, NULL) ||
            strcmp(hb_rec_str(r, "curve", ""), curve) != 0 ||
            !json_is_number(json_object_get(r, "value")))
            continue;
        /* Intensity knees compare local with another placement; loaded knees are per pair. */
        if (json_object_get(r, "against"))
            snprintf(labels[n], 96, "knee local/%s %s: %.3g %s", hb_rec_str(r, "against", ""),
                     hb_rec_str(r, "mode", ""), hb_rec_num(r, "value", 0),
                     hb_rec_str(r, "unit", ""));
        else
            snprintf(labels[n], 96, "knee %lld->%lld: %.3g %s",
                     (long long)hb_rec_num(r, "cpu_node", -1),
                     (long long)hb_rec_num(r, "mem_node", -1), hb_rec_num(r, "value", 0),
                     hb_rec_str(r, "unit", ""));
        marks[n] = (struct hb_mark){hb_rec_num(r, "value", 0), labels[n]};
        n++;
    }
    return n;
}

static void hb_series_name(char *buf, size_t len, const json_t *m, const char *extra)
{
    snprintf(buf, len, "%s %s %lld->%lld%s%s", hb_rec_str(m, "host", "?"),
             hb_rec_str(m, "kernel", "?"), (long long)hb_rec_num(m, "cpu_node", -1),
             (long long)hb_rec_num(m, "mem_node", -1), extra ? " " : "", extra ? extra : "");
}

void hb_report_loaded(FILE *f, const struct hb_results *in, int nin)
{
    if (!hb_report_has(in, nin, "measurement", "loaded", "total_GBps")) return;
    fputs("<section id=\"loaded\"><h2>Loaded latency</h2><div class=\"row\">\n", f);
    for (int i = 0; i < nin; i++) {
        struct hb_curveset cs = {0};
        size_t k;
        json_t *m;
        json_array_foreach(in[i].records, k, m)
        {
            if (!hb_report_is(m, "measurement", "loaded", "total_GBps") ||
                !json_is_number(json_object_get(m, "lat_ns_median")))
                continue;
            char name[200];
            hb_series_name(name, sizeof(name), m, NULL);
            hb_curves_add(&cs, name, hb_rec_num(m, "total_GBps", 0),
                          hb_rec_num(m, "lat_ns_median", 0));
        }
        if (!cs.groups) continue;
        hb_curves_build(&cs);
        struct hb_mark marks[16];
        char labels[16][96];
        int nm = hb_knees(in[i].records, "loaded", marks, 16, labels);
        fputs("<div class=\"panel\">", f);
        hb_report_caption(f, &in[i], "latency under load");
        hb_svg_lines(f, cs.s, cs.n, 0, 0, marks, nm, "total bandwidth of load (GB/s)",
                     "latency (ns)");
        hb_curves_table(f, &cs, "total_GBps", "lat_ns_median");
        fputs("</div>\n", f);
        hb_curves_free(&cs);
    }
    fputs("</div></section>\n", f);
}

/* Cache sizes from the run record: `caches` ([{level, bytes}]) when present, else the LLC. */
static int hb_cache_marks(const json_t *run, struct hb_mark *marks, int max, char labels[][96])
{
    int n = 0;
    size_t k;
    json_t *c;
    json_array_foreach(json_object_get(run, "caches"), k, c)
    {
        if (n >= max) break;
        char size[32];
        snprintf(labels[n], 96, "L%lld %s", (long long)hb_rec_num(c, "level", 0),
                 hb_size_format((uint64_t)hb_rec_num(c, "bytes", 0), size, sizeof(size)));
        marks[n] = (struct hb_mark){hb_rec_num(c, "bytes", 0), labels[n]};
        n++;
    }
    /* A memory-side cache is marked like a CPU cache: the step after it reaches memory. */
    double msc = hb_rec_num(json_object_get(run, "sizes"), "memside_cache_bytes", 0);
    if (msc > 0 && n < max) {
        char size[32];
        snprintf(labels[n], 96, "memory-side cache %s",
                 hb_size_format((uint64_t)msc, size, sizeof(size)));
        marks[n] = (struct hb_mark){msc, labels[n]};
        n++;
    }
    double llc = hb_rec_num(json_object_get(run, "sizes"), "llc_bytes", 0);
    if (n == 0 && llc > 0 && max > 0) {
        char size[32];
        snprintf(labels[0], 96, "LLC %s", hb_size_format((uint64_t)llc, size, sizeof(size)));
        marks[n++] = (struct hb_mark){llc, labels[0]};
    }
    return n;
}

void hb_report_sweep(FILE *f, const struct hb_results *in, int nin)
{
    if (!hb_report_has(in, nin, "measurement", "sweep", "ws_bytes")) return;
    fputs("<section id=\"sweep\"><h2>Working-set sweep</h2><div class=\"row\">\n", f);
    static const char *const metrics[] = {"latency", "bandwidth"};
    static const char *const ykeys[] = {"lat_ns_median", "bw_GBps_best"};
    for (int i = 0; i < nin; i++) {
        for (int mi = 0; mi < 2; mi++) {
            struct hb_curveset cs = {0};
            size_t k;
            json_t *m;
            json_array_foreach(in[i].records, k, m)
            {
                if (!hb_report_is(m, "measurement", "sweep", "ws_bytes") ||
                    strcmp(hb_rec_str(m, "metric", ""), metrics[mi]) != 0 ||
                    !json_is_number(json_object_get(m, ykeys[mi])))
                    continue;
                /* 4k and THP pages are separate curves, as lat_mem_rd plots them. */
                char name[200];
                hb_series_name(name, sizeof(name), m, hb_rec_str(m, "pages", NULL));
                hb_curves_add(&cs, name, hb_rec_num(m, "ws_bytes", 0), hb_rec_num(m, ykeys[mi], 0));
            }
            if (!cs.groups) continue;
            hb_curves_build(&cs);
            struct hb_mark marks[8];
            char labels[8][96];
            int nm = hb_cache_marks(in[i].run, marks, 8, labels);
            fputs("<div class=\"panel\">", f);
            hb_report_caption(f, &in[i],
                              mi == 0 ? "latency vs working set"
                                      : "memcpy / bandwidth vs working set");
            hb_svg_lines(f, cs.s, cs.n, 1, 1, marks, nm, "working set (bytes)",
                         mi == 0 ? "latency (ns)" : "bandwidth (GB/s)");
            hb_curves_table(f, &cs, "ws_bytes", ykeys[mi]);
            fputs("</div>\n", f);
            hb_curves_free(&cs);
        }
    }
    fputs("</div></section>\n", f);
}

/* Policy rows of one file as a table, with the gain of each policy over the slowest policy
 * of the same workload and mode (t_median_s). */
static int hb_policy_row(const json_t *m)
{
    return hb_report_is(m, "measurement", "policy", "workload") && !json_object_get(m, "intensity");
}

/* Workload, mode and host of a policy row: the rows its gain is computed against. */
static void hb_policy_key(char *buf, size_t len, const json_t *m)
{
    snprintf(buf, len, "%s\x1f%s\x1f%s", hb_rec_str(m, "workload", ""), hb_rec_str(m, "mode", ""),
             hb_rec_str(m, "host", ""));
}

static void hb_policy_table(FILE *f, const json_t *records)
{
    size_t k;
    json_t *m;
    int rows = 0;
    char key[1024];
    json_array_foreach(records, k, m) rows += hb_policy_row(m);
    if (rows == 0) return; /* an intensity-only file has its curve, not this table */
    fputs("<table class=\"numbers policy\"><tr><th>workload</th><th>mode</th><th>policy</th>"
          "<th>host</th><th>t_median_s</th><th>bw_GBps_best</th><th>NUMA gain %</th></tr>\n",
          f);
    /* The slowest time per workload, mode and host first: one pass, not one per row. */
    json_t *worst_of = json_object();
    json_array_foreach(records, k, m)
    {
        if (!hb_policy_row(m)) continue;
        hb_policy_key(key, sizeof(key), m);
        double t = hb_rec_num(m, "t_median_s", 0);
        json_t *w = json_object_get(worst_of, key);
        if (!w || t > json_real_value(w)) json_object_set_new(worst_of, key, json_real(t));
    }
    json_array_foreach(records, k, m)
    {
        if (!hb_policy_row(m)) continue;
        hb_policy_key(key, sizeof(key), m);
        double worst = fmax(0.0, json_real_value(json_object_get(worst_of, key)));
        double t = hb_rec_num(m, "t_median_s", 0);
        fputs("<tr>", f);
        static const char *const keys[] = {"workload", "mode",       "policy",
                                           "host",     "t_median_s", "bw_GBps_best"};
        for (int c = 0; c < 6; c++)
            hb_report_cell(f, json_object_get(m, keys[c]));
        if (t > 0)
            fprintf(f, "<td class=\"gain\">%.1f</td></tr>\n", (worst / t - 1.0) * 100.0);
        else
            fputs("<td>&#8211;</td></tr>\n", f);
    }
    json_decref(worst_of);
    fputs("</table>\n", f);
}

void hb_report_policy(FILE *f, const struct hb_results *in, int nin)
{
    if (!hb_report_has(in, nin, "measurement", "policy", NULL)) return;
    fputs("<section id=\"policy\"><h2>Placement policy</h2><div class=\"row\">\n", f);
    for (int i = 0; i < nin; i++) {
        fputs("<div class=\"panel\">", f);
        hb_report_caption(f, &in[i], "policies per workload");
        hb_policy_table(f, in[i].records);
        struct hb_curveset cs = {0};
        size_t k;
        json_t *m;
        /* The policy suite sums a rate run's tasks into throughput records: plot those when
         * the file has them, else each measurement. */
        bool sums = hb_report_has(&in[i], 1, "throughput", "policy", "intensity");
        const char *type = sums ? "throughput" : "measurement";
        const char *ykey = sums ? "value" : "bw_GBps_best";
        json_array_foreach(in[i].records, k, m)
        {
            if (!hb_report_is(m, type, "policy", "intensity") ||
                !json_is_number(json_object_get(m, ykey)))
                continue;
            /* One curve per placement and mode: the nodes differ from task to task. */
            char name[200];
            snprintf(name, sizeof(name), "%s %s %s", hb_rec_str(m, "host", "?"),
                     hb_rec_str(m, "policy", "?"), hb_rec_str(m, "mode", "?"));
            hb_curves_add(&cs, name, hb_rec_num(m, "intensity", 0), hb_rec_num(m, ykey, 0));
        }
        if (cs.groups) {
            hb_curves_build(&cs);
            struct hb_mark marks[16];
            char labels[16][96];
            int nm = hb_knees(in[i].records, "intensity", marks, 16, labels);
            fputs("<p>compute intensity</p>\n", f);
            hb_svg_lines(f, cs.s, cs.n, 1, 0, marks, nm, "intensity (flops/byte)",
                         "bandwidth (GB/s)");
            hb_curves_table(f, &cs, "intensity", ykey);
            hb_curves_free(&cs);
        }
        fputs("</div>\n", f);
    }
    fputs("</div></section>\n", f);
}
