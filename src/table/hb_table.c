/* The table format: records printed for people. */
#include "hb_table.h"

#include "hb_bounds.h"
#include "hb_config.h"
#include "hb_coverage.h"
#include "hb_escape.h"
#include "hb_figure_text.h"
#include "hb_interval.h"
#include "hb_jsonl_read.h"
#include "hb_label_words.h"
#include "hb_bytes.h"
#include "hb_table_comm.h"
#include "hb_table_grid.h"
#include "hb_table_mem.h"
#include "hb_table_topo.h"
#include "hb_units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The intervals of the rows printed since the last summary line, which says what they are. */
static struct hb_coverage table_cov;
static char table_said[HB_COVERAGE_LABEL_LEN]; /* the last interval line's label */

/* Before a row with a headline: what its interval is ("# [interval]: 93.75% interval, 5
 * repeats"), said before the first row and again only where it changes. */
static void table_interval_line(FILE *f, const json_t *rec)
{
    struct hb_coverage one = {0};
    char label[HB_COVERAGE_LABEL_LEN];
    hb_coverage_add_rec(&one, rec);
    hb_coverage_merge(&table_cov, &one);
    if (one.intervals + one.bare == 0) return;
    hb_coverage_label(&one, label, sizeof(label));
    if (strcmp(label, table_said) != 0) fprintf(f, "# [interval]: %s\n", label);
    memcpy(table_said, label, sizeof(table_said));
}

static void table_run(FILE *f, json_t *rec)
{
    json_t *sizes = json_object_get(rec, "sizes");
    char sz[32];
    fprintf(f, "# hopbench %s (git %s): %s\n", hb_jsonl_read_str(rec, "hopbench_version", ""),
            hb_jsonl_read_str(rec, "git_sha", ""), hb_jsonl_read_str(rec, "command_line", ""));
    /* The knobs as words (docs/config.md); a file from before them has none to say. */
    json_t *cfg = json_object_get(rec, "config");
    char *thp = cfg ? hb_config_diff_words(json_object_get(cfg, "thp_enabled")) : NULL;
    char *bal = cfg ? hb_config_diff_words(json_object_get(cfg, "numa_balancing")) : NULL;
    /* comm measures messages, not a working set: its sizes say so (hb_table_comm.h). */
    char what[512];
    if (!hb_table_comm_sizes(rec, what, sizeof(what)))
        snprintf(what, sizeof(what), "size %s (%s)",
                 hb_bytes_format((uint64_t)json_integer_value(json_object_get(sizes, "size_bytes")),
                                 sz, sizeof(sz)),
                 hb_jsonl_read_str(sizes, "size_source", ""));
    fprintf(f, "# simd %s, %s, THP %s, NUMA balancing %s\n", hb_jsonl_read_str(rec, "simd", ""),
            what, thp ? thp : "?", bal ? bal : "?");
    free(thp);
    free(bal);
    /* A fleet's hosts that differ from the majority, each on a line of its own. */
    const char *host;
    json_t *knobs;
    json_object_foreach(json_object_get(rec, "config_drift"), host, knobs)
    {
        char *pairs = json_object_size(knobs) ? hb_config_diff_pairs(knobs) : NULL;
        if (pairs) fprintf(f, "# config of %s differs from the other hosts': %s\n", host, pairs);
        free(pairs);
    }
}

