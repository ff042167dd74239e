/* The report's first section: per results file what ran and where, how many figures and how
 * noisy, its first figures with their intervals, and its conclusions (NUMA gains, myths,
 * matrix flags) in words. The sections below have every figure, the Machine section the
 * machine's details. */
#include "hb_report_kit.h"
#include "hb_report_sections.h"

#include "hb_bounds.h"
#include "hb_figure_text.h"
#include "hb_units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Figures a file's summary lists; the others are in their sections. */
#define HB_SUMMARY_FIGURES 6

/* Each figure of m past its physical bound (hb_bounds.h: checked again, so a file written
 * before the check or edited is flagged too), the first few as text. 0 or -ENOMEM. */
static int summary_bounds(struct hb_report_in *in, const json_t *m)
{
    /* The keys the check reads, in an object of its own: it sets one key, and a million
     * records are not copied whole. */
    json_t *copy = json_object();
    if (!copy) return -ENOMEM;
    for (const char *const *k = hb_bounds_reads; *k; k++)
        if (json_object_get(m, *k)) json_object_set(copy, *k, json_object_get(m, *k));
    hb_bounds_check(copy);
    size_t i;
    json_t *b;
    int rc = 0;
    json_array_foreach(json_object_get(copy, "out_of_bounds"), i, b)
    {
        if (rc || in->nimpossible++ >= HB_SUMMARY_FIGURES) continue;
        char words[512], *line = NULL;
        if (asprintf(&line, "%s: %s", hb_jsonl_read_str(m, "experiment", "?"),
                     hb_bounds_text(b, words, sizeof(words))) < 0 ||
            hb_strtab_add(&in->impossible, line, strlen(line)) == HB_STRTAB_NONE)
            rc = -ENOMEM;
        free(line);
    }
    json_decref(copy);
    return rc;
}

int hb_report_summary_take(struct hb_report_in *in, const json_t *m)
{
    if (summary_bounds(in, m)) return -ENOMEM;
    const json_t *v = json_object_get(m, hb_jsonl_read_headline_key(m));
    if (strcmp(hb_jsonl_read_str(m, "role", "foreground"), "background") == 0 || !json_is_number(v))
        return 0;
    if (in->figures++ >= HB_SUMMARY_FIGURES) return 0;
    /* "bw-read-2t: 83.20 [55.68, 110.72] GB/s": the experiment names what ran. */
    char fig[HB_FIGURE_LEN], line[400];
    struct hb_rfig y = hb_report_data_fig(m, hb_jsonl_read_headline_key(m));
    snprintf(line, sizeof(line), "%s: %s %s%s", hb_jsonl_read_str(m, "experiment", "?"),
             hb_figure_text_interval_text(y.v, y.lo, y.hi, fig, sizeof(fig)),
             hb_units_shown(hb_jsonl_read_str(m, "unit", "")),
             json_is_true(json_object_get(m, "noisy")) ? " (noisy)" : "");
    return hb_strtab_add(&in->headlines, line, strlen(line)) == HB_STRTAB_NONE ? -ENOMEM : 0;
}

/* The file's run: its command, hosts and start. */
static void summary_what(FILE *f, const json_t *run)
{
    fputs("<td class=\"kv\">", f);
    hb_escape_html(f, hb_jsonl_read_str(run, "command", "?"));
    fputs(" on ", f);
    hb_report_data_value_text(f, "hosts", json_object_get(run, "hosts"));
    size_t nodes = json_array_size(json_object_get(json_object_get(run, "topology"), "nodes"));
    fprintf(f, " (%zu NUMA node%s), started ", nodes, nodes == 1 ? "" : "s");
    hb_escape_html(f, hb_jsonl_read_str(run, "start_time", "?"));
    fputs("</td>", f);
}

/* How many figures, how many noisy or failed (the summary record's counts when there is one),
 * and what their intervals are. */
static void summary_counts(FILE *f, const struct hb_report_in *in)
{
    const json_t *s = NULL;
    size_t k;
    json_t *r;
    json_array_foreach(in->res.records, k, r) if (hb_report_kit_is(r, "summary", NULL, NULL)) s = r;
    fputs("<td class=\"kv\">", f);
    if (s)
        fprintf(f, "%lld measurements: %lld ok, %lld failed, %lld noisy",
                (long long)hb_jsonl_read_num(s, "measurements", 0),
                (long long)hb_jsonl_read_num(s, "ok", 0),
                (long long)hb_jsonl_read_num(s, "failed", 0),
                (long long)hb_jsonl_read_num(s, "noisy", 0));
    else
        fprintf(f, "%zu figures", in->figures);
    char label[HB_COVERAGE_LABEL_LEN];
    if (hb_coverage_any(&in->cov))
        fprintf(f, "<br>intervals: %s", hb_coverage_label(&in->cov, label, sizeof(label)));
    fputs("</td>", f);
}

