/* How compare's rows are written (hb_compare.c makes them): a header (table and CSV only),
 * one row per compared pair, one per record found in one file only, a summary (table and
 * JSONL only). Numbers keep their own digits: 6 significant in JSON and CSV, change_pct
 * fixed point. */
#include "hb_compare_layout.h"

#include "hb_config.h"
#include "hb_escape.h"
#include "hb_figure_text.h"
#include "hb_json_text.h"
#include "hb_jsonl_read.h"
#include "hb_units.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static void cmp_csv_real(FILE *f, double v)
{
    fprintf(f, "%.6g", v);
}

/* The change in percent: fixed point while short, else six significant digits. */
static void cmp_csv_change(FILE *f, double v)
{
    fprintf(f, fabs(v) < 1e7 ? "%.4f" : "%.6g", v);
}

/* JSON: the change rounded to 4 decimals (while that stays exact enough), 6 digits. */
static void cmp_json_change(FILE *f, double v)
{
    char text[HB_JSON_REAL_MAX];
    fwrite(text, 1, hb_json_text_real_text(text, fabs(v) < 1e12 ? round(v * 1e4) / 1e4 : v, 6), f);
}

static void cmp_json_g(FILE *f, double v)
{
    fprintf(f, "%g", v);
}

/* A real number of rec, NAN when it is null or absent. */
static double cmp_get(const json_t *rec, const char *key)
{
    const json_t *v = json_object_get(rec, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A number, or what a statistic that cannot be computed prints as (a macro: the format
 * stays a literal the compiler checks). */
#define hb_cmp_num(f, fmt, v, none) (isfinite(v) ? (void)fprintf(f, fmt, v) : (void)fputs(none, f))

static long long cmp_int(const json_t *rec, const char *key)
{
    return (long long)json_integer_value(json_object_get(rec, key));
}

/* One side of a pair for people: value [low, high] xN. */
static void table_cmp_side(FILE *f, const json_t *rec, const char *pre)
{
    char key[32], text[HB_FIGURE_LEN];
    snprintf(key, sizeof(key), "%s", pre);
    double v = cmp_get(rec, key);
    snprintf(key, sizeof(key), "%s_low", pre);
    double lo = cmp_get(rec, key);
    snprintf(key, sizeof(key), "%s_high", pre);
    fputs(hb_figure_text_interval_text(v, lo, cmp_get(rec, key), text, sizeof(text)), f);
    snprintf(key, sizeof(key), "%s_repeats", pre);
    fprintf(f, " x%lld", cmp_int(rec, key));
}

/* The knobs that may explain a verdict: " [config differs: thp_enabled, governor]". */
static void table_cmp_marks(FILE *f, const json_t *marks)
{
    size_t i;
    const json_t *k;
    json_array_foreach(marks, i, k)
    {
        fputs(i ? ", " : " [config differs: ", f);
        hb_escape_line(f, json_string_value(k) ? json_string_value(k) : "?");
    }
    if (json_array_size(marks)) fputc(']', f);
}

/* "config differs: thp_enabled madvise -> never" */
static void table_cmp_config(FILE *f, const json_t *rec)
{
    char *base = hb_config_diff_words(json_object_get(rec, "base"));
    char *now = hb_config_diff_words(json_object_get(rec, "new"));
    fputs("config differs: ", f);
    if (json_is_string(json_object_get(rec, "host"))) {
        fputs("host ", f);
        hb_escape_line(f, hb_jsonl_read_str(rec, "host", ""));
        fputs(": ", f);
    }
    hb_escape_line(f, hb_jsonl_read_str(rec, "key", ""));
    fputc(' ', f);
    hb_escape_line(f, base ? base : "?");
    fputs(" -> ", f);
    hb_escape_line(f, now ? now : "?");
    fputc('\n', f);
    free(base);
    free(now);
}

static void table_compare(FILE *f, json_t *rec)
{
    const char *type = hb_jsonl_read_str(rec, "type", "");
    if (strcmp(type, "compare_header") == 0) {
        fputs("compare ", f);
        hb_escape_line(f, hb_jsonl_read_str(rec, "base_path", ""));
        fputs(" -> ", f);
        hb_escape_line(f, hb_jsonl_read_str(rec, "new_path", ""));
        fprintf(f,
                ": threshold %.1f%%, Mann-Whitney U over repeats, %s at %g over the rows%s; "
                "change [its interval] p adj=adjusted p; value [",
                cmp_get(rec, "threshold_pct"), hb_jsonl_read_str(rec, "rule", ""),
                cmp_get(rec, "level"),
                json_is_true(json_object_get(rec, "expect_same")) ? ", expecting the same" : "");
        hb_escape_line(f, hb_jsonl_read_str(rec, "intervals", ""));
        fputs("] xrepeats\n", f);
    } else if (strcmp(type, "comparison") == 0) {
        double change = cmp_get(rec, "change_pct");
        fprintf(f, "%-12s ", hb_jsonl_read_str(rec, "verdict", ""));
        if (!isfinite(change))
            fputs("      n/a", f);
        else
            fprintf(f, fabs(change) < 1e7 ? "%+8.2f%%" : "%+8.3g%%", change);
        double lo = cmp_get(rec, "change_low"), hi = cmp_get(rec, "change_high");
        if (isfinite(lo)) fprintf(f, " [%+.1f, %+.1f]", lo, hi);
        hb_cmp_num(f, "  p=%-8.3g", cmp_get(rec, "p"), "  p=n/a     ");
        hb_cmp_num(f, " adj=%-8.3g ", cmp_get(rec, "p_adjusted"), " adj=n/a      ");
        hb_escape_line(f, hb_jsonl_read_str(rec, "record", ""));
        fputs(": ", f);
        table_cmp_side(f, rec, "base");
        fputs(" -> ", f);
        table_cmp_side(f, rec, "new");
        fputc(' ', f);
        hb_escape_line(f, hb_units_shown(hb_jsonl_read_str(rec, "unit", "")));
        if (json_is_string(json_object_get(rec, "reason"))) {
            fputs(" (", f);
            hb_escape_line(f, hb_jsonl_read_str(rec, "reason", ""));
            fputc(')', f);
        }
        table_cmp_marks(f, json_object_get(rec, "config_may_explain"));
        fputc('\n', f);
    } else if (strcmp(type, "config_diff") == 0) {
        table_cmp_config(f, rec);
    } else if (strcmp(type, "error") == 0) {
        fprintf(f, "error %s: ", hb_jsonl_read_str(rec, "kind", ""));
        hb_escape_line(f, hb_jsonl_read_str(rec, "where", ""));
        fputs(": ", f);
        hb_escape_line(f, hb_jsonl_read_str(rec, "record", ""));
        fputs(": ", f);
        hb_escape_line(f, hb_jsonl_read_str(rec, "reason", ""));
        fputc('\n', f);
    } else if (strcmp(type, "note") == 0) {
        const char *about = hb_jsonl_read_str(rec, "about", "");
        fputs(strcmp(about, "machines") == 0   ? "note: different machines or builds: "
              : strcmp(about, "unstable") == 0 ? "warning: "
                                               : "note: ",
              f);
        hb_escape_line(f, hb_jsonl_read_str(rec, "text", ""));
        fputc('\n', f);
    } else if (strcmp(type, "only") == 0) {
        bool base = strcmp(hb_jsonl_read_str(rec, "side", ""), "base") == 0;
        fputs(base ? "MISSING from new (only in base): " : "only in new: ", f);
        hb_escape_line(f, hb_jsonl_read_str(rec, "record", ""));
        fputc('\n', f);
    } else if (strcmp(type, "compare_summary") == 0) {
        fprintf(f,
                "%lld worse, %lld better, %lld same, %lld unclear, %lld undetermined, %lld only "
                "in base, %lld only in new, %lld errors\n",
                cmp_int(rec, "worse"), cmp_int(rec, "better"), cmp_int(rec, "same"),
                cmp_int(rec, "unclear"), cmp_int(rec, "undetermined"), cmp_int(rec, "only_base"),
                cmp_int(rec, "only_new"), cmp_int(rec, "errors"));
        double level = cmp_get(rec, "level");
        fprintf(f,
                "family: %lld rows judged together (%s at %g); tested each at %g alone, they "
                "would raise about %.2g false flags when nothing changed\n",
                cmp_int(rec, "family"), hb_jsonl_read_str(rec, "rule", ""), level, level,
                cmp_get(rec, "expected_false_uncorrected"));
        hb_escape_line(f, hb_jsonl_read_str(rec, "noise_floor", ""));
        fputc('\n', f);
    }
}

static const char *const cmp_csv[] = {"kind",
                                      "record",
                                      "metric",
                                      "unit",
                                      "base",
                                      "base_low",
                                      "base_high",
                                      "base_coverage",
                                      "base_repeats",
                                      "new",
                                      "new_low",
                                      "new_high",
                                      "new_coverage",
                                      "new_repeats",
                                      "change_pct",
                                      "change_low",
                                      "change_high",
                                      "change_coverage",
                                      "p",
                                      "p_adjusted",
                                      "spread_pct",
                                      "detectable_pct",
                                      "repeats_needed",
                                      "verdict",
                                      "reason",
                                      "where",
                                      NULL};
static const char *const cmp_json_row[] = {"type",
                                           "record",
                                           "metric",
                                           "unit",
                                           "base",
                                           "base_ci95",
                                           "base_coverage",
                                           "base_repeats",
                                           "new",
                                           "new_ci95",
                                           "new_coverage",
                                           "new_repeats",
                                           "change_pct",
                                           "change_ci95",
                                           "change_coverage",
                                           "p",
                                           "p_adjusted",
                                           "spread_pct",
                                           "detectable_pct",
                                           "repeats_needed",
                                           "verdict",
                                           "reason",
                                           "config_may_explain",
                                           NULL};
static const char *const cmp_json_error[] = {"type", "kind", "where", "record", "reason", NULL};
static const char *const cmp_json_only[] = {"type", "side", "record", NULL};
/* kind and record are CSV's: JSON Lines names the knob once (a side without it: no key). */
static const char *const cmp_json_config[] = {"type", "key", "base", "new", "host", NULL};
static const char *const cmp_json_summary[] = {"type",        "worse",
                                               "better",      "same",
                                               "unclear",     "undetermined",
                                               "only_base",   "only_new",
                                               "errors",      "threshold_pct",
                                               "rule",        "level",
                                               "family",      "expected_false_uncorrected",
                                               "spread_pct",  "detectable_pct",
                                               "repeats",     "repeats_for_threshold",
                                               "noise_floor", NULL};

static const struct hb_layout_type cmp_types[] = {
    {"compare_header", NULL, true, false},
    {"comparison", cmp_json_row, false, true},
    {"error", cmp_json_error, false, true},
    {"only", cmp_json_only, false, true},
    {"config_diff", cmp_json_config, false, true},
    {"compare_summary", cmp_json_summary, false, false},
    {NULL, NULL, false, false}};

static const struct hb_layout_real cmp_reals[] = {{"base", cmp_csv_real, NULL},
                                                  {"new", cmp_csv_real, NULL},
                                                  {"base_low", cmp_csv_real, NULL},
                                                  {"base_high", cmp_csv_real, NULL},
                                                  {"new_low", cmp_csv_real, NULL},
                                                  {"new_high", cmp_csv_real, NULL},
                                                  {"p", cmp_csv_real, NULL},
                                                  {"change_pct", cmp_csv_change, cmp_json_change},
                                                  {"p_adjusted", cmp_csv_real, NULL},
                                                  {"base_coverage", cmp_csv_real, NULL},
                                                  {"new_coverage", cmp_csv_real, NULL},
                                                  {"change_low", cmp_csv_change, NULL},
                                                  {"change_high", cmp_csv_change, NULL},
                                                  {"change_coverage", cmp_csv_real, NULL},
                                                  {"spread_pct", cmp_csv_real, NULL},
                                                  {"detectable_pct", cmp_csv_real, NULL},
                                                  {"level", NULL, cmp_json_g},
                                                  {"threshold_pct", NULL, cmp_json_g},
                                                  {NULL, NULL, NULL}};

const struct hb_layout hb_compare_layout = {6,         cmp_csv,       true, cmp_types,
                                            cmp_reals, table_compare, NULL, true};
