/* How check's rows are written (hb_history_check.c makes them), as compare's are: a header
 * (table only), one row per change point, a summary (table and JSONL); intervals and
 * escaping by compare's helpers. */
#include "hb_history_layout.h"

#include "hb_escape.h"
#include "hb_figure_text.h"
#include "hb_jsonl_read.h"
#include "hb_units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static double get(const json_t *rec, const char *key)
{
    const json_t *v = json_object_get(rec, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static long long get_int(const json_t *rec, const char *key)
{
    return (long long)json_integer_value(json_object_get(rec, key));
}

/* "10.2 [10.1, 10.3]" of key and key_low, key_high. */
static void side(FILE *f, const json_t *rec, const char *key, const char *low, const char *high)
{
    char text[HB_FIGURE_LEN];
    fputs(hb_figure_text_interval_text(get(rec, key), get(rec, low), get(rec, high), text,
                                       sizeof(text)),
          f);
}

/* " [config changed: ...] [hopbench changed: ...]" of a row, the parts that apply. */
static void what_changed(FILE *f, const json_t *rec)
{
    const char *knobs = hb_jsonl_read_str(rec, "knobs", "");
    if (knobs[0]) {
        fputs(" [config changed: ", f);
        hb_escape_line(f, knobs);
        fputc(']', f);
    }
    if (json_is_true(json_object_get(rec, "version_changed"))) {
        fputs(" [hopbench changed: ", f);
        hb_escape_line(f, hb_jsonl_read_str(rec, "version_change", ""));
        fputc(']', f);
    }
}

static void table_history(FILE *f, json_t *rec)
{
    const char *type = hb_jsonl_read_str(rec, "type", "");
    if (strcmp(type, "history_header") == 0) {
        fputs("history check ", f);
        hb_escape_line(f, hb_jsonl_read_str(rec, "db", ""));
        fprintf(f,
                ": E-divisive means over each series' repeats, window %lld, min change %.1f%%, "
                "BH FDR %g over all series; change p adj=adjusted p; before -> after: median "
                "[interval]\n",
                get_int(rec, "window"), get(rec, "min_change_pct"), get(rec, "fdr"));
    } else if (strcmp(type, "change_point") == 0) {
        fprintf(f, "%-6s %-5s %+8.2f%%  p=%-8.3g adj=%-8.3g ",
                hb_jsonl_read_str(rec, "direction", ""), hb_jsonl_read_str(rec, "kind", ""),
                get(rec, "change_pct"), get(rec, "p"), get(rec, "p_adjusted"));
        hb_escape_line(f, hb_jsonl_read_str(rec, "host", ""));
        fputc(' ', f);
        hb_escape_line(f, hb_jsonl_read_str(rec, "series", ""));
        fputc(' ', f);
        hb_escape_line(f, hb_jsonl_read_str(rec, "metric", ""));
        fputs(" at ", f);
        hb_escape_line(f, hb_jsonl_read_str(rec, "at_time", ""));
        fputs(" (", f);
        hb_escape_line(f, hb_jsonl_read_str(rec, "at_commit", "?"));
        fputs("): ", f);
        side(f, rec, "before", "before_low", "before_high");
        fputs(" -> ", f);
        side(f, rec, "after", "after_low", "after_high");
        fputc(' ', f);
        hb_escape_line(f, hb_units_shown(hb_jsonl_read_str(rec, "unit", "")));
        what_changed(f, rec);
        if (json_is_true(json_object_get(rec, "recent"))) fputs(" RECENT", f);
        fputc('\n', f);
    } else if (strcmp(type, "config_change") == 0) {
        fputs("config ", f);
        hb_escape_line(f, hb_jsonl_read_str(rec, "host", ""));
        fputs(" at ", f);
        hb_escape_line(f, hb_jsonl_read_str(rec, "at_time", ""));
        fprintf(f, " (run %lld, ", get_int(rec, "at_run"));
        hb_escape_line(f, hb_jsonl_read_str(rec, "at_commit", "?"));
        fputs("):", f);
        what_changed(f, rec);
        fputc('\n', f);
    } else if (strcmp(type, "history_summary") == 0) {
        fprintf(f,
                "%lld change points (%lld worse in the last %lld runs of their series), %lld "
                "config changes, in %lld series of %lld hosts, %lld points; family %lld splits "
                "tested\n",
                get_int(rec, "change_points"), get_int(rec, "worse_recent"), get_int(rec, "recent"),
                get_int(rec, "config_changes"), get_int(rec, "series"), get_int(rec, "hosts"),
                get_int(rec, "points"), get_int(rec, "family"));
    }
}

static const char *const history_csv[] = {
    "host",   "series",          "metric",         "unit",       "at_time",   "at_commit",
    "at_run", "direction",       "kind",           "change_pct", "p",         "p_adjusted",
    "before", "before_low",      "before_high",    "after",      "after_low", "after_high",
    "knobs",  "version_changed", "version_change", "recent",     NULL};

static const struct hb_layout_type history_types[] = {{"history_header", NULL, true, false},
                                                      {"change_point", NULL, false, true},
                                                      {"config_change", NULL, false, true},
                                                      {"history_summary", NULL, false, false},
                                                      {NULL, NULL, false, false}};

const struct hb_layout hb_history_layout = {6,    history_csv,   true, history_types,
                                            NULL, table_history, NULL, true};