/* A JSON number's value, NAN for anything else. */
static double table_num(const json_t *v)
{
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A number and the interval [lo, hi] at key_ci of obj, as hb_figure_text_interval_text writes
 * them (the value alone without one), into buf. */
static const char *table_fig_at(const json_t *obj, double v, const char *key_ci, char *buf,
                                size_t len)
{
    const json_t *ci = json_object_get(obj, key_ci);
    double lo = table_num(json_array_get(ci, 0)), hi = table_num(json_array_get(ci, 1));
    return hb_figure_text_interval_text(v, lo, hi, buf, len);
}

/* A figure with its interval: 120.5 [118.0, 123.0], or the value alone. */
static void table_figure(FILE *f, const json_t *fig)
{
    char t[HB_FIGURE_LEN];
    fputs(table_fig_at(fig, hb_jsonl_read_num(fig, "value", NAN), "ci95", t, sizeof(t)), f);
}

/* A record's headline with its interval over the repeats ("n/a" without a value). */
static const char *table_headline(const json_t *rec, char *buf, size_t len)
{
    struct hb_interval iv;
    bool has = hb_jsonl_read_interval(rec, &iv) && iv.n >= 2;
    return has ? hb_figure_text_interval_text(iv.value, iv.lo, iv.hi, buf, len)
               : hb_figure_text(iv.value, buf, len);
}

/* The load a record's background tasks were asked for and put on, all together (GB/s): each
 * task's achieved load is the median over the repeats, as its own row gives it. */
static void table_bg_load(json_t *rec, double *target, double *achieved)
{
    size_t i;
    json_t *b;
    *target = *achieved = 0.0;
    json_array_foreach(json_object_get(rec, "background"), i, b)
    {
        *target += json_number_value(json_object_get(b, "target_GBps"));
        *achieved += json_number_value(json_object_get(b, "achieved_GBps"));
    }
}

/* "6.270 GB/s achieved of 8.950 asked", "6.270 GB/s achieved, unpaced"; "-" without load. */
static const char *table_load_text(json_t *rec, char *buf, size_t len)
{
    double target, achieved;
    char a[HB_FIGURE_LEN], t[HB_FIGURE_LEN];
    table_bg_load(rec, &target, &achieved);
    if (json_array_size(json_object_get(rec, "background")) == 0)
        snprintf(buf, len, "-");
    else if (target > 0.0)
        snprintf(buf, len, "%s %s achieved of %s asked", hb_figure_text(achieved, a, sizeof(a)),
                 hb_units_shown("GBps"), hb_figure_text(target, t, sizeof(t)));
    else
        snprintf(buf, len, "%s %s achieved, unpaced", hb_figure_text(achieved, a, sizeof(a)),
                 hb_units_shown("GBps"));
    return buf;
}

/* The notes under a row, indented by `indent`: a figure past a physical bound, a working set
 * in a cache where memory was asked for (sweep and c2c measure caches on purpose), and the
 * sweep's cache marks. */
static void table_row_notes(FILE *f, int indent, json_t *rec)
{
    size_t i;
    json_t *b;
    /* Checked again here: a file written before the check, or edited, is flagged too. */
    hb_bounds_check(rec);
    json_array_foreach(json_object_get(rec, "out_of_bounds"), i, b)
    {
        char text[320];
        fprintf(f, "%-*s ^ impossible: %s\n", indent, "", hb_bounds_text(b, text, sizeof(text)));
    }
    const char *level = hb_jsonl_read_str(rec, "level", "memory");
    if (strcmp(level, "memory") != 0 && !json_is_true(json_object_get(rec, "cache_intended")))
        fprintf(f, "%-*s ^ the working set fits in %s: this measures %s, not memory\n", indent, "",
                level, level);
    /* sweep: the last size that lives in a cache level, so the step after it reads as a miss */
    if (*hb_jsonl_read_str(rec, "cache_end", ""))
        fprintf(f, "%-*s ^ %s ends here\n", indent, "", hb_jsonl_read_str(rec, "cache_end", ""));
}

/* The loaded-latency curve: one row per injection delay, its load and the latency under it.
 * A loader's own record is in its row's load (shown alone only when it did not run well). */
static bool table_loaded(FILE *f, json_t *rec)
{
    static int header_done;
    if (strcmp(hb_jsonl_read_str(rec, "suite", ""), "loaded") != 0) return false;
    bool ok = strcmp(hb_jsonl_read_str(rec, "status", ""), "ok") == 0;
    if (strcmp(hb_jsonl_read_str(rec, "role", ""), "background") == 0 && ok) return true;
    if (strcmp(hb_jsonl_read_str(rec, "role", ""), "background") == 0) return false;
    table_interval_line(f, rec);
    if (!header_done) {
        fprintf(f, "%-9s %-10s %-5s %-40s %-24s %8s %s\n", "cpu->mem", "delay", "mix",
                "background load (all loaders)", "latency [interval] ns", "pages%", "status");
        header_done = 1;
    }
    char path[32], delay[32], load[96], fig[HB_FIGURE_LEN];
    snprintf(path, sizeof(path), "%lld->%lld",
             (long long)json_integer_value(json_object_get(rec, "cpu_node")),
             (long long)json_integer_value(json_object_get(rec, "mem_node")));
    json_t *d = json_object_get(rec, "delay");
    if (json_is_integer(d))
        snprintf(delay, sizeof(delay), "%lld ns", (long long)json_integer_value(d));
    else
        snprintf(delay, sizeof(delay), "idle");
    fprintf(f, "%-9s %-10s %-5s %-40s %-24s %8.2f %s%s%s%s\n", path, delay,
            hb_jsonl_read_str(rec, "mix", ""), table_load_text(rec, load, sizeof(load)),
            table_headline(rec, fig, sizeof(fig)),
            json_number_value(json_object_get(rec, "pages_on_target_pct")),
            hb_jsonl_read_str(rec, "status", ""),
            json_is_true(json_object_get(rec, "noisy")) ? " noisy" : "",
            *hb_jsonl_read_str(rec, "note", "") ? ": " : "", hb_jsonl_read_str(rec, "note", ""));
    table_row_notes(f, 9, rec);
    return true;
}

/* hops and run: the record's figure against the reference's (40555's 0.0.r.0), as a ratio of
 * the two values shown, its direction in words: "0.9816 [0.9512, 1.0130] times the bandwidth
 * of 0.0.r.0 (CPU node 0 -> memory node 0, read)", the label in the report's words. */
static void table_vs_reference(FILE *f, json_t *rec)
{
    json_t *ratio = json_object_get(rec, "ratio_to_reference");
    if (!json_is_number(ratio)) return;
    char r[HB_FIGURE_LEN], words[160];
    const char *ref = hb_jsonl_read_str(rec, "reference_label", "the local read");
    fprintf(f, "%-22s %s times the %s of %s", "",
            table_fig_at(rec, json_number_value(ratio), "ratio_to_reference_ci95", r, sizeof(r)),
            hb_units_quantity(hb_jsonl_read_str(rec, "unit", "")), ref);
    if (hb_label_words(ref, words, sizeof(words))) fprintf(f, " (%s)", words);
    fputc('\n', f);
}

/* Chains of a chase: the loads a second over all of them, and the misses in flight. */
static void table_chains(FILE *f, json_t *rec)
{
    json_t *loads = json_object_get(rec, "loads_per_s");
    if (!json_is_number(loads) || json_integer_value(json_object_get(rec, "chains")) <= 1) return;
    char l[HB_FIGURE_LEN], c[HB_FIGURE_LEN];
    long long chains = (long long)json_integer_value(json_object_get(rec, "chains"));
    long long threads = (long long)json_integer_value(json_object_get(rec, "threads"));
    fprintf(f, "%-22s %lld chains x %lld thread%s: %s loads/s", "", chains, threads,
            threads == 1 ? "" : "s",
            table_fig_at(rec, json_number_value(loads), "loads_per_s_ci95", l, sizeof(l)));
    json_t *conc = json_object_get(rec, "concurrency");
    if (json_is_number(conc))
        fprintf(f, ", concurrency %s loads in flight (Little's law with the one-chain latency)",
                table_fig_at(rec, json_number_value(conc), "concurrency_ci95", c, sizeof(c)));
    fputc('\n', f);
}

static void table_measurement(FILE *f, json_t *rec)
{
    static int header_done;
    if (table_loaded(f, rec)) return;
    table_interval_line(f, rec);
    const char *label = hb_jsonl_read_str(rec, "label", ""),
               *name = hb_jsonl_read_str(rec, "experiment", "");
    if (!header_done) {
        /* The label's code said in words beside its first use (AMD 40555's scheme). */
        char words[160];
        if (hb_label_words(label, words, sizeof(words)))
            fprintf(f, "# label: CPU node.thread.access.memory node; %s is %s\n", label, words);
        fprintf(f, "%-22s %-12s %-9s %4s %9s %-24s %-6s %8s %s\n", "experiment", "label", "kernel",
                "thr", "size", "value [interval]", "unit", "pages%", "status");
        header_done = 1;
    }
    /* A name longer than its column gets a line of its own, so the columns stay in line. */
    if (strlen(name) > 22 || strlen(label) > 12) {
        fprintf(f, "%s  %s\n", name, label);
        name = label = "";
    }
    char sz[32], fig[HB_FIGURE_LEN];
    bool noisy = json_is_true(json_object_get(rec, "noisy"));
    fprintf(f, "%-22s %-12s %-9s %4lld %9s %-24s %-6s %8.2f %s%s%s%s\n", name, label,
            hb_jsonl_read_str(rec, "kernel", ""),
            (long long)json_integer_value(json_object_get(rec, "threads")),
            hb_bytes_format((uint64_t)json_integer_value(json_object_get(rec, "bytes")), sz,
                            sizeof(sz)),
            table_headline(rec, fig, sizeof(fig)),
            hb_units_shown(hb_jsonl_read_str(rec, "unit", "")),
            json_number_value(json_object_get(rec, "pages_on_target_pct")),
            hb_jsonl_read_str(rec, "status", ""), noisy ? " noisy" : "",
            *hb_jsonl_read_str(rec, "note", "") ? ": " : "", hb_jsonl_read_str(rec, "note", ""));
    table_vs_reference(f, rec);
    /* hops and run: the load the background put on beside this foreground */
    if (json_array_size(json_object_get(rec, "background")) > 0) {
        char load[96];
        const char *sub = hb_jsonl_read_str(rec, "subscription", "");
        fprintf(f, "%-22s background load %s%s%s (all background tasks): %s\n", "",
                hb_jsonl_read_str(rec, "bg_level", ""), sub[0] ? " " : "", sub,
                table_load_text(rec, load, sizeof(load)));
    }
    table_chains(f, rec);
    table_row_notes(f, 22, rec);
}

static void table_matrix(FILE *f, json_t *rec)
{
    json_t *rows = json_object_get(rec, "rows"), *cols = json_object_get(rec, "cols");
    /* Each cell is its pair's figure as its row above gives it (the median of its repeats),
     * rounded as that row is. */
    fprintf(f, "\n%s %s matrix (%s, each cell its pair's row above), host %s:\n",
            hb_jsonl_read_str(rec, "metric", ""), hb_jsonl_read_str(rec, "kernel", ""),
            hb_units_shown(hb_jsonl_read_str(rec, "unit", "")), hb_jsonl_read_str(rec, "host", ""));
    hb_table_grid(f, "cpu\\mem", rows, cols, json_object_get(rec, "values"), HB_GRID_FIGURES);
    /* c2c matrices are CPU x CPU: no relative cost or hop classes, notes instead */
    if (strcmp(hb_jsonl_read_str(rec, "metric", ""), "c2c") == 0) {
        size_t k;
        json_t *note;
        json_array_foreach(json_object_get(rec, "notes"), k, note)
            fprintf(f, "note: %s\n", json_string_value(note));
        return;
    }
    fprintf(f, "Approximate Cross-NUMA Node Access Cost (relative to fastest):\n");
    hb_table_grid(f, "cpu\\mem", rows, cols, json_object_get(rec, "relative"), 1);
    json_t *mc = json_object_get(rec, "measured_class");
    if (json_array_size(rows) * json_array_size(cols) > 1) {
        fprintf(f, "firmware hop classes:\n");
        hb_table_grid(f, "cpu\\mem", rows, cols, json_object_get(rec, "hop_class"), 0);
        fprintf(f, "measured classes:\n");
        hb_table_grid(f, "cpu\\mem", rows, cols, mc, 0);
    }
    size_t i;
    json_t *fl;
    json_array_foreach(json_object_get(rec, "flags"), i, fl)
        fprintf(f, "flag: cpu node %lld -> memory node %lld: %s\n",
                (long long)json_integer_value(json_object_get(fl, "cpu_node")),
                (long long)json_integer_value(json_object_get(fl, "mem_node")),
                hb_jsonl_read_str(fl, "reason", ""));
    /* Differences within the figures' noise: said, not flagged. */
    json_array_foreach(json_object_get(rec, "inconclusive"), i, fl)
    {
        const json_t *a = json_object_get(fl, "figure");
        const json_t *b = json_object_get(json_object_get(fl, "against"), "figure");
        fprintf(f, "inconclusive: cpu node %lld -> memory node %lld: %s, within the noise (",
                (long long)json_integer_value(json_object_get(fl, "cpu_node")),
                (long long)json_integer_value(json_object_get(fl, "mem_node")),
                hb_jsonl_read_str(fl, "reason", ""));
        table_figure(f, a);
        fputs(" against ", f);
        table_figure(f, b);
        fputs(")\n", f);
    }
    hb_table_mem_matrix_hmat(f, rec);
    hb_table_mem_matrix_kernel_tiers(f, rec);
}

static void table_fleet(FILE *f, json_t *rec)
{
    size_t i;
    json_t *h;
    /* Aggregates over each host's cells: said in the caption. */
    fprintf(f, "\nfleet: per host, local latency and local read bandwidth (each the mean over the "
               "host's local cells, with its interval), worst remote/local latency (the max over "
               "its remote cells):\n");
    fprintf(f, "       %-20s %-24s %-24s %8s %12s %s\n", "host", "local ns", "local GB/s",
            "threads", "remote/local", "");
    json_array_foreach(json_object_get(rec, "hosts"), i, h)
    {
        char lat[HB_FIGURE_LEN], bw[HB_FIGURE_LEN], ratio[HB_FIGURE_LEN];
        fprintf(
            f, "       %-20s %-24s %-24s %8lld %12s %s%s%s%s\n", hb_jsonl_read_str(h, "host", ""),
            table_fig_at(h, hb_jsonl_read_num(h, "lat_ns_local", NAN), "lat_ns_local_ci95", lat,
                         sizeof(lat)),
            table_fig_at(h, hb_jsonl_read_num(h, "bw_GBps_local_read", NAN),
                         "bw_GBps_local_read_ci95", bw, sizeof(bw)),
            (long long)json_integer_value(json_object_get(h, "bw_threads")),
            hb_figure_text(hb_jsonl_read_num(h, "worst_remote_ratio", NAN), ratio, sizeof(ratio)),
            json_is_true(json_object_get(h, "outlier")) ? "OUTLIER: " : "",
            hb_jsonl_read_str(h, "reason", ""),
            *hb_jsonl_read_str(h, "inconclusive", "") ? "inconclusive (within the noise): " : "",
            hb_jsonl_read_str(h, "inconclusive", ""));
    }
    /* What an outlier's reason does not already say: the drift of the hosts not flagged. */
    json_array_foreach(json_object_get(rec, "hosts"), i, h)
    {
        char *drift = json_is_true(json_object_get(h, "outlier"))
                          ? NULL
                          : hb_config_diff_pairs(json_object_get(h, "config_differs"));
        if (drift && drift[0])
            fprintf(f, "       %-20s configuration differs from the fleet's: %s\n",
                    hb_jsonl_read_str(h, "host", ""), drift);
        free(drift);
    }
}

/* Policy study: local placement's speed over each other policy (SiSoftware Sandra's NUMA
 * gain; above 1 = local is faster), and the intensity knee. */
static void table_ratio(FILE *f, const char *name, json_t *rec, const char *key)
{
    json_t *v = json_object_get(rec, key);
    const char *noise = hb_jsonl_read_str(json_object_get(rec, "gain_noise"), key, "");
    char r[HB_FIGURE_LEN];
    if (json_is_number(v))
        fprintf(f, "; local is %sx as fast as %s%s",
                hb_figure_text(json_number_value(v), r, sizeof(r)), name,
                strcmp(noise, "inconclusive") == 0 ? " (inconclusive: within the noise)" : "");
    else
        fprintf(f, "; %s not measured", name);
}

static void table_gain(FILE *f, json_t *rec)
{
    json_t *x = json_object_get(rec, "intensity");
    fprintf(f, "NUMA gain %-6s %-9s", hb_jsonl_read_str(rec, "mode", ""),
            hb_jsonl_read_str(rec, "workload", ""));
    if (json_is_number(x)) fprintf(f, "@%-5g", json_number_value(x));
    char speed[HB_FIGURE_LEN];
    fprintf(f, " local, its tasks together: %s %s",
            table_fig_at(json_object_get(rec, "speed_ci95"),
                         hb_jsonl_read_num(rec, "local_speed", NAN), "local", speed, sizeof(speed)),
            hb_units_shown(hb_jsonl_read_str(rec, "speed_unit", "")));
    table_ratio(f, "interleave", rec, "gain_vs_interleave");
    table_ratio(f, "one-node", rec, "gain_vs_one_node");
    table_ratio(f, "remote", rec, "gain_vs_remote");
    table_ratio(f, "os", rec, "gain_vs_os");
    fputc('\n', f);
}

static void table_knee(FILE *f, json_t *rec)
{
    json_t *v = json_object_get(rec, "value");
    fprintf(f, "intensity knee %s, local vs %s (%g%%): ", hb_jsonl_read_str(rec, "mode", ""),
            hb_jsonl_read_str(rec, "against", ""),
            json_number_value(json_object_get(rec, "threshold_pct")));
    char x[HB_FIGURE_LEN];
    if (json_is_number(v))
        fprintf(f, "%s flop/B\n", hb_figure_text(json_number_value(v), x, sizeof(x)));
    else
        fprintf(f, "none (%s)\n", hb_jsonl_read_str(rec, "note", ""));
}

static void table_c2c(FILE *f, json_t *rec)
{
    bool fs = strcmp(hb_jsonl_read_str(rec, "type", ""), "c2c_false_sharing") == 0;
    json_t *cpus = json_object_get(rec, "cpus");
    char a[HB_FIGURE_LEN], b[HB_FIGURE_LEN], c[HB_FIGURE_LEN];
    fprintf(f, "%-13s %-10s ", fs ? "false sharing" : hb_jsonl_read_str(rec, "lock", ""),
            hb_jsonl_read_str(rec, "placement", ""));
    if (json_is_array(cpus))
        fprintf(f, "cpus %lld-%lld: ", (long long)json_integer_value(json_array_get(cpus, 0)),
                (long long)json_integer_value(json_array_get(cpus, 1)));
    if (strcmp(hb_jsonl_read_str(rec, "status", ""), "ok") != 0)
        fprintf(f, "%s: %s\n", hb_jsonl_read_str(rec, "status", ""),
                hb_jsonl_read_str(rec, "note", ""));
    else if (fs)
        fprintf(f, "%s ns per increment in one line, %s padded: %sx the time\n",
                hb_figure_text(hb_jsonl_read_num(rec, "ns_per_inc_shared", NAN), a, sizeof(a)),
                hb_figure_text(hb_jsonl_read_num(rec, "ns_per_inc_padded", NAN), b, sizeof(b)),
                hb_figure_text(hb_jsonl_read_num(rec, "slowdown", NAN), c, sizeof(c)));
    else
        fprintf(f, "%s hand-offs/s (%s ns each)\n",
                hb_figure_text(hb_jsonl_read_num(rec, "handoffs_per_s", NAN), a, sizeof(a)),
                hb_figure_text(hb_jsonl_read_num(rec, "ns_per_handoff", NAN), b, sizeof(b)));
}

/* A verdict's evidence in words, its figures rounded as every figure shown: labels, or
 * cases with their hop class and % of the reference's time per byte or the pair's span. */
static void table_evidence(FILE *f, const json_t *evidence)
{
    size_t i, k;
    json_t *e, *l;
    bool pct = false;
    json_array_foreach(evidence, i, e) pct |=
        json_is_number(json_object_get(e, "pct_of_local_read"));
    fputs(pct ? "evidence (time per byte in % of the reference's, lower is faster): " : "evidence ",
          f);
    json_array_foreach(evidence, i, e)
    {
        fputs(i ? ", " : "", f);
        if (json_is_string(e)) {
            fputs(json_string_value(e), f);
            continue;
        }
        fputs(hb_jsonl_read_str(e, "label", ""), f);
        json_array_foreach(json_object_get(e, "labels"), k, l)
            fprintf(f, "%s%s", k ? "+" : "", json_string_value(l) ? json_string_value(l) : "");
        char x[HB_FIGURE_LEN];
        json_t *hops = json_object_get(e, "hops");
        if (json_is_integer(hops))
            fprintf(f, " (%lld hop%s)", (long long)json_integer_value(hops),
                    json_integer_value(hops) == 1 ? "" : "s");
        if (json_is_number(json_object_get(e, "pct_of_local_read")))
            fprintf(f, " %s%%",
                    hb_figure_text(hb_jsonl_read_num(e, "pct_of_local_read", NAN), x, sizeof(x)));
        if (json_is_number(json_object_get(e, "t_span_s")))
            fprintf(f, " span %s s",
                    hb_figure_text(hb_jsonl_read_num(e, "t_span_s", NAN), x, sizeof(x)));
    }
}

/* A myth verdict in one line, with its evidence. */
static void table_verdict(FILE *f, json_t *rec)
{
    const char *sub = hb_jsonl_read_str(rec, "subscription", "");
    fprintf(f, "myth %lld \"%s\" [%s, %s%s%s, %s",
            (long long)json_integer_value(json_object_get(rec, "myth")),
            hb_jsonl_read_str(rec, "claim", ""), hb_jsonl_read_str(rec, "case", ""),
            hb_jsonl_read_str(rec, "bg_level", ""), sub[0] ? " " : "", sub,
            hb_jsonl_read_str(rec, "access", ""));
    if (json_is_integer(json_object_get(rec, "hops")))
        fprintf(f, ", hop class %lld", (long long)json_integer_value(json_object_get(rec, "hops")));
    /* Older files have holds alone; inconclusive: a difference within the figures' noise. */
    const char *verdict = hb_jsonl_read_str(
        rec, "verdict", json_is_true(json_object_get(rec, "holds")) ? "holds" : "does not hold");
    fprintf(f, "]: %s, spread %.1f%% (tolerance %g%%); ", verdict,
            json_number_value(json_object_get(rec, "spread_pct")),
            json_number_value(json_object_get(rec, "tolerance_pct")));
    table_evidence(f, json_object_get(rec, "evidence"));
    /* The two figures the spread is between, with their intervals over the repeats. */
    size_t i;
    json_t *fig;
    json_array_foreach(json_object_get(rec, "figures"), i, fig)
    {
        char pct[HB_FIGURE_LEN];
        fprintf(f, "%s %s %s%%",
                i ? "," : "; time per byte in % of the reference's (lower is faster):",
                hb_jsonl_read_str(fig, "label", ""),
                table_fig_at(fig, hb_jsonl_read_num(fig, "pct_of_local_read", NAN), "ci95", pct,
                             sizeof(pct)));
    }
    fputc('\n', f);
}

/* Peak injection bandwidth: the nodes' figures and the machine's total. */
static void table_peak(FILE *f, json_t *rec)
{
    const char *note = hb_jsonl_read_str(rec, "note", "");
    char x[HB_FIGURE_LEN];
    size_t i;
    json_t *v;
    fprintf(f, "peak %s %s on %s: nodes", hb_jsonl_read_str(rec, "kernel", ""),
            hb_jsonl_read_str(rec, "policy", ""), hb_jsonl_read_str(rec, "host", ""));
    json_array_foreach(json_object_get(rec, "nodes"), i, v)
        fprintf(f, "%s %lld", i ? "," : "", (long long)json_integer_value(v));
    json_array_foreach(json_object_get(rec, "node_GBps"), i, v)
        fprintf(f, "%s%s", i ? ", " : ": ", hb_figure_text(table_num(v), x, sizeof(x)));
    const json_t *ci = json_object_get(rec, "total_GBps_ci95");
    fprintf(f, " %s, total (the sum over the nodes) %s %s (overlap %.2f)%s%s\n",
            hb_units_shown("GBps"),
            hb_figure_text_interval_text(hb_jsonl_read_num(rec, "total_GBps", NAN),
                                         table_num(json_array_get(ci, 0)),
                                         table_num(json_array_get(ci, 1)), x, sizeof(x)),
            hb_units_shown("GBps"), json_number_value(json_object_get(rec, "fg_overlap")),
            note[0] ? ": " : "", note);
}

/* Loaded latency: the load at which latency doubles. */
static void table_loaded_knee(FILE *f, json_t *rec)
{
    json_t *v = json_object_get(rec, "value");
    char x[HB_FIGURE_LEN];
    if (json_is_number(v))
        fprintf(f, "knee %lld -> %lld: latency doubles at %s %s of load\n",
                (long long)json_integer_value(json_object_get(rec, "cpu_node")),
                (long long)json_integer_value(json_object_get(rec, "mem_node")),
                hb_figure_text(json_number_value(v), x, sizeof(x)), hb_units_shown("GBps"));
    else
        fprintf(f, "knee %lld -> %lld: %s (up to %s %s of load)\n",
                (long long)json_integer_value(json_object_get(rec, "cpu_node")),
                (long long)json_integer_value(json_object_get(rec, "mem_node")),
                hb_jsonl_read_str(rec, "note", ""),
                hb_figure_text(hb_jsonl_read_num(rec, "max_total_GBps", NAN), x, sizeof(x)),
                hb_units_shown("GBps"));
}

/* The run's counts, and what the intervals of its rows were (hb_coverage.h). */
static void table_summary(FILE *f, json_t *rec)
{
    char cov[HB_COVERAGE_LABEL_LEN];
    fprintf(f,
            "# %s: %lld experiments, %lld measurements: %lld ok, %lld failed, %lld noisy, "
            "%.1f s",
            hb_jsonl_read_str(rec, "suite", ""),
            (long long)json_integer_value(json_object_get(rec, "experiments")),
            (long long)json_integer_value(json_object_get(rec, "measurements")),
            (long long)json_integer_value(json_object_get(rec, "ok")),
            (long long)json_integer_value(json_object_get(rec, "failed")),
            (long long)json_integer_value(json_object_get(rec, "noisy")),
            json_number_value(json_object_get(rec, "elapsed_s")));
    if (hb_coverage_any(&table_cov))
        fprintf(f, "; [interval]: %s", hb_coverage_label(&table_cov, cov, sizeof(cov)));
    fputc('\n', f);
    table_cov = (struct hb_coverage){0};
    table_said[0] = '\0';
}

void hb_table_end(FILE *f)
{
    hb_table_comm_flush(f);
}

static void table_print_clean(FILE *f, json_t *rec);

void hb_table_print(FILE *f, json_t *rec)
{
    /* A string from argv or a scenario may hold a newline: rows stay one line each. */
    json_t *clean = hb_escape_json_lines(rec);
    table_print_clean(f, clean ? clean : rec);
    json_decref(clean);
}

static void table_print_clean(FILE *f, json_t *rec)
{
    /* comm's measurements print as blocks per rank pair, once each block is complete. */
    if (hb_table_comm_hold(f, rec)) return;
    const char *type = hb_jsonl_read_str(rec, "type", "");
    if (strcmp(type, "run") == 0)
        table_run(f, rec);
    else if (strcmp(type, "topology") == 0)
        hb_table_topology(f, rec);
    else if (strcmp(type, "measurement") == 0)
        table_measurement(f, rec);
    else if (strcmp(type, "matrix") == 0)
        table_matrix(f, rec);
    else if (strcmp(type, "comm_matrix") == 0)
        hb_table_comm_matrix(f, rec);
    else if (strcmp(type, "comm_bg") == 0)
        hb_table_comm_bg(f, rec);
    else if (strcmp(type, "comm_links") == 0)
        hb_table_comm_links(f, rec);
    else if (strcmp(type, "comm_nic") == 0)
        hb_table_comm_nic(f, rec);
    else if (strcmp(type, "fleet") == 0)
        table_fleet(f, rec);
    else if (strcmp(type, "tiers") == 0)
        hb_table_mem_tiers(f, rec);
    else if (strcmp(type, "gain") == 0)
        table_gain(f, rec);
    else if (strcmp(type, "knee") == 0 &&
             strcmp(hb_jsonl_read_str(rec, "curve", ""), "intensity") == 0)
        table_knee(f, rec);
    else if (strcmp(type, "knee") == 0)
        table_loaded_knee(f, rec);
    else if (strcmp(type, "peak") == 0)
        table_peak(f, rec);
    else if (strcmp(type, "verdict") == 0)
        table_verdict(f, rec);
    else if (strcmp(type, "c2c_false_sharing") == 0 || strcmp(type, "c2c_lock") == 0)
        table_c2c(f, rec);
    else if (strcmp(type, "note") == 0 &&
             (!hb_table_mem_hmat_said || strcmp(hb_jsonl_read_str(rec, "about", ""), "hmat") != 0))
        fprintf(f, "note: %s\n", hb_jsonl_read_str(rec, "text", ""));
    else if (strcmp(type, "summary") == 0)
        table_summary(f, rec);
}
