/* The history's tables made and checked (hb_history_schema.h): one list of statements per
 * backend, the same tables and columns in both. */
#include "hb_history_schema.h"

#include "hb_error.h"
#include "hb_strf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {sqlite, postgresql}: the few words the two spell differently. */
#define ID_KEY(pg) ((pg) ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY")
#define ROWID(pg) ((pg) ? "" : " WITHOUT ROWID")

/* The tables' statements, "%s" where ID_KEY and ROWID go. */
static const char *const tables[] = {
    "CREATE TABLE hopbench_schema (version INTEGER NOT NULL)",
    /* One row per host of a run: a fleet run's records go under their hosts. run_key is the
     * run's fingerprint: the same run added again is stored once. */
    "CREATE TABLE runs (id %s, run_key TEXT NOT NULL, host TEXT NOT NULL, "
    "start_time BIGINT NOT NULL, version TEXT, git_sha TEXT, command_line TEXT, config TEXT, "
    "UNIQUE (run_key, host))",
    "CREATE INDEX runs_host ON runs (host, start_time)",
    "CREATE TABLE series (id %s, host TEXT NOT NULL, identity TEXT NOT NULL, "
    "metric TEXT NOT NULL, unit TEXT NOT NULL, higher_is_better INTEGER NOT NULL, "
    "UNIQUE (host, identity, metric))",
    /* Clustered by series: a series' points are read together. repeats: the repeat values as
     * text, separated by spaces, each the shortest that reads back exactly. */
    "CREATE TABLE points (series_id BIGINT NOT NULL REFERENCES series (id), "
    "run_id BIGINT NOT NULL REFERENCES runs (id), value DOUBLE PRECISION NOT NULL, "
    "ci_lo DOUBLE PRECISION, ci_hi DOUBLE PRECISION, repeats TEXT, "
    "PRIMARY KEY (series_id, run_id))%s",
    NULL};

/* The names of the database's tables, one a row. */
static const char *table_list(bool pg)
{
    return pg ? "SELECT table_name FROM information_schema.tables WHERE table_schema = "
                "current_schema()"
              : "SELECT name FROM sqlite_master WHERE type = 'table'";
}

/* How many tables the database has, and whether hopbench_schema is one. */
static int tables_there(struct hb_history_db *db, long *n, bool *ours)
{
    struct hb_history_db_rows *rows = NULL;
    int rc = hb_history_db_query(db, table_list(hb_history_db_is_pg(db)), 0, NULL, &rows), more;
    *n = 0;
    *ours = false;
    while (rc == 0 && (more = hb_history_db_next(rows)) != 0) {
        if (more < 0) {
            rc = more;
            break;
        }
        const char *name = hb_history_db_text(rows, 0);
        (*n)++;
        if (name && strcmp(name, "hopbench_schema") == 0) *ours = true;
    }
    hb_history_db_rows_free(rows);
    return rc;
}

static int create_tables(struct hb_history_db *db)
{
    bool pg = hb_history_db_is_pg(db);
    int rc = 0;
    for (int i = 0; rc == 0 && tables[i]; i++) {
        /* "%s" replaced by hand: the statements are no format strings for printf to check. */
        const char *mark = strstr(tables[i], "%s");
        const char *word = strstr(tables[i], "PRIMARY KEY (") ? ROWID(pg) : ID_KEY(pg);
        char *sql = mark ? hb_strf("%.*s%s%s", (int)(mark - tables[i]), tables[i], word, mark + 2)
                         : hb_strf("%s", tables[i]);
        rc = sql ? hb_history_db_exec(db, sql) : -ENOMEM;
        if (!sql) hb_error_set("%s: out of memory", hb_history_db_name(db));
        free(sql);
    }
    char version[64];
    snprintf(version, sizeof(version), "INSERT INTO hopbench_schema VALUES (%d)",
             HB_HISTORY_SCHEMA);
    return rc ? rc : hb_history_db_exec(db, version);
}

static int check_version(struct hb_history_db *db)
{
    struct hb_history_db_rows *rows;
    int rc = hb_history_db_query(db, "SELECT max(version) FROM hopbench_schema", 0, NULL, &rows);
    if (rc) return rc;
    long long v = hb_history_db_next(rows) == 1 ? hb_history_db_int(rows, 0) : 0;
    hb_history_db_rows_free(rows);
    if (v > HB_HISTORY_SCHEMA) {
        hb_error_set("%s: its history schema is version %lld, newer than this hopbench's %d: use "
                     "the hopbench that wrote it, or a newer one",
                     hb_history_db_name(db), v, HB_HISTORY_SCHEMA);
        return -EINVAL;
    }
    if (v < 1) {
        hb_error_set("%s: its hopbench_schema table holds no version: not a hopbench history",
                     hb_history_db_name(db));
        return -EINVAL;
    }
    return 0;
}

int hb_history_schema_ready(struct hb_history_db *db, bool create)
{
    /* Two first adds at once on PostgreSQL: the second waits here for the first's tables. */
    int rc = create && hb_history_db_is_pg(db)
                 ? hb_history_db_exec(db, "SELECT pg_advisory_xact_lock(41)")
                 : 0;
    long n = 0;
    bool ours = false;
    if (rc == 0) rc = tables_there(db, &n, &ours);
    if (rc) return rc;
    if (ours) return check_version(db);
    if (n > 0) {
        hb_error_set("%s: a database of something else (%ld tables, no hopbench_schema): give "
                     "a hopbench history, or a new name for one",
                     hb_history_db_name(db), n);
        return -EINVAL;
    }
    if (!create) {
        hb_error_set("%s: holds no history yet: hopbench history add makes it",
                     hb_history_db_name(db));
        return -ENOENT;
    }
    return create_tables(db);
}
