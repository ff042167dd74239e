/* `hopbench history` (hb_history.h): its options read once for all three subcommands, each
 * refusing those it has no use for; add's loop over files in one transaction, so that a bad
 * file leaves the database as it was. */
#include "hb_history.h"

#include "hb_args.h"
#include "hb_changepoint.h"
#include "hb_error.h"
#include "hb_strf.h"
#include "hb_history_add.h"
#include "hb_history_db.h"
#include "hb_history_schema.h"
#include "hb_option_values.h"
#include "hb_outfile.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char hb_history_operands[] = "add FILE... | check | export";

static const char *const history_formats[] = {"table", "csv", "jsonl", "influx", "grafana", NULL};

const struct hb_opt_doc hb_history_opts[] = {
    {"db", 0, 0, "PATH|URL", HB_COMPLETE_FILE, NULL,
     "the history: an SQLite file (default $HOPBENCH_HISTORY, else ./" HB_HISTORY_DEFAULT_DB
     "; not on NFS or Lustre) or postgresql://USER@HOST/DB for a fleet's collectors"},
    {"busy-timeout", 0, 0, "MS", HB_COMPLETE_NONE, NULL,
     "how long to wait for another writer's lock before giving up with exit 3 (default 5000)"},
    {"host", 0, 0, "H", HB_COMPLETE_NONE, NULL, "check, export: only the series of host H"},
    {"match", 0, 0, "PATTERN", HB_COMPLETE_NONE, NULL,
     "check, export: only the series whose \"identity metric\" matches the shell glob PATTERN "
     "('bw *triad* bandwidth')"},
    {"since", 0, 0, "DATE", HB_COMPLETE_NONE, NULL,
     "check, export: only runs from DATE on (2026-11-01 or 2026-11-01T06:00:00Z, UTC)"},
    {"recent", 0, 0, "N", HB_COMPLETE_NONE, NULL,
     "check: exit 1 when a worse change point falls in the last N runs of its series "
     "(default 1: the night's run)"},
    {"window", 0, 0, "N", HB_COMPLETE_NONE, NULL,
     "check, export grafana: points E-divisive looks at at once (default 50)"},
    {"min-change", 0, 0, "PCT", HB_COMPLETE_NONE, NULL,
     "check, export grafana: the least change, in percent, a change point must show (default: "
     "compare's --threshold)"},
    {"fdr", 0, 0, "Q", HB_COMPLETE_NONE, NULL,
     "check, export grafana: the false discovery rate over all series, Benjamini-Hochberg "
     "(default 0.05)"},
    {"format", 0, 0, "F", HB_COMPLETE_WORDS, history_formats,
     "{values}: check writes table, csv or jsonl, as compare (default: from -o FILE's name, "
     ".jsonl or .json: jsonl, .csv: csv, else table); export writes influx (InfluxDB line "
     "protocol, the default), csv (the default for -o NAME.csv), or grafana (the change points "
     "as Grafana annotations, JSON)"},
    {"output", 'o', 'o', "FILE", HB_COMPLETE_FILE, NULL, HB_OPT_OUTPUT_HELP},
    {NULL, 0, 0, NULL, HB_COMPLETE_NONE, NULL, NULL},
};

/* Which subcommand takes which option (add: the database only). */
static const struct {
    const char *sub;
    const char *const *takes;
} history_subs[] = {
    {"add", (const char *const[]){"db", "busy-timeout", NULL}},
    {"check", (const char *const[]){"db", "busy-timeout", "host", "match", "since", "recent",
                                    "window", "min-change", "fdr", "format", "output", NULL}},
    {"export", (const char *const[]){"db", "busy-timeout", "host", "match", "since", "window",
                                     "min-change", "fdr", "format", "output", NULL}},
};

static bool takes(const char *const *list, const char *name)
{
    for (; *list; list++)
        if (strcmp(*list, name) == 0) return true;
    return false;
}

int hb_history_since(const char *opt, const char *text, long long *out)
{
    static const char *const forms[] = {"%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d",
                                        NULL};
    for (int i = 0; forms[i]; i++) {
        struct tm tmv = {0};
        const char *end = strptime(text, forms[i], &tmv);
        if (end && !*end) {
            *out = (long long)timegm(&tmv);
            return 0;
        }
    }
    hb_error_set("%s '%s' is not a date: give 2026-11-01 or 2026-11-01T06:00:00Z (UTC)", opt, text);
    return -EINVAL;
}

/* The values of the options given, checked. */
struct given {
    const char *busy, *since, *recent, *window, *min_change, *fdr, *format;
};

/* Without --format, -o FILE's name says it, as for compare: .jsonl or .json JSON Lines, .csv
 * CSV (export: .csv CSV, any other name line protocol). */
