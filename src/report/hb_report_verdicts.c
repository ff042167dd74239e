/* Report section of the hop study's myth verdicts: per verdict the claim tested, the verdict
 * and the figures behind it (the verdict's own, or its evidence records). */
#include "hb_report_kit.h"
#include "hb_report_sections.h"

#include "hb_report_axis.h"
#include "hb_figure_text.h"

#include <stdlib.h>
#include <string.h>

/* A verdict's evidence columns. */
static const char *const evidence_cols[] = {"label", "case", "bg_level", "pct_of_local_read"};
#define HB_EVIDENCE_COLS 4

/* Every measurement may be a verdict's evidence, found by suite, background level (verdicts
 * without one take any level) and label: the first rows of each such key are kept. */
int hb_report_verdicts_evidence_take(struct hb_report_in *in, const json_t *m)
{
    if (!hb_report_kit_is(m, "measurement", NULL, NULL)) return 0;
    const char *suite = hb_jsonl_read_str(m, "suite", ""),
               *label = hb_jsonl_read_str(m, "label", "");
    char key[1024], any[1024];
    hb_report_data_evidence_key(key, sizeof(key), suite, hb_jsonl_read_str(m, "bg_level", ""),
                                label);
    hb_report_data_evidence_key(any, sizeof(any), suite, NULL, label);
    return hb_report_data_add_evidence(in, key, any, m, evidence_cols, HB_EVIDENCE_COLS);
}

/* s as a jq string literal (JSON's). */
static void jq_string(FILE *f, const char *s)
{
    json_t *j = json_string(s);
    char *text = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    fputs(text ? text : "\"\"", f);
    free(text);
    json_decref(j);
}

/* The evidence rows of verdict v: each evidence label once, its records in file order, at
 * most HB_REPORT_MAX_SIDE rows (output stays bounded: a verdict cites a handful). */
static void report_evidence(FILE *f, const struct hb_report_in *in, const json_t *v)
{
    const struct hb_revidence *ev = &in->evidence;
    json_t *seen = json_object();
    struct hb_rbudget b = {0};
    size_t i;
    json_t *e;
    char key[1024];
    json_array_foreach(json_object_get(v, "evidence"), i, e)
    {
        const char *label = json_string_value(e);
        if (!label || json_object_get(seen, label)) continue;
        json_object_set_new(seen, label, json_true());
        hb_report_data_evidence_key(key, sizeof(key), hb_jsonl_read_str(v, "suite", ""),
                                    hb_jsonl_read_str(v, "bg_level", NULL), label);
        uint32_t id = hb_strtab_find(&ev->keys, key, strlen(key));
        if (id == HB_STRTAB_NONE) continue;
        for (uint32_t at = ev->chain[id].n ? ev->chain[id].first : UINT32_MAX; at != UINT32_MAX;
             at = ev->v[at].next)
            if (hb_report_data_budget_take(&b, 1, HB_REPORT_MAX_SIDE))
                hb_report_kit_row(f, in, ev->v[at].row, HB_EVIDENCE_COLS);
        /* The rows not kept are left out as well. */
        b.total += ev->chain[id].total - ev->chain[id].n;
    }
    json_decref(seen);
    if (b.drawn >= b.total) return;
    /* Its records are among the measurements of its suite (and background level). */
    char *select = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&select, &len);
    if (!m) return;
    fputs("select(.type == \"measurement\" and .suite == ", m);
    jq_string(m, hb_jsonl_read_str(v, "suite", ""));
    if (json_object_get(v, "bg_level")) {
        fputs(" and .bg_level == ", m);
        jq_string(m, hb_jsonl_read_str(v, "bg_level", ""));
    }
    fputc(')', m);
    if (fclose(m) == 0)
        hb_report_kit_left_out(f, HB_EVIDENCE_COLS, &b, "records of evidence", in->res.path,
                               select);
    free(select);
}

