/* The history kept in an SQLite file (hb_history_db.h): WAL mode so that readers never wait
 * and writers queue on the busy timeout; refused on network file systems, whose locks SQLite
 * cannot trust; errors named by the file and said as hopbench's exit codes. */
#include "hb_history_db.h"

#include "hb_error.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

/* Prepared statements kept for reuse, by their text: an add runs a few statements a
 * thousand times. */
enum { CACHE_SLOTS = 16 };
struct lite_cache {
    char *sql[CACHE_SLOTS];
    sqlite3_stmt *st[CACHE_SLOTS];
    int next; /* the slot the next new statement takes */
    long busy_ms;
};

struct lite_rows {
    struct hb_history_db_rows base;
    sqlite3_stmt *st;
    int first; /* the first step's result, not yet handed out: SQLITE_ROW or SQLITE_DONE */
    const struct hb_history_db *db;
};

/* The network file systems SQLite's locking is not safe on (statfs f_type). FUSE is not
 * among them: most FUSE mounts are local (a container's fuse-overlayfs). */
static const struct {
    long magic;
    const char *name;
} network_fs[] = {
    {0x6969, "NFS"},        {0x0BD00BD0, "Lustre"}, {0x47504653, "GPFS"},
    {0xFF534D42, "CIFS"},   {0xFE534D42, "SMB2"},   {0x517B, "SMB"},
    {0x00C36400, "CephFS"}, {0x19830326, "BeeGFS"}, {0x5346414F, "AFS"},
};

const char *hb_history_sqlite_network_fs(unsigned long f_type)
{
    for (size_t i = 0; i < sizeof(network_fs) / sizeof(network_fs[0]); i++)
        if ((long)(unsigned int)f_type == network_fs[i].magic) return network_fs[i].name;
    return NULL;
}

/* The network file system path lies on, or NULL (a file not made yet: its folder's). */
static const char *on_network_fs(const char *path)
{
    struct statfs sf;
    char *copy = strdup(path);
    int rc = statfs(path, &sf);
    if (rc != 0 && copy) rc = statfs(dirname(copy), &sf);
    free(copy);
    return rc == 0 ? hb_history_sqlite_network_fs((unsigned long)sf.f_type) : NULL;
}

/* SQLite's result code as hopbench's errno, with the message naming the file. */
static int lite_error(const struct hb_history_db *db, int code)
{
    sqlite3 *h = db->handle;
    const struct lite_cache *c = db->cache;
    const char *msg = h ? sqlite3_errmsg(h) : sqlite3_errstr(code);
    switch (code & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        hb_error_set(
            "%s: locked by another writer past --busy-timeout %ld ms; try again, or give a "
            "longer --busy-timeout",
            db->name, c->busy_ms);
        return -EBUSY;
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
        hb_error_set("%s: not a usable SQLite database (%s): give a hopbench history file, or a "
                     "new name for one",
                     db->name, msg);
        return -EINVAL;
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
        hb_error_set("%s: cannot be written (%s)", db->name, msg);
        return -HB_EENV;
    case SQLITE_NOMEM:
        hb_error_set("%s: out of memory", db->name);
        return -ENOMEM;
    default:
        hb_error_set("%s: %s", db->name, msg);
        return -EIO;
    }
}

/* The statement of sql, reused when it was prepared before. */
static int lite_prepare(struct hb_history_db *db, const char *sql, sqlite3_stmt **st)
{
    struct lite_cache *c = db->cache;
    for (int i = 0; i < CACHE_SLOTS; i++)
        if (c->sql[i] && strcmp(c->sql[i], sql) == 0) {
            *st = c->st[i];
            sqlite3_reset(*st);
            sqlite3_clear_bindings(*st);
            return 0;
        }
    int rc = sqlite3_prepare_v2(db->handle, sql, -1, st, NULL);
    if (rc != SQLITE_OK) return lite_error(db, rc);
    int i = c->next;
    c->next = (c->next + 1) % CACHE_SLOTS;
    sqlite3_finalize(c->st[i]);
    free(c->sql[i]);
    c->sql[i] = strdup(sql);
    c->st[i] = c->sql[i] ? *st : NULL;
    if (!c->sql[i]) sqlite3_finalize(*st);
    return c->sql[i] ? 0 : lite_error(db, SQLITE_NOMEM);
}

static int lite_bind(struct hb_history_db *db, sqlite3_stmt *st, int n, const char *const *params)
{
    for (int k = 1; k <= n; k++) {
        char name[16];
        snprintf(name, sizeof(name), "$%d", k);
        int at = sqlite3_bind_parameter_index(st, name);
        const char *v = params[k - 1];
        int rc = at == 0 ? SQLITE_OK
                 : v     ? sqlite3_bind_text(st, at, v, -1, SQLITE_STATIC)
                         : sqlite3_bind_null(st, at);
        if (rc != SQLITE_OK) return lite_error(db, rc);
    }
    return 0;
}

static const struct hb_history_db_ops lite_ops;

static int lite_query(struct hb_history_db *db, const char *sql, int n, const char *const *params,
                      struct hb_history_db_rows **out)
{
    sqlite3_stmt *st;
    int rc = lite_prepare(db, sql, &st);
    if (rc == 0) rc = lite_bind(db, st, n, params);
    if (rc) return rc;
    int step = sqlite3_step(st);
    if (step != SQLITE_ROW && step != SQLITE_DONE) {
        rc = lite_error(db, sqlite3_extended_errcode(db->handle));
        sqlite3_reset(st);
        return rc;
    }
    if (!out) {
        while (step == SQLITE_ROW)
            step = sqlite3_step(st);
        rc = step == SQLITE_DONE ? 0 : lite_error(db, sqlite3_extended_errcode(db->handle));
        sqlite3_reset(st);
        return rc;
    }
    struct lite_rows *r = calloc(1, sizeof(*r));
    if (!r) {
        sqlite3_reset(st);
        return lite_error(db, SQLITE_NOMEM);
    }
    *r = (struct lite_rows){{&lite_ops}, st, step, db};
    *out = &r->base;
    return 0;
}

