/* The table format: records printed for people. */
#include "hb_output.h"

#include "hb_config.h"
#include "hb_coverage.h"
#include "hb_escape.h"
#include "hb_interval.h"
#include "hb_jsonl_read.h"
#include "hb_size.h"
#include "hb_table_comm.h"
#include "hb_table_grid.h"
#include "hb_table_mem.h"
#include "hb_table_topo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The intervals of the rows printed since the last summary line, which says what they are. */
static struct hb_coverage hb_table_cov;
static char hb_table_said[HB_COVERAGE_LABEL_LEN]; /* the last interval line's label */

/* Before a row with a headline: what its interval is ("# \xC2\xB1 CI: 93.75% interval, 5
 * repeats"), said before the first row and again only where it changes. */
static void hb_table_interval_line(FILE *f, const json_t *rec)
{
    struct hb_coverage one = {0};
    char label[HB_COVERAGE_LABEL_LEN];
    hb_coverage_add_rec(&one, rec);
    hb_coverage_merge(&hb_table_cov, &one);
    if (one.intervals + one.bare == 0) return;
    hb_coverage_label(&one, label, sizeof(label));
    if (strcmp(label, hb_table_said) != 0) fprintf(f, "# \xC2\xB1 CI: %s\n", label);
    memcpy(hb_table_said, label, sizeof(hb_table_said));
}

static void hb_table_run(FILE *f, json_t *rec)
{
    json_t *sizes = json_object_get(rec, "sizes");
    char sz[32];
    fprintf(f, "# hopbench %s (git %s): %s\n", hb_rec_str(rec, "hopbench_version", ""),
            hb_rec_str(rec, "git_sha", ""), hb_rec_str(rec, "command_line", ""));
    /* The knobs as words (docs/config.md); a file from before them has none to say. */
    json_t *cfg = json_object_get(rec, "config");
    char *thp = cfg ? hb_config_words(json_object_get(cfg, "thp_enabled")) : NULL;
    char *bal = cfg ? hb_config_words(json_object_get(cfg, "numa_balancing")) : NULL;
    fprintf(f, "# simd %s, size %s (%s), THP %s, NUMA balancing %s\n", hb_rec_str(rec, "simd", ""),
            hb_size_format((uint64_t)json_integer_value(json_object_get(sizes, "size_bytes")), sz,
                           sizeof(sz)),
            hb_rec_str(sizes, "size_source", ""), thp ? thp : "?", bal ? bal : "?");
    free(thp);
    free(bal);
    /* A fleet's hosts that differ from the majority, each on a line of its own. */
    const char *host;
    json_t *knobs;
    json_object_foreach(json_object_get(rec, "config_drift"), host, knobs)
    {
        char *pairs = json_object_size(knobs) ? hb_config_pairs(knobs) : NULL;
        if (pairs) fprintf(f, "# config of %s differs from the other hosts': %s\n", host, pairs);
        free(pairs);
    }
}

/* A figure with its interval: 120.5 [118, 123], or the value alone. */
static void hb_table_figure(FILE *f, const json_t *fig)
{
    const json_t *ci = json_object_get(fig, "ci95");
    fprintf(f, "%.4g", hb_rec_num(fig, "value", NAN));
    if (json_is_array(ci))
        fprintf(f, " [%.4g, %.4g]", json_number_value(json_array_get(ci, 0)),
                json_number_value(json_array_get(ci, 1)));
}

/* The load a record's background tasks were asked for and put on, all together (GB/s). */
static void hb_table_bg_load(json_t *rec, double *target, double *achieved)
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

/* The loaded-latency curve: one row per injection delay, its load and the latency under it.
 * A loader's own record is in its row's load (shown alone only when it did not run well). */
