/* `hopbench report` (hb_report.h): its arguments, the files read as streams, the sections in
 * order into one HTML file. */
#include "hb_report.h"

#include "hb_args.h"
#include "hb_error.h"
#include "hb_outfile.h"
#include "hb_report_draw.h"
#include "hb_report_fleet.h"
#include "hb_report_sections.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>

static const char report_css[] =
    "body{font:14px sans-serif;margin:20px;color:#222}"
    "h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid #ccc;margin-top:32px}"
    "h3{font-size:15px}.row{display:flex;flex-wrap:wrap;gap:24px}"
    ".panel{border:1px solid #ddd;padding:8px}"
    "table{border-collapse:collapse;margin:6px 0 14px}"
    "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
    "th{background:#f3f3f3}tr.outlier td{background:#fdd;font-weight:bold}"
    "td.differs{background:#fdd;font-weight:bold}"
    "td.holds{color:#070}td.fails{color:#b00}"
    ".axis{font-size:12px}.tick{font-size:11px}.val{font-size:11px}.hop{font-size:10px;fill:#444}."
    "group{font-size:12px;"
    "font-weight:bold}.ax{stroke:#444}.frame{fill:none;stroke:#888}"
    ".mark{stroke:#888;stroke-dasharray:4 3}.marklabel{font-size:10px;fill:#555}"
    ".warn{color:#b00}.note{background:#f6f6e8;padding:6px;max-width:60em}"
    "td.kv{text-align:left}"
    "dl.labelkey{display:grid;grid-template-columns:repeat(3,max-content 1fr);gap:2px 10px;"
    "font-size:13px}dl.labelkey dt{font-family:monospace}dl.labelkey dd{margin:0}"
    ".keyhead{font-weight:bold;margin-bottom:2px}.figtitle{font-weight:bold;margin:10px 0 0}"
    "figure{margin:0}figcaption{max-width:46em;font-size:13px;color:#444}"
    "strong.holds{color:#070}strong.fails{color:#b00}.verdict{margin-bottom:18px}"
    "p.files{font-family:monospace}"
    "nav.toc ol{columns:2;max-width:60em;margin:4px 0}.cut text{fill:#b00}"
    "td.worse{color:#b00;font-weight:bold}td.better{color:#070;font-weight:bold}"
    "td.unclear,td.undetermined{color:#a60}";

/* Every measurement folded into in->fleet (made on the first); when the file becomes a
 * fleet, what the per-record sections kept is freed. 0, or -ENOMEM. */
static int report_fleet_take(struct hb_report_in *in, const json_t *rec)
{
    if (!in->fleet && !(in->fleet = calloc(1, sizeof(*in->fleet)))) return -ENOMEM;
    bool was = in->fleet->on;
    int rc = hb_report_fleet_take(in->fleet, rec);
    if (rc == 0 && in->fleet->on && !was) {
        hb_report_data_records_free(in);
        in->res.measurement_keys = hb_report_fleet_keys; /* the rest only fold */
    }
    return rc;
}

/* After the file is read: a fleet's summaries (0, or -ENOMEM), or else its folds freed. */
static int report_fleet_done(struct hb_report_in *in)
{
    if (in->fleet && in->fleet->on) return hb_report_fleet_stats_finish(in->fleet);
    if (in->fleet) hb_report_fleet_free(in->fleet);
    free(in->fleet);
    in->fleet = NULL;
    return 0;
}

/* The metrics of measurements the sections draw: any other is counted and said, not dropped
 * silently. */
static bool report_draws(const char *metric)
{
    static const char *const drawn[] = {"latency", "bandwidth", "bibandwidth"};
    for (size_t i = 0; i < sizeof(drawn) / sizeof(drawn[0]); i++)
        if (strcmp(metric, drawn[i]) == 0) return true;
    return false;
}

/* The first figure of rec that no axis can hold (its logarithm or its nice steps leave the
 * doubles: beyond 1e30 or, not 0, within 1e-30 of it), or NAN when every one can be drawn. */