static int lite_next(struct hb_history_db_rows *rows)
{
    struct lite_rows *r = (struct lite_rows *)rows;
    int step = r->first;
    if (step)
        r->first = 0;
    else
        step = sqlite3_step(r->st);
    if (step == SQLITE_ROW) return 1;
    if (step == SQLITE_DONE) return 0;
    return lite_error(r->db, sqlite3_extended_errcode(r->db->handle));
}

static const char *lite_text(struct hb_history_db_rows *rows, int col)
{
    return (const char *)sqlite3_column_text(((struct lite_rows *)rows)->st, col);
}

static double lite_real(struct hb_history_db_rows *rows, int col)
{
    sqlite3_stmt *st = ((struct lite_rows *)rows)->st;
    return sqlite3_column_type(st, col) == SQLITE_NULL ? NAN : sqlite3_column_double(st, col);
}

static long long lite_int(struct hb_history_db_rows *rows, int col)
{
    return sqlite3_column_int64(((struct lite_rows *)rows)->st, col);
}

static void lite_rows_free(struct hb_history_db_rows *rows)
{
    struct lite_rows *r = (struct lite_rows *)rows;
    sqlite3_reset(r->st); /* the statement stays in the cache */
    free(r);
}

static void lite_close(struct hb_history_db *db)
{
    struct lite_cache *c = db->cache;
    for (int i = 0; c && i < CACHE_SLOTS; i++) {
        sqlite3_finalize(c->st[i]);
        free(c->sql[i]);
    }
    free(c);
    sqlite3_close(db->handle);
}

static const struct hb_history_db_ops lite_ops = {lite_query,     "BEGIN IMMEDIATE", lite_next,
                                                  lite_text,      lite_real,         lite_int,
                                                  lite_rows_free, lite_close};

/* Writing: the file, when it is there, and its folder (WAL's -wal and -shm files) must be
 * writable; refused before SQLite opens it read-only behind our back. */
static int lite_writable(const char *path)
{
    char *copy = strdup(path);
    const char *dir = copy ? dirname(copy) : ".";
    int rc = 0;
    if (access(path, F_OK) == 0 && access(path, W_OK) != 0)
        hb_error_set("%s: a read-only database (%s): history add writes to it", path,
                     strerror(errno));
    else if (access(dir, W_OK) != 0)
        hb_error_set("%s: its folder %s cannot be written (%s): SQLite keeps its journal there",
                     path, dir, strerror(errno));
    else
        rc = 1;
    free(copy);
    return rc ? 0 : -HB_EENV;
}

/* The file in WAL mode (when it is not yet) and its commits synced at checkpoints. */
static int lite_wal(struct hb_history_db *db)
{
    struct hb_history_db_rows *rows = NULL;
    int rc = lite_query(db, "PRAGMA journal_mode", 0, NULL, &rows);
    bool wal = rc == 0 && lite_next(rows) == 1 && lite_text(rows, 0) &&
               strcmp(lite_text(rows, 0), "wal") == 0;
    if (rows) lite_rows_free(rows);
    if (rc == 0 && !wal) rc = lite_query(db, "PRAGMA journal_mode=WAL", 0, NULL, NULL);
    return rc ? rc : lite_query(db, "PRAGMA synchronous=NORMAL", 0, NULL, NULL);
}

int hb_history_sqlite_open(const char *path, const struct hb_history_db_how *how,
                           struct hb_history_db *db)
{
    const char *fs = on_network_fs(path);
    if (fs) {
        hb_error_set("%s: on %s, where SQLite's locking is not safe: keep the history in "
                     "PostgreSQL (--db postgresql://...) or on a local disk",
                     path, fs);
        return -EINVAL;
    }
    if (!how->write && access(path, F_OK) != 0) {
        hb_error_set("%s: no history there (%s): hopbench history add makes it", path,
                     strerror(errno));
        return -ENOENT;
    }
    int rc = how->write ? lite_writable(path) : 0;
    if (rc) return rc;
    struct lite_cache *c = calloc(1, sizeof(*c));
    if (!c) {
        hb_error_set("%s: out of memory", path);
        return -ENOMEM;
    }
    c->busy_ms = how->busy_ms;
    db->ops = &lite_ops;
    db->cache = c;
    sqlite3 *h = NULL;
    int flags = how->write ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
    int code = sqlite3_open_v2(path, &h, flags | SQLITE_OPEN_NOMUTEX, NULL);
    db->handle = h;
    if (code == SQLITE_OK)
        code = sqlite3_busy_timeout(h, how->busy_ms > INT32_MAX ? INT32_MAX : (int)how->busy_ms);
    rc = code == SQLITE_OK ? 0 : lite_error(db, code);
    /* Reading the file's header tells a file that is no database. */
    if (rc == 0) rc = lite_query(db, "SELECT count(*) FROM sqlite_master", 0, NULL, NULL);
    /* Several adds at once: WAL lets readers on while one writes, the others wait their turn
     * (set once, kept in the file); a commit then needs no sync of the whole file. */
    if (rc == 0 && how->write) rc = lite_wal(db);
    if (rc) lite_close(db);
    return rc;
}
