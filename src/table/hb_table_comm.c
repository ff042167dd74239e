/* comm's records as tables (hb_table_comm.h): its measurements as OSU prints them, a block
 * per rank pair and metric; message latency or bandwidth per node pair, what --bg's load did
 * to a pair, per host pair (link), and near or far from a NIC; the intervals labelled with
 * their real coverage and repeats (hb_coverage.h). */
#include "hb_table_comm.h"

#include "hb_table_grid.h"

#include "hb_coverage.h"
#include "hb_figure_text.h"
#include "hb_jsonl_read.h"
#include "hb_bytes.h"
#include "hb_units.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void hb_table_comm_matrix(FILE *f, json_t *rec)
{
    json_t *rows = json_object_get(rec, "rows"), *cols = json_object_get(rec, "cols");
    char size[32];
    hb_bytes_format((uint64_t)hb_jsonl_read_num(rec, "message_bytes", 0), size, sizeof(size));
    /* Each cell is an aggregate (hb_comm_derive.c): said so, and over what. */
    fprintf(f,
            "\nMPI message %s at %s (%s), each cell the median over the rank pairs of its node "
            "pair; sending node x receiving node, host %s:\n",
            hb_jsonl_read_str(rec, "metric", ""), size,
            hb_units_shown(hb_jsonl_read_str(rec, "unit", "")), hb_jsonl_read_str(rec, "host", ""));
    hb_table_grid(f, "src\\dst", rows, cols, json_object_get(rec, "values"), 2);
    if (json_array_size(rows) < 2) return;
    fprintf(f, "firmware hop classes:\n");
    hb_table_grid(f, "src\\dst", rows, cols, json_object_get(rec, "hop_class"), 0);
}

/* What the intervals of the figures figs[0..n) are (NULL ones left out), into buf. */
static const char *table_comm_label(const json_t *const *figs, size_t n,
                                    char buf[HB_COVERAGE_LABEL_LEN])
{
    struct hb_coverage c = {0};
    for (size_t i = 0; i < n; i++)
        if (json_is_object(figs[i])) hb_coverage_add_rec(&c, figs[i]);
    return hb_coverage_label(&c, buf, HB_COVERAGE_LABEL_LEN);
}

/* One metric of a comm_bg record: idle -> loaded, the ratio and what it comes to. */
static void table_comm_bg_line(FILE *f, const char *what, const json_t *m)
{
    if (!json_is_object(m)) {
        fprintf(f, "  %s: not measured both idle and loaded\n", what);
        return;
    }
    char size[32], idle[HB_FIGURE_LEN], loaded[HB_FIGURE_LEN], ratio[HB_FIGURE_LEN];
    hb_bytes_format((uint64_t)hb_jsonl_read_num(m, "message_bytes", 0), size, sizeof(size));
    const json_t *ci = json_object_get(m, "ratio_ci95");
    const json_t *verdict = json_object_get(m, "verdict");
    fprintf(f, "  %s at %s: %s -> %s %s, x%s", what, size,
            hb_figure_text(hb_jsonl_read_num(json_object_get(m, "idle"), "value", NAN), idle,
                           sizeof(idle)),
            hb_figure_text(hb_jsonl_read_num(json_object_get(m, "loaded"), "value", NAN), loaded,
                           sizeof(loaded)),
            hb_units_shown(hb_jsonl_read_str(m, "unit", "")),
            hb_figure_text(hb_jsonl_read_num(m, "ratio", NAN), ratio, sizeof(ratio)));
    const json_t *figs[2] = {json_object_get(m, "idle"), json_object_get(m, "loaded")};
    char label[HB_COVERAGE_LABEL_LEN], lo[HB_FIGURE_LEN], hi[HB_FIGURE_LEN];
    if (json_is_array(ci))
        fprintf(f, " (from the figures' %s: x%s to x%s)", table_comm_label(figs, 2, label),
                hb_figure_text(json_number_value(json_array_get(ci, 0)), lo, sizeof(lo)),
                hb_figure_text(json_number_value(json_array_get(ci, 1)), hi, sizeof(hi)));
    fprintf(f, ": %s\n",
            json_is_string(verdict) ? json_string_value(verdict)
                                    : hb_jsonl_read_str(m, "separation", ""));
}

