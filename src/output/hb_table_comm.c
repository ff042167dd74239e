/* comm's derived records as tables (hb_table_comm.h): message latency or bandwidth per node
 * pair, what --bg's load did to a pair, per host pair (link), and near or far from a NIC; the
 * intervals labelled with their real coverage and repeats (hb_coverage.h). */
#include "hb_table_comm.h"

#include "hb_table_grid.h"

#include "hb_coverage.h"
#include "hb_jsonl_read.h"
#include "hb_size.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void hb_table_comm_matrix(FILE *f, json_t *rec)
{
    json_t *rows = json_object_get(rec, "rows"), *cols = json_object_get(rec, "cols");
    const char *unit = hb_rec_str(rec, "unit", "");
    char size[32];
    hb_size_format((uint64_t)hb_rec_num(rec, "message_bytes", 0), size, sizeof(size));
    fprintf(f, "\nMPI message %s at %s (%s), sending node x receiving node, host %s:\n",
            hb_rec_str(rec, "metric", ""), size, strcmp(unit, "GBps") == 0 ? "GB/s" : unit,
            hb_rec_str(rec, "host", ""));
    hb_table_grid(f, "src\\dst", rows, cols, json_object_get(rec, "values"), 2);
    if (json_array_size(rows) < 2) return;
    fprintf(f, "firmware hop classes:\n");
    hb_table_grid(f, "src\\dst", rows, cols, json_object_get(rec, "hop_class"), 0);
}

/* What the intervals of the figures figs[0..n) are (NULL ones left out), into buf. */
static const char *hb_table_comm_label(const json_t *const *figs, size_t n,
                                       char buf[HB_COVERAGE_LABEL_LEN])
{
    struct hb_coverage c = {0};
    for (size_t i = 0; i < n; i++)
        if (json_is_object(figs[i])) hb_coverage_add_rec(&c, figs[i]);
    return hb_coverage_label(&c, buf, HB_COVERAGE_LABEL_LEN);
}

/* One metric of a comm_bg record: idle -> loaded, the ratio and what it comes to. */
static void hb_table_comm_bg_line(FILE *f, const char *what, const json_t *m)
{
    if (!json_is_object(m)) {
        fprintf(f, "  %s: not measured both idle and loaded\n", what);
        return;
    }
    const char *unit = hb_rec_str(m, "unit", "");
    char size[32];
    hb_size_format((uint64_t)hb_rec_num(m, "message_bytes", 0), size, sizeof(size));
    const json_t *ci = json_object_get(m, "ratio_ci95");
    const json_t *verdict = json_object_get(m, "verdict");
    fprintf(f, "  %s at %s: %.4g -> %.4g %s, x%.3f", what, size,
            hb_rec_num(json_object_get(m, "idle"), "value", 0),
            hb_rec_num(json_object_get(m, "loaded"), "value", 0),
            strcmp(unit, "GBps") == 0 ? "GB/s" : unit, hb_rec_num(m, "ratio", 0));
    const json_t *figs[2] = {json_object_get(m, "idle"), json_object_get(m, "loaded")};
    char label[HB_COVERAGE_LABEL_LEN];
    if (json_is_array(ci))
        fprintf(f, " (from the figures' %s: x%.3f to x%.3f)", hb_table_comm_label(figs, 2, label),
                json_number_value(json_array_get(ci, 0)), json_number_value(json_array_get(ci, 1)));
    fprintf(f, ": %s\n",
            json_is_string(verdict) ? json_string_value(verdict) : hb_rec_str(m, "separation", ""));
}

void hb_table_comm_bg(FILE *f, json_t *rec)
{
    fprintf(f, "\nMPI messages under --bg %s, ranks %lld -> %lld (node %lld -> %lld, host %s):",
            hb_rec_str(rec, "bg_level", ""), (long long)hb_rec_num(rec, "src_rank", -1),
            (long long)hb_rec_num(rec, "dst_rank", -1), (long long)hb_rec_num(rec, "src_node", -1),
            (long long)hb_rec_num(rec, "dst_node", -1), hb_rec_str(rec, "host", ""));
    size_t i;
    json_t *n;
    const json_t *gbps = json_object_get(rec, "bg_GBps"), *th = json_object_get(rec, "bg_threads");
    json_array_foreach(json_object_get(rec, "bg_nodes"), i, n)
        fprintf(f, "%s node %lld %lld thread(s) %.2f GB/s",
                i ? "," : " load:", (long long)json_integer_value(n),
                (long long)json_integer_value(json_array_get(th, i)),
                json_number_value(json_array_get(gbps, i)));
    fprintf(f, "\n");
    hb_table_comm_bg_line(f, "latency", json_object_get(rec, "latency"));
    hb_table_comm_bg_line(f, "bandwidth", json_object_get(rec, "bandwidth"));
}

/* A figure with its interval: "12.3 [11.9, 12.8]", or the value alone, or "-". */
static void hb_table_comm_figure(FILE *f, const json_t *fig, int width)
{
    const json_t *ci = json_object_get(fig, "ci95");
    char text[96];
    double v = hb_rec_num(fig, "value", NAN);
    if (isnan(v))
        snprintf(text, sizeof(text), "-");
    else if (json_is_array(ci))
        snprintf(text, sizeof(text), "%.4g [%.4g, %.4g]", v,
                 json_number_value(json_array_get(ci, 0)),
                 json_number_value(json_array_get(ci, 1)));
    else
        snprintf(text, sizeof(text), "%.4g", v);
    fprintf(f, " %-*s", width, text);
}

