/* The fleet summary section (hb_report_fleet.h): what was summarised and by which rule, the
 * worst and outlier hosts, then per unit the cells' box plots, the cells' distributions and
 * the host x cell heatmap. */
#include "hb_report_fleet.h"

#include "hb_family.h"
#include "hb_figure_text.h"
#include "hb_report_axis.h"
#include "hb_report_kit.h"
#include "hb_units.h"
#include "hb_bytes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Box plot figures at most (one per unit, in order of first appearance). */
#define HB_RFLEET_UNITS 8

/* Hosts listed besides the outliers, inconclusive ones and those with failed records. */
#define HB_RFLEET_WORST_HOSTS 20

static const char *const rfleet_verdict_words[] = {"ok", "inconclusive", "outlier"};

static void rfleet_num(FILE *f, double v)
{
    char buf[32];
    fprintf(f, "<td>%s</td>", isfinite(v) ? hb_report_axis_num_plain(v, buf, sizeof(buf)) : "-");
}

static void rfleet_text(FILE *f, const char *s)
{
    fputs("<td class=\"kv\">", f);
    hb_escape_html(f, s ? s : "?");
    fputs("</td>", f);
}

/* What was summarised, and the rule that judged the hosts. */
static void rfleet_what(FILE *f, const struct hb_rfleet *fl, const struct hb_coverage *cov)
{
    uint32_t failed = 0, unusable = 0;
    for (uint32_t h = 0; h < fl->hosts.n; h++) {
        failed += fl->host[h].failed;
        unusable += fl->host[h].unusable;
    }
    fprintf(f,
            "<p class=\"note fleet-what\" data-records=\"%zu\" data-hosts=\"%u\" "
            "data-cells=\"%u\">Summarised, not listed: %zu measurement records of %u hosts "
            "and %u cells: %zu (host, cell) figures, %zu background records, %u failed, %u "
            "without a positive headline, %zu repeated (host, cell) (the first kept). A file "
            "whose measurements name %d hosts or more is summarised as a fleet: its records "
            "are not listed and not drawn as bars or curves. A cell is a measurement without "
            "its host (suite, experiment, label, kernel, CPU and memory node, threads, bytes, "
            "metric); of each record only these, its host, headline (<code>value</code>), "
            "<code>ci95</code>, <code>repeat_values</code>, <code>unit</code>, "
            "<code>status</code> and <code>noisy</code> are read.</p>\n",
            fl->measurements, fl->hosts.n, fl->cells.n, fl->measurements, fl->hosts.n, fl->cells.n,
            fl->n, fl->background, failed, unusable, fl->duplicates, HB_FLEET_MIN_HOSTS);
    char c[32], ends[HB_FIGURE_LEN], label[HB_COVERAGE_LABEL_LEN];
    fprintf(f,
            "<p>A host's <em>cost</em> in a cell is its figure against the cell's median host "
            "(latency: value / median; bandwidth: median / value; 1 is the median host, higher "
            "is worse), its interval likewise from its ci95 (%s); a host's cost is the median over "
            "its cells. The fleet's median host costs %s (interval %s, the medians of "
            "the hosts' interval ends). A host is an <strong>outlier</strong> when its cost "
            "is more than %.0f%% above the fleet's, the intervals do not overlap and its "
            "<em>p</em> passes the family: the rank test of its rounds' costs (its cost times "
            "each round's deviation, over its records' <code>repeat_values</code>) against the "
            "other hosts', adjusted (%s at %g) over every host above the fleet's by more; "
            "<strong>inconclusive</strong> when it is above by more but the intervals overlap "
            "or the adjusted p does not pass (the matrix suite's fleet rule at its default "
            "--fleet-threshold). In a cell, a host is <em>flagged</em> by the intervals alone "
            "against the cell's median host.</p>\n",
            hb_coverage_label(cov, label, sizeof(label)), hb_figure_text(fl->cost, c, sizeof(c)),
            hb_report_words_ends(fl->cost, fl->lo, fl->hi, ends, sizeof(ends)), HB_FLEET_PCT,
            hb_family_rule_name(HB_FAMILY_FDR), HB_FAMILY_LEVEL);
    fprintf(f,
            "<p class=\"fleet-verdicts\" data-family=\"%ld\">%zu outlier host(s), %zu "
            "inconclusive; a family of %ld host(s) with a p.</p>\n",
            fl->family, fl->outliers, fl->inconclusive, fl->family);
}

