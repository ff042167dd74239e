/* Report section for the suites without a figure of their own (the default suite, bw, lat
 * and any new suite): bandwidth per kernel and thread count and latency per placement as
 * bars with their numbers. */
#include "hb_report_kit.h"
#include "hb_report_sections.h"

#include "hb_report_draw.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

/* Suites whose measurements another section draws (heatmaps, hop bars, curves). */
static int suite_has_section(const char *suite)
{
    static const char *const own[] = {"matrix", "hops", "run",  "loaded", "sweep",
                                      "policy", "c2c",  "peak", "comm",   NULL};
    for (int i = 0; own[i]; i++)
        if (strcmp(suite, own[i]) == 0) return 1;
    return 0;
}

static int basic_is(const json_t *m, const char *metric)
{
    return hb_report_kit_is(m, "measurement", NULL, NULL) &&
           !suite_has_section(hb_jsonl_read_str(m, "suite", "")) &&
           strcmp(hb_jsonl_read_str(m, "role", "foreground"), "background") != 0 &&
           strcmp(hb_jsonl_read_str(m, "metric", ""), metric) == 0;
}

/* "CPU node C -> memory node M" (or the policy when the memory is not one node): one colour
 * per placement. */
static void basic_series(char *dst, size_t len, const json_t *m)
{
    const json_t *mem = json_object_get(m, "mem_node");
    if (json_is_integer(mem))
        snprintf(dst, len, "CPU node %d \xe2\x86\x92 memory node %d",
                 hb_report_kit_int(m, "cpu_node", -1), (int)json_integer_value(mem));
    else
        snprintf(dst, len, "CPU node %d \xe2\x86\x92 memory by policy %s",
                 hb_report_kit_int(m, "cpu_node", -1), hb_jsonl_read_str(m, "policy", "?"));
}

/* The numbers table's columns; NULL is the figure's value. */
static const char *const basic_keys[] = {"suite",    "experiment", "label",  "kernel", "threads",
                                         "cpu_node", "mem_node",   "policy", "bytes",  "pages",
                                         "level",    NULL,         "ci95",   "noisy",  "status"};
#define HB_BASIC_COLS 15

/* The jq filter of a figure's records (as basic_is). */
#define HB_BASIC_SELECT(metric)                                                                    \
    "select(.type == \"measurement\" and .metric == \"" metric "\" and .role != "                  \
    "\"background\" and (.suite | IN(\"matrix\", \"hops\", \"run\", \"loaded\", \"sweep\", "       \
    "\"policy\", \"c2c\", \"peak\", \"comm\") | not))"

/* The figures this section draws: bandwidth grouped by thread count, latency by CPU node. */
static const struct hb_basic_fig {
    const char *metric, *value_key, *group_key, *title, *ylabel, *select;
} basic_figs[2] = {
    {"bandwidth", "value", "threads", "bandwidth per kernel and thread count",
     "GB/s (median of repeats' best samples)", HB_BASIC_SELECT("bandwidth")},
    {"latency", "value", "cpu_node", "idle latency", "ns per load (median of repeats' medians)",
     HB_BASIC_SELECT("latency")},
};

int hb_report_basic_take(struct hb_report_in *in, const json_t *m)
{
    for (int fi = 0; fi < 2; fi++) {
        const struct hb_basic_fig *fig = &basic_figs[fi];
        if (!basic_is(m, fig->metric)) continue;
        int v = hb_report_kit_int(m, fig->group_key, 0);
        char group[32], series[64];
        if (fi == 0)
            snprintf(group, sizeof(group), "%d thread%s", v, v == 1 ? "" : "s");
        else
            snprintf(group, sizeof(group), "CPU node %d", v);
        basic_series(series, sizeof(series), m);
        const char *keys[HB_BASIC_COLS];
        for (int c = 0; c < HB_BASIC_COLS; c++)
            keys[c] = basic_keys[c] ? basic_keys[c] : fig->value_key;
        struct hb_rbar bar = {.key = v,
                              .fig = hb_report_data_fig(m, hb_jsonl_read_headline_key(m))};
        int rc = hb_report_data_intern(in, group, &bar.group);
        if (rc == 0)
            rc = hb_report_data_intern(in, hb_jsonl_read_str(m, fi == 0 ? "kernel" : "label", "?"),
                                       &bar.label);
        if (rc == 0) rc = hb_report_data_intern(in, series, &bar.series);
        if (rc == 0 &&
            hb_report_words_label_add(&in->labels[0], hb_jsonl_read_str(m, "label", "")) < 0)
            rc = -ENOMEM;
        if (rc == 0) rc = hb_report_data_add_row(in, m, keys, HB_BASIC_COLS, true, &bar.row);
        if (rc == 0) rc = hb_report_data_add_bar(&in->basic[fi], &bar);
        if (rc) return rc;
    }
    return 0;
}

/* One figure with its numbers: groups in ascending order of their key, record order inside
 * a group; its y scale its own. */
static void basic_figure(FILE *f, const struct hb_report_in *in, int fi)
{
    const struct hb_basic_fig *fig = &basic_figs[fi];
    const char *heads[HB_BASIC_COLS];
    for (int c = 0; c < HB_BASIC_COLS; c++)
        heads[c] = basic_keys[c] ? basic_keys[c] : fig->value_key;
    const struct hb_bar_fig bf = {fig->title, fig->ylabel,   fig->metric,
                                  heads,      HB_BASIC_COLS, fig->select};
    hb_report_kit_bar_panel(f, in, &in->basic[fi], &bf);
}

void hb_report_basic(FILE *f, const struct hb_report_in *in, int nin)
{
    struct hb_strtab labels = {0};
    bool any = false;
    for (int i = 0; i < nin; i++) {
        for (int fi = 0; fi < 2; fi++)
            any |= in[i].basic[fi].n > 0;
        for (uint32_t l = 0; l < in[i].labels[0].n; l++)
            hb_report_words_label_add(&labels, hb_strtab_get(&in[i].labels[0], l));
    }
    if (any) {
        /* The labels in words first, beside the bars and rows that use them. */
        fputs("<section id=\"basic\"><h2>Bandwidth and latency</h2>\n", f);
        hb_report_words_label_key(f, &labels);
        fputs("<div class=\"row\">\n", f);
        for (int i = 0; i < nin; i++) {
            basic_figure(f, &in[i], 0);
            basic_figure(f, &in[i], 1);
        }
        fputs("</div>\n</section>\n", f);
    }
    hb_strtab_free(&labels);
}
