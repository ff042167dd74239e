/* The report's comparison section: files that ran the same experiments side by side. Each
 * later file is judged against the first of its set as `hopbench compare FIRST LATER` judges
 * it (hb_compare_rows: the same matching, the same verdicts); per experiment each file's
 * figure with its interval, the change and the verdict, as grouped bars (one colour per
 * file) and a table. */
#include "hb_compare.h"
#include "hb_report_axis.h"
#include "hb_report_kit.h"
#include "hb_units.h"
#include "hb_report_sections.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The rows of compare's kind "compared" in rows (the others: header, notes, errors, only). */
static size_t rcmp_compared(const json_t *rows)
{
    size_t n = 0, k;
    json_t *r;
    json_array_foreach(rows, k, r) n += hb_report_kit_is(r, "comparison", NULL, NULL);
    return n;
}

/* compare's rows of path against base when it matched at least one experiment; else NULL
 * (no match, or compare refuses the pair: different machines, several runs in a file). */
static json_t *rcmp_rows(const char *base, const char *path)
{
    json_t *rows = json_array();
    if (rows && hb_compare_rows(base, path, rows) == 0 && rcmp_compared(rows)) return rows;
    json_decref(rows);
    return NULL;
}

/* Runs of two commands never match (an identity includes its suite), and compare refuses
 * runs of other hosts: compare is not asked then (a file of many hosts is not read again for
 * nothing). What a run record does not say, compare decides. */
static bool rcmp_may_match(const struct hb_report_in *a, const struct hb_report_in *b)
{
    const char *x = hb_jsonl_read_str(a->res.run, "command", NULL),
               *y = hb_jsonl_read_str(b->res.run, "command", NULL);
    const json_t *ha = json_object_get(a->res.run, "hosts"),
                 *hb = json_object_get(b->res.run, "hosts");
    return (!x || !y || strcmp(x, y) == 0) && (!ha || !hb || json_equal(ha, hb));
}

static const char *rcmp_name(const struct hb_report_in *in)
{
    const char *base = strrchr(in->res.path, '/');
    return base ? base + 1 : in->res.path;
}

/* One set: the base file, its k later files and their rows; the experiments compared in any
 * of them (in order of first appearance), each with its row of every later file. */
struct hb_rcmp_set {
    int base, k;
    const int *member;
    json_t *const *rows;
    size_t n;          /* experiments */
    const json_t **at; /* n x k: the comparison row of experiment e against member m, or NULL */
};

/* The experiments of s: 0, or -1 when out of memory. */
static int rcmp_index(struct hb_rcmp_set *s)
{
    json_t *seen = json_object();
    size_t most = 0;
    for (int m = 0; m < s->k; m++)
        most += rcmp_compared(s->rows[m]);
    s->at = calloc(most * (size_t)s->k + 1, sizeof(*s->at));
    if (!seen || !s->at) {
        json_decref(seen);
        return -1;
    }
    s->n = 0;
    for (int m = 0; m < s->k; m++) {
        size_t i;
        json_t *r;
        json_array_foreach(s->rows[m], i, r)
        {
            if (!hb_report_kit_is(r, "comparison", NULL, NULL)) continue;
            const char *key = hb_jsonl_read_str(r, "record", "");
            json_t *e = json_object_get(seen, key);
            size_t row = e ? (size_t)json_integer_value(e) : s->n++;
            if (!e) json_object_set_new(seen, key, json_integer((json_int_t)row));
            s->at[row * (size_t)s->k + (size_t)m] = r;
        }
    }
    json_decref(seen);
    return 0;
}

/* The experiments drawn: at most HB_REPORT_MAX_ROWS. */
static size_t rcmp_shown(const struct hb_rcmp_set *s)
{
    return s->n < HB_REPORT_MAX_ROWS ? s->n : HB_REPORT_MAX_ROWS;
}

/* The first row of experiment e: its base figure, identity and unit are in every one. */
static const json_t *rcmp_first(const struct hb_rcmp_set *s, size_t e)
{
    for (int m = 0; m < s->k; m++)
        if (s->at[e * (size_t)s->k + (size_t)m]) return s->at[e * (size_t)s->k + (size_t)m];
    return NULL;
}

/* A figure and its interval from row's keys side ("base" or "new"), as a bar. */
static struct hb_bar rcmp_bar(const json_t *row, const char *side, const char *group,
                              const char *file)
{
    const json_t *ci = json_object_get(row, strcmp(side, "base") == 0 ? "base_ci95" : "new_ci95");
    bool has = json_is_number(json_array_get(ci, 0)) && json_is_number(json_array_get(ci, 1));
    return (struct hb_bar){group,
                           file,
                           file,
                           hb_jsonl_read_num(row, side, NAN),
                           has ? json_number_value(json_array_get(ci, 0)) : NAN,
                           has ? json_number_value(json_array_get(ci, 1)) : NAN};
}

/* The bars of one unit: per experiment (its number, "#3"), the base's bar and each later
 * file's that compared it. */