static int format_of_name(struct hb_history_opts *o, bool exporting)
{
    enum hb_format f;
    if (!o->output || !hb_format_of_name(o->output, &f)) return 0;
    if (exporting)
        o->exporting = f == HB_FORMAT_CSV ? HB_HISTORY_CSV : o->exporting;
    else
        o->format = f;
    return 0;
}

static int check_values(const struct given *g, struct hb_history_opts *o)
{
    int rc = 0, v = 0;
    double x;
    if (g->busy && (rc = hb_option_values_parse_int("--busy-timeout", g->busy, 0, INT_MAX,
                                                    "milliseconds, 0 or more", &v)) == 0)
        o->busy_ms = v;
    if (rc == 0 && g->since) rc = hb_history_since("history: --since", g->since, &o->since);
    if (rc == 0 && g->recent &&
        (rc = hb_option_values_parse_int("--recent", g->recent, 1, INT_MAX, "runs, 1 or more",
                                         &v)) == 0)
        o->recent = (size_t)v;
    if (rc == 0 && g->window &&
        (rc = hb_option_values_parse_int("--window", g->window, 8, HB_CHANGEPOINT_MAX_WINDOW,
                                         "points, 8 to 1000", &v)) == 0)
        o->window = (size_t)v;
    if (rc == 0 && g->min_change &&
        (rc = hb_option_values_parse_double("--min-change", g->min_change, 0, 1000,
                                            "percent, 0 to 1000", &x)) == 0)
        o->min_change = x;
    if (rc == 0 && g->fdr &&
        (rc = hb_option_values_parse_double("--fdr", g->fdr, 1e-6, 0.5,
                                            "a rate from 0.000001 to 0.5", &x)) == 0)
        o->fdr = x;
    bool exporting = strcmp(o->sub, "export") == 0;
    if (rc || !g->format) return rc ? rc : format_of_name(o, exporting);
    rc = hb_option_values_parse_enum("--format", g->format, history_formats, &v);
    if (rc == 0 && exporting == (v < HB_FORMAT_COUNT) && !(exporting && v == HB_FORMAT_CSV)) {
        hb_error_set("history %s: --format '%s' is not one of its formats: give %s", o->sub,
                     g->format, exporting ? "influx, csv or grafana" : "table, csv or jsonl");
        rc = -EINVAL;
    }
    if (exporting)
        o->exporting = v == HB_FORMAT_CSV     ? HB_HISTORY_CSV
                       : v == HB_FORMAT_COUNT ? HB_HISTORY_INFLUX
                                              : HB_HISTORY_GRAFANA;
    else
        o->format = (enum hb_format)v;
    return rc;
}

/* The subcommand, its files and its options; -EINVAL naming what does not fit. */
static int parse(int argc, char **argv, struct hb_history_opts *o, const char **words)
{
    struct hb_changepoint_params cp = hb_changepoint_defaults();
    const char *env = getenv("HOPBENCH_HISTORY");
    *o = (struct hb_history_opts){.db = NULL,
                                  .busy_ms = HB_HISTORY_BUSY_MS,
                                  .since = LLONG_MIN,
                                  .window = cp.window,
                                  .recent = cp.recent,
                                  .min_change = cp.min_change,
                                  .fdr = cp.fdr,
                                  .format = HB_FORMAT_TABLE,
                                  .exporting = HB_HISTORY_INFLUX};
    struct given g = {0};
    const struct hb_arg places[] = {
        {"db", &o->db, NULL, NULL},         {"busy-timeout", &g.busy, NULL, NULL},
        {"host", &o->host, NULL, NULL},     {"match", &o->match, NULL, NULL},
        {"since", &g.since, NULL, NULL},    {"recent", &g.recent, NULL, NULL},
        {"window", &g.window, NULL, NULL},  {"min-change", &g.min_change, NULL, NULL},
        {"fdr", &g.fdr, NULL, NULL},        {"format", &g.format, NULL, NULL},
        {"output", &o->output, NULL, NULL}, {NULL, NULL, NULL, NULL}};
    int n = 0;
    int rc = hb_args_parse(argc, argv, hb_history_operands, hb_history_opts, places, words, &n);
    if (rc) return rc;
    const char *usage = hb_args_usage("history", hb_history_operands);
    size_t sub = 0, nsubs = sizeof(history_subs) / sizeof(history_subs[0]);
    while (n > 0 && sub < nsubs && strcmp(history_subs[sub].sub, words[0]) != 0)
        sub++;
    if (n == 0 || sub == nsubs) {
        hb_error_set("history: %s%s%s: give add, check or export; %s", n ? "'" : "",
                     n ? words[0] : "no subcommand", n ? "' is none of its subcommands" : "",
                     usage);
        return -EINVAL;
    }
    o->sub = history_subs[sub].sub;
    o->files = words + 1;
    o->nfiles = n - 1;
    if (sub == 0 ? o->nfiles == 0 : o->nfiles > 0) {
        hb_error_set(sub == 0 ? "history add: no result file given; %s"
                              : "history %s: unexpected argument '%s': it reads no file; %s",
                     sub == 0 ? usage : o->sub, sub == 0 ? "" : o->files[0], usage);
        return -EINVAL;
    }
    /* An option of another subcommand is a mistake, not something to ignore. */
    for (const struct hb_arg *at = places; at->name; at++)
        if (*at->value && !takes(history_subs[sub].takes, at->name)) {
            char list[512] = "";
            for (const char *const *t = history_subs[sub].takes; *t; t++)
                snprintf(list + strlen(list), sizeof(list) - strlen(list), " --%s", *t);
            hb_error_set("history %s: --%s is not one of its options (it takes%s)", o->sub,
                         at->name, list);
            return -EINVAL;
        }
    if (!o->db) o->db = env && env[0] ? env : HB_HISTORY_DEFAULT_DB;
    return check_values(&g, o);
}