void hb_table_comm_bg(FILE *f, json_t *rec)
{
    fprintf(f, "\nMPI messages under --bg %s, ranks %lld -> %lld (node %lld -> %lld, host %s):",
            hb_jsonl_read_str(rec, "bg_level", ""),
            (long long)hb_jsonl_read_num(rec, "src_rank", -1),
            (long long)hb_jsonl_read_num(rec, "dst_rank", -1),
            (long long)hb_jsonl_read_num(rec, "src_node", -1),
            (long long)hb_jsonl_read_num(rec, "dst_node", -1), hb_jsonl_read_str(rec, "host", ""));
    size_t i;
    json_t *n;
    const json_t *gbps = json_object_get(rec, "bg_GBps"), *th = json_object_get(rec, "bg_threads");
    json_array_foreach(json_object_get(rec, "bg_nodes"), i, n)
        fprintf(f, "%s node %lld %lld thread(s) %.2f GB/s",
                i ? "," : " load:", (long long)json_integer_value(n),
                (long long)json_integer_value(json_array_get(th, i)),
                json_number_value(json_array_get(gbps, i)));
    fprintf(f, "\n");
    table_comm_bg_line(f, "latency", json_object_get(rec, "latency"));
    table_comm_bg_line(f, "bandwidth", json_object_get(rec, "bandwidth"));
}

/* A JSON number's value; NAN for anything else (an interval's missing end). */
static double comm_num(const json_t *v)
{
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A figure with its interval: "12.3 [11.9, 12.8]", or the value alone, or "-". */
static void table_comm_figure(FILE *f, const json_t *fig, int width)
{
    const json_t *ci = json_object_get(fig, "ci95");
    char text[HB_FIGURE_LEN];
    double v = hb_jsonl_read_num(fig, "value", NAN);
    if (isnan(v))
        snprintf(text, sizeof(text), "-");
    else
        hb_figure_text_interval_text(v, comm_num(json_array_get(ci, 0)),
                                     comm_num(json_array_get(ci, 1)), text, sizeof(text));
    fprintf(f, " %-*s", width, text);
}

/* A column's header: "latency us [93.75% interval, 5 repeats]" over the links' figures. */
static void table_comm_links_head(const json_t *links, const char *key, const char *what, char *out,
                                  size_t len)
{
    size_t n = json_array_size(links), i;
    const json_t **figs = calloc(n + 1, sizeof(*figs));
    json_t *l;
    json_array_foreach(links, i, l) if (figs) figs[i] = json_object_get(l, key);
    char label[HB_COVERAGE_LABEL_LEN];
    snprintf(out, len, "%s [%s]", what, figs ? table_comm_label(figs, n, label) : "intervals");
    free(figs);
}

void hb_table_comm_links(FILE *f, json_t *rec)
{
    char lat[32], bw[32], lat_head[128], bw_head[128];
    hb_bytes_format((uint64_t)hb_jsonl_read_num(rec, "latency_bytes", 0), lat, sizeof(lat));
    hb_bytes_format((uint64_t)hb_jsonl_read_num(rec, "bandwidth_bytes", 0), bw, sizeof(bw));
    fprintf(f,
            "\nMPI links (host pairs): latency (us) at %s, bandwidth (GB/s) at %s; flagged %.0f%% "
            "worse than the better half's median beyond the noise\n",
            lat, bw, hb_jsonl_read_num(rec, "threshold_pct", 0));
    const json_t *links = json_object_get(rec, "links");
    table_comm_links_head(links, "latency_us", "latency us", lat_head, sizeof(lat_head));
    table_comm_links_head(links, "bandwidth_GBps", "bandwidth GB/s", bw_head, sizeof(bw_head));
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
        table_comm_figure(f, json_object_get(l, "latency_us"), lw);
        table_comm_figure(f, json_object_get(l, "bandwidth_GBps"), bwid);
        fprintf(f, " %s%s%s%s\n", json_is_true(json_object_get(l, "outlier")) ? "OUTLIER: " : "",
                hb_jsonl_read_str(l, "reason", ""),
                *hb_jsonl_read_str(l, "inconclusive", "") ? "inconclusive (within the noise): "
                                                          : "",
                hb_jsonl_read_str(l, "inconclusive", ""));
    }
    fprintf(f, "  %-31s", "reference");
    table_comm_figure(f, json_object_get(json_object_get(rec, "reference"), "latency_us"), lw);
    table_comm_figure(f, json_object_get(json_object_get(rec, "reference"), "bandwidth_GBps"),
                      bwid);
    fprintf(f, "\n");
}

