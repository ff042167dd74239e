/* Output files that are never lost, cut or misplaced (results, plans, reports).
 *
 * A regular-file target is written to a temporary created exclusively beside it
 * (TARGET.partial.XXXXXX, O_EXCL: never a file someone else made, never through a symlink),
 * also named TARGET.partial while it is written (a hard link renamed into place, so even a
 * SIGKILLed run leaves its records there), synced and renamed onto TARGET when complete. A
 * run that fails, or is stopped by SIGINT, SIGTERM or SIGHUP, keeps what it wrote, cut back
 * to its last complete record, as TARGET.partial only. A character device or FIFO target is
 * written straight through and never replaced; "-" is stdout. */
#ifndef HB_OUTFILE_H
#define HB_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

/* Check TARGET before anything is measured. Refuses (-EINVAL / -EISDIR / -ENAMETOOLONG ->
 * exit 2, with a one-line message) a directory, a socket or block device, a dangling
 * symlink, a missing or unwritable directory, a name too long for TARGET.partial.XXXXXX+,
 * and a file that is also one of the command's inputs (NULL-ended list, NULL entries
 * skipped). "" and "-" (stdout) always pass. */
int hb_outfile_check(const char *target, const char *const *inputs);

struct hb_outfile;

/* Open TARGET (after hb_outfile_check). keep: whether a failed write keeps TARGET.partial
 * (results) or leaves nothing (a report). *f is the stream to write to. */
int hb_outfile_open(const char *target, bool keep, struct hb_outfile **out, FILE **f);

/* Everything written so far is complete (a whole record): a failure keeps up to here.
 * Returns 0, or -errno when the data could not be flushed (message set). */
int hb_outfile_mark(struct hb_outfile *o);

/* Finish: complete -> sync and rename onto TARGET; not complete (or the rename fails) ->
 * keep TARGET.partial when anything was marked, else remove the temporary. Sets a one-line
 * message that says where the records are whenever TARGET was not written. Returns 0 when
 * TARGET is complete, else a negative errno (-EIO when !complete and nothing failed). */
int hb_outfile_close(struct hb_outfile *o, bool complete);

/* The name the user gave, for messages ("stdout" for stdout). */
const char *hb_outfile_name(const struct hb_outfile *o);

#endif