static bool hb_table_loaded(FILE *f, json_t *rec)
{
    static int header_done;
    if (strcmp(hb_rec_str(rec, "suite", ""), "loaded") != 0) return false;
    bool ok = strcmp(hb_rec_str(rec, "status", ""), "ok") == 0;
    if (strcmp(hb_rec_str(rec, "role", ""), "background") == 0 && ok) return true;
    if (strcmp(hb_rec_str(rec, "role", ""), "background") == 0) return false;
    hb_table_interval_line(f, rec);
    if (!header_done) {
        fprintf(f, "%-9s %-10s %-5s %22s %20s %8s %s\n", "cpu->mem", "delay", "mix",
                "load GB/s (of target)", "latency \xC2\xB1 CI ns", "pages%", "status");
        header_done = 1;
    }
    char path[32], delay[32], pm[32] = "\xC2\xB1?";
    snprintf(path, sizeof(path), "%lld->%lld",
             (long long)json_integer_value(json_object_get(rec, "cpu_node")),
             (long long)json_integer_value(json_object_get(rec, "mem_node")));
    json_t *d = json_object_get(rec, "delay");
    if (json_is_integer(d))
        snprintf(delay, sizeof(delay), "%lld ns", (long long)json_integer_value(d));
    else
        snprintf(delay, sizeof(delay), "idle");
    double target, achieved;
    hb_table_bg_load(rec, &target, &achieved);
    char load[48] = "-";
    if (json_array_size(json_object_get(rec, "background")) > 0 && target > 0.0)
        snprintf(load, sizeof(load), "%.2f (of %.2f)", achieved, target);
    else if (json_array_size(json_object_get(rec, "background")) > 0)
        snprintf(load, sizeof(load), "%.2f (unpaced)", achieved);
    struct hb_interval iv;
    if (hb_rec_interval(rec, &iv)) snprintf(pm, sizeof(pm), "\xC2\xB1%.2f", (iv.hi - iv.lo) / 2.0);
    fprintf(f, "%-9s %-10s %-5s %22s %10.2f %-9s %8.2f %s%s%s%s\n", path, delay,
            hb_rec_str(rec, "mix", ""), load, iv.value, pm,
            json_number_value(json_object_get(rec, "pages_on_target_pct")),
            hb_rec_str(rec, "status", ""),
            json_is_true(json_object_get(rec, "noisy")) ? " noisy" : "",
            *hb_rec_str(rec, "note", "") ? ": " : "", hb_rec_str(rec, "note", ""));
    const char *level = hb_rec_str(rec, "level", "memory");
    if (strcmp(level, "memory") != 0)
        fprintf(f, "%-9s ^ the working set fits in %s: this measures %s, not memory\n", "", level,
                level);
    return true;
}