void hb_table_comm_nic(FILE *f, json_t *rec)
{
    const char *host = hb_jsonl_read_str(rec, "host", ""),
               *peer = hb_jsonl_read_str(rec, "peer", "");
    const char *note = hb_jsonl_read_str(rec, "note", NULL);
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
    fprintf(f, "NIC locality, %s -> %s, NIC %s: [%s]\n", host, peer,
            hb_jsonl_read_str(rec, "nic", ""), table_comm_label(figs, 4, label));
    for (int m = 0; m < 2; m++) {
        const json_t *c = json_object_get(rec, metric[m]);
        char size[32];
        hb_bytes_format((uint64_t)hb_jsonl_read_num(c, "message_bytes", 0), size, sizeof(size));
        fprintf(f, "  %-9s %-6s near", metric[m], size);
        table_comm_figure(f, json_object_get(c, "near"), 20);
        fprintf(f, " far");
        table_comm_figure(f, json_object_get(c, "far"), 20);
        fprintf(f, " far/near %.2f (%s)%s%s\n", hb_jsonl_read_num(c, "ratio", NAN),
                hb_jsonl_read_str(c, "noise", ""),
                json_is_string(json_object_get(c, "verdict")) ? ": " : "",
                hb_jsonl_read_str(c, "verdict", ""));
    }
}

/* comm's measurements held until their group is complete: one metric of one node pair, whose
 * records come size by size, each size for every rank pair on those nodes (idle and under
 * --bg's load in turn), so a block per rank pair can only be printed once the group ends. */
static json_t *comm_held;
static char comm_group[64];

static void comm_group_of(const json_t *rec, char *buf, size_t len)
{
    snprintf(buf, len, "%s %lld %lld", hb_jsonl_read_str(rec, "metric", ""),
             (long long)hb_jsonl_read_num(rec, "src_node", -1),
             (long long)hb_jsonl_read_num(rec, "dst_node", -1));
}

/* Whether two records are of one block: the same rank pair under the same load. */
static bool comm_same_block(const json_t *a, const json_t *b)
{
    return hb_jsonl_read_num(a, "src_rank", -1) == hb_jsonl_read_num(b, "src_rank", -1) &&
           hb_jsonl_read_num(a, "dst_rank", -1) == hb_jsonl_read_num(b, "dst_rank", -1) &&
           strcmp(hb_jsonl_read_str(a, "bg_level", ""), hb_jsonl_read_str(b, "bg_level", "")) == 0;
}

/* One end of the pair in words: "rank 0 (node 1)", "rank 2 (host b, node 0)" across hosts. */
static void comm_end(const json_t *rec, const char *end, bool hosts, char *buf, size_t len)
{
    char key[16];
    snprintf(key, sizeof(key), "%s_host", end);
    const char *host = hb_jsonl_read_str(rec, key, "");
    snprintf(key, sizeof(key), "%s_rank", end);
    long long rank = (long long)hb_jsonl_read_num(rec, key, -1);
    snprintf(key, sizeof(key), "%s_node", end);
    snprintf(buf, len, "rank %lld (%s%s%snode %lld)", rank, hosts ? "host " : "", hosts ? host : "",
             hosts ? ", " : "", (long long)hb_jsonl_read_num(rec, key, -1));
}

/* The pair in words: "rank 0 (node 0) → rank 1 (node 1), 1 hop, shared memory (btl vader,
 * single copy cma; pml default)". */
static void comm_pair_line(FILE *f, const json_t *rec)
{
    bool hosts =
        strcmp(hb_jsonl_read_str(rec, "src_host", ""), hb_jsonl_read_str(rec, "dst_host", "")) != 0;
    char src[160], dst[160], apart[32];
    comm_end(rec, "src", hosts, src, sizeof(src));
    comm_end(rec, "dst", hosts, dst, sizeof(dst));
    const json_t *hops = json_object_get(rec, "hops");
    long long h = (long long)json_integer_value(hops);
    if (hosts)
        snprintf(apart, sizeof(apart), "across hosts");
    else if (!json_is_integer(hops))
        snprintf(apart, sizeof(apart), "hop class unknown");
    else if (h == 0)
        snprintf(apart, sizeof(apart), "same node");
    else
        snprintf(apart, sizeof(apart), "%lld hop%s", h, h == 1 ? "" : "s");
    /* What the MCA parameters allowed (hb_msg_transport.c), named first in words. */
    const char *t = hb_jsonl_read_str(rec, "transport", "");
    const char *words = strncmp(t, "btl vader", 9) == 0 || strncmp(t, "btl sm,", 7) == 0
                            ? "shared memory "
                        : strncmp(t, "btl tcp", 7) == 0 ? "TCP "
                                                        : "";
    fprintf(f, "\n%s \xE2\x86\x92 %s, %s, %s(%s)\n", src, dst, apart, words, t);
}

