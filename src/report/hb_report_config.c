/* The Machine panel's configuration (hb_report_sections.h): each knob of the runs' config in
 * words, one column when the files agree, else one per file with what differs from the first
 * marked; a fleet's hosts side by side (at most 8: the first and those that differ), the
 * knobs in which a host differs from the fleet's majority marked (hb_config_drift.h). */
#include "hb_report_kit.h"
#include "hb_report_sections.h"

#include "hb_config.h"
#include "hb_config_drift.h"

#include <stdlib.h>
#include <string.h>

/* Why a knob could not be read, in plain words: the record keeps the system's message
 * (a path and its errno text), which tells a reader nothing. */
static const char *config_why(const char *why)
{
    if (!why) return "not available";
    if (strstr(why, "No such file"))
        return "not available (this kernel or machine does not provide it)";
    if (strstr(why, "Permission denied") || strstr(why, "not permitted"))
        return "not available (reading it needs root)";
    return "not available (it could not be read)";
}

/* Huge pages per node ({"node0": {"2048kB": {"free": F, "total": T}}}) in words: "node 0: 2 MiB
 * pages 0 of 0 free, 1 GiB pages 0 of 0 free". False when v is not that shape. */
static bool config_hugepages(FILE *f, const json_t *v)
{
    const char *node;
    const json_t *sizes;
    bool any = false;
    json_object_foreach((json_t *)v, node, sizes)
    {
        if (!json_is_object(sizes) || strncmp(node, "node", 4) != 0) return any;
        fprintf(f, "%snode %s:", any ? "<br>" : "", node + 4);
        const char *size;
        const json_t *c;
        int k = 0;
        json_object_foreach((json_t *)sizes, size, c)
        {
            long long kb = atoll(size);
            fprintf(f, "%s %lld %s pages: %lld of %lld free", k++ ? "," : "",
                    kb >= 1048576 ? kb / 1048576
                    : kb >= 1024  ? kb / 1024
                                  : kb,
                    kb >= 1048576 ? "GiB"
                    : kb >= 1024  ? "MiB"
                                  : "KiB",
                    (long long)hb_jsonl_read_num(c, "free", 0),
                    (long long)hb_jsonl_read_num(c, "total", 0));
        }
        any = true;
    }
    return any;
}

/* One knob of a configuration as a cell: its words, or why it could not be read. */
static void config_cell(FILE *f, const json_t *config, const json_t *unreadable, const char *key,
                        bool marked)
{
    const json_t *v = json_object_get(config, key);
    const char *why = json_string_value(json_object_get(unreadable, key));
    fputs(marked ? "<td class=\"differs\">" : "<td>", f);
    if (strcmp(key, "hugepages") == 0 && json_is_object(v) && json_object_size(v) &&
        config_hugepages(f, v)) {
        fputs("</td>", f);
        return;
    }
    char *words = json_is_null(v) && why ? NULL : hb_config_diff_words(v);
    hb_escape_html(f, words ? words : config_why(why));
    fputs("</td>", f);
    free(words);
}

static const char *config_file(const struct hb_report_in *in, int i)
{
    const char *base = strrchr(in[i].res.path, '/');
    return base ? base + 1 : in[i].res.path;
}

/* hb_config_diff_fn: a knob in which a file or host differs, kept in the object ctx. */
static int config_keep(const char *key, const json_t *base, const json_t *new_, void *ctx)
{
    (void)base;
    (void)new_;
    return json_object_set_new(ctx, key, json_true());
}

/* Whether differs ({knob path: ...}) holds key or a part of it (hugepages.node0...). */
static bool config_marked(const json_t *differs, const char *key)
{
    const char *dk;
    const json_t *d;
    bool marked = false;
    size_t len = strlen(key);
    json_object_foreach((json_t *)differs, dk, d) marked |=
        strncmp(dk, key, len) == 0 && (dk[len] == '\0' || dk[len] == '.');
    return marked;
}

/* The files at[] (n) of one machine: every knob of the first file's configuration, a column
 * per file where they differ as compare sees it (hb_config_diff: not by free huge pages). */
