/* Interned strings (hb_strtab.h): one growing buffer, a hash, dense ids. */
#include "hb_strtab.h"

#include <stdlib.h>
#include <string.h>

/* Eight bytes at a time, each word mixed in by a multiply and a shift (a million identities
 * of 60 bytes are hashed on one thread while their records are read); no adversary worth
 * more: a hostile file only slows its own report. */
static uint64_t strtab_hash(const char *s, size_t len)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ len, w;
    for (; len >= 8; s += 8, len -= 8) {
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
    }
    w = 0;
    memcpy(&w, s, len);
    h = (h ^ w) * 0x94D049BB133111EBULL;
    return h ^ (h >> 29);
}

/* Twice the slots, every id placed again. */
static int strtab_grow_slots(struct hb_strtab *t)
{
    size_t n = t->nslots ? t->nslots * 2 : 1024;
    uint32_t *slots = calloc(n, sizeof(*slots));
    if (!slots) return -1;
    for (uint32_t id = 0; id < t->n; id++) {
        const char *s = t->buf + t->off[id];
        size_t i = strtab_hash(s, strlen(s)) & (n - 1);
        while (slots[i])
            i = (i + 1) & (n - 1);
        slots[i] = id + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = n;
    return 0;
}

/* Room for one more id and len + 1 more bytes. */
static int strtab_reserve(struct hb_strtab *t, size_t len)
{
    if (t->n == UINT32_MAX - 1) return -1;
    if ((size_t)t->n * 2 + 2 > t->nslots && strtab_grow_slots(t) != 0) return -1;
    if (t->n == t->offcap) {
        uint32_t cap =
            t->offcap ? (t->offcap > UINT32_MAX / 2 ? UINT32_MAX - 1 : t->offcap * 2) : 256;
        size_t *off = realloc(t->off, (size_t)cap * sizeof(*off));
        if (!off) return -1;
        t->off = off;
        t->offcap = cap;
    }
    if (len + 1 > t->cap - t->len) {
        size_t cap = t->cap ? t->cap : 4096;
        while (len + 1 > cap - t->len) {
            if (cap > SIZE_MAX / 2) return -1;
            cap *= 2;
        }
        char *buf = realloc(t->buf, cap);
        if (!buf) return -1;
        t->buf = buf;
        t->cap = cap;
    }
    return 0;
}

uint32_t hb_strtab_find(const struct hb_strtab *t, const char *s, size_t len)
{
    for (size_t i = t->nslots ? strtab_hash(s, len) & (t->nslots - 1) : 0; t->nslots && t->slots[i];
         i = (i + 1) & (t->nslots - 1)) {
        const char *have = t->buf + t->off[t->slots[i] - 1];
        if (strlen(have) == len && memcmp(have, s, len) == 0) return t->slots[i] - 1;
    }
    return HB_STRTAB_NONE;
}

uint32_t hb_strtab_add(struct hb_strtab *t, const char *s, size_t len)
{
    uint32_t id = hb_strtab_find(t, s, len);
    if (id != HB_STRTAB_NONE) return id;
    if (strtab_reserve(t, len) != 0) return HB_STRTAB_NONE;
    id = t->n++;
    t->off[id] = t->len;
    memcpy(t->buf + t->len, s, len);
    t->buf[t->len + len] = '\0';
    t->len += len + 1;
    size_t i = strtab_hash(s, len) & (t->nslots - 1);
    while (t->slots[i])
        i = (i + 1) & (t->nslots - 1);
    t->slots[i] = id + 1;
    return id;
}

const char *hb_strtab_get(const struct hb_strtab *t, uint32_t id)
{
    return t->buf + t->off[id];
}

void hb_strtab_free(struct hb_strtab *t)
{
    free(t->buf);
    free(t->off);
    free(t->slots);
    *t = (struct hb_strtab){0};
}
