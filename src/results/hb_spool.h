/* JSON values that wait on disk: an unlinked temporary file in TMPDIR (default /tmp), made at
 * the first value put, each value written as compact JSON and read back by its span. The
 * repeats' store (hb_repeat.h) and what rank 0 keeps for derived records (hb_suite_keep.h)
 * wait here, so rank 0's memory does not grow with a fleet's records (docs/design.md#gather). */
#ifndef HB_SPOOL_H
#define HB_SPOOL_H

#include <jansson.h>
#include <stdio.h>
#include <sys/types.h>

/* Where one value lies in the file. */
struct hb_span {
    off_t off;
    size_t len;
};

struct hb_spool {
    FILE *file;       /* NULL until the first value */
    const char *what; /* what waits, for the messages ("the records that wait for ...") */
};

/* Write v at the end of the file: 0 and its span in *at, or -HB_EENV with a message naming
 * TMPDIR (-ENOMEM when out of memory). */
int hb_spool_put(struct hb_spool *s, const json_t *v, struct hb_span *at);
/* The value at `at` (a new reference), or NULL with a message. */
json_t *hb_spool_get(struct hb_spool *s, struct hb_span at);
/* Whether the run can make its temporary file (a dry run checks what the run will need):
 * 0, or -HB_EENV with the message naming TMPDIR and `what` would wait there. */
int hb_spool_check(const char *what);
/* Close and so remove the file. */
void hb_spool_close(struct hb_spool *s);

#endif
