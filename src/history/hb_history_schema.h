/* The history's tables, the same in SQLite and PostgreSQL: runs (one per host of a run),
 * series (host x compare's identity x metric) and points (a run's figure of a series, with
 * its interval and repeats), and the schema's version, which a newer hopbench may raise and
 * an older one then refuses. docs/history.md describes them. */
#ifndef HB_HISTORY_SCHEMA_H
#define HB_HISTORY_SCHEMA_H

#include "hb_history_db.h"

#include <stdbool.h>

/* The version of the tables this hopbench writes and reads. */
#define HB_HISTORY_SCHEMA 1

/* The database holds this version's tables: with create (inside the caller's write
 * transaction) an empty database gets them. 0, or -EINVAL with one line naming the database:
 * a newer schema, tables of something else (a foreign database), no history yet (reading). */
int hb_history_schema_ready(struct hb_history_db *db, bool create);

#endif