/* The claim a myth tests, for verdicts written before they carried it. */
static const char *myth_claim(const json_t *v)
{
    const char *claim = hb_jsonl_read_str(v, "claim", "");
    if (*claim) return claim;
    switch (hb_report_kit_int(v, "myth", 0)) {
    case 1:
        return "all equal hop cases take equal time";
    case 2:
        return "greater hop distance always means slower";
    default:
        return "(the record does not say)";
    }
}

const char *hb_report_verdicts_word(const json_t *v)
{
    const char *w = hb_jsonl_read_str(v, "verdict", "");
    if (*w) return w;
    const json_t *h = json_object_get(v, "holds");
    return json_is_true(h) ? "holds" : json_is_false(h) ? "does not hold" : "inconclusive";
}

void hb_report_verdicts_heading(char *buf, size_t len, const json_t *v)
{
    static const char *const access[][2] = {{"r", "read"}, {"w", "write"}, {"rw", "read+write"}};
    const char *a = hb_jsonl_read_str(v, "access", "");
    for (int k = 0; k < 3; k++)
        if (strcmp(a, access[k][0]) == 0) a = access[k][1];
    char hops[32] = "";
    if (json_is_integer(json_object_get(v, "hops")))
        snprintf(hops, sizeof(hops), ", %d hop%s", hb_report_kit_int(v, "hops", 0),
                 hb_report_kit_int(v, "hops", 0) == 1 ? "" : "s");
    const char *sub = hb_jsonl_read_str(v, "subscription", "");
    snprintf(buf, len, "Myth %d: %s%s%s, %s, background %s%s%s", hb_report_kit_int(v, "myth", 0),
             *a ? a : "any access", hops, "", hb_jsonl_read_str(v, "case", "any case"),
             hb_jsonl_read_str(v, "bg_level", "any"), *sub ? ", subscription " : "", sub);
}

/* One row of a verdict's figures: label(s), hop classes (its own, else hops), the figure and
 * its interval. */
static void figure_row(FILE *f, const json_t *e, const json_t *hops, struct hb_strtab *labels)
{
    char num[32];
    fputs("<tr><td>", f);
    const json_t *many = json_object_get(e, "labels");
    size_t i;
    json_t *l;
    if (json_is_array(many)) {
        json_array_foreach(many, i, l)
        {
            fputs(i ? " + " : "", f);
            hb_escape_html(f, json_string_value(l) ? json_string_value(l) : "?");
            hb_report_words_label_add(labels, json_string_value(l) ? json_string_value(l) : "");
        }
    } else {
        hb_escape_html(f, hb_jsonl_read_str(e, "label", "?"));
        hb_report_words_label_add(labels, hb_jsonl_read_str(e, "label", ""));
    }
    fputs("</td>", f);
    /* Myth 1 compares cases of one hop class: the verdict's. */
    hb_report_data_cell(f, json_object_get(e, "hops") ? json_object_get(e, "hops") : hops);
    bool span = json_is_number(json_object_get(e, "t_span_s"));
    double v = hb_jsonl_read_num(e, span ? "t_span_s" : "pct_of_local_read", 0);
    fprintf(f, "<td>%s</td>", hb_figure_text(v, num, sizeof(num)));
    fprintf(f, "<td>%s</td><td>", span ? "s (slower of the pair)" : "% of local read");
    /* The interval of the figure shown (a % of local read's: the record's ci95 holds it). */
    double lo, hi;
    char ends[HB_FIGURE_LEN];
    if (!span && hb_report_words_ci(json_object_get(e, "ci95"), &lo, &hi))
        fputs(hb_report_words_ends(v, lo, hi, ends, sizeof(ends)), f);
    fputs("</td></tr>\n", f);
}

/* The figures behind verdict v: its own (figures, or evidence as objects), else the records
 * of its evidence labels. */