static void summary_figures(FILE *f, const struct hb_report_in *in)
{
    fputs("<td class=\"kv headline\">", f);
    for (uint32_t i = 0; i < in->headlines.n; i++) {
        fputs(i ? "<br>" : "", f);
        hb_escape_html(f, hb_strtab_get(&in->headlines, i));
    }
    if (in->figures > in->headlines.n)
        fprintf(f, "<br><em>and %zu more in the sections below</em>",
                in->figures - in->headlines.n);
    fputs("</td>", f);
}

/* A line of the conclusions cell: a break before any but the first. */
static void summary_line(FILE *f, bool *any)
{
    fputs(*any ? "<br>" : "", f);
    *any = true;
}

/* The file's conclusions in words: impossible figures first (whatever else the file says is
 * in doubt), each myth verdict, NUMA gains by verdict, matrix flags. */
static void summary_verdicts(FILE *f, const struct hb_report_in *in)
{
    size_t gains[3] = {0}, flags = 0, myths = 0, k;
    static const char *const noise[3] = {"clear", "inconclusive", "unknown noise"};
    bool any = false;
    json_t *r;
    fputs("<td class=\"kv verdicts\">", f);
    for (uint32_t i = 0; i < in->impossible.n; i++) {
        summary_line(f, &any);
        fputs("<strong class=\"warn impossible\">impossible: ", f);
        hb_escape_html(f, hb_strtab_get(&in->impossible, i));
        fputs("</strong>", f);
    }
    if (in->nimpossible > in->impossible.n) {
        summary_line(f, &any);
        fprintf(f, "<em>and %zu more impossible figures</em>", in->nimpossible - in->impossible.n);
    }
    json_array_foreach(in->res.records, k, r)
    {
        if (hb_report_kit_is(r, "gain", NULL, NULL)) {
            const char *key;
            json_t *w;
            json_object_foreach(json_object_get(r, "gain_noise"), key, w)
            {
                for (int n = 0; n < 3; n++)
                    gains[n] +=
                        strcmp(json_string_value(w) ? json_string_value(w) : "", noise[n]) == 0;
            }
        } else if (hb_report_kit_is(r, "matrix", "matrix", NULL)) {
            flags += json_array_size(json_object_get(r, "flags"));
        } else if (hb_report_kit_is(r, "verdict", NULL, NULL) && myths++ < HB_SUMMARY_FIGURES) {
            char head[256];
            hb_report_verdicts_heading(head, sizeof(head), r);
            summary_line(f, &any);
            hb_escape_html(f, head);
            fputs(": <strong>", f);
            hb_escape_html(f, hb_report_verdicts_word(r));
            fputs("</strong>", f);
        }
    }
    if (myths > HB_SUMMARY_FIGURES) {
        summary_line(f, &any);
        fprintf(f, "<em>and %zu more myth verdicts below</em>", myths - HB_SUMMARY_FIGURES);
    }
    if (gains[0] + gains[1] + gains[2]) {
        summary_line(f, &any);
        fprintf(f,
                "NUMA gains of local placement: %zu clear, %zu inconclusive (within the noise), "
                "%zu of unknown noise",
                gains[0], gains[1], gains[2]);
    }
    if (hb_report_kit_has(in, 1, "matrix", "matrix", NULL)) {
        summary_line(f, &any);
        fprintf(f, "matrix: %zu pair%s flagged", flags, flags == 1 ? "" : "s");
    }
    fputs(any ? "</td>" : "none drawn from this file</td>", f);
}

void hb_report_summary(FILE *f, const struct hb_report_in *in, int nin)
{
    fputs("<section id=\"summary\"><h2>Summary</h2><p>What ran, where, its first figures with "
          "their intervals and its conclusions; every figure is in its section below, the "
          "machine's details in the Machine section.</p>\n<table class=\"summary\"><tr>"
          "<th>results file</th><th>what ran</th><th>figures</th><th>first figures "
          "[lo, hi]</th><th>conclusions</th></tr>\n",
          f);
    for (int i = 0; i < nin; i++) {
        const char *base = strrchr(in[i].res.path, '/');
        fputs("<tr><td class=\"kv\"><code>", f);
        hb_escape_html(f, base ? base + 1 : in[i].res.path);
        fputs("</code></td>", f);
        if (in[i].res.run)
            summary_what(f, in[i].res.run);
        else
            fputs("<td class=\"kv\">no run record</td>", f);
        summary_counts(f, &in[i]);
        summary_figures(f, &in[i]);
        summary_verdicts(f, &in[i]);
        fputs("</tr>\n", f);
    }
    fputs("</table></section>\n", f);
}