static void hb_table_measurement(FILE *f, json_t *rec)
{
    static int header_done;
    if (hb_table_loaded(f, rec)) return;
    hb_table_interval_line(f, rec);
    if (!header_done) {
        fprintf(f, "%-22s %-12s %-9s %4s %9s %20s %-6s %8s %s\n", "experiment", "label", "kernel",
                "thr", "size", "value \xC2\xB1 CI", "unit", "pages%", "status");
        header_done = 1;
    }
    char sz[32], pm[32] = "\xC2\xB1?";
    /* The headline value and its interval's half-width over the repeats. */
    struct hb_interval iv;
    if (hb_rec_interval(rec, &iv)) snprintf(pm, sizeof(pm), "\xC2\xB1%.2f", (iv.hi - iv.lo) / 2.0);
    const char *unit = hb_rec_str(rec, "unit", "");
    bool noisy = json_is_true(json_object_get(rec, "noisy"));
    fprintf(
        f, "%-22s %-12s %-9s %4lld %9s %10.2f %-9s %-6s %8.2f %s%s%s%s\n",
        hb_rec_str(rec, "experiment", ""), hb_rec_str(rec, "label", ""),
        hb_rec_str(rec, "kernel", ""),
        (long long)json_integer_value(json_object_get(rec, "threads")),
        hb_size_format((uint64_t)json_integer_value(json_object_get(rec, "bytes")), sz, sizeof(sz)),
        iv.value, pm, strcmp(unit, "GBps") == 0 ? "GB/s" : unit,
        json_number_value(json_object_get(rec, "pages_on_target_pct")),
        hb_rec_str(rec, "status", ""), noisy ? " noisy" : "",
        *hb_rec_str(rec, "note", "") ? ": " : "", hb_rec_str(rec, "note", ""));
    /* hops: 40555's figure, and the load the background really put on */
    json_t *pct = json_object_get(rec, "pct_of_local_read");
    json_t *bg = json_object_get(rec, "background");
    if (json_is_number(pct) || json_array_size(bg) > 0) {
        fprintf(f, "%-22s", "");
        if (json_is_number(pct))
            fprintf(f, " %.1f%% of %s", json_number_value(pct),
                    hb_rec_str(rec, "reference_label", "local read"));
        double target, achieved;
        hb_table_bg_load(rec, &target, &achieved);
        if (json_array_size(bg) > 0 && target > 0.0)
            fprintf(f, "  load %s %s: %.2f of %.2f GB/s", hb_rec_str(rec, "bg_level", ""),
                    hb_rec_str(rec, "subscription", ""), achieved, target);
        else if (json_array_size(bg) > 0)
            fprintf(f, "  load %s %s: %.2f GB/s unpaced", hb_rec_str(rec, "bg_level", ""),
                    hb_rec_str(rec, "subscription", ""), achieved);
        fputc('\n', f);
    }
    /* a figure of a cache, not of memory: said under its row */
    const char *level = hb_rec_str(rec, "level", "memory");
    if (strcmp(level, "memory") != 0)
        fprintf(f, "%-22s ^ the working set fits in %s: this measures %s, not memory\n", "", level,
                level);
    /* sweep: the last size that fits a cache level, so the step after it reads as a miss */
    if (*hb_rec_str(rec, "cache_end", ""))
        fprintf(f, "%-22s ^ %s ends here\n", "", hb_rec_str(rec, "cache_end", ""));
}

static void hb_table_matrix(FILE *f, json_t *rec)
{
    json_t *rows = json_object_get(rec, "rows"), *cols = json_object_get(rec, "cols");
    fprintf(f, "\n%s %s matrix (%s), host %s:\n", hb_rec_str(rec, "metric", ""),
            hb_rec_str(rec, "kernel", ""), hb_rec_str(rec, "unit", ""),
            hb_rec_str(rec, "host", ""));
    hb_table_grid(f, "cpu\\mem", rows, cols, json_object_get(rec, "values"), 2);
    /* c2c matrices are CPU x CPU: no relative cost or hop classes, notes instead */
    if (strcmp(hb_rec_str(rec, "metric", ""), "c2c") == 0) {
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
                hb_rec_str(fl, "reason", ""));
    /* Differences within the figures' noise: said, not flagged. */
    json_array_foreach(json_object_get(rec, "inconclusive"), i, fl)
    {
        const json_t *a = json_object_get(fl, "figure");
        const json_t *b = json_object_get(json_object_get(fl, "against"), "figure");
        fprintf(f, "inconclusive: cpu node %lld -> memory node %lld: %s, within the noise (",
                (long long)json_integer_value(json_object_get(fl, "cpu_node")),
                (long long)json_integer_value(json_object_get(fl, "mem_node")),
                hb_rec_str(fl, "reason", ""));
        hb_table_figure(f, a);
        fputs(" against ", f);
        hb_table_figure(f, b);
        fputs(")\n", f);
    }
    hb_table_matrix_hmat(f, rec);
    hb_table_matrix_kernel_tiers(f, rec);
}

