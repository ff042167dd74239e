/* Helpers every report section shares (hb_report_kit.h). */
#include "hb_report_kit.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int hb_report_kit_is(const json_t *rec, const char *type, const char *suite, const char *key)
{
    return strcmp(hb_jsonl_read_str(rec, "type", ""), type) == 0 &&
           (!suite || strcmp(hb_jsonl_read_str(rec, "suite", ""), suite) == 0) &&
           (!key || json_object_get(rec, key));
}

int hb_report_kit_has(const struct hb_report_in *in, int nin, const char *type, const char *suite,
                      const char *key)
{
    for (int i = 0; i < nin; i++) {
        size_t k;
        json_t *rec;
        json_array_foreach(in[i].res.records, k,
                           rec) if (hb_report_kit_is(rec, type, suite, key)) return 1;
    }
    return 0;
}

void hb_report_kit_caption(FILE *f, const struct hb_results *r, const char *what)
{
    const char *base = strrchr(r->path, '/');
    fputs("<h3>", f);
    hb_escape_html(f, what);
    fputs(" <small>(", f);
    hb_escape_html(f, base ? base + 1 : r->path);
    fputs(")</small></h3>\n", f);
}

void hb_report_kit_whiskers(FILE *f, const struct hb_coverage *c)
{
    char label[HB_COVERAGE_LABEL_LEN];
    if (hb_coverage_any(c))
        fprintf(f, "<p class=\"ci\">Whiskers: %s.</p>\n",
                hb_coverage_label(c, label, sizeof(label)));
}

void hb_report_kit_interval_head(FILE *f, const struct hb_coverage *c)
{
    char label[HB_COVERAGE_LABEL_LEN];
    fprintf(f, "<th>%s</th>", hb_coverage_label(c, label, sizeof(label)));
}

int hb_report_kit_int(const json_t *rec, const char *key, int def)
{
    double v = hb_jsonl_read_num(rec, key, def);
    return v <= INT_MIN ? INT_MIN : v >= INT_MAX ? INT_MAX : (int)v;
}