static double report_undrawable(const json_t *rec)
{
    static const char *const keys[] = {"value", "lat_ns_median", "bw_GBps_best", "bw_GBps_median"};
    const json_t *ci = json_object_get(rec, "ci95");
    double v[6];
    int n = 0;
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        if (json_is_number(json_object_get(rec, keys[i])))
            v[n++] = json_number_value(json_object_get(rec, keys[i]));
    for (size_t i = 0; i < 2 && json_is_array(ci); i++)
        if (json_is_number(json_array_get(ci, i)))
            v[n++] = json_number_value(json_array_get(ci, i));
    for (int i = 0; i < n; i++)
        if (!(fabs(v[i]) < 1e30) || (v[i] != 0.0 && fabs(v[i]) < 1e-30)) return v[i];
    return NAN;
}

/* hb_results_take_fn: each kind of record to the sections that draw it. */
static int report_take(void *ctx, const json_t *rec)
{
    struct hb_report_in *in = ctx;
    const char *type = hb_jsonl_read_str(rec, "type", "");
    bool measurement = strcmp(type, "measurement") == 0;
    /* A record without a metric (an older file) is drawn as before, by its other keys. */
    const json_t *metric = json_object_get(rec, "metric");
    if (measurement && metric &&
        !report_draws(json_string_value(metric) ? json_string_value(metric) : "")) {
        if (!in->unknown++) {
            in->unknown_line = in->res.line;
            snprintf(in->unknown_metric, sizeof(in->unknown_metric), "%s",
                     hb_jsonl_read_str(rec, "metric", "(none)"));
        }
        return 0;
    }
    double bad = measurement ? report_undrawable(rec) : NAN;
    if (!isnan(bad)) {
        if (!in->undrawable++) {
            in->undrawable_line = in->res.line;
            in->undrawable_value = bad;
        }
        return 0;
    }
    if (measurement || strcmp(type, "throughput") == 0) {
        if (measurement) hb_coverage_add_rec(&in->cov, rec);
        if (measurement && hb_report_summary_take(in, rec)) return -ENOMEM;
        /* A fleet's measurements are only folded (hb_report_fleet.h). */
        int rc = measurement ? report_fleet_take(in, rec) : 0;
        if (rc || (in->fleet && in->fleet->on)) return rc;
        rc = hb_report_basic_take(in, rec);
        if (rc == 0) rc = hb_report_curves_hops_take(in, rec);
        if (rc == 0) rc = hb_report_peak_take(in, rec);
        if (rc == 0) rc = hb_report_verdicts_evidence_take(in, rec);
        if (rc == 0) rc = hb_report_curves_take(in, rec);
        if (rc == 0) rc = hb_report_comm_take(in, rec);
        if (rc == 0) rc = hb_report_coll_take(in, rec);
        if (rc == 0) rc = hb_report_mlp_take(in, rec);
        return rc ? rc : hb_report_policy_keep(in, rec);
    }
    /* compare's records are no run's: the file is refused once read (hb_report_read). */
    if (strcmp(type, "comparison") == 0 || strcmp(type, "compare_summary") == 0 ||
        strcmp(type, "only") == 0) {
        if (!in->comparisons++) in->comparison_line = in->res.line;
        return 0;
    }
    /* The run's counts, for the summary: one a file. */
    if (strcmp(type, "summary") == 0) return 1;
    /* A note is drawn once per text: its text is kept, in order of first appearance. */
    if (strcmp(type, "note") == 0) {
        if (!json_object_get(rec, "text")) return 0;
        const char *text = hb_jsonl_read_str(rec, "text", "");
        return hb_strtab_add(&in->notes, text, strlen(text)) == HB_STRTAB_NONE ? -ENOMEM : 0;
    }
    /* The derived records the sections read as they are, the first that their sections
     * draw (a few per run); the others are counted. */
    if (strcmp(type, "matrix") == 0)
        return hb_report_data_budget_take(
            &in->matrices[strcmp(hb_jsonl_read_str(rec, "metric", ""), "c2c") == 0],
            hb_report_matrices_weight(rec), HB_REPORT_MAX_CELLS);
    if (strcmp(type, "comm_matrix") == 0)
        return hb_report_data_budget_take(&in->comm_matrices, hb_report_matrices_weight(rec),
                                          HB_REPORT_MAX_CELLS);
    if (strcmp(type, "coll_placement") == 0)
        return hb_report_data_budget_take(&in->coll_places, 1, HB_REPORT_MAX_ROWS);
    if (strcmp(type, "fleet") == 0)
        return hb_report_data_budget_take(&in->fleets, hb_report_matrices_fleet_weight(rec),
                                          HB_REPORT_MAX_CELLS);
    if (strncmp(type, "c2c_", 4) == 0)
        return hb_report_data_budget_take(&in->c2c_studies, 1, HB_REPORT_MAX_PANELS);
    if (strcmp(type, "peak") == 0)
        return hb_report_data_budget_take(&in->peaks, 1, HB_REPORT_MAX_ROWS);
    if (strcmp(type, "verdict") == 0)
        return hb_report_data_budget_take(&in->verdicts, 1, HB_REPORT_MAX_PANELS);
    if (strcmp(type, "gain") == 0) return hb_report_policy_keep(in, rec);
    /* Knees are marks on the loaded and intensity curves; one never reached marks nothing. */
    if (strcmp(type, "knee") == 0 && json_is_number(json_object_get(rec, "value"))) {
        static const char *const curves[] = {"loaded", "intensity"};
        for (int c = 0; c < 2; c++)
            if (strcmp(hb_jsonl_read_str(rec, "curve", ""), curves[c]) == 0)
                return hb_report_data_budget_take(&in->knees[c], 1, HB_REPORT_MAX_MARKS);
    }
    return 0;
}