static void hb_table_fleet(FILE *f, json_t *rec)
{
    size_t i;
    json_t *h;
    fprintf(f, "\nfleet: %-20s %12s %14s %8s %14s %s\n", "host", "local ns", "local GB/s",
            "threads", "remote/local", "");
    json_array_foreach(json_object_get(rec, "hosts"), i, h) fprintf(
        f, "       %-20s %12.1f %14.2f %8lld %14.2f %s%s%s%s\n", hb_rec_str(h, "host", ""),
        json_number_value(json_object_get(h, "lat_ns_local")),
        json_number_value(json_object_get(h, "bw_GBps_local_read")),
        (long long)json_integer_value(json_object_get(h, "bw_threads")),
        json_number_value(json_object_get(h, "worst_remote_ratio")),
        json_is_true(json_object_get(h, "outlier")) ? "OUTLIER: " : "", hb_rec_str(h, "reason", ""),
        *hb_rec_str(h, "inconclusive", "") ? "inconclusive (within the noise): " : "",
        hb_rec_str(h, "inconclusive", ""));
    /* What an outlier's reason does not already say: the drift of the hosts not flagged. */
    json_array_foreach(json_object_get(rec, "hosts"), i, h)
    {
        char *drift = json_is_true(json_object_get(h, "outlier"))
                          ? NULL
                          : hb_config_pairs(json_object_get(h, "config_differs"));
        if (drift && drift[0])
            fprintf(f, "       %-20s configuration differs from the fleet's: %s\n",
                    hb_rec_str(h, "host", ""), drift);
        free(drift);
    }
}

/* Policy study: local placement's speed over each other policy (SiSoftware Sandra's NUMA
 * gain; above 1 = local is faster), and the intensity knee. */
static void hb_table_ratio(FILE *f, const char *name, json_t *rec, const char *key)
{
    json_t *v = json_object_get(rec, key);
    const char *noise = hb_rec_str(json_object_get(rec, "gain_noise"), key, "");
    if (json_is_number(v))
        fprintf(f, "  %s %.2fx%s", name, json_number_value(v),
                strcmp(noise, "inconclusive") == 0 ? " (inconclusive: within the noise)" : "");
    else
        fprintf(f, "  %s -", name);
}

static void hb_table_gain(FILE *f, json_t *rec)
{
    json_t *x = json_object_get(rec, "intensity");
    fprintf(f, "NUMA gain %-6s %-9s", hb_rec_str(rec, "mode", ""), hb_rec_str(rec, "workload", ""));
    if (json_is_number(x)) fprintf(f, "@%-5g", json_number_value(x));
    fprintf(f, " local %.4g %s:", json_number_value(json_object_get(rec, "local_speed")),
            hb_rec_str(rec, "speed_unit", ""));
    hb_table_ratio(f, "vs interleave", rec, "gain_vs_interleave");
    hb_table_ratio(f, "vs one-node", rec, "gain_vs_one_node");
    hb_table_ratio(f, "vs remote", rec, "gain_vs_remote");
    hb_table_ratio(f, "vs os", rec, "gain_vs_os");
    fputc('\n', f);
}

static void hb_table_knee(FILE *f, json_t *rec)
{
    json_t *v = json_object_get(rec, "value");
    fprintf(f, "intensity knee %s, local vs %s (%g%%): ", hb_rec_str(rec, "mode", ""),
            hb_rec_str(rec, "against", ""),
            json_number_value(json_object_get(rec, "threshold_pct")));
    if (json_is_number(v))
        fprintf(f, "%g flop/B\n", json_number_value(v));
    else
        fprintf(f, "none (%s)\n", hb_rec_str(rec, "note", ""));
}

static void hb_table_c2c(FILE *f, json_t *rec)
{
    bool fs = strcmp(hb_rec_str(rec, "type", ""), "c2c_false_sharing") == 0;
    json_t *cpus = json_object_get(rec, "cpus");
    fprintf(f, "%-13s %-10s ", fs ? "false sharing" : hb_rec_str(rec, "lock", ""),
            hb_rec_str(rec, "placement", ""));
    if (json_is_array(cpus))
        fprintf(f, "cpus %lld-%lld: ", (long long)json_integer_value(json_array_get(cpus, 0)),
                (long long)json_integer_value(json_array_get(cpus, 1)));
    if (strcmp(hb_rec_str(rec, "status", ""), "ok") != 0)
        fprintf(f, "%s: %s\n", hb_rec_str(rec, "status", ""), hb_rec_str(rec, "note", ""));
    else if (fs)
        fprintf(f, "%.2f ns per increment in one line, %.2f padded: %.2fx slower\n",
                json_number_value(json_object_get(rec, "ns_per_inc_shared")),
                json_number_value(json_object_get(rec, "ns_per_inc_padded")),
                json_number_value(json_object_get(rec, "slowdown")));
    else
        fprintf(f, "%.0f hand-offs/s (%.1f ns each)\n",
                json_number_value(json_object_get(rec, "handoffs_per_s")),
                json_number_value(json_object_get(rec, "ns_per_handoff")));
}

