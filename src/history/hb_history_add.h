/* `hopbench history add`: one result file's run stored in the history, each host of it a run
 * of its own with its configuration, each measurement a point of its series (host x
 * compare's identity x metric). */
#ifndef HB_HISTORY_ADD_H
#define HB_HISTORY_ADD_H

#include "hb_history_db.h"

/* What one file added. */
struct hb_history_added {
    long hosts_new;       /* hosts of the run stored now */
    long hosts_seen;      /* hosts of the run the history held already (the same run again) */
    long points;          /* points stored */
    long skipped;         /* measurement records not stored: unusable or duplicated */
    long hosts_unhealthy; /* hosts of a check run left out: their check was not healthy
                           * (hb_history_health.h) */
};

/* Store path's run into db, inside the caller's transaction (the schema ready). 0 and *out;
 * -EINVAL with one line naming path for a file that is not hopbench records, has no run
 * record, has a run record without a readable start time, or holds no usable measurement;
 * the database's errors as hb_history_db_query gives them. */
int hb_history_add_file(struct hb_history_db *db, const char *path, struct hb_history_added *out);

/* The shortest text of v that reads back exactly ("12.3", not "12.300000000000001"). */
void hb_history_add_real_text(char buf[40], double v);

#endif