/* The block's metric, its unit and what its intervals are. */
static void comm_metric_line(FILE *f, const json_t *rec, const struct hb_coverage *cov)
{
    const char *metric = hb_jsonl_read_str(rec, "metric", "");
    long long window = (long long)hb_jsonl_read_num(rec, "window", 0);
    char what[128], label[HB_COVERAGE_LABEL_LEN];
    if (strcmp(metric, "latency") == 0)
        snprintf(what, sizeof(what), "latency, one way (half a ping-pong round trip)");
    else if (strcmp(metric, "bandwidth") == 0)
        snprintf(what, sizeof(what), "bandwidth, one way (windows of %lld messages)", window);
    else
        snprintf(what, sizeof(what), "bidirectional bandwidth (%lld messages each way at once)",
                 window);
    const json_t *bg = json_object_get(rec, "bg_level");
    bool idle = json_is_string(bg) && strcmp(json_string_value(bg), "idle") == 0;
    fprintf(f, "  %s%s%s%s, %s; [lo, hi]: %s\n", what,
            !json_is_string(bg) ? ""
            : idle              ? ", idle"
                                : ", under --bg ",
            json_is_string(bg) && !idle ? json_string_value(bg) : "",
            json_is_string(bg) && !idle ? " load" : "",
            hb_units_shown(hb_jsonl_read_str(rec, "unit", "")),
            hb_coverage_label(cov, label, sizeof(label)));
}

/* A line of a block: size, the headline, p99 and max (NULL: a bandwidth block has none),
 * then the marks, with no padding after the last. */
static void comm_columns(FILE *f, const char *size, const char *head, const char *p99,
                         const char *max, const char *marks)
{
    char line[1024];
    if (p99 && max)
        snprintf(line, sizeof(line), "  %-10s %-30s %-12s %-12s%s", size, head, p99, max, marks);
    else
        snprintf(line, sizeof(line), "  %-10s %-30s%s", size, head, marks);
    size_t n = strlen(line);
    while (n > 0 && line[n - 1] == ' ')
        line[--n] = '\0';
    fprintf(f, "%s\n", line);
}

/* One row: the size, then p50 [lo, hi], p99 and max (latency) or the bandwidth [lo, hi]. */
static void comm_row(FILE *f, const json_t *rec)
{
    const json_t *ci = json_object_get(rec, "ci95");
    double lo = comm_num(json_array_get(ci, 0)), hi = comm_num(json_array_get(ci, 1));
    char size[32], head[HB_FIGURE_LEN], p99[HB_FIGURE_LEN], max[HB_FIGURE_LEN];
    hb_bytes_format((uint64_t)hb_jsonl_read_num(rec, "message_bytes", 0), size, sizeof(size));
    bool lat = strcmp(hb_jsonl_read_str(rec, "metric", ""), "latency") == 0;
    hb_figure_text_interval_text(hb_jsonl_read_num(rec, lat ? "p50_us" : "value", NAN), lo, hi,
                                 head, sizeof(head));
    if (lat) {
        hb_figure_text(hb_jsonl_read_num(rec, "p99_us", NAN), p99, sizeof(p99));
        hb_figure_text(hb_jsonl_read_num(rec, "max_us", NAN), max, sizeof(max));
    }
    const char *status = hb_jsonl_read_str(rec, "status", ""),
               *note = hb_jsonl_read_str(rec, "note", "");
    bool ok = strcmp(status, "ok") == 0;
    char marks[512];
    snprintf(marks, sizeof(marks), "%s%s%s%s%s",
             json_is_true(json_object_get(rec, "noisy")) ? " noisy" : "", ok ? "" : " ",
             ok ? "" : status, *note ? ": " : "", note);
    comm_columns(f, size, head, lat ? p99 : NULL, lat ? max : NULL, marks);
}

