#include "hb_report.h"

#include "hb_args.h"

#include "hb_error.h"
#include "hb_outfile.h"
#include "hb_report_draw.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char hb_report_css[] =
    "body{font:14px sans-serif;margin:20px;color:#222}"
    "h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid #ccc;margin-top:32px}"
    "h3{font-size:15px}.row{display:flex;flex-wrap:wrap;gap:24px}"
    ".panel{border:1px solid #ddd;padding:8px}"
    "table{border-collapse:collapse;margin:6px 0 14px}"
    "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
    "th{background:#f3f3f3}tr.outlier td{background:#fdd;font-weight:bold}"
    "td.holds{color:#070}td.fails{color:#b00}"
    ".axis{font-size:12px}.tick{font-size:11px}.val{font-size:11px}.group{font-size:12px;"
    "font-weight:bold}.ax{stroke:#444}.frame{fill:none;stroke:#888}"
    ".mark{stroke:#888;stroke-dasharray:4 3}.marklabel{font-size:10px;fill:#555}"
    ".warn{color:#b00}.note{background:#f6f6e8;padding:6px;max-width:60em}"
    "td.kv{text-align:left}";

int hb_report_is(const json_t *rec, const char *type, const char *suite, const char *key)
{
    return strcmp(hb_rec_str(rec, "type", ""), type) == 0 &&
           (!suite || strcmp(hb_rec_str(rec, "suite", ""), suite) == 0) &&
           (!key || json_object_get(rec, key));
}

int hb_report_has(const struct hb_report_in *in, int nin, const char *type, const char *suite,
                  const char *key)
{
    for (int i = 0; i < nin; i++) {
        size_t k;
        json_t *rec;
        json_array_foreach(in[i].res.records, k,
                           rec) if (hb_report_is(rec, type, suite, key)) return 1;
    }
    return 0;
}

void hb_report_caption(FILE *f, const struct hb_results *r, const char *what)
{
    const char *base = strrchr(r->path, '/');
    fputs("<h3>", f);
    hb_html_esc(f, what);
    fputs(" <small>(", f);
    hb_html_esc(f, base ? base + 1 : r->path);
    fputs(")</small></h3>\n", f);
}

int hb_report_int(const json_t *rec, const char *key, int def)
{
    double v = hb_rec_num(rec, key, def);
    return v <= INT_MIN ? INT_MIN : v >= INT_MAX ? INT_MAX : (int)v;
}

