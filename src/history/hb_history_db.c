/* The history's database, whichever backend holds it (hb_history_db.h): the URL or file
 * name picks SQLite or PostgreSQL, and each call goes to that backend's table. */
#include "hb_history_db.h"

#include "hb_error.h"
#include "hb_strf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool hb_history_db_is_url(const char *where)
{
    return strncmp(where, "postgresql://", 13) == 0 || strncmp(where, "postgres://", 11) == 0;
}

/* where without a URL's password (postgresql://user:secret@host -> postgresql://user@host). */
static char *hdb_shown(const char *where)
{
    const char *scheme = strstr(where, "://"), *at = strchr(where, '@');
    const char *colon = scheme ? strchr(scheme + 3, ':') : NULL;
    if (!hb_history_db_is_url(where) || !at || !colon || colon > at) return strdup(where);
    return hb_strf("%.*s%s", (int)(colon - where), where, at);
}

int hb_history_db_open(const char *where, const struct hb_history_db_how *how,
                       struct hb_history_db **out)
{
    struct hb_history_db *db = calloc(1, sizeof(*db));
    if (db) db->name = hdb_shown(where);
    if (!db || !db->name) {
        free(db);
        hb_error_set("history: out of memory opening %s", where);
        return -ENOMEM;
    }
    db->pg = hb_history_db_is_url(where);
    int rc = db->pg ? hb_history_pg_open(where, how, db) : hb_history_sqlite_open(where, how, db);
    if (rc) {
        free(db->name);
        free(db);
        return rc;
    }
    *out = db;
    return 0;
}

const char *hb_history_db_name(const struct hb_history_db *db)
{
    return db->name;
}

bool hb_history_db_is_pg(const struct hb_history_db *db)
{
    return db->pg;
}

int hb_history_db_query(struct hb_history_db *db, const char *sql, int n, const char *const *params,
                        struct hb_history_db_rows **rows)
{
    return db->ops->query(db, sql, n, params, rows);
}

int hb_history_db_exec(struct hb_history_db *db, const char *sql)
{
    return db->ops->query(db, sql, 0, NULL, NULL);
}

int hb_history_db_begin(struct hb_history_db *db)
{
    return hb_history_db_exec(db, db->ops->begin_sql);
}

int hb_history_db_commit(struct hb_history_db *db)
{
    return hb_history_db_exec(db, "COMMIT");
}

void hb_history_db_rollback(struct hb_history_db *db)
{
    /* The caller's error is the one to report: keep its message. */
    char *msg = strdup(hb_error_msg());
    (void)hb_history_db_exec(db, "ROLLBACK");
    hb_error_set("%s", msg ? msg : "history: out of memory");
    free(msg);
}

int hb_history_db_next(struct hb_history_db_rows *rows)
{
    return rows->ops->next(rows);
}

const char *hb_history_db_text(struct hb_history_db_rows *rows, int col)
{
    return rows->ops->text(rows, col);
}

double hb_history_db_real(struct hb_history_db_rows *rows, int col)
{
    return rows->ops->real(rows, col);
}

long long hb_history_db_int(struct hb_history_db_rows *rows, int col)
{
    return rows->ops->integer(rows, col);
}

void hb_history_db_rows_free(struct hb_history_db_rows *rows)
{
    if (rows) rows->ops->rows_free(rows);
}

void hb_history_db_close(struct hb_history_db *db)
{
    if (!db) return;
    db->ops->close(db);
    free(db->name);
    free(db);
}
