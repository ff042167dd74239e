/* Pieces out of large blocks (hb_arena.h). */
#include "hb_arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>

enum { HB_ARENA_BLOCK = 1 << 20 }; /* bytes of a block; a larger piece gets its own */

struct hb_arena_block {
    struct hb_arena_block *older;
    size_t size, used;
    alignas(max_align_t) unsigned char data[];
};

void *hb_arena_alloc(struct hb_arena *a, size_t n)
{
    const size_t align = alignof(max_align_t);
    if (n > SIZE_MAX - align - sizeof(struct hb_arena_block)) return NULL;
    n = (n + align - 1) & ~(align - 1);
    struct hb_arena_block *b = a->head;
    if (!b || b->size - b->used < n) {
        size_t size = n > HB_ARENA_BLOCK ? n : HB_ARENA_BLOCK;
        b = malloc(sizeof(*b) + size);
        if (!b) return NULL;
        *b = (struct hb_arena_block){.older = a->head, .size = size};
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    return p;
}

void hb_arena_reset(struct hb_arena *a)
{
    if (!a->head) return;
    for (struct hb_arena_block *b = a->head->older, *next; b; b = next) {
        next = b->older;
        free(b);
    }
    a->head->older = NULL;
    a->head->used = 0;
}

void hb_arena_free(struct hb_arena *a)
{
    hb_arena_reset(a);
    free(a->head);
    a->head = NULL;
}