static int rbar_cmp(const void *a, const void *b)
{
    const struct hb_rbar *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

struct hb_bar *hb_report_kit_bars(const struct hb_report_in *in, const struct hb_rbars *b,
                                  struct hb_rbar **sorted)
{
    *sorted = malloc((b->n + 1) * sizeof(**sorted));
    struct hb_bar *bars = malloc((b->n + 1) * sizeof(*bars));
    if (!*sorted || !bars) {
        free(*sorted);
        free(bars);
        *sorted = NULL;
        return NULL;
    }
    memcpy(*sorted, b->v, b->n * sizeof(**sorted));
    qsort(*sorted, b->n, sizeof(**sorted), rbar_cmp);
    for (size_t i = 0; i < b->n; i++) {
        const struct hb_rbar *r = &(*sorted)[i];
        bars[i] = (struct hb_bar){hb_strtab_get(&in->str, r->group),
                                  hb_strtab_get(&in->str, r->label),
                                  hb_strtab_get(&in->str, r->series),
                                  r->fig.v,
                                  r->fig.lo,
                                  r->fig.hi};
    }
    return bars;
}

/* s as one shell word ('...', each ' as '\''), HTML-escaped: a command to copy. */
static void report_shell_word(FILE *f, const char *s)
{
    fputs("&#39;", f);
    for (char c[2] = {0}; (c[0] = *s) != '\0'; s++)
        if (c[0] == '\'')
            fputs("&#39;\\&#39;&#39;", f);
        else
            hb_escape_html(f, c);
    fputs("&#39;", f);
}

void hb_report_kit_left_out(FILE *f, int colspan, const struct hb_rbudget *b, const char *what,
                            const char *path, const char *select)
{
    if (b->drawn >= b->total) return;
    if (colspan)
        fprintf(f, "<tr><td colspan=\"%d\" class=\"warn leftout\">", colspan);
    else
        fputs("<p class=\"warn leftout\">", f);
    fprintf(f, "Drawn: the first %zu of %zu ", b->drawn, b->total);
    hb_escape_html(f, what);
    fprintf(f, " (%zu left out, to keep the report readable); to list them all: <code>jq -c ",
            b->total - b->drawn);
    report_shell_word(f, select);
    fputc(' ', f);
    if (path)
        report_shell_word(f, path);
    else
        fputs("RESULTS.jsonl", f);
    fputs("</code>", f);
    fputs(colspan ? "</td></tr>\n" : "</p>\n", f);
}

void hb_report_kit_left_out_n(FILE *f, size_t n, size_t max, const char *what, const char *path,
                              const char *select)
{
    struct hb_rbudget b = {.drawn = n < max ? n : max, .total = n};
    hb_report_kit_left_out(f, 0, &b, what, path, select);
}

/* Bars per figure: wider figures would not fit a 1280 px page. */
#define HB_BARS_PER_FIG 24

void hb_report_kit_bar_figs(FILE *f, const struct hb_bar *bars, size_t n, const char *ylabel,
                            const char *metric)
{
    for (size_t g = 0, end; g < n; g = end) {
        /* Whole groups together while they fit one figure; a group wider than one is split. */
        for (end = g; end < n;) {
            size_t next = end + 1;
            while (next < n && strcmp(bars[next].group, bars[end].group) == 0)
                next++;
            if (end > g && next - g > HB_BARS_PER_FIG) break;
            end = next;
        }
        if (end - g <= HB_BARS_PER_FIG) {
            hb_report_draw_svg_bars(f, bars + g, (int)(end - g), bars, (int)n, ylabel, metric);
            continue;
        }
        for (size_t at = g; at < end; at += HB_BARS_PER_FIG) {
            size_t k = end - at < HB_BARS_PER_FIG ? end - at : HB_BARS_PER_FIG;
            fputs("<p class=\"figtitle\">", f);
            hb_escape_html(f, bars[g].group);
            fprintf(f, ": bars %zu&#8211;%zu of %zu</p>\n", at - g + 1, at - g + k, end - g);
            hb_report_draw_svg_bars(f, bars + at, (int)k, bars, (int)n, ylabel, metric);
        }
    }
}

void hb_report_kit_bar_panel(FILE *f, const struct hb_report_in *in, const struct hb_rbars *b,
                             const struct hb_bar_fig *fig)
{
    struct hb_rbar *sorted = NULL;
    struct hb_bar *bars = b->n ? hb_report_kit_bars(in, b, &sorted) : NULL;
    if (!bars) return;
    size_t n = b->n < HB_REPORT_MAX_BARS ? b->n : HB_REPORT_MAX_BARS;
    fputs("<div class=\"panel\">", f);
    hb_report_kit_caption(f, &in->res, fig->what);
    hb_report_kit_left_out_n(f, b->n, HB_REPORT_MAX_BARS, "bars and rows", in->res.path,
                             fig->select);
    hb_report_kit_bar_figs(f, bars, n, fig->ylabel, fig->metric);
    hb_report_kit_whiskers(f, &b->cov);
    hb_report_kit_numbers_open(f, n);
    fputs("<table class=\"numbers\"><tr>", f);
    for (int c = 0; c < fig->ncells; c++)
        if (strcmp(fig->heads[c], "ci95") == 0)
            hb_report_kit_interval_head(f, &b->cov);
        else
            fprintf(f, "<th>%s</th>", fig->heads[c]);
    fputs("</tr>\n", f);
    for (size_t k = 0; k < n; k++)
        hb_report_kit_row(f, in, sorted[k].row, fig->ncells);
    fputs("</table>", f);
    hb_report_kit_numbers_close(f, n);
    fputs("</div>\n", f);
    free(bars);
    free(sorted);
}

/* Tables of more rows than this are folded (a <details>, no script): the figure is the
 * summary, the rows are there for who opens them. */
#define HB_REPORT_OPEN_ROWS 24

void hb_report_kit_numbers_open(FILE *f, size_t rows)
{
    if (rows > HB_REPORT_OPEN_ROWS)
        fprintf(f, "<details><summary>numbers (%zu rows)</summary>\n", rows);
}

void hb_report_kit_numbers_close(FILE *f, size_t rows)
{
    if (rows > HB_REPORT_OPEN_ROWS) fputs("</details>\n", f);
}

void hb_report_kit_row(FILE *f, const struct hb_report_in *in, uint32_t row, int ncells)
{
    fputs("<tr>", f);
    for (int c = 0; c < ncells; c++)
        fputs(hb_report_data_row_cell(in, row, c), f);
    fputs("</tr>\n", f);
}

int hb_report_kit_too_big(FILE *f, const char *what, const json_t *values, size_t rows, size_t cols)
{
    if (rows <= HB_REPORT_MAX_SIDE && cols <= HB_REPORT_MAX_SIDE) return 0;
    size_t n = 0, r, c;
    double lo = INFINITY, hi = -INFINITY, sum = 0.0;
    json_t *row, *v;
    json_array_foreach(values, r, row) json_array_foreach(row, c, v) if (json_is_number(v))
    {
        double x = json_number_value(v);
        lo = fmin(lo, x);
        hi = fmax(hi, x);
        sum += x;
        n++;
    }
    fprintf(f, "<p class=\"warn toobig\">");
    hb_escape_html(f, what);
    fprintf(f,
            ": %zu x %zu cells, more than the %d x %d this report draws; summary of its %zu "
            "numbers:",
            rows, cols, HB_REPORT_MAX_SIDE, HB_REPORT_MAX_SIDE, n);
    if (n) fprintf(f, " min %.4g, mean %.4g, max %.4g", lo, sum / (double)n, hi);
    fputs(" (the results file has every cell)</p>\n", f);
    return 1;
}
