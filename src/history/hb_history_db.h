/* The history's database behind one small interface, SQLite (a file, the default) or
 * PostgreSQL (postgresql:// or postgres:// URLs): statements with text parameters written
 * $1, $2 ... in both, rows read cell by cell. The schema (hb_history_schema.c) is the same in
 * both but for the few words each spells its own way. */
#ifndef HB_HISTORY_DB_H
#define HB_HISTORY_DB_H

#include <stdbool.h>

struct hb_history_db;
struct hb_history_db_rows;

/* What the caller asks of the database when it opens it. */
struct hb_history_db_how {
    long busy_ms; /* how long to wait for another writer's lock (--busy-timeout) */
    bool write;   /* add: the file may be made, and must be writable */
};

/* Open `where` (a PostgreSQL URL, else an SQLite file): 0 and *db, or -errno with one line
 * naming it: -EINVAL (2) for a file that is no SQLite database or sits on a network file
 * system (NFS, Lustre...: SQLite's locks are not safe there, the line names PostgreSQL),
 * -EROFS (3 via HB_EENV) for a read-only one when writing, -ECONNREFUSED for a server that
 * refuses the login or cannot be reached. */
int hb_history_db_open(const char *where, const struct hb_history_db_how *how,
                       struct hb_history_db **db);

/* The database as given (a URL's password left out), for messages. */
const char *hb_history_db_name(const struct hb_history_db *db);

/* PostgreSQL (true) or SQLite: where the schema's words differ. */
bool hb_history_db_is_pg(const struct hb_history_db *db);

/* Run sql with its n text parameters (NULL: SQL NULL): 0 and, when rows is not NULL, the
 * rows to read with hb_history_db_next (free them with hb_history_db_rows_free); -errno with one
 * line naming the database: -EBUSY when its lock was held past the busy timeout, -EINVAL for a
 * damaged or foreign file. */
int hb_history_db_query(struct hb_history_db *db, const char *sql, int n, const char *const *params,
                        struct hb_history_db_rows **rows);

/* hb_history_db_query without parameters or rows. */
int hb_history_db_exec(struct hb_history_db *db, const char *sql);

/* Begin a write transaction (SQLite: takes the write lock now, so that two adds never
 * deadlock on upgrading theirs), commit it, or roll it back (errors ignored: the caller has
 * one already). */
int hb_history_db_begin(struct hb_history_db *db);
int hb_history_db_commit(struct hb_history_db *db);
void hb_history_db_rollback(struct hb_history_db *db);

/* The next row: 1, 0 when there are no more, -errno with a message. */
int hb_history_db_next(struct hb_history_db_rows *rows);

/* A cell of the current row: its text (NULL for SQL NULL; valid until the next row), its
 * number (NaN for NULL), its integer (0 for NULL). */
const char *hb_history_db_text(struct hb_history_db_rows *rows, int col);
double hb_history_db_real(struct hb_history_db_rows *rows, int col);
long long hb_history_db_int(struct hb_history_db_rows *rows, int col);

void hb_history_db_rows_free(struct hb_history_db_rows *rows);
void hb_history_db_close(struct hb_history_db *db);

/* The backends (hb_history_sqlite.c, hb_history_pg.c): each fills the table of db. */
struct hb_history_db_ops {
    int (*query)(struct hb_history_db *db, const char *sql, int n, const char *const *params,
                 struct hb_history_db_rows **rows);
    const char *begin_sql;
    int (*next)(struct hb_history_db_rows *rows);
    const char *(*text)(struct hb_history_db_rows *rows, int col);
    double (*real)(struct hb_history_db_rows *rows, int col);
    long long (*integer)(struct hb_history_db_rows *rows, int col);
    void (*rows_free)(struct hb_history_db_rows *rows);
    void (*close)(struct hb_history_db *db);
};

/* What every backend's rows begin with. */
struct hb_history_db_rows {
    const struct hb_history_db_ops *ops;
};

struct hb_history_db {
    const struct hb_history_db_ops *ops;
    char *name;   /* for messages */
    void *handle; /* the backend's connection */
    bool pg;
    void *cache; /* the backend's prepared statements */
};

/* The backends' openers (db->name set): 0 or -errno with the message. */
int hb_history_sqlite_open(const char *path, const struct hb_history_db_how *how,
                           struct hb_history_db *db);
int hb_history_pg_open(const char *url, const struct hb_history_db_how *how,
                       struct hb_history_db *db);

/* The network file system of a statfs(2) f_type (NFS, Lustre, GPFS, CIFS, SMB2, SMB, CephFS,
 * BeeGFS, AFS: SQLite's locks are not safe there), or NULL for a local one (ext4, xfs, tmpfs,
 * overlay, FUSE...). f_type as statfs gives it: its low 32 bits are the magic. */
const char *hb_history_sqlite_network_fs(unsigned long f_type);

/* Whether where names a PostgreSQL server (postgresql:// or postgres://). */
bool hb_history_db_is_url(const char *where);

#endif
