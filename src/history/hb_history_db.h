/* The history's database behind one small interface, SQLite (a file, the default) or
 * PostgreSQL (postgresql:// or postgres:// URLs): statements with text parameters written
 * $1, $2 ... in both, rows read cell by cell. The schema (hb_history_schema.c) is the same in
 * both but for the few words each spells its own way. */
#ifndef HB_HISTORY_DB_H
#define HB_HISTORY_DB_H

#include <stdbool.h>

struct hb_hdb;
struct hb_hdb_rows;

/* What the caller asks of the database when it opens it. */
struct hb_hdb_how {
    long busy_ms; /* how long to wait for another writer's lock (--busy-timeout) */
    bool write;   /* add: the file may be made, and must be writable */
};

/* Open `where` (a PostgreSQL URL, else an SQLite file): 0 and *db, or -errno with one line
 * naming it: -EINVAL (2) for a file that is no SQLite database or sits on a network file
 * system (NFS, Lustre...: SQLite's locks are not safe there, the line names PostgreSQL),
 * -EROFS (3 via HB_EENV) for a read-only one when writing, -ECONNREFUSED for a server that
 * refuses the login or cannot be reached. */
int hb_hdb_open(const char *where, const struct hb_hdb_how *how, struct hb_hdb **db);

/* The database as given (a URL's password left out), for messages. */
const char *hb_hdb_name(const struct hb_hdb *db);

/* PostgreSQL (true) or SQLite: where the schema's words differ. */
bool hb_hdb_is_pg(const struct hb_hdb *db);

/* Run sql with its n text parameters (NULL: SQL NULL): 0 and, when rows is not NULL, the
 * rows to read with hb_hdb_next (free them with hb_hdb_rows_free); -errno with one line
 * naming the database: -EBUSY when its lock was held past the busy timeout, -EINVAL for a
 * damaged or foreign file. */
int hb_hdb_query(struct hb_hdb *db, const char *sql, int n, const char *const *params,
                 struct hb_hdb_rows **rows);

/* hb_hdb_query without parameters or rows. */
int hb_hdb_exec(struct hb_hdb *db, const char *sql);

/* Begin a write transaction (SQLite: takes the write lock now, so that two adds never
 * deadlock on upgrading theirs), commit it, or roll it back (errors ignored: the caller has
 * one already). */
int hb_hdb_begin(struct hb_hdb *db);
int hb_hdb_commit(struct hb_hdb *db);
void hb_hdb_rollback(struct hb_hdb *db);

/* The next row: 1, 0 when there are no more, -errno with a message. */
int hb_hdb_next(struct hb_hdb_rows *rows);

/* A cell of the current row: its text (NULL for SQL NULL; valid until the next row), its
 * number (NaN for NULL), its integer (0 for NULL). */
const char *hb_hdb_text(struct hb_hdb_rows *rows, int col);
double hb_hdb_real(struct hb_hdb_rows *rows, int col);
long long hb_hdb_int(struct hb_hdb_rows *rows, int col);

void hb_hdb_rows_free(struct hb_hdb_rows *rows);
void hb_hdb_close(struct hb_hdb *db);

/* The backends (hb_history_sqlite.c, hb_history_pg.c): each fills the table of db. */
struct hb_hdb_ops {
    int (*query)(struct hb_hdb *db, const char *sql, int n, const char *const *params,
                 struct hb_hdb_rows **rows);
    const char *begin_sql;
    int (*next)(struct hb_hdb_rows *rows);
    const char *(*text)(struct hb_hdb_rows *rows, int col);
    double (*real)(struct hb_hdb_rows *rows, int col);
    long long (*integer)(struct hb_hdb_rows *rows, int col);
    void (*rows_free)(struct hb_hdb_rows *rows);
    void (*close)(struct hb_hdb *db);
};

/* What every backend's rows begin with. */
struct hb_hdb_rows {
    const struct hb_hdb_ops *ops;
};

struct hb_hdb {
    const struct hb_hdb_ops *ops;
    char *name;   /* for messages */
    void *handle; /* the backend's connection */
    bool pg;
    void *cache; /* the backend's prepared statements */
};

/* The backends' openers (db->name set): 0 or -errno with the message. */
int hb_hdb_sqlite_open(const char *path, const struct hb_hdb_how *how, struct hb_hdb *db);
int hb_hdb_pg_open(const char *url, const struct hb_hdb_how *how, struct hb_hdb *db);

/* Whether where names a PostgreSQL server (postgresql:// or postgres://). */
bool hb_hdb_is_url(const char *where);

#endif