static bool rfleet_listed(const struct hb_rfleet_host *hs, uint32_t rank)
{
    return rank < HB_RFLEET_WORST_HOSTS || hs->verdict != HB_RFLEET_OK || hs->failed ||
           hs->unusable;
}

/* The costliest hosts, every outlier and inconclusive host, and those with failed records. */
static void rfleet_hosts_table(FILE *f, const struct hb_rfleet *fl, const char *path)
{
    size_t n = 0, shown = 0;
    for (uint32_t r = 0; r < fl->hosts.n; r++)
        n += rfleet_listed(&fl->host[fl->rank[r]], r);
    fprintf(f,
            "<p class=\"figtitle\">Hosts, costliest first: the %d costliest, every outlier "
            "or inconclusive host and every host with failed records (%zu of %u)</p>\n",
            HB_RFLEET_WORST_HOSTS, n, fl->hosts.n);
    hb_report_kit_left_out_n(f, n, HB_REPORT_MAX_ROWS, "hosts", path,
                             "select(.type == \"measurement\")");
    hb_report_kit_numbers_open(f, n < HB_REPORT_MAX_ROWS ? n : HB_REPORT_MAX_ROWS);
    fputs("<table class=\"fleet-hosts\"><tr><th>rank</th><th>host</th><th>cost</th>"
          "<th>ci95</th><th>cells</th><th>flagged cells</th><th>within noise</th>"
          "<th>noisy records</th><th>failed</th><th>no headline</th><th>p</th><th>p adjusted</th>"
          "<th>verdict</th></tr>\n",
          f);
    for (uint32_t r = 0; r < fl->hosts.n && shown < HB_REPORT_MAX_ROWS; r++) {
        const struct hb_rfleet_host *hs = &fl->host[fl->rank[r]];
        if (!rfleet_listed(hs, r)) continue;
        shown++;
        fprintf(f, "<tr class=\"%s\"><td>%u</td>",
                hs->verdict == HB_RFLEET_OUTLIER ? "outlier" : "ok", r + 1);
        rfleet_text(f, hb_strtab_get(&fl->hosts, fl->rank[r]));
        rfleet_num(f, hs->cost);
        char ends[HB_FIGURE_LEN];
        const char *iv = hb_report_words_ends(hs->cost, hs->lo, hs->hi, ends, sizeof(ends));
        fprintf(f, "<td>%s</td>", *iv ? iv : "-");
        fprintf(f, "<td>%u</td><td>%u</td><td>%u</td><td>%u</td><td>%u</td><td>%u</td>", hs->cells,
                hs->flagged, hs->within, hs->noisy, hs->failed, hs->unusable);
        rfleet_num(f, hs->p);
        rfleet_num(f, hs->p_adjusted);
        fprintf(f, "<td class=\"verdict\">%s</td></tr>\n", rfleet_verdict_words[hs->verdict]);
    }
    fputs("</table>\n", f);
    hb_report_kit_numbers_close(f, n < HB_REPORT_MAX_ROWS ? n : HB_REPORT_MAX_ROWS);
}

