/* Report section of the machines the results ran on: each distinct machine (hosts and
 * topology) once, with the files that ran there, and folded under them its nodes and
 * distances and the run settings (one value when every file agrees, else each file's); then
 * the notes. */
#include "hb_report_kit.h"
#include "hb_report_sections.h"

#include <stdlib.h>
#include <string.h>

static void report_matrix_table(FILE *f, const char *name, const json_t *m)
{
    if (!json_is_array(m)) return;
    size_t width = 0, r;
    json_t *row;
    json_array_foreach(m, r, row) if (json_array_size(row) > width) width = json_array_size(row);
    if (hb_report_kit_too_big(f, name, m, json_array_size(m), width)) return;
    fprintf(f, "<table><tr><th>%s</th>", name);
    for (size_t c = 0; c < json_array_size(m); c++)
        fprintf(f, "<th>%zu</th>", c);
    fputs("</tr>\n", f);
    json_array_foreach(m, r, row)
    {
        fprintf(f, "<tr><th>%zu</th>", r);
        size_t c;
        json_t *v;
        json_array_foreach(row, c, v) hb_report_data_cell(f, v);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

/* What the machine cannot show (the notes every run of a one-node machine carries): each
 * distinct text once, however many result files repeat it, at most HB_REPORT_MAX_PANELS. */
static void report_notes(FILE *f, const struct hb_report_in *in, int nin)
{
    struct hb_strtab seen = {0};
    struct hb_rbudget b = {0};
    for (int i = 0; i < nin; i++)
        for (uint32_t id = 0; id < in[i].notes.n; id++) {
            const char *text = hb_strtab_get(&in[i].notes, id);
            uint32_t n = seen.n;
            if (hb_strtab_add(&seen, text, strlen(text)) == HB_STRTAB_NONE) break;
            if (seen.n == n || !hb_report_data_budget_take(&b, 1, HB_REPORT_MAX_PANELS)) continue;
            fputs("<p class=\"note\">", f);
            hb_escape_html(f, text);
            fputs("</p>\n", f);
        }
    hb_strtab_free(&seen);
    hb_report_kit_left_out(f, 0, &b, "notes", nin == 1 ? in[0].res.path : NULL,
                           "select(.type == \"note\" and has(\"text\")) | .text");
}

/* What tells machines apart: the hosts and each node's CPUs and memory. A new string to free;
 * NULL when out of memory. */
static char *machine_key(const json_t *run)
{
    json_t *nodes = json_array(), *key = NULL;
    size_t n;
    json_t *node;
    json_array_foreach(json_object_get(json_object_get(run, "topology"), "nodes"), n, node)
        json_array_append_new(nodes, json_pack("[O?, O?, O?]", json_object_get(node, "os_index"),
                                               json_object_get(node, "cpus"),
                                               json_object_get(node, "mem_bytes")));
    key = json_pack("[O?, o]", json_object_get(run, "hosts"), nodes);
    char *s = key ? json_dumps(key, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(key);
    return s;
}

/* The run record's settings, named in words. */
static const char *const machine_rows[][2] = {
    {"hosts", "hosts"},
    {"ranks", "MPI ranks"},
    {"hopbench_version", "hopbench version"},
    {"git_sha", "git commit"},
    {"command_line", "command line"},
    {"start_time", "started"},
    {"versions", "library versions"},
    {"build", "build"},
    {"simd", "SIMD path"},
    {"omp", "OpenMP"},
    {"thp", "THP"},
    {"numa_balancing", "NUMA balancing"},
    {"sizes", "sizes"},
    {"caches", "CPU caches"},
    {"timer", "timer"},
};

/* A setting as a cell; the kernel's NUMA balancing mode (/proc/sys/kernel/numa_balancing)
 * in words. */
static void machine_cell(FILE *f, const char *key, const json_t *v)
{
    static const char *const modes[] = {"off", "on", "memory tiering", "on and memory tiering"};
    /* A number since the configuration capture; a string in files from before. */
    const char *s = json_string_value(v);
    long long m = json_is_integer(v)                         ? json_integer_value(v)
                  : s && s[0] >= '0' && s[0] <= '3' && !s[1] ? s[0] - '0'
                                                             : -1;
    const json_t *g = json_object_get(v, "granularity_s");
    if (strcmp(key, "numa_balancing") == 0 && m >= 0 && m <= 3) {
        fprintf(f, "<td>%s (%lld)</td>", modes[m], m);
    } else if (strcmp(key, "timer") == 0 && json_is_number(g)) {
        /* The clock's name and its step in ns, not seconds in e-notation. */
        fputs("<td>", f);
        hb_escape_html(f, hb_jsonl_read_str(v, "clock", "?"));
        fprintf(f, ", %.0f ns between two readings</td>", json_number_value(g) * 1e9);
    } else
        hb_report_data_cell_key(f, key, v);
}

/* A setting of the files of one machine (their ids in at[], n of them): one cell when they
 * agree, else each file's value under its name. */
static void machine_row(FILE *f, const struct hb_report_in *in, const int *at, int n, int r)
{
    const char *key = machine_rows[r][0];
    const json_t *first = json_object_get(in[at[0]].res.run, key);
    bool same = true;
    for (int k = 1; k < n; k++)
        same &= json_equal(first, json_object_get(in[at[k]].res.run, key)) ||
                (!first && !json_object_get(in[at[k]].res.run, key));
    fprintf(f, "<tr><th>%s</th>", machine_rows[r][1]);
    if (same) {
        machine_cell(f, key, first);
        fputs("</tr>\n", f);
        return;
    }
    fputs("<td class=\"kv\"><table class=\"perfile\">", f);
    for (int k = 0; k < n; k++) {
        const char *base = strrchr(in[at[k]].res.path, '/');
        fputs("<tr><th>", f);
        hb_escape_html(f, base ? base + 1 : in[at[k]].res.path);
        fputs("</th>", f);
        machine_cell(f, key, json_object_get(in[at[k]].res.run, key));
        fputs("</tr>", f);
    }
    fputs("</table></td></tr>\n", f);
}

/* The panel of one machine: the files at[] (n) that ran on it. */
static void machine_panel(FILE *f, const struct hb_report_in *in, const int *at, int n)
{
    const json_t *run = in[at[0]].res.run;
    fputs("<div class=\"panel machine\"><h3>", f);
    hb_report_data_value_text(f, "hosts", json_object_get(run, "hosts"));
    fprintf(f, " <small>(%d results file%s)</small></h3>\n<p class=\"files\">", n,
            n == 1 ? "" : "s");
    for (int k = 0; k < n; k++) {
        const char *base = strrchr(in[at[k]].res.path, '/');
        fputs(k ? ", " : "", f);
        hb_escape_html(f, base ? base + 1 : in[at[k]].res.path);
    }
    /* Folded: the results come first; who wants the machine's details opens them. */
    fputs("</p>\n<details><summary>settings, configuration, nodes and distances</summary>\n"
          "<table>\n",
          f);
    for (int r = 0; r < (int)(sizeof(machine_rows) / sizeof(machine_rows[0])); r++)
        machine_row(f, in, at, n, r);
    fputs("</table>\n", f);
    hb_report_config(f, in, at, n);
    const json_t *topo = json_object_get(run, "topology");
    fputs("<table><tr><th>node</th><th>cpus</th><th>memory GiB</th></tr>\n", f);
    size_t k;
    json_t *node;
    const json_t *nodes = json_object_get(topo, "nodes");
    json_array_foreach(nodes, k, node)
    {
        if (k >= HB_REPORT_MAX_ROWS) break;
        fputs("<tr>", f);
        hb_report_data_cell(f, json_object_get(node, "os_index"));
        hb_report_data_cell(f, json_object_get(node, "cpus"));
        fprintf(f, "<td>%.1f</td></tr>\n", hb_jsonl_read_num(node, "mem_bytes", 0) / 1073741824.0);
    }
    fputs("</table>\n", f);
    hb_report_kit_left_out_n(f, json_array_size(nodes), HB_REPORT_MAX_ROWS, "nodes",
                             in[at[0]].res.path, "select(.type == \"run\") | .topology.nodes[]?");
    if (!json_is_array(json_object_get(topo, "distances")))
        fputs("<p>No firmware distance matrix.</p>\n", f);
    report_matrix_table(f, "distance", json_object_get(topo, "distances"));
    report_matrix_table(f, "hop class", json_object_get(topo, "hop_class"));
    fputs("</details></div>\n", f);
}

void hb_report_machine(FILE *f, const struct hb_report_in *in, int nin)
{
    char **keys = calloc((size_t)nin + 1, sizeof(*keys));
    int *at = malloc(((size_t)nin + 1) * sizeof(*at));
    bool *done = calloc((size_t)nin + 1, sizeof(*done));
    bool any = false;
    for (int i = 0; keys && i < nin; i++)
        if (in[i].res.run) {
            keys[i] = machine_key(in[i].res.run);
            any |= keys[i] != NULL;
        }
    if (any && at && done) {
        fputs("<section id=\"machine\"><h2>Machine</h2><div class=\"row\">\n", f);
        /* Each machine once, with every file that ran on it, in order of first appearance. */
        for (int i = 0; i < nin; i++) {
            if (!keys[i] || done[i]) continue;
            int n = 0;
            for (int j = i; j < nin; j++)
                if (keys[j] && !done[j] && strcmp(keys[i], keys[j]) == 0) {
                    done[j] = true;
                    at[n++] = j;
                }
            machine_panel(f, in, at, n);
        }
        fputs("</div>\n", f);
        report_notes(f, in, nin);
        fputs("</section>\n", f);
    }
    for (int i = 0; keys && i < nin; i++)
        free(keys[i]);
    free(keys);
    free(at);
    free(done);
}