/* A myth verdict in one line, with its evidence. */
static void hb_table_verdict(FILE *f, json_t *rec)
{
    char *evidence = json_dumps(json_object_get(rec, "evidence"), JSON_COMPACT);
    fprintf(f, "myth %lld \"%s\" [%s, %s %s, %s",
            (long long)json_integer_value(json_object_get(rec, "myth")),
            hb_rec_str(rec, "claim", ""), hb_rec_str(rec, "case", ""),
            hb_rec_str(rec, "bg_level", ""), hb_rec_str(rec, "subscription", ""),
            hb_rec_str(rec, "access", ""));
    if (json_is_integer(json_object_get(rec, "hops")))
        fprintf(f, ", hop class %lld", (long long)json_integer_value(json_object_get(rec, "hops")));
    /* Older files have holds alone; inconclusive: a difference within the figures' noise. */
    const char *verdict = hb_rec_str(
        rec, "verdict", json_is_true(json_object_get(rec, "holds")) ? "holds" : "does not hold");
    fprintf(f, "]: %s, spread %.1f%% (tolerance %g%%); evidence %s", verdict,
            json_number_value(json_object_get(rec, "spread_pct")),
            json_number_value(json_object_get(rec, "tolerance_pct")), evidence ? evidence : "");
    free(evidence);
    /* The two figures the spread is between, with their intervals over the repeats. */
    size_t i;
    json_t *fig;
    json_array_foreach(json_object_get(rec, "figures"), i, fig)
    {
        fprintf(f, "%s %s %.1f%%", i ? "," : "; figures", hb_rec_str(fig, "label", ""),
                hb_rec_num(fig, "pct_of_local_read", NAN));
        json_t *ci = json_object_get(fig, "ci95");
        if (json_is_array(ci))
            fprintf(f, " [%.1f, %.1f]", json_number_value(json_array_get(ci, 0)),
                    json_number_value(json_array_get(ci, 1)));
    }
    fputc('\n', f);
}

/* Peak injection bandwidth: the nodes' figures and the machine's total. */
static void hb_table_peak(FILE *f, json_t *rec)
{
    char *nodes = json_dumps(json_object_get(rec, "nodes"), JSON_COMPACT);
    char *bws =
        json_dumps(json_object_get(rec, "node_GBps"), JSON_REAL_PRECISION(4) | JSON_COMPACT);
    const char *note = hb_rec_str(rec, "note", "");
    fprintf(f, "peak %s %s on %s: nodes %s %s GB/s, total %.2f GB/s (overlap %.2f)%s%s\n",
            hb_rec_str(rec, "kernel", ""), hb_rec_str(rec, "policy", ""),
            hb_rec_str(rec, "host", ""), nodes ? nodes : "", bws ? bws : "",
            json_number_value(json_object_get(rec, "total_GBps")),
            json_number_value(json_object_get(rec, "fg_overlap")), note[0] ? ": " : "", note);
    free(nodes);
    free(bws);
}

/* Loaded latency: the load at which latency doubles. */
static void hb_table_loaded_knee(FILE *f, json_t *rec)
{
    json_t *v = json_object_get(rec, "value");
    if (json_is_number(v))
        fprintf(f, "knee %lld -> %lld: latency doubles at %.2f GB/s of load\n",
                (long long)json_integer_value(json_object_get(rec, "cpu_node")),
                (long long)json_integer_value(json_object_get(rec, "mem_node")),
                json_number_value(v));
    else
        fprintf(f, "knee %lld -> %lld: %s (up to %.2f GB/s of load)\n",
                (long long)json_integer_value(json_object_get(rec, "cpu_node")),
                (long long)json_integer_value(json_object_get(rec, "mem_node")),
                hb_rec_str(rec, "note", ""),
                json_number_value(json_object_get(rec, "max_total_GBps")));
}