static void verdict_figures(FILE *f, const struct hb_report_in *in, const json_t *v,
                            struct hb_strtab *labels)
{
    const json_t *figs = json_object_get(v, "figures");
    if (!json_is_array(figs)) figs = json_object_get(v, "evidence");
    if (json_is_object(json_array_get(figs, 0))) {
        fputs("<table class=\"figures\"><tr><th>label</th><th>hop classes</th><th>figure</th>"
              "<th>unit</th>",
              f);
        /* Its figures' intervals come from the file's measurements: theirs say what they are. */
        hb_report_kit_interval_head(f, &in->cov);
        fputs("</tr>\n", f);
        size_t i;
        json_t *e;
        json_array_foreach(figs, i, e) if (i < HB_REPORT_MAX_SIDE)
            figure_row(f, e, json_object_get(v, "hops"), labels);
        fputs("</table>\n", f);
        return;
    }
    fputs("<table class=\"figures evidence\"><tr><th>label</th><th>case</th><th>bg_level</th>"
          "<th>pct_of_local_read</th></tr>\n",
          f);
    size_t i;
    json_t *e;
    json_array_foreach(figs, i, e)
        hb_report_words_label_add(labels, json_string_value(e) ? json_string_value(e) : "");
    report_evidence(f, in, v);
    fputs("</table>\n", f);
}

/* One verdict: its heading (made distinct with a number when two would read the same), the
 * claim, the verdict and its margin, the figures. */
static void verdict_row(FILE *f, const struct hb_report_in *in, const json_t *v, json_t *seen,
                        struct hb_strtab *labels)
{
    char head[256], num[32], tol[32];
    hb_report_verdicts_heading(head, sizeof(head), v);
    json_t *count = json_object_get(seen, head);
    json_int_t n = count ? json_integer_value(count) + 1 : 1;
    json_object_set_new(seen, head, json_integer(n));
    if (n > 1) snprintf(head + strlen(head), sizeof(head) - strlen(head), " (%lld)", (long long)n);
    const char *word = hb_report_verdicts_word(v);
    fputs("<div class=\"verdict\">", f);
    hb_report_kit_caption(f, &in->res, head);
    fputs("<p class=\"claim\">Claim tested: ", f);
    hb_escape_html(f, myth_claim(v));
    fprintf(f, ".</p>\n<p>Verdict: <strong class=\"word %s\">%s</strong>",
            strcmp(word, "holds") == 0 ? "holds" : "fails", word);
    fprintf(f, " &#8212; spread %s %% against a tolerance of %s %%",
            hb_report_axis_num_plain(hb_jsonl_read_num(v, "spread_pct", 0), num, sizeof(num)),
            hb_report_axis_num_plain(hb_jsonl_read_num(v, "tolerance_pct", 0), tol, sizeof(tol)));
    if (json_is_number(json_object_get(v, "cases")))
        fprintf(f, ", over %d cases", hb_report_kit_int(v, "cases", 0));
    fputs(".", f);
    if (*hb_jsonl_read_str(v, "noise", "")) {
        fputs(" Noise: ", f);
        hb_escape_html(f, hb_jsonl_read_str(v, "noise", ""));
        fputs(".", f);
    }
    fputs("</p>\n", f);
    verdict_figures(f, in, v, labels);
    fputs("</div>\n", f);
}

void hb_report_verdicts(FILE *f, const struct hb_report_in *in, int nin)
{
    if (!hb_report_kit_has(in, nin, "verdict", NULL, NULL)) return;
    fputs("<section id=\"verdicts\"><h2>Myth verdicts</h2>\n<p>Each verdict tests one claim of "
          "AMD's 40555 hop study on this machine: it holds when the figures stay within the "
          "tolerance, is inconclusive when they differ by less than their noise.</p>\n",
          f);
    struct hb_strtab labels = {0};
    json_t *seen = json_object();
    for (int i = 0; i < nin; i++) {
        size_t k;
        json_t *v;
        json_array_foreach(in[i].res.records, k, v) if (hb_report_kit_is(v, "verdict", NULL, NULL))
            verdict_row(f, &in[i], v, seen, &labels);
        hb_report_kit_left_out(f, 0, &in[i].verdicts, "verdicts", in[i].res.path,
                               "select(.type == \"verdict\")");
    }
    json_decref(seen);
    hb_report_words_label_key(f, &labels);
    hb_strtab_free(&labels);
    fputs("</section>\n", f);
}
