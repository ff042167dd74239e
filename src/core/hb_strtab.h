/* Interned strings: each distinct string stored once in one growing buffer and named by a
 * dense id (0, 1, ... in order of first appearance). report and compare keep what they read
 * of a million records this way: labels, series names and table cells repeat, so memory
 * follows the distinct strings, not the records. */
#ifndef HB_STRTAB_H
#define HB_STRTAB_H

#include <stddef.h>
#include <stdint.h>

/* No id: returned when memory ran out. */
#define HB_STRTAB_NONE UINT32_MAX

struct hb_strtab {
    char *buf;          /* every string, each followed by its NUL */
    size_t len, cap;    /* bytes used and allocated in buf */
    size_t *off;        /* id -> offset in buf */
    uint32_t n, offcap; /* ids given and room in off */
    uint32_t *slots;    /* open addressing: id + 1, 0 = empty */
    size_t nslots;      /* a power of two, at least twice n */
};

/* The id of the len bytes at s (any bytes but NUL), added when new; HB_STRTAB_NONE when out
 * of memory. */
uint32_t hb_strtab_add(struct hb_strtab *t, const char *s, size_t len);

/* The id of the len bytes at s, or HB_STRTAB_NONE when t does not hold them. */
uint32_t hb_strtab_find(const struct hb_strtab *t, const char *s, size_t len);

/* The string of id (valid until the next hb_strtab_add). */
const char *hb_strtab_get(const struct hb_strtab *t, uint32_t id);

void hb_strtab_free(struct hb_strtab *t);

#endif
