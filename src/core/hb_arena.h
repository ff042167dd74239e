/* Memory handed out in pieces and given back all at once: what a reader's parsing thread
 * makes of each record of a batch lives until the batch has been handed on, with no malloc
 * or free per record (core layer). */
#ifndef HB_ARENA_H
#define HB_ARENA_H

#include <stddef.h>

struct hb_arena_block;

struct hb_arena {
    struct hb_arena_block *head; /* the block pieces come from; older ones behind it */
};

/* n bytes aligned for any type, valid until the next reset; NULL when out of memory. */
void *hb_arena_alloc(struct hb_arena *a, size_t n);

/* Everything handed out is given back; the newest block stays for the next pieces. */
void hb_arena_reset(struct hb_arena *a);

void hb_arena_free(struct hb_arena *a);

#endif