static int hb_rbar_cmp(const void *a, const void *b)
{
    const struct hb_rbar *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

struct hb_bar *hb_report_bars(const struct hb_report_in *in, const struct hb_rbars *b,
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
    qsort(*sorted, b->n, sizeof(**sorted), hb_rbar_cmp);
    for (size_t i = 0; i < b->n; i++) {
        const struct hb_rbar *r = &(*sorted)[i];
        bars[i] =
            (struct hb_bar){hb_strtab_get(&in->str, r->group), hb_strtab_get(&in->str, r->label),
                            hb_strtab_get(&in->str, r->series), r->value};
    }
    return bars;
}

/* s as one shell word ('...', each ' as '\''), HTML-escaped: a command to copy. */
static void hb_report_shell_word(FILE *f, const char *s)
{
    fputs("&#39;", f);
    for (char c[2] = {0}; (c[0] = *s) != '\0'; s++)
        if (c[0] == '\'')
            fputs("&#39;\\&#39;&#39;", f);
        else
            hb_html_esc(f, c);
    fputs("&#39;", f);
}

void hb_report_left_out(FILE *f, int colspan, const struct hb_rbudget *b, const char *what,
                        const char *path, const char *select)
{
    if (b->drawn >= b->total) return;
    if (colspan)
        fprintf(f, "<tr><td colspan=\"%d\" class=\"warn leftout\">", colspan);
    else
        fputs("<p class=\"warn leftout\">", f);
    fprintf(f, "Drawn: the first %zu of %zu ", b->drawn, b->total);
    hb_html_esc(f, what);
    fprintf(f, " (%zu left out, to keep the report readable); to list them all: <code>jq -c ",
            b->total - b->drawn);
    hb_report_shell_word(f, select);
    fputc(' ', f);
    if (path)
        hb_report_shell_word(f, path);
    else
        fputs("RESULTS.jsonl", f);
    fputs("</code>", f);
    fputs(colspan ? "</td></tr>\n" : "</p>\n", f);
}

void hb_report_left_out_n(FILE *f, size_t n, size_t max, const char *what, const char *path,
                          const char *select)
{
    struct hb_rbudget b = {.drawn = n < max ? n : max, .total = n};
    hb_report_left_out(f, 0, &b, what, path, select);
}

void hb_report_bar_panel(FILE *f, const struct hb_report_in *in, const struct hb_rbars *b,
                         const char *what, const char *ylabel, const char *const *heads, int ncells,
                         const char *select)
{
    struct hb_rbar *sorted = NULL;
    struct hb_bar *bars = b->n ? hb_report_bars(in, b, &sorted) : NULL;
    if (!bars) return;
    size_t n = b->n < HB_REPORT_MAX_BARS ? b->n : HB_REPORT_MAX_BARS;
    fputs("<div class=\"panel\">", f);
    hb_report_caption(f, &in->res, what);
    hb_report_left_out_n(f, b->n, HB_REPORT_MAX_BARS, "bars and rows", in->res.path, select);
    hb_svg_bars(f, bars, (int)n, ylabel);
    fputs("<table class=\"numbers\"><tr>", f);
    for (int c = 0; c < ncells; c++)
        fprintf(f, "<th>%s</th>", heads[c]);
    fputs("</tr>\n", f);
    for (size_t k = 0; k < n; k++)
        hb_report_row(f, in, sorted[k].row, ncells);
    fputs("</table>", f);
    fputs("</div>\n", f);
    free(bars);
    free(sorted);
}

void hb_report_row(FILE *f, const struct hb_report_in *in, uint32_t row, int ncells)
{
    fputs("<tr>", f);
    for (int c = 0; c < ncells; c++)
        fputs(hb_report_row_cell(in, row, c), f);
    fputs("</tr>\n", f);
}

/* A value for people: numbers and strings as they are, byte counts in KiB/MiB/GiB, lists
 * joined by commas, objects as "key value" lines; never JSON text. */
static void hb_report_value(FILE *f, const char *key, const json_t *v)
{
    size_t klen = key ? strlen(key) : 0;
    if (json_is_string(v))
        hb_html_esc(f, json_string_value(v));
    else if (json_is_number(v) && key &&
             (strcmp(key, "bytes") == 0 || (klen > 6 && strcmp(key + klen - 6, "_bytes") == 0))) {
        static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
        double b = json_number_value(v);
        int u = 0;
        while (b >= 1024.0 && u < 4) {
            b /= 1024.0;
            u++;
        }
        fprintf(f, "%.4g %s", b, units[u]);
    } else if (json_is_integer(v))
        fprintf(f, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        fprintf(f, "%.4g", json_real_value(v));
    else if (json_is_boolean(v))
        fputs(json_is_true(v) ? "yes" : "no", f);
    else if (json_is_array(v)) {
        size_t i;
        const json_t *e;
        json_array_foreach(v, i, e)
        {
            if (i) fputs(json_is_object(e) ? "<br>" : ", ", f);
            hb_report_value(f, key, e);
        }
    } else if (json_is_object(v)) {
        const char *k;
        const json_t *e;
        int first = 1;
        json_object_foreach((json_t *)v, k, e)
        {
            fputs(first ? "" : json_is_object(e) ? "<br>" : "; ", f);
            first = 0;
            fputs("<b>", f);
            hb_html_esc(f, k);
            fputs("</b> ", f);
            hb_report_value(f, k, e);
        }
    } else
        fputs("&#8211;", f);
}

void hb_report_cell(FILE *f, const json_t *v)
{
    hb_report_cell_key(f, NULL, v);
}

void hb_report_cell_key(FILE *f, const char *key, const json_t *v)
{
    fputs(json_is_object(v) || json_is_array(v) ? "<td class=\"kv\">" : "<td>", f);
    hb_report_value(f, key, v);
    fputs("</td>", f);
}

int hb_report_too_big(FILE *f, const char *what, const json_t *values, size_t rows, size_t cols)
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
    hb_html_esc(f, what);
    fprintf(f,
            ": %zu x %zu cells, more than the %d x %d this report draws; summary of its %zu "
            "numbers:",
            rows, cols, HB_REPORT_MAX_SIDE, HB_REPORT_MAX_SIDE, n);
    if (n) fprintf(f, " min %.4g, mean %.4g, max %.4g", lo, sum / (double)n, hi);
    fputs(" (the results file has every cell)</p>\n", f);
    return 1;
}

int hb_report_write(FILE *f, const struct hb_report_in *in, int nin)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<title>hopbench report</title><style>",
          f);
    fputs(hb_report_css, f);
    fputs("</style></head><body>\n<h1>hopbench report</h1>\n<p>Inputs:", f);
    for (int i = 0; i < nin; i++) {
        fputs(" <code>", f);
        hb_html_esc(f, in[i].res.path);
        fputs("</code>", f);
        if (in[i].res.skipped_line)
            fprintf(f, " <span class=\"warn\">(truncated line %d skipped)</span>",
                    in[i].res.skipped_line);
    }
    fputs("</p>\n", f);
    hb_report_machine(f, in, nin);
    hb_report_basic(f, in, nin);
    hb_report_matrices(f, in, nin, 0);
    hb_report_hops(f, in, nin);
    hb_report_verdicts(f, in, nin);
    hb_report_loaded(f, in, nin);
    hb_report_sweep(f, in, nin);
    hb_report_policy(f, in, nin);
    hb_report_matrices(f, in, nin, 1);
    hb_report_fleet(f, in, nin);
    fputs("</body></html>\n", f);
    return ferror(f) ? -EIO : 0;
}

