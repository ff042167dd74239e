/* A scan's records (hb_jsonl_read.h: hb_jsonl_load_scan): each checked whole as jansson would
 * read it, then shown to the scan's prepare through a view of the keys it names, straight
 * from yyjson's values: no record is built. */
#include "hb_jsonl_yy.h"

#include <math.h>
#include <string.h>

struct hb_view {
    yyjson_val *const *vals; /* by key index; NULL when the record lacks the key */
    struct hb_arena *arena;
};

static enum hb_yy yy_check(yyjson_val *v, int depth, bool nul);

/* An object's members checked (its keys are unique already). */
static enum hb_yy yy_check_members(yyjson_val *obj, int depth, bool nul)
{
    enum hb_yy rc = HB_YY_OK;
    size_t i, max;
    yyjson_val *k, *x;
    yyjson_obj_foreach(obj, i, max, k, x)
    {
        if (nul && hb_jsonl_accept_has_nul(k)) return HB_YY_DEFER;
        if ((rc = yy_check(x, depth + 1, nul)) != HB_YY_OK) return rc;
    }
    return HB_YY_OK;
}

/* Whether jansson takes v whole: scalars in its range, no NUL (looked for only where the line
 * may write a \u0000, the one way JSON writes it), no key twice, no deeper than its limit (it
 * counts every value: the record is depth 1). */
static enum hb_yy yy_check(yyjson_val *v, int depth, bool nul)
{
    if (depth > JSON_PARSER_MAX_DEPTH) return HB_YY_DEFER;
    enum hb_yy rc = HB_YY_OK;
    size_t i, max;
    yyjson_val *x;
    if (yyjson_is_arr(v)) {
        yyjson_arr_foreach(v, i, max, x)
        {
            if ((rc = yy_check(x, depth + 1, nul)) != HB_YY_OK) return rc;
        }
        return HB_YY_OK;
    }
    if (yyjson_is_str(v)) return nul && hb_jsonl_accept_has_nul(v) ? HB_YY_DEFER : HB_YY_OK;
    if (!yyjson_is_obj(v)) return hb_jsonl_accept_scalar_ok(v);
    if ((rc = hb_jsonl_accept_unique_keys(v, NULL, NULL)) != HB_YY_OK) return rc;
    return yy_check_members(v, depth, nul);
}

/* Whether the line may hold a \u0000: a backslash followed by u0000 (records seldom hold a
 * backslash at all, so this is one quick pass). */
static bool yy_may_nul(const char *text, size_t len)
{
    for (const char *p = memchr(text, '\\', len); p;
         p = memchr(p + 1, '\\', len - (size_t)(p + 1 - text)))
        if ((size_t)(text + len - p) >= 6 && memcmp(p + 1, "u0000", 5) == 0) return true;
    return false;
}

enum hb_yy hb_jsonl_view(struct hb_jsonl_line *ln, yyjson_val *root, const struct hb_jsonl_want *w,
                         struct hb_jsonl_thread *th, const struct hb_jsonl_load_scan *scan,
                         bool checked)
{
    for (int i = 0; i < w->n; i++)
        th->vals[i] = NULL;
    /* the record's keys: unique, and those the scan reads found, in one pass */
    enum hb_yy rc = hb_jsonl_accept_unique_keys(root, w, th->vals);
    if (rc == HB_YY_OK && !checked) rc = yy_check_members(root, 1, yy_may_nul(ln->text, ln->len));
    if (rc == HB_YY_DEFER && checked) rc = HB_YY_OK; /* jansson took it whole */
    if (rc != HB_YY_OK) return rc;
    const struct hb_view view = {(yyjson_val *const *)th->vals, th->arena};
    ln->viewed = true;
    return scan->prepare(scan->ctx, &view, ln->slot) == 0 ? HB_YY_OK : HB_YY_OOM;
}

enum hb_jsonl_view_type hb_jsonl_view_type(const struct hb_view *v, int key)
{
    switch (yyjson_get_type(v->vals[key])) {
    case YYJSON_TYPE_NULL:
        return HB_VIEW_NULL;
    case YYJSON_TYPE_BOOL:
        return HB_VIEW_BOOL;
    case YYJSON_TYPE_NUM:
        return HB_VIEW_NUMBER;
    case YYJSON_TYPE_STR:
        return HB_VIEW_STRING;
    case YYJSON_TYPE_ARR:
        return HB_VIEW_ARRAY;
    case YYJSON_TYPE_OBJ:
        return HB_VIEW_OBJECT;
    default: /* absent (raw numbers never pass the check) */
        return HB_VIEW_ABSENT;
    }
}

const char *hb_jsonl_view_str(const struct hb_view *v, int key, const char *def)
{
    const char *s = yyjson_get_str(v->vals[key]);
    return s ? s : def;
}

double hb_jsonl_view_num(const struct hb_view *v, int key, double def)
{
    return yyjson_is_num(v->vals[key]) ? yyjson_get_num(v->vals[key]) : def;
}

bool hb_jsonl_view_integer(const struct hb_view *v, int key, long long *out)
{
    if (!yyjson_is_int(v->vals[key])) return false;
    *out = yyjson_is_sint(v->vals[key]) ? (long long)yyjson_get_sint(v->vals[key])
                                        : (long long)yyjson_get_uint(v->vals[key]);
    return true;
}

size_t hb_jsonl_view_len(const struct hb_view *v, int key)
{
    return yyjson_arr_size(v->vals[key]);
}

size_t hb_jsonl_view_numbers(const struct hb_view *v, int key, double *out)
{
    size_t i, max;
    yyjson_val *x;
    yyjson_arr_foreach(v->vals[key], i, max, x) out[i] = yyjson_is_num(x) ? yyjson_get_num(x) : NAN;
    return yyjson_arr_size(v->vals[key]);
}

void *hb_jsonl_view_alloc(const struct hb_view *v, size_t n)
{
    return hb_arena_alloc(v->arena, n);
}
