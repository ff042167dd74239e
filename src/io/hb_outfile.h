/* Output files that are never lost, cut or misplaced (results, plans, reports).
 *
 * A regular-file target is written to a temporary created exclusively beside it
 * (TARGET.partial.XXXXXX, O_EXCL: never a file someone else made, never through a symlink),
 * also named TARGET.partial while it is written (a hard link renamed into place, so even a
 * SIGKILLed run leaves its records there), synced and renamed onto TARGET when complete.
 * One run at a time writes TARGET: it holds TARGET.lock (flock) until it ends. A run that
 * fails, or is stopped by any signal that can be caught, keeps what it wrote, cut back to
 * its last complete record, as TARGET.partial only, and says so on stderr. A character
 * device, a FIFO or a descriptor (/dev/stdout, /dev/fd/N) is written straight through and
 * never replaced; "-" is stdout. */
#ifndef HB_OUTFILE_H
#define HB_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

/* Check TARGET before anything is measured (hb_outpath.h says where a name leads). Refuses
 * with a one-line message: exit 2 for a directory, a socket or block device, someone else's
 * symlink, a name too long for TARGET.partial.XXXXXX+, and a file
 * that is also one of the command's inputs (NULL-ended list, NULL entries skipped); exit 3
 * (-HB_EENV) for a missing or unwritable directory. "" and "-" are stdout. */
int hb_outfile_check(const char *target, const char *const *inputs);

/* The n outputs of one command (opts[i] names targets[i] in messages, "" is stdout) lead to
 * n different files: 0, or -EINVAL naming the two that are one. */
int hb_outfile_check_apart(const char *const *targets, const char *const *opts, int n);

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