/* The SQLite file an add made, and its journal files. */
static void unlink_made(const char *path)
{
    static const char *const ends[] = {"", "-wal", "-shm", "-journal"};
    for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
        char *name = hb_strf("%s%s", path, ends[i]);
        if (name) unlink(name);
        free(name);
    }
}

/* add: every file in one transaction, stored or refused together. */
static int history_add(const struct hb_history_opts *o)
{
    struct hb_history_db *db = NULL;
    const struct hb_history_db_how how = {o->busy_ms, true};
    /* A file this add makes is gone again when the add fails: bad input changes nothing. */
    bool made = !hb_history_db_is_url(o->db) && access(o->db, F_OK) != 0;
    int rc = hb_history_db_open(o->db, &how, &db);
    if (rc == 0) rc = hb_history_db_begin(db);
    if (rc == 0) rc = hb_history_schema_ready(db, true);
    struct hb_history_added *added = calloc((size_t)o->nfiles + 1, sizeof(*added));
    if (rc == 0 && !added) {
        hb_error_set("history add: out of memory");
        rc = -ENOMEM;
    }
    for (int i = 0; rc == 0 && i < o->nfiles; i++)
        rc = hb_history_add_file(db, o->files[i], &added[i]);
    if (rc == 0) rc = hb_history_db_commit(db);
    if (rc && db) hb_history_db_rollback(db);
    for (int i = 0; rc == 0 && i < o->nfiles; i++) {
        const struct hb_history_added *a = &added[i];
        if (a->hosts_new)
            printf("%s: stored in %s: %ld host%s, %ld points%s\n", o->files[i],
                   hb_history_db_name(db), a->hosts_new, a->hosts_new == 1 ? "" : "s", a->points,
                   a->hosts_seen ? " (other hosts held already)" : "");
        else if (!a->hosts_unhealthy)
            printf("%s: held already in %s (the same run)\n", o->files[i], hb_history_db_name(db));
        if (a->hosts_unhealthy)
            printf("%s: %ld host%s left out: %s check was not healthy (check --history judges "
                   "against healthy points only)\n",
                   o->files[i], a->hosts_unhealthy, a->hosts_unhealthy == 1 ? "" : "s",
                   a->hosts_unhealthy == 1 ? "its" : "their");
        if (a->skipped)
            fprintf(stderr,
                    "hopbench: warning: %s: %ld measurement records not stored (unusable or "
                    "repeated identities; compare names them)\n",
                    o->files[i], a->skipped);
    }
    free(added);
    hb_history_db_close(db);
    if (rc && made) unlink_made(o->db);
    return rc;
}

int hb_history_main(int argc, char **argv)
{
    const char **words = calloc((size_t)argc + 1, sizeof(*words));
    struct hb_history_opts o;
    int rc = words ? parse(argc, argv, &o, words) : -ENOMEM;
    if (!words) hb_error_set("history: out of memory reading %d arguments", argc);
    int code = HB_EXIT_OK;
    if (rc == 0 && strcmp(o.sub, "add") == 0)
        rc = history_add(&o);
    else if (rc == 0 && strcmp(o.sub, "check") == 0)
        code = hb_history_check(&o);
    else if (rc == 0)
        rc = hb_history_export(&o);
    if (rc) {
        hb_error_print(rc);
        code = hb_error_exit_code(rc);
    }
    free(words);
    return code;
}