/* One cell's row: its identity, its distribution over the hosts, its costliest host. */
static void rfleet_cell_row(FILE *f, const struct hb_rfleet *fl, uint32_t c,
                            struct hb_strtab *labels)
{
    const struct hb_rfleet_cell *cs = &fl->cell[c];
    fprintf(f, "<tr><td>%u</td>", c + 1);
    static const int fields[] = {0, 1, 2, 3, 6};
    for (int k = 0; k < 5; k++) {
        char *s = hb_report_fleet_cell_field(fl, c, fields[k]);
        rfleet_text(f, s);
        if (s && fields[k] == 2) hb_report_words_label_add(labels, s);
        free(s);
    }
    char *bytes = hb_report_fleet_cell_field(fl, c, 7), buf[32];
    double b = bytes ? strtod(bytes, NULL) : 0.0;
    rfleet_text(f, b >= 1 ? hb_bytes_format((uint64_t)b, buf, sizeof(buf)) : "-");
    free(bytes);
    rfleet_text(f, hb_units_shown(hb_strtab_get(&fl->units, cs->unit)));
    fprintf(f, "<td>%u</td>", cs->hosts);
    const double q[] = {cs->min, cs->q1, cs->med, cs->q3, cs->max};
    for (int k = 0; k < 5; k++)
        rfleet_num(f, q[k]);
    rfleet_text(f, hb_strtab_get(&fl->hosts, cs->worst));
    rfleet_num(f, cs->worst_cost);
    fprintf(f, "<td>%u</td></tr>\n", cs->flagged);
}

/* Every cell's distribution (at most HB_REPORT_MAX_ROWS: the widest spread), with the
 * labels in words. */
static void rfleet_cells_table(FILE *f, const struct hb_rfleet *fl, const char *path)
{
    size_t n, total;
    uint32_t *cells =
        hb_report_fleet_stats_pick(fl, HB_STRTAB_NONE, HB_REPORT_MAX_ROWS, &n, &total);
    if (!cells) return;
    fprintf(f,
            "<p class=\"figtitle\">Cells: each one's values over the hosts (%zu of %zu%s)"
            "</p>\n",
            n, total, n < total ? ", those whose costliest host is furthest above the median" : "");
    hb_report_kit_left_out_n(f, total, HB_REPORT_MAX_ROWS, "cells", path,
                             "select(.type == \"measurement\")");
    hb_report_kit_numbers_open(f, n);
    fputs("<table class=\"fleet-cells\"><tr><th>cell</th><th>suite</th><th>experiment</th>"
          "<th>label</th><th>kernel</th><th>threads</th><th>bytes</th><th>unit</th>"
          "<th>hosts</th><th>min</th><th>q1</th><th>median</th><th>q3</th><th>max</th>"
          "<th>costliest host</th><th>its cost</th><th>flagged hosts</th></tr>\n",
          f);
    struct hb_strtab labels = {0};
    for (size_t i = 0; i < n; i++)
        rfleet_cell_row(f, fl, cells[i], &labels);
    fputs("</table>\n", f);
    hb_report_kit_numbers_close(f, n);
    hb_report_words_label_key(f, &labels);
    hb_strtab_free(&labels);
    free(cells);
}

void hb_report_fleet_html_summary(FILE *f, const struct hb_report_in *in, int nin)
{
    bool any = false;
    for (int i = 0; i < nin; i++)
        any |= in[i].fleet && in[i].fleet->on;
    if (!any) return;
    fputs("<section id=\"fleetsummary\"><h2>Fleet summary</h2>\n", f);
    for (int i = 0; i < nin; i++) {
        const struct hb_rfleet *fl = in[i].fleet;
        if (!fl || !fl->on) continue;
        char what[96];
        snprintf(what, sizeof(what), "%u hosts, %u cells", fl->hosts.n, fl->cells.n);
        fputs("<div class=\"panel fleet\">", f);
        hb_report_kit_caption(f, &in[i].res, what);
        rfleet_what(f, fl, &in[i].cov);
        rfleet_hosts_table(f, fl, in[i].res.path);
        for (uint32_t u = 0; u < fl->units.n && u < HB_RFLEET_UNITS; u++)
            hb_report_fleet_draw_boxes(f, fl, u);
        if (fl->units.n > HB_RFLEET_UNITS)
            fprintf(f,
                    "<p class=\"warn leftout\">Box plots of the first %d of %u units drawn; "
                    "the cells table has every unit.</p>\n",
                    HB_RFLEET_UNITS, fl->units.n);
        rfleet_cells_table(f, fl, in[i].res.path);
        hb_report_fleet_draw_heatmap(f, fl);
        fputs("</div>\n", f);
    }
    fputs("</section>\n", f);
}
