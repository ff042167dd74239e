/* The history kept in PostgreSQL (hb_history_db.h), for a fleet whose collectors write at
 * once: libpq with text parameters, each add one transaction, the busy timeout as the
 * server's lock_timeout. Built without it (HB_POSTGRESQL off: the arm64 cross build), a
 * postgresql:// URL is refused in one line. */
#include "hb_history_db.h"

#include "hb_error.h"

#include <errno.h>

#if HB_POSTGRESQL
#include <libpq-fe.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pg_rows {
    struct hb_history_db_rows base;
    PGresult *res;
    int row, nrows; /* the current row (-1 before the first) and how many */
};

/* The first line of libpq's message (it ends in a newline, sometimes with a DETAIL after). */
static void pg_first_line(const char *msg, char *buf, size_t len)
{
    snprintf(buf, len, "%s", msg ? msg : "no message");
    buf[strcspn(buf, "\n")] = '\0';
}

/* A failed statement as hopbench's errno, by its SQLSTATE. */
static int pg_error(const struct hb_history_db *db, const PGresult *res)
{
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    char msg[512];
    pg_first_line(res ? PQresultErrorMessage(res) : PQerrorMessage(db->handle), msg, sizeof(msg));
    if (!state) state = "";
    if (strcmp(state, "55P03") == 0 || strcmp(state, "40P01") == 0 || strcmp(state, "40001") == 0) {
        hb_error_set("%s: locked by another writer past --busy-timeout (%s)", db->name, msg);
        return -EBUSY;
    }
    if (strcmp(state, "42501") == 0 || strcmp(state, "25006") == 0 ||
        strncmp(state, "53", 2) == 0) {
        hb_error_set("%s: cannot be written (%s)", db->name, msg);
        return -HB_EENV;
    }
    hb_error_set("%s: %s", db->name, msg);
    return -EIO;
}

static const struct hb_history_db_ops pg_ops;

static int pg_query(struct hb_history_db *db, const char *sql, int n, const char *const *params,
                    struct hb_history_db_rows **out)
{
    PGresult *res = PQexecParams(db->handle, sql, n, NULL, params, NULL, NULL, 0);
    ExecStatusType st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        int rc = pg_error(db, res);
        PQclear(res);
        return rc;
    }
    if (!out) {
        PQclear(res);
        return 0;
    }
    struct pg_rows *r = malloc(sizeof(*r));
    if (!r) {
        PQclear(res);
        hb_error_set("%s: out of memory", db->name);
        return -ENOMEM;
    }
    *r = (struct pg_rows){{&pg_ops}, res, -1, PQntuples(res)};
    *out = &r->base;
    return 0;
}

static int pg_next(struct hb_history_db_rows *rows)
{
    struct pg_rows *r = (struct pg_rows *)rows;
    if (r->row + 1 >= r->nrows) return 0;
    r->row++;
    return 1;
}

static const char *pg_text(struct hb_history_db_rows *rows, int col)
{
    struct pg_rows *r = (struct pg_rows *)rows;
    return PQgetisnull(r->res, r->row, col) ? NULL : PQgetvalue(r->res, r->row, col);
}

static double pg_real(struct hb_history_db_rows *rows, int col)
{
    const char *t = pg_text(rows, col);
    return t ? strtod(t, NULL) : NAN;
}

static long long pg_int(struct hb_history_db_rows *rows, int col)
{
    const char *t = pg_text(rows, col);
    return t ? strtoll(t, NULL, 10) : 0;
}

static void pg_rows_free(struct hb_history_db_rows *rows)
{
    struct pg_rows *r = (struct pg_rows *)rows;
    PQclear(r->res);
    free(r);
}

static void pg_close(struct hb_history_db *db)
{
    PQfinish(db->handle);
}

static const struct hb_history_db_ops pg_ops = {pg_query, "BEGIN", pg_next,      pg_text,
                                                pg_real,  pg_int,  pg_rows_free, pg_close};

/* The server's notices ("relation already exists, skipping") are not the user's business. */
static void pg_quiet(void *arg, const char *msg)
{
    (void)arg;
    (void)msg;
}

int hb_history_pg_open(const char *url, const struct hb_history_db_how *how,
                       struct hb_history_db *db)
{
    PGconn *conn = PQconnectdb(url);
    db->ops = &pg_ops;
    db->handle = conn;
    if (!conn || PQstatus(conn) != CONNECTION_OK) {
        char msg[512];
        pg_first_line(conn ? PQerrorMessage(conn) : "out of memory", msg, sizeof(msg));
        hb_error_set("%s: PostgreSQL refused the connection or cannot be reached (%s)", db->name,
                     msg);
        PQfinish(conn);
        return -ECONNREFUSED;
    }
    PQsetNoticeProcessor(conn, pg_quiet, NULL);
    char set[64];
    snprintf(set, sizeof(set), "SET lock_timeout = %ld", how->busy_ms);
    int rc = pg_query(db, set, 0, NULL, NULL);
    if (rc) PQfinish(conn);
    return rc;
}
#else
int hb_history_pg_open(const char *url, const struct hb_history_db_how *how,
                       struct hb_history_db *db)
{
    (void)url;
    (void)how;
    hb_error_set("%s: this hopbench was built without PostgreSQL (cmake -DHB_POSTGRESQL=OFF): "
                 "give an SQLite file to --db, or build with libpq",
                 db->name);
    return -EINVAL;
}
#endif
