/* The policy section's throughput and NUMA gains (hb_report_sections.h): each workload's
 * throughput under each placement as bars with the gain record's intervals, and local
 * placement's gain over each other placement as the gain record gives it, in words with its
 * verdict. Nothing is computed from sample times: samples of two placements hold different
 * numbers of sweeps, so only the records' own figures are comparable. */
#include "hb_report_kit.h"
#include "hb_report_sections.h"

#include "hb_figure_text.h"
#include "hb_units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A policy record of type (throughput or gain) of the plain study, not --intensity's. */
static bool policy_is(const json_t *r, const char *type)
{
    return hb_report_kit_is(r, type, "policy", NULL) &&
           !json_is_number(json_object_get(r, "intensity"));
}

/* Each kept throughput is a bar: the bars' budget bounds them. */
int hb_report_policy_keep(struct hb_report_in *in, const json_t *rec)
{
    if (!policy_is(rec, "throughput") && !policy_is(rec, "gain")) return 0;
    return hb_report_data_budget_take(&in->policy_recs, 1, HB_REPORT_MAX_BARS) ? 1 : 0;
}

/* The figures of throughput records: bandwidth (GB/s), latency (ns). */
#define HB_POLICY_UNITS 2

/* The figure a throughput record is drawn in: 0 bandwidth (GB/s), 1 latency (ns). */
static int policy_unit(const json_t *tp)
{
    return strcmp(hb_jsonl_read_str(tp, "unit", ""), "ns") == 0;
}

static bool policy_same(const json_t *a, const json_t *b, const char *key)
{
    return strcmp(hb_jsonl_read_str(a, key, ""), hb_jsonl_read_str(b, key, "")) == 0;
}

/* The gain record of a throughput record's host, mode and workload, or NULL. */
static const json_t *policy_gain_of(const json_t *records, const json_t *tp)
{
    size_t k;
    json_t *g;
    json_array_foreach(records, k, g) if (policy_is(g, "gain") && policy_same(g, tp, "host") &&
                                          policy_same(g, tp, "mode") &&
                                          policy_same(g, tp, "workload")) return g;
    return NULL;
}

/* The interval of a throughput record: its placement's speed_ci95 in the gain record, in the
 * throughput's unit (a chase's speed is loads/ns, its throughput ns a load: the ends
 * inverted). False when the record has none. */
static bool policy_interval(const json_t *gain, const json_t *tp, double *lo, double *hi)
{
    const json_t *ci =
        json_object_get(json_object_get(gain, "speed_ci95"), hb_jsonl_read_str(tp, "policy", ""));
    double a, b;
    if (!hb_report_words_ci(ci, &a, &b)) return false;
    const char *speed = hb_jsonl_read_str(gain, "speed_unit", ""),
               *unit = hb_jsonl_read_str(tp, "unit", "");
    if (strcmp(speed, unit) == 0) {
        *lo = a;
        *hi = b;
        return true;
    }
    if (strcmp(speed, "loads/ns") == 0 && strcmp(unit, "ns") == 0 && a > 0.0 && b > 0.0) {
        *lo = 1.0 / b;
        *hi = 1.0 / a;
        return true;
    }
    return false;
}

/* A throughput record drawn: its value is a number. */
static bool policy_drawn(const json_t *tp)
{
    return policy_is(tp, "throughput") && json_is_number(json_object_get(tp, "value"));
}

/* The bars of unit u: a group per workload (and host, when the run had several), a bar per
 * placement (and mode, when the run had both), coloured by placement; their names go to
 * names[] (room for max: a group's and a bar's each). Returns the bars made. */
