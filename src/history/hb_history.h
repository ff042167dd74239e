/* `hopbench history add|check|export`: every run kept in a database (SQLite by default,
 * PostgreSQL for a fleet), change points found in each series and named, and the series
 * handed to dashboards. docs/history.md. */
#ifndef HB_HISTORY_H
#define HB_HISTORY_H

#include "hb_opt_doc.h"
#include "hb_sink.h"

#include <jansson.h>

#include <stdbool.h>
#include <stddef.h>

/* argv[0] is "history", argv[1] the subcommand. Returns the exit code: add 0 (stored, or held
 * already); check 0, or 1 when a worse change point falls in the last --recent runs of its
 * series; 2 bad usage or input (the database untouched); 3 a database that cannot be
 * written or reached. */
int hb_history_main(int argc, char **argv);

/* Its usage line's operands and its options (hb_args.h), as its help lists them. */
extern const char hb_history_operands[];
extern const struct hb_opt_doc hb_history_opts[];

/* The default database: $HOPBENCH_HISTORY, else this file in the current folder. */
#define HB_HISTORY_DEFAULT_DB "hopbench-history.sqlite"

/* How long to wait for another writer's lock by default (--busy-timeout), in ms. */
#define HB_HISTORY_BUSY_MS 5000

/* --since's DATE (2026-11-01 or 2026-11-01T06:00:00Z, UTC) as unix seconds: 0, or -EINVAL
 * with a message naming opt and the text. */
int hb_history_since(const char *opt, const char *text, long long *out);

/* export's formats, in --format's words after the sink's (table, csv, jsonl). */
enum hb_history_export_format { HB_HISTORY_INFLUX, HB_HISTORY_CSV, HB_HISTORY_GRAFANA };

/* What the subcommands read from the command line. */
struct hb_history_opts {
    const char *sub; /* add, check or export */
    const char **files;
    int nfiles;
    const char *db;
    long busy_ms;
    /* Which series: --host (exact), --match (a glob over "identity metric"), --since. */
    const char *host, *match;
    long long since; /* unix seconds; LLONG_MIN: all */
    /* check: the change-point engine's settings; the gate's window (--recent). */
    size_t window, recent;
    double min_change, fdr;
    enum hb_format format;                   /* check */
    enum hb_history_export_format exporting; /* export */
    const char *output;                      /* -o FILE, or NULL: stdout */
};

/* check's change points that pass the FDR, as its rows (type change_point), appended to the
 * JSON array rows: export grafana's. 0 or -errno with a message. */
struct hb_history_db;
int hb_history_check_change_rows(struct hb_history_db *db, const struct hb_history_opts *o,
                                 json_t *rows);

/* The subcommands, the database named by o->db (open and closed here). */
int hb_history_check(const struct hb_history_opts *o);
int hb_history_export(const struct hb_history_opts *o);

#endif
