/* Inside the result-file reader: what jansson takes of a line yyjson read (its scalars, keys
 * given once), and the keys a caller reads, looked up by hash. Shared by the path that builds
 * jansson records (hb_jsonl_yy.c) and the scan's (hb_jsonl_view.c). */
#include "hb_jsonl_yy.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool hb_jsonl_accept_has_nul(yyjson_val *s)
{
    return memchr(yyjson_get_str(s), 0, yyjson_get_len(s));
}

enum hb_yy hb_jsonl_accept_scalar_ok(yyjson_val *v)
{
    switch (yyjson_get_type(v)) {
    case YYJSON_TYPE_NULL:
    case YYJSON_TYPE_BOOL:
        return HB_YY_OK;
    case YYJSON_TYPE_STR:
        return hb_jsonl_accept_has_nul(v) ? HB_YY_DEFER : HB_YY_OK;
    case YYJSON_TYPE_NUM:
        if (yyjson_is_real(v) && !isfinite(yyjson_get_real(v))) return HB_YY_DEFER;
        /* jansson's integers are signed 64-bit: a larger one is its error to word */
        return yyjson_is_uint(v) && yyjson_get_uint(v) > INT64_MAX ? HB_YY_DEFER : HB_YY_OK;
    default: /* raw: a number beyond int64 or double (YYJSON_READ_BIGNUM_AS_RAW) */
        return HB_YY_DEFER;
    }
}

size_t hb_jsonl_accept_key_hash(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    return n ? (n * 31 + u[0]) * 131 + u[n - 1] * 7 + u[n / 2] : 0;
}

/* The index of the n bytes of key (hash: hb_jsonl_accept_key_hash's) in w's list, or -1. */
static int yy_key_index_h(const struct hb_jsonl_want *w, const char *key, size_t n, size_t hash)
{
    if (w->nslots == 0) return -1; /* an empty list */
    for (size_t h = hash & (w->nslots - 1); w->slots[h]; h = (h + 1) & (w->nslots - 1)) {
        int i = w->slots[h] - 1;
        if (w->lens[i] == n && memcmp(w->keys[i], key, n) == 0) return i;
    }
    return -1;
}

int hb_jsonl_accept_key_index(const struct hb_jsonl_want *w, yyjson_val *k)
{
    const char *key = yyjson_get_str(k);
    size_t n = yyjson_get_len(k);
    return yy_key_index_h(w, key, n, hb_jsonl_accept_key_hash(key, n));
}

/* An open-addressing table of the keys, for those the object built here does not see: for
 * a record's 80 keys one byte a slot (their index + 1), on the stack. */
enum hb_yy hb_jsonl_accept_unique_keys(yyjson_val *obj, const struct hb_jsonl_want *w, void **vals)
{
    size_t n = yyjson_obj_size(obj), cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    uint8_t small[512];
    yyjson_val *seen[255];
    yyjson_val **slot = n < 255 ? NULL : calloc(cap, sizeof(*slot));
    if (n >= 255 && !slot) return HB_YY_OOM;
    if (!slot) memset(small, 0, cap);
    enum hb_yy rc = HB_YY_OK;
    size_t i = 0;
    yyjson_obj_iter it = yyjson_obj_iter_with(obj);
    for (yyjson_val *k; rc == HB_YY_OK && (k = yyjson_obj_iter_next(&it)); i++) {
        const char *s = yyjson_get_str(k);
        size_t len = yyjson_get_len(k);
        size_t hash = hb_jsonl_accept_key_hash(s, len),
               h = hash & (cap - 1); /* equal ones compared */
        int at = w ? yy_key_index_h(w, s, len, hash) : -1;
        if (at >= 0) vals[at] = yyjson_obj_iter_get_val(k);
        for (; slot ? slot[h] != NULL : small[h] != 0; h = (h + 1) & (cap - 1))
            if (yyjson_equals_strn(slot ? slot[h] : seen[small[h] - 1], s, len)) rc = HB_YY_DEFER;
        if (slot) {
            slot[h] = k;
        } else {
            seen[i] = k;
            small[h] = (uint8_t)(i + 1);
        }
    }
    free(slot);
    return rc;
}

int hb_jsonl_accept_want_init(struct hb_jsonl_want *want, const char *const *keys)
{
    *want = (struct hb_jsonl_want){.keys = keys};
    while (keys && keys[want->n])
        want->n++;
    if (want->n == 0) return 0;
    want->nslots = 16;
    while (want->nslots < 2 * (size_t)want->n)
        want->nslots *= 2;
    want->lens = malloc((size_t)want->n * sizeof(*want->lens));
    want->slots = calloc(want->nslots, sizeof(*want->slots));
    if (!want->lens || !want->slots) {
        hb_jsonl_accept_want_free(want);
        return -ENOMEM;
    }
    for (int i = 0; i < want->n; i++) {
        want->lens[i] = strlen(keys[i]);
        size_t h = hb_jsonl_accept_key_hash(keys[i], want->lens[i]) & (want->nslots - 1);
        while (want->slots[h])
            h = (h + 1) & (want->nslots - 1);
        want->slots[h] = i + 1;
    }
    return 0;
}

void hb_jsonl_accept_want_free(struct hb_jsonl_want *want)
{
    free(want->lens);
    free(want->slots);
    want->lens = NULL;
    want->slots = NULL;
}