static size_t policy_bars(const struct hb_report_in *in, int u, struct hb_bar *bars, size_t max,
                          char (*names)[2][96])
{
    bool hosts = json_array_size(json_object_get(in->res.run, "hosts")) > 1, modes = false;
    size_t n = 0, k;
    json_t *tp;
    const char *mode = NULL;
    json_array_foreach(in->res.records, k, tp) if (policy_drawn(tp))
    {
        modes |= mode && strcmp(mode, hb_jsonl_read_str(tp, "mode", "")) != 0;
        mode = hb_jsonl_read_str(tp, "mode", "");
    }
    json_array_foreach(in->res.records, k, tp)
    {
        if (n >= max || !policy_drawn(tp) || policy_unit(tp) != u) continue;
        const char *policy = hb_jsonl_read_str(tp, "policy", "?");
        snprintf(names[n][0], sizeof(names[n][0]), "%s%s%s", hb_jsonl_read_str(tp, "workload", "?"),
                 hosts ? ", " : "", hosts ? hb_jsonl_read_str(tp, "host", "") : "");
        snprintf(names[n][1], sizeof(names[n][1]), "%s%s%s", policy, modes ? ", " : "",
                 modes ? hb_jsonl_read_str(tp, "mode", "") : "");
        bars[n] = (struct hb_bar){
            names[n][0], names[n][1], policy, hb_jsonl_read_num(tp, "value", 0), NAN, NAN};
        policy_interval(policy_gain_of(in->res.records, tp), tp, &bars[n].lo, &bars[n].hi);
        n++;
    }
    return n;
}

/* A gain's verdict in words, from the record's gain_noise. */
static const char *policy_verdict(const char *noise)
{
    if (strcmp(noise, "clear") == 0) return "clear: beyond the noise";
    if (strcmp(noise, "inconclusive") == 0) return "inconclusive: within the noise";
    if (strcmp(noise, "unknown noise") == 0) return "unknown noise: one repeat";
    return noise;
}

/* The placements local is compared with: the gain record's gain_vs_ keys, in its order. */
static const char *const policy_others[] = {"interleave", "one-node", "remote", "os"};
#define HB_POLICY_OTHERS 4

/* Local placement against placement `other` as gain record g gives it: the gain (local's speed
 * over the other's) with its direction in words, its verdict and adjusted p. */
static void policy_gain_cell(FILE *f, const json_t *g, const char *other)
{
    char key[64];
    snprintf(key, sizeof(key), "gain_vs_%s", other);
    for (char *c = key; *c; c++)
        *c = *c == '-' ? '_' : *c;
    const json_t *v = json_object_get(g, key);
    if (!json_is_number(v)) {
        fputs("<td class=\"kv\">not measured</td>", f);
        return;
    }
    const char *speed = hb_jsonl_read_str(g, "speed_unit", "");
    fprintf(f, "<td class=\"kv gain\" data-key=\"%s\"><strong>%.2fx</strong> the %s (%s) of ", key,
            json_number_value(v), hb_units_quantity(speed), hb_units_shown(speed));
    hb_escape_html(f, other);
    fputs("; <span class=\"verdict\">", f);
    hb_escape_html(f,
                   policy_verdict(hb_jsonl_read_str(json_object_get(g, "gain_noise"), key, "?")));
    fputs("</span>", f);
    const json_t *p = json_object_get(json_object_get(g, "gain_p_adjusted"), key);
    if (json_is_number(p)) fprintf(f, " (p adjusted %.2g)", json_number_value(p));
    fputs("</td>", f);
}

/* The gains: a row per gain record, local's speed with its interval and its gain over each
 * other placement. */