int hb_report_read(FILE *f, const char *path, struct hb_report_in *in)
{
    memset(in, 0, sizeof(*in));
    int rc = f ? hb_jsonl_load_readf(f, path, report_take, in, &in->res)
               : hb_jsonl_load_read_take(path, report_take, in, &in->res);
    if (rc == 0) rc = report_fleet_done(in);
    if (rc == 0 && in->comparisons) {
        hb_error_set("%s:%d: this is compare's output (a comparison of two runs), not a run's "
                     "results: report draws the JSON Lines of a run (hopbench SUITE --format "
                     "jsonl -o FILE)",
                     in->res.path, in->comparison_line);
        rc = -EINVAL;
    }
    if (rc == 0 && in->unknown) {
        fprintf(stderr,
                "hopbench: warning: %s:%d: %zu measurement record(s) of a metric the "
                "report does not draw (the first: '",
                in->res.path, in->unknown_line, in->unknown);
        hb_escape_line(stderr, in->unknown_metric);
        fputs("'; it draws latency, bandwidth and bibandwidth): left out\n", stderr);
    }
    if (rc == 0 && in->undrawable)
        fprintf(stderr,
                "hopbench: warning: %s:%d: %zu measurement record(s) with a figure no chart can "
                "hold (the first: %g; drawn are figures from 1e-30 to 1e30): left out\n",
                in->res.path, in->undrawable_line, in->undrawable, in->undrawable_value);
    if (rc) hb_report_data_in_free(in);
    return rc;
}

/* A page's beginning up to its heading: the doctype, the style, <h1>title</h1>. */
static void report_page_head(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>", f);
    hb_escape_html(f, title);
    fputs("</title><style>", f);
    fputs(report_css, f);
    fputs("</style></head><body>\n<h1>", f);
    hb_escape_html(f, title);
    fputs("</h1>\n", f);
}

FILE *hb_report_page_open(struct hb_report_page *pg, const char *title)
{
    /* The page made in memory first: the contents at its top list the sections written. */
    *pg = (struct hb_report_page){NULL, 0, open_memstream(&pg->text, &pg->len)};
    if (pg->f) report_page_head(pg->f, title);
    return pg->f;
}

int hb_report_page_close(struct hb_report_page *pg, FILE *out, int rc)
{
    fputs("</body></html>\n", pg->f);
    if (fclose(pg->f) && rc == 0) rc = -ENOMEM;
    if (rc == 0) hb_report_toc_write(out, pg->text, pg->len);
    free(pg->text);
    return rc ? rc : ferror(out) ? -EIO : 0;
}