static const char hb_report_usage[] = "usage: hopbench report RESULTS.jsonl... -o report.html";

/* Options first: the output is checked against every input before anything is read. */
static int hb_report_args(int argc, char **argv, const char **out, const char **inputs, int *nin)
{
    const struct hb_arg opts[] = {{"output", 'o', out}, {NULL, 0, NULL}};
    int rc = hb_args_parse(argc, argv, "report", hb_report_usage, opts, inputs, nin);
    if (rc) return rc;
    if (*nin == 0 || !*out) {
        hb_err_set("report needs %s; %s", *nin ? "-o FILE.html" : "at least one result file",
                   hb_report_usage);
        return -EINVAL;
    }
    return hb_outfile_check(*out, inputs);
}

int hb_report_main(int argc, char **argv)
{
    const char *out = NULL;
    int nin = 0, nread = 0;
    struct hb_report_in *in = calloc((size_t)argc, sizeof(*in));
    const char **inputs = calloc((size_t)argc + 1, sizeof(*inputs));
    int rc = in && inputs ? hb_report_args(argc, argv, &out, inputs, &nin) : -ENOMEM;
    /* Each file streamed: only what the sections draw stays (hb_report_data.h). */
    for (; rc == 0 && nread < nin; nread++)
        if ((rc = hb_report_read(NULL, inputs[nread], &in[nread])) != 0) break;
    if (rc == 0) {
        for (int i = 0; i < nin; i++)
            if (in[i].res.skipped_line)
                fprintf(stderr, "hopbench: warning: %s:%d: truncated last line skipped\n",
                        in[i].res.path, in[i].res.skipped_line);
        /* Written beside the target and renamed, so a failed run leaves no half report. */
        struct hb_outfile *of = NULL;
        FILE *f = NULL;
        rc = hb_outfile_open(out, false, &of, &f);
        if (rc == 0) {
            int wrc = hb_report_write(f, in, nin);
            int mrc = hb_outfile_mark(of);
            rc = hb_outfile_close(of, wrc == 0 && mrc == 0);
        }
    }
    if (rc) fprintf(stderr, "hopbench: %s\n", hb_err_msg());
    for (int i = 0; i < nread; i++)
        hb_report_in_free(&in[i]);
    free(in);
    free(inputs);
    return hb_err_exit_code(rc);
}