/* Where the block's buffers were: one line when every page was on its node, else flagged
 * with the sizes whose pages were not. */
static void comm_pages_line(FILE *f, const json_t *recs, const json_t *first)
{
    fprintf(f, "  pages: ");
    size_t i, off = 0;
    json_t *r;
    json_array_foreach(recs, i, r)
    {
        double pct = hb_jsonl_read_num(r, "pages_on_target_pct", NAN);
        if (!comm_same_block(r, first) || pct == 100.0) continue;
        char size[32], p[HB_FIGURE_LEN];
        hb_bytes_format((uint64_t)hb_jsonl_read_num(r, "message_bytes", 0), size, sizeof(size));
        fprintf(f, "%s%s %s%s", off++ ? ", " : "NOT ALL ON THEIR NODES: ", size,
                isfinite(pct) ? hb_figure_text(pct, p, sizeof(p)) : "not located",
                isfinite(pct) ? "%" : "");
    }
    fprintf(f, "%s the sender's buffers on node %lld, the receiver's on node %lld\n",
            off ? "; of" : "all on their nodes:",
            (long long)hb_jsonl_read_num(first, "src_mem_node", -1),
            (long long)hb_jsonl_read_num(first, "dst_mem_node", -1));
}

/* The held group, a block per rank pair and load in the order they came. */
static void comm_print_held(FILE *f)
{
    size_t n = json_array_size(comm_held), i, k;
    json_t *r;
    for (i = 0; i < n; i++) {
        const json_t *first = json_array_get(comm_held, i);
        bool seen = false;
        for (k = 0; k < i && !seen; k++)
            seen = comm_same_block(json_array_get(comm_held, k), first);
        if (seen) continue;
        struct hb_coverage cov = {0};
        json_array_foreach(comm_held, k, r) if (comm_same_block(r, first))
            hb_coverage_add_rec(&cov, r);
        comm_pair_line(f, first);
        comm_metric_line(f, first, &cov);
        const char *metric = hb_jsonl_read_str(first, "metric", "");
        if (strcmp(metric, "latency") == 0)
            comm_columns(f, "size", "p50 [lo, hi]", "p99", "max", "");
        else
            comm_columns(f, "size",
                         strcmp(metric, "bandwidth") == 0 ? "GB/s [lo, hi]"
                                                          : "GB/s both ways [lo, hi]",
                         NULL, NULL, "");
        json_array_foreach(comm_held, k, r) if (comm_same_block(r, first)) comm_row(f, r);
        comm_pages_line(f, comm_held, first);
    }
}

void hb_table_comm_flush(FILE *f)
{
    if (!comm_held) return;
    comm_print_held(f);
    json_decref(comm_held);
    comm_held = NULL;
}

bool hb_table_comm_hold(FILE *f, json_t *rec)
{
    bool comm = strcmp(hb_jsonl_read_str(rec, "type", ""), "measurement") == 0 &&
                strcmp(hb_jsonl_read_str(rec, "suite", ""), "comm") == 0;
    char group[sizeof(comm_group)] = "";
    if (comm) comm_group_of(rec, group, sizeof(group));
    if (strcmp(group, comm_group) != 0) hb_table_comm_flush(f);
    if (!comm) return false;
    if (!comm_held) comm_held = json_array();
    memcpy(comm_group, group, sizeof(group));
    /* Out of memory: the row is printed alone rather than lost. */
    if (!comm_held || json_array_append(comm_held, rec) != 0) {
        comm_pair_line(f, rec);
        comm_row(f, rec);
    }
    return true;
}

const char *hb_table_comm_sizes(const json_t *run, char *buf, size_t len)
{
    const json_t *m = json_object_get(run, "messages"), *bytes = json_object_get(m, "bytes");
    size_t n = json_array_size(bytes);
    if (!n) return NULL;
    char lo[32], hi[32];
    hb_bytes_format((uint64_t)json_integer_value(json_array_get(bytes, 0)), lo, sizeof(lo));
    hb_bytes_format((uint64_t)json_integer_value(json_array_get(bytes, n - 1)), hi, sizeof(hi));
    snprintf(buf, len, "messages %s to %s (%zu size%s, the largest from %s), %s", lo, hi, n,
             n == 1 ? "" : "s", hb_jsonl_read_str(json_object_get(run, "sizes"), "size_source", ""),
             hb_jsonl_read_str(m, "buffers", ""));
    return buf;
}