static void policy_gains_table(FILE *f, const struct hb_report_in *in)
{
    size_t rows = 0, k;
    json_t *g;
    json_array_foreach(in->res.records, k, g) rows += policy_is(g, "gain");
    if (!rows) return;
    hb_report_kit_numbers_open(f, rows);
    fputs("<p class=\"figtitle\">NUMA gain of local placement (the gain records: local's speed "
          "over the other placement's; above 1 local is faster)</p>\n<table class=\"numbers "
          "gains\"><tr><th>workload</th><th>mode</th><th>host</th><th>local [lo, hi]</th>",
          f);
    for (int o = 0; o < HB_POLICY_OTHERS; o++)
        fprintf(f, "<th>local against %s</th>", policy_others[o]);
    fputs("</tr>\n", f);
    char text[HB_FIGURE_LEN];
    json_array_foreach(in->res.records, k, g)
    {
        if (!policy_is(g, "gain")) continue;
        fputs("<tr>", f);
        static const char *const keys[] = {"workload", "mode", "host"};
        for (int c = 0; c < 3; c++)
            hb_report_data_cell(f, json_object_get(g, keys[c]));
        double lo, hi;
        hb_report_words_ci(json_object_get(json_object_get(g, "speed_ci95"), "local"), &lo, &hi);
        fprintf(f, "<td class=\"figure\">%s %s</td>",
                hb_figure_text_interval_text(hb_jsonl_read_num(g, "local_speed", NAN), lo, hi, text,
                                             sizeof(text)),
                hb_units_shown(hb_jsonl_read_str(g, "speed_unit", "")));
        for (int o = 0; o < HB_POLICY_OTHERS; o++)
            policy_gain_cell(f, g, policy_others[o]);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
    hb_report_kit_numbers_close(f, rows);
}

/* The throughputs: a row per throughput record, its figure with its interval. */
static void policy_table(FILE *f, const struct hb_report_in *in, size_t rows)
{
    hb_report_kit_numbers_open(f, rows);
    fputs("<table class=\"numbers policy\"><tr><th>workload</th><th>mode</th><th>host</th>"
          "<th>placement</th><th>throughput [lo, hi]</th></tr>\n",
          f);
    size_t k;
    json_t *tp;
    json_array_foreach(in->res.records, k, tp)
    {
        if (!policy_is(tp, "throughput")) continue;
        fputs("<tr>", f);
        static const char *const keys[] = {"workload", "mode", "host", "policy"};
        for (int c = 0; c < 4; c++)
            hb_report_data_cell(f, json_object_get(tp, keys[c]));
        double lo = NAN, hi = NAN;
        policy_interval(policy_gain_of(in->res.records, tp), tp, &lo, &hi);
        char text[HB_FIGURE_LEN];
        const json_t *v = json_object_get(tp, "value");
        if (json_is_number(v))
            fprintf(f, "<td class=\"figure\">%s %s</td>",
                    hb_figure_text_interval_text(json_number_value(v), lo, hi, text, sizeof(text)),
                    hb_units_shown(hb_jsonl_read_str(tp, "unit", "")));
        else
            fprintf(f, "<td class=\"figure\">none (%s)</td>", hb_jsonl_read_str(tp, "status", "?"));
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
    hb_report_kit_numbers_close(f, rows);
}

void hb_report_policy_gains(FILE *f, const struct hb_report_in *in)
{
    static const char *const ylabels[HB_POLICY_UNITS] = {
        "GB/s (throughput: a rate run's tasks summed)", "ns per load (chase)"};
    static const char *const metrics[HB_POLICY_UNITS] = {"policy-bandwidth", "policy-latency"};
    size_t rows = 0, k;
    json_t *r;
    json_array_foreach(in->res.records, k, r) rows += policy_is(r, "throughput");
    if (!rows) return;
    hb_report_kit_left_out(f, 0, &in->policy_recs, "throughput and gain records", in->res.path,
                           "select((.type == \"throughput\" or .type == \"gain\") and .suite == "
                           "\"policy\" and (.intensity | type) != \"number\")");
    struct hb_bar *bars = malloc(rows * sizeof(*bars));
    char(*names)[2][96] = malloc(rows * sizeof(*names));
    for (int u = 0; bars && names && u < HB_POLICY_UNITS; u++) {
        size_t n = policy_bars(in, u, bars, rows, names);
        if (n) hb_report_kit_bar_figs(f, bars, n, ylabels[u], metrics[u]);
    }
    free(bars);
    free(names);
    hb_report_kit_whiskers(f, &in->cov);
    policy_gains_table(f, in);
    policy_table(f, in, rows);
}