/* The run's counts, and what the intervals of its rows were (hb_coverage.h). */
static void hb_table_summary(FILE *f, json_t *rec)
{
    char cov[HB_COVERAGE_LABEL_LEN];
    fprintf(f,
            "# %s: %lld experiments, %lld measurements: %lld ok, %lld failed, %lld noisy, "
            "%.1f s",
            hb_rec_str(rec, "suite", ""),
            (long long)json_integer_value(json_object_get(rec, "experiments")),
            (long long)json_integer_value(json_object_get(rec, "measurements")),
            (long long)json_integer_value(json_object_get(rec, "ok")),
            (long long)json_integer_value(json_object_get(rec, "failed")),
            (long long)json_integer_value(json_object_get(rec, "noisy")),
            json_number_value(json_object_get(rec, "elapsed_s")));
    if (hb_coverage_any(&hb_table_cov))
        fprintf(f, "; \xC2\xB1 CI: %s", hb_coverage_label(&hb_table_cov, cov, sizeof(cov)));
    fputc('\n', f);
    hb_table_cov = (struct hb_coverage){0};
    hb_table_said[0] = '\0';
}

static void hb_table_print_clean(FILE *f, json_t *rec);

void hb_table_print(FILE *f, json_t *rec)
{
    /* A string from argv or a scenario may hold a newline: rows stay one line each. */
    json_t *clean = hb_json_esc_lines(rec);
    hb_table_print_clean(f, clean ? clean : rec);
    json_decref(clean);
}

static void hb_table_print_clean(FILE *f, json_t *rec)
{
    const char *type = hb_rec_str(rec, "type", "");
    if (strcmp(type, "run") == 0)
        hb_table_run(f, rec);
    else if (strcmp(type, "topology") == 0)
        hb_table_topology(f, rec);
    else if (strcmp(type, "measurement") == 0)
        hb_table_measurement(f, rec);
    else if (strcmp(type, "matrix") == 0)
        hb_table_matrix(f, rec);
    else if (strcmp(type, "comm_matrix") == 0)
        hb_table_comm_matrix(f, rec);
    else if (strcmp(type, "comm_bg") == 0)
        hb_table_comm_bg(f, rec);
    else if (strcmp(type, "comm_links") == 0)
        hb_table_comm_links(f, rec);
    else if (strcmp(type, "comm_nic") == 0)
        hb_table_comm_nic(f, rec);
    else if (strcmp(type, "fleet") == 0)
        hb_table_fleet(f, rec);
    else if (strcmp(type, "tiers") == 0)
        hb_table_tiers(f, rec);
    else if (strcmp(type, "gain") == 0)
        hb_table_gain(f, rec);
    else if (strcmp(type, "knee") == 0 && strcmp(hb_rec_str(rec, "curve", ""), "intensity") == 0)
        hb_table_knee(f, rec);
    else if (strcmp(type, "knee") == 0)
        hb_table_loaded_knee(f, rec);
    else if (strcmp(type, "peak") == 0)
        hb_table_peak(f, rec);
    else if (strcmp(type, "verdict") == 0)
        hb_table_verdict(f, rec);
    else if (strcmp(type, "c2c_false_sharing") == 0 || strcmp(type, "c2c_lock") == 0)
        hb_table_c2c(f, rec);
    else if (strcmp(type, "note") == 0 &&
             (!hb_table_hmat_said || strcmp(hb_rec_str(rec, "about", ""), "hmat") != 0))
        fprintf(f, "note: %s\n", hb_rec_str(rec, "text", ""));
    else if (strcmp(type, "summary") == 0)
        hb_table_summary(f, rec);
}