int hb_report_write(FILE *out, const struct hb_report_in *in, int nin)
{
    struct hb_report_page pg;
    FILE *f = hb_report_page_open(&pg, "hopbench report");
    if (!f) return -ENOMEM;
    fputs("<p>Inputs:", f);
    for (int i = 0; i < nin; i++) {
        fputs(" <code>", f);
        hb_escape_html(f, in[i].res.path);
        fputs("</code>", f);
        if (in[i].res.skipped_line)
            fprintf(f, " <span class=\"warn\">(truncated line %d skipped)</span>",
                    in[i].res.skipped_line);
    }
    fputs("</p>\n", f);
    hb_report_summary(f, in, nin);
    hb_report_compare(f, in, nin);
    hb_report_machine(f, in, nin);
    hb_report_fleet_html_summary(f, in, nin);
    hb_report_basic(f, in, nin);
    hb_report_peak(f, in, nin);
    hb_report_matrices(f, in, nin, 0);
    hb_report_curves_hops(f, in, nin);
    hb_report_verdicts(f, in, nin);
    hb_report_curves_loaded(f, in, nin);
    hb_report_mlp(f, in, nin);
    hb_report_sweep(f, in, nin);
    hb_report_curves_policy(f, in, nin);
    hb_report_matrices(f, in, nin, 1);
    hb_report_comm(f, in, nin);
    hb_report_coll(f, in, nin);
    hb_report_matrices_fleet(f, in, nin);
    return hb_report_page_close(&pg, out, 0);
}

const char hb_report_operands[] = "RESULTS.jsonl... -o FILE | --history DB -o FILE";
const struct hb_opt_doc hb_report_opts[] = {
    {"output", 'o', 'o', "FILE", HB_COMPLETE_FILE, NULL,
     "where the report goes (needed): NAME.txt the records as the table a run prints, NAME.csv "
     "their CSV, any other name the HTML report"},
    {"history", 0, 0, "DB", HB_COMPLETE_FILE, NULL,
     "draw the run history kept in DB (an SQLite file or a postgresql:// URL, as history --db) "
     "instead of result files: per series a time plot of its runs with their intervals, its "
     "change points (as history check finds them) and configuration changes marked"},
    {"host", 0, 0, "H", HB_COMPLETE_NONE, NULL, "with --history: only the series of host H"},
    {"match", 0, 0, "PATTERN", HB_COMPLETE_NONE, NULL,
     "with --history: only the series whose \"identity metric\" matches the shell glob PATTERN"},
    {"since", 0, 0, "DATE", HB_COMPLETE_NONE, NULL,
     "with --history: only runs from DATE on (2026-11-01 or 2026-11-01T06:00:00Z, UTC)"},
    {"cell", 0, 0, "PATTERN", HB_COMPLETE_NONE, NULL,
     "with --history: for the series whose \"identity metric\" matches the glob PATTERN, the "
     "fleet's heatmap of host x night and the hosts that changed most"},
    {NULL, 0, 0, NULL, HB_COMPLETE_NONE, NULL, NULL},
};

/* -o NAME.txt: the table a run prints; NAME.csv: its CSV (anything else: the HTML report). */
static bool report_table_name(const char *out, enum hb_format *f)
{
    size_t n = strlen(out);
    if (n > 4 && strcasecmp(out + n - 4, ".txt") == 0) return (*f = HB_FORMAT_TABLE), true;
    return hb_format_of_name(out, f) && *f == HB_FORMAT_CSV;
}

/* Options first: the output is checked against every input before anything is read. */
static int report_args(int argc, char **argv, const char **out, const char **inputs, int *nin)
{
    const struct hb_arg places[] = {{"output", out, NULL, NULL}, {NULL, NULL, NULL, NULL}};
    int rc = hb_args_parse(argc, argv, hb_report_operands, hb_report_opts, places, inputs, nin);
    if (rc) return rc;
    if (*nin == 0 || !*out) {
        hb_error_set("report needs %s; %s", *nin ? "-o FILE.html" : "at least one result file",
                     hb_args_usage("report", hb_report_operands));
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
    int rc = in && inputs ? report_args(argc, argv, &out, inputs, &nin) : -ENOMEM;
    enum hb_format tf = HB_FORMAT_TABLE;
    if (rc == 0 && report_table_name(out, &tf)) {
        rc = hb_report_text(tf, out, inputs, nin);
        if (rc) hb_error_print(rc);
        free(in);
        free(inputs);
        return hb_error_exit_code(rc);
    }
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
    if (rc) hb_error_print(rc);
    for (int i = 0; i < nread; i++)
        hb_report_data_in_free(&in[i]);
    free(in);
    free(inputs);
    return hb_error_exit_code(rc);
}