/* A column's header: "latency us [93.75% interval, 5 repeats]" over the links' figures. */
static void hb_table_comm_links_head(const json_t *links, const char *key, const char *what,
                                     char *out, size_t len)
{
    size_t n = json_array_size(links), i;
    const json_t **figs = calloc(n + 1, sizeof(*figs));
    json_t *l;
    json_array_foreach(links, i, l) if (figs) figs[i] = json_object_get(l, key);
    char label[HB_COVERAGE_LABEL_LEN];
    snprintf(out, len, "%s [%s]", what, figs ? hb_table_comm_label(figs, n, label) : "intervals");
    free(figs);
}

void hb_table_comm_links(FILE *f, json_t *rec)
{
    char lat[32], bw[32], lat_head[128], bw_head[128];
    hb_size_format((uint64_t)hb_rec_num(rec, "latency_bytes", 0), lat, sizeof(lat));
    hb_size_format((uint64_t)hb_rec_num(rec, "bandwidth_bytes", 0), bw, sizeof(bw));
    fprintf(f,
            "\nMPI links (host pairs): latency (us) at %s, bandwidth (GB/s) at %s; flagged %.0f%% "
            "worse than the better half's median beyond the noise\n",
            lat, bw, hb_rec_num(rec, "threshold_pct", 0));
    const json_t *links = json_object_get(rec, "links");
    hb_table_comm_links_head(links, "latency_us", "latency us", lat_head, sizeof(lat_head));
    hb_table_comm_links_head(links, "bandwidth_GBps", "bandwidth GB/s", bw_head, sizeof(bw_head));
    int lw = (int)strlen(lat_head) > 24 ? (int)strlen(lat_head) : 24;
    int bwid = (int)strlen(bw_head) > 24 ? (int)strlen(bw_head) : 24;
    fprintf(f, "  %-31s %-*s %-*s\n", "link", lw, lat_head, bwid, bw_head);
    size_t i;
    json_t *l;
    json_array_foreach(links, i, l)
    {
        const json_t *h = json_object_get(l, "hosts");
        char name[128];
        snprintf(name, sizeof(name), "%s - %s", json_string_value(json_array_get(h, 0)),
                 json_string_value(json_array_get(h, 1)));
        fprintf(f, "  %-31s", name);
        hb_table_comm_figure(f, json_object_get(l, "latency_us"), lw);
        hb_table_comm_figure(f, json_object_get(l, "bandwidth_GBps"), bwid);
        fprintf(f, " %s%s%s%s\n", json_is_true(json_object_get(l, "outlier")) ? "OUTLIER: " : "",
                hb_rec_str(l, "reason", ""),
                *hb_rec_str(l, "inconclusive", "") ? "inconclusive (within the noise): " : "",
                hb_rec_str(l, "inconclusive", ""));
    }
    fprintf(f, "  %-31s", "reference");
    hb_table_comm_figure(f, json_object_get(json_object_get(rec, "reference"), "latency_us"), lw);
    hb_table_comm_figure(f, json_object_get(json_object_get(rec, "reference"), "bandwidth_GBps"),
                         bwid);
    fprintf(f, "\n");
}

void hb_table_comm_nic(FILE *f, json_t *rec)
{
    const char *host = hb_rec_str(rec, "host", ""), *peer = hb_rec_str(rec, "peer", "");
    const char *note = hb_rec_str(rec, "note", NULL);
    if (note) {
        fprintf(f, "NIC locality, %s -> %s: %s\n", host, peer, note);
        return;
    }
    const char *metric[] = {"latency", "bandwidth"};
    const json_t *figs[4];
    for (int m = 0; m < 2; m++) {
        figs[2 * m] = json_object_get(json_object_get(rec, metric[m]), "near");
        figs[2 * m + 1] = json_object_get(json_object_get(rec, metric[m]), "far");
    }
    char label[HB_COVERAGE_LABEL_LEN];
    fprintf(f, "NIC locality, %s -> %s, NIC %s: [%s]\n", host, peer, hb_rec_str(rec, "nic", ""),
            hb_table_comm_label(figs, 4, label));
    for (int m = 0; m < 2; m++) {
        const json_t *c = json_object_get(rec, metric[m]);
        char size[32];
        hb_size_format((uint64_t)hb_rec_num(c, "message_bytes", 0), size, sizeof(size));
        fprintf(f, "  %-9s %-6s near", metric[m], size);
        hb_table_comm_figure(f, json_object_get(c, "near"), 20);
        fprintf(f, " far");
        hb_table_comm_figure(f, json_object_get(c, "far"), 20);
        fprintf(f, " far/near %.2f (%s)%s%s\n", hb_rec_num(c, "ratio", NAN),
                hb_rec_str(c, "noise", ""),
                json_is_string(json_object_get(c, "verdict")) ? ": " : "",
                hb_rec_str(c, "verdict", ""));
    }
}