static void rcmp_figure(FILE *f, const struct hb_report_in *in, const struct hb_rcmp_set *s,
                        const char *unit)
{
    struct hb_bar *bars = malloc((s->n * (size_t)(s->k + 1) + 1) * sizeof(*bars));
    char(*groups)[24] = malloc((s->n + 1) * sizeof(*groups));
    size_t nb = 0;
    for (size_t e = 0; bars && groups && e < rcmp_shown(s); e++) {
        const json_t *first = rcmp_first(s, e);
        if (strcmp(hb_jsonl_read_str(first, "unit", ""), unit) != 0) continue;
        snprintf(groups[e], sizeof(groups[e]), "#%zu", e + 1);
        bars[nb++] = rcmp_bar(first, "base", groups[e], rcmp_name(&in[s->base]));
        for (int m = 0; m < s->k; m++)
            if (s->at[e * (size_t)s->k + (size_t)m])
                bars[nb++] = rcmp_bar(s->at[e * (size_t)s->k + (size_t)m], "new", groups[e],
                                      rcmp_name(&in[s->member[m]]));
    }
    if (nb) {
        char ylabel[64], metric[80];
        snprintf(ylabel, sizeof(ylabel), "%s (each file's figure)", hb_units_shown(unit));
        snprintf(metric, sizeof(metric), "comparison %s", unit);
        hb_report_kit_bar_figs(f, bars, nb, ylabel, metric);
    }
    free(bars);
    free(groups);
}

/* A figure with its interval as a cell: "value [lo, hi]", the numbers in data-*. */
static void rcmp_cell(FILE *f, const json_t *row, const char *key, const char *ci_key)
{
    char v[32], lo[32], hi[32];
    const json_t *ci = json_object_get(row, ci_key);
    double x = hb_jsonl_read_num(row, key, NAN);
    fprintf(f, "<td class=\"fig\" data-value=\"%.17g\"", x);
    if (json_array_size(ci) == 2 && json_is_number(json_array_get(ci, 0))) {
        double a = json_number_value(json_array_get(ci, 0)),
               b = json_number_value(json_array_get(ci, 1));
        fprintf(f, " data-lo=\"%.17g\" data-hi=\"%.17g\">%s [%s, %s]</td>", a, b,
                hb_report_axis_num_plain(x, v, sizeof(v)),
                hb_report_axis_num_plain(a, lo, sizeof(lo)),
                hb_report_axis_num_plain(b, hi, sizeof(hi)));
    } else
        fprintf(f, ">%s</td>", isfinite(x) ? hb_report_axis_num_plain(x, v, sizeof(v)) : "&#8211;");
}

/* The change of one later file and compare's verdict, its reason as the cell's title. */
static void rcmp_verdict(FILE *f, const json_t *row)
{
    if (!row) {
        fputs("<td>not in this file</td><td></td><td></td>", f);
        return;
    }
    char pct[40];
    double c = hb_jsonl_read_num(row, "change_pct", NAN);
    snprintf(pct, sizeof(pct), "%+.1f%%", c);
    fprintf(f, "<td class=\"fig\" data-value=\"%.17g\">%s</td>", c, isfinite(c) ? pct : "&#8211;");
    rcmp_cell(f, row, "new", "new_ci95");
    const char *verdict = hb_jsonl_read_str(row, "verdict", "?");
    fprintf(f, "<td class=\"cmpverdict %s\" title=\"", verdict);
    hb_escape_html(f, hb_jsonl_read_str(row, "reason", ""));
    fputs("\">", f);
    hb_escape_html(f, verdict);
    fputs("</td>", f);
}

/* Per later file, compare's counts in words. */
static void rcmp_counts(FILE *f, const struct hb_report_in *in, const struct hb_rcmp_set *s)
{
    fputs("<ul class=\"cmpcounts\">", f);
    for (int m = 0; m < s->k; m++) {
        size_t i;
        json_t *r, *sum = NULL;
        json_array_foreach(s->rows[m], i, r) if (hb_report_kit_is(r, "compare_summary", NULL, NULL))
            sum = r;
        fputs("<li><code>", f);
        hb_escape_html(f, rcmp_name(&in[s->member[m]]));
        fputs("</code> against <code>", f);
        hb_escape_html(f, rcmp_name(&in[s->base]));
        fprintf(f,
                "</code>: %d worse, %d better, %d the same, %d unclear, %d undetermined; %d only "
                "in the first, %d only in this one. ",
                hb_report_kit_int(sum, "worse", 0), hb_report_kit_int(sum, "better", 0),
                hb_report_kit_int(sum, "same", 0), hb_report_kit_int(sum, "unclear", 0),
                hb_report_kit_int(sum, "undetermined", 0), hb_report_kit_int(sum, "only_base", 0),
                hb_report_kit_int(sum, "only_new", 0));
        hb_escape_html(f, hb_jsonl_read_str(sum, "noise_floor", ""));
        fputs(".</li>", f);
    }
    fputs("</ul>\n", f);
}

/* The table: per experiment its number, identity, unit, the first file's figure, and per
 * later file its change, figure and verdict. */