static void config_files(FILE *f, const struct hb_report_in *in, const int *at, int n)
{
    const json_t *first = json_object_get(in[at[0]].res.run, "config");
    json_t *differs = json_array();
    bool same = true;
    for (int k = 0; differs && k < n; k++) {
        const json_t *config = json_object_get(in[at[k]].res.run, "config");
        json_t *mine = json_object();
        if (!mine || json_array_append_new(differs, mine) ||
            (k > 0 && hb_config_diff(first, config, config_keep, mine))) {
            json_decref(differs);
            differs = NULL; /* out of memory: every column, nothing marked */
        }
        /* A file from before the capture has none to agree with: its own column. */
        same = same && differs && json_is_object(config) && json_object_size(mine) == 0;
    }
    fputs("<table class=\"config\"><tr><th>configuration</th>", f);
    for (int k = 0; k < (same ? 1 : n); k++) {
        fputs("<th>", f);
        hb_escape_html(f, same ? (n == 1 ? "value" : "every file") : config_file(in, at[k]));
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)first, key, v)
    {
        fputs("<tr><th>", f);
        hb_escape_html(f, key);
        fputs("</th>", f);
        for (int k = 0; k < (same ? 1 : n); k++) {
            const json_t *run = in[at[k]].res.run;
            config_cell(f, json_object_get(run, "config"),
                        json_object_get(run, "config_unreadable"), key,
                        config_marked(json_array_get(differs, (size_t)k), key));
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
    json_decref(differs);
}

/* Hosts side by side at most: a fleet of more shows its first host and those that differ
 * from the majority (a table of 1000 columns is no page). */
#define HB_CONFIG_HOSTS 8

/* The hosts shown (indices into hosts, *n of them, malloc'd; NULL when out of memory): all of
 * them when they fit, else the first and the first ones that differ from the majority. */
static size_t *config_shown(const json_t *hosts, const json_t *drift, size_t *n, size_t *differ)
{
    size_t all = json_array_size(hosts), *at = malloc((all + 1) * sizeof(*at)), i;
    const json_t *h;
    *n = *differ = 0;
    if (!at) return NULL;
    json_array_foreach(hosts, i, h)
    {
        const json_t *mine = json_object_get(drift, hb_jsonl_read_str(h, "host", "?"));
        bool differs = json_object_size(mine) > 0;
        *differ += differs;
        if (*n < HB_CONFIG_HOSTS && (all <= HB_CONFIG_HOSTS || i == 0 || differs)) at[(*n)++] = i;
    }
    return at;
}

/* A fleet's hosts side by side, their drift from the majority marked. */
static void config_hosts(FILE *f, const json_t *hosts)
{
    json_t *drift = hb_config_drift_fleet(hosts);
    const json_t *first = json_object_get(json_array_get(hosts, 0), "config"), *v;
    size_t n, differ, *at = config_shown(hosts, drift, &n, &differ);
    if (at && n < json_array_size(hosts))
        fprintf(f,
                "<p class=\"note\">%zu hosts: shown, the first and the first of the %zu that "
                "differ from the majority in a knob (%zu of them); the others agree with the "
                "majority.</p>\n",
                json_array_size(hosts), differ, n);
    fputs("<table class=\"config\"><tr><th>configuration per host</th>", f);
    for (size_t k = 0; at && k < n; k++) {
        fputs("<th>", f);
        hb_escape_html(f, hb_jsonl_read_str(json_array_get(hosts, at[k]), "host", "?"));
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    const char *key;
    json_object_foreach((json_t *)first, key, v)
    {
        fputs("<tr><th>", f);
        hb_escape_html(f, key);
        fputs("</th>", f);
        for (size_t k = 0; at && k < n; k++) {
            const json_t *h = json_array_get(hosts, at[k]);
            const json_t *mine = json_object_get(drift, hb_jsonl_read_str(h, "host", "?"));
            config_cell(f, json_object_get(h, "config"), json_object_get(h, "config_unreadable"),
                        key, config_marked(mine, key));
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
    free(at);
    json_decref(drift);
}

void hb_report_config(FILE *f, const struct hb_report_in *in, const int *at, int n)
{
    const json_t *run = in[at[0]].res.run, *hosts = json_object_get(run, "host_configs");
    if (json_is_object(json_object_get(run, "config"))) config_files(f, in, at, n);
    if (json_array_size(hosts) > 1) config_hosts(f, hosts);
}