static void rcmp_table(FILE *f, const struct hb_report_in *in, const struct hb_rcmp_set *s)
{
    size_t n = rcmp_shown(s);
    if (n < s->n) {
        fprintf(f,
                "<p class=\"warn leftout\">Drawn: the first %zu of %zu experiments (to keep "
                "the report readable); every one: <code>hopbench compare ",
                n, s->n);
        hb_escape_html(f, in[s->base].res.path);
        fputs(" LATER.jsonl</code></p>\n", f);
    }
    hb_report_kit_numbers_open(f, n);
    fputs("<table class=\"numbers compare\"><tr><th>#</th><th>experiment</th><th>unit</th><th>", f);
    hb_escape_html(f, rcmp_name(&in[s->base]));
    fputs(" [lo, hi]</th>", f);
    for (int m = 0; m < s->k; m++) {
        fputs("<th>change</th><th>", f);
        hb_escape_html(f, rcmp_name(&in[s->member[m]]));
        fputs(" [lo, hi]</th><th>verdict</th>", f);
    }
    fputs("</tr>\n", f);
    for (size_t e = 0; e < n; e++) {
        const json_t *first = rcmp_first(s, e);
        fprintf(f, "<tr class=\"cmp\" data-record=\"");
        hb_escape_html(f, hb_jsonl_read_str(first, "record", ""));
        fprintf(f, "\"><td>%zu</td><td class=\"kv\">", e + 1);
        hb_escape_html(f, hb_jsonl_read_str(first, "record", ""));
        fputs("</td><td>", f);
        hb_escape_html(f, hb_units_shown(hb_jsonl_read_str(first, "unit", "")));
        fputs("</td>", f);
        rcmp_cell(f, first, "base", "base_ci95");
        for (int m = 0; m < s->k; m++)
            rcmp_verdict(f, s->at[e * (size_t)s->k + (size_t)m]);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
    hb_report_kit_numbers_close(f, n);
}

/* One set's panel: the counts, a figure per unit, the table. */
static void rcmp_panel(FILE *f, const struct hb_report_in *in, struct hb_rcmp_set *s)
{
    if (rcmp_index(s)) return;
    fputs("<div class=\"panel compare\">", f);
    hb_report_kit_caption(f, &in[s->base].res, "runs of the same experiments, the first as base");
    rcmp_counts(f, in, s);
    /* One figure per unit, in order of first appearance. */
    for (size_t e = 0; e < rcmp_shown(s); e++) {
        const char *unit = hb_jsonl_read_str(rcmp_first(s, e), "unit", "");
        bool drawn = false;
        for (size_t d = 0; d < e && !drawn; d++)
            drawn = strcmp(hb_jsonl_read_str(rcmp_first(s, d), "unit", ""), unit) == 0;
        if (!drawn) rcmp_figure(f, in, s, unit);
    }
    fputs("<p class=\"ci\">Whiskers and [lo, hi]: each file's interval over its repeats; "
          "change: the later file's figure against the first's; verdict: compare's (hover for "
          "why).</p>\n",
          f);
    rcmp_table(f, in, s);
    fputs("</div>\n", f);
    free(s->at);
}

void hb_report_compare(FILE *f, const struct hb_report_in *in, int nin)
{
    if (nin < 2) return;
    /* Each file joins the first earlier set whose base compare matches it with. */
    int *base = malloc((size_t)nin * sizeof(*base)),
        *member = malloc((size_t)nin * sizeof(*member));
    json_t **rows = calloc((size_t)nin, sizeof(*rows));
    bool any = false;
    for (int i = 0; base && member && rows && i < nin; i++) {
        base[i] = -1;
        for (int j = 0; j < i && !rows[i]; j++)
            if (base[j] < 0 && rcmp_may_match(&in[j], &in[i]) &&
                (rows[i] = rcmp_rows(in[j].res.path, in[i].res.path)))
                base[i] = j, any = true;
    }
    if (any) {
        fputs("<section id=\"compare\"><h2>Runs compared</h2><p>Files that ran the same "
              "experiments, each against the first of them as <code>hopbench compare FIRST "
              "LATER</code> judges it (a change beyond 5% whose repeats separate is worse or "
              "better; one whose interval stays within 5% is the same; else unclear): per "
              "experiment each file's figure and interval side by side, one colour per "
              "file.</p><div class=\"row\">\n",
              f);
        for (int j = 0; j < nin; j++) {
            int k = 0;
            json_t **mine = rows ? calloc((size_t)nin, sizeof(*mine)) : NULL;
            for (int i = j + 1; mine && i < nin; i++)
                if (base[i] == j) member[k] = i, mine[k++] = rows[i];
            struct hb_rcmp_set s = {j, k, member, mine, 0, NULL};
            if (k) rcmp_panel(f, in, &s);
            free(mine);
        }
        fputs("</div></section>\n", f);
    }
    for (int i = 0; rows && i < nin; i++)
        json_decref(rows[i]);
    free(rows);
    free(base);
    free(member);
}
