/* Result-file lines parsed by yyjson and built as jansson records (hb_jsonl_parse.h). A line
 * yyjson cannot vouch for (an error, a duplicate key, ...) is parsed again by jansson, whose
 * verdict and message are then those of the reader before yyjson. A scan's records are shown
 * to it instead (hb_jsonl_view.c). */
#include "hb_jsonl_yy.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* jansson reports a failed allocation as whatever token it was reading: the allocator
 * tells instead. */
static _Thread_local bool json_oom;

static void *json_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p) json_oom = true;
    return p;
}

void hb_jsonl_yy_alloc_funcs(void)
{
    json_set_alloc_funcs(json_malloc, free);
}

int hb_jsonl_yy_thread_init(struct hb_jsonl_thread *th, int nkeys)
{
    /* alc NULL (no memory for it): yyjson's default allocator, malloc for each document */
    *th = (struct hb_jsonl_thread){.alc = yyjson_alc_dyn_new()};
    if (nkeys > 0) th->vals = calloc((size_t)nkeys, sizeof(*th->vals));
    if (nkeys > 0 && !th->vals) {
        hb_jsonl_yy_thread_free(th);
        return -ENOMEM;
    }
    return 0;
}

void hb_jsonl_yy_thread_free(struct hb_jsonl_thread *th)
{
    if (th->alc) yyjson_alc_dyn_free(th->alc);
    hb_arena_free(&th->arenas[0]);
    hb_arena_free(&th->arenas[1]);
    free(th->vals);
    *th = (struct hb_jsonl_thread){0};
}

static enum hb_yy yy_scalar(yyjson_val *v, json_t **out)
{
    if (hb_jsonl_accept_scalar_ok(v) != HB_YY_OK) return HB_YY_DEFER;
    switch (yyjson_get_type(v)) {
    case YYJSON_TYPE_NULL:
        *out = json_null();
        break;
    case YYJSON_TYPE_BOOL:
        *out = json_boolean(yyjson_get_bool(v));
        break;
    case YYJSON_TYPE_STR:
        *out = json_stringn_nocheck(yyjson_get_str(v), yyjson_get_len(v));
        break;
    default:
        *out = yyjson_is_real(v)   ? json_real(yyjson_get_real(v))
               : yyjson_is_sint(v) ? json_integer(yyjson_get_sint(v))
                                   : json_integer((json_int_t)yyjson_get_uint(v));
        break;
    }
    return *out ? HB_YY_OK : HB_YY_OOM;
}

static enum hb_yy yy_value(yyjson_val *v, int depth, json_t **out);

static enum hb_yy yy_array(yyjson_val *v, int depth, json_t **out)
{
    json_t *a = json_array();
    if (!a) return HB_YY_OOM;
    yyjson_arr_iter it = yyjson_arr_iter_with(v);
    for (yyjson_val *e; (e = yyjson_arr_iter_next(&it));) {
        json_t *x;
        enum hb_yy rc = yy_value(e, depth + 1, &x);
        if (rc == HB_YY_OK && json_array_append_new(a, x) != 0) rc = HB_YY_OOM;
        if (rc != HB_YY_OK) {
            json_decref(a);
            return rc;
        }
    }
    *out = a;
    return HB_YY_OK;
}

/* The top-level keys a caller reads ("type" always). */
static bool yy_wanted(const struct hb_jsonl_want *w, yyjson_val *k)
{
    return yyjson_equals_strn(k, "type", 4) || hb_jsonl_accept_key_index(w, k) >= 0;
}

/* Whether a value left unbuilt nests deeper than jansson reads (it counts every value). */
static bool yy_too_deep(yyjson_val *v, int depth)
{
    if (depth > JSON_PARSER_MAX_DEPTH) return true;
    size_t i, max;
    yyjson_val *k, *x;
    if (yyjson_is_arr(v))
        yyjson_arr_foreach(v, i, max, x) if (yy_too_deep(x, depth + 1)) return true;
    if (yyjson_is_obj(v))
        yyjson_obj_foreach(v, i, max, k, x) if (yy_too_deep(x, depth + 1)) return true;
    return false;
}

/* One member into o: built when wanted (w NULL: all), else only checked. */
static enum hb_yy yy_member(json_t *o, yyjson_val *k, yyjson_val *v, int depth,
                            const struct hb_jsonl_want *w, size_t line_len)
{
    if (hb_jsonl_accept_has_nul(k)) return HB_YY_DEFER;
    if (w && !yy_wanted(w, k)) /* a line shorter than the limit cannot nest deeper than it */
        return line_len > JSON_PARSER_MAX_DEPTH && yy_too_deep(v, depth + 1) ? HB_YY_DEFER
                                                                             : HB_YY_OK;
    json_t *x;
    enum hb_yy rc = yy_value(v, depth + 1, &x);
    if (rc != HB_YY_OK) return rc;
    size_t before = json_object_size(o);
    if (json_object_setn_new_nocheck(o, yyjson_get_str(k), yyjson_get_len(k), x) != 0)
        return HB_YY_OOM;
    /* jansson refuses duplicate keys (JSON_REJECT_DUPLICATES); yyjson keeps both */
    return json_object_size(o) > before ? HB_YY_OK : HB_YY_DEFER;
}

static enum hb_yy yy_object(yyjson_val *v, int depth, const struct hb_jsonl_want *w,
                            size_t line_len, json_t **out)
{
    enum hb_yy rc = w ? hb_jsonl_accept_unique_keys(v, NULL, NULL) : HB_YY_OK;
    json_t *o = rc == HB_YY_OK ? json_object() : NULL;
    if (rc != HB_YY_OK) return rc;
    if (!o) return HB_YY_OOM;
    yyjson_obj_iter it = yyjson_obj_iter_with(v);
    for (yyjson_val *k; rc == HB_YY_OK && (k = yyjson_obj_iter_next(&it));)
        rc = yy_member(o, k, yyjson_obj_iter_get_val(k), depth, w, line_len);
    if (rc != HB_YY_OK) {
        json_decref(o);
        return rc;
    }
    *out = o;
    return HB_YY_OK;
}

static enum hb_yy yy_value(yyjson_val *v, int depth, json_t **out)
{
    if (depth > JSON_PARSER_MAX_DEPTH) return HB_YY_DEFER; /* jansson's limit, its message */
    if (yyjson_is_arr(v)) return yy_array(v, depth, out);
    if (yyjson_is_obj(v)) return yy_object(v, depth, NULL, 0, out);
    return yy_scalar(v, out);
}

/* The keys a record of this type keeps: NULL for every key (always the run record's). */
static const struct hb_jsonl_want *jsonl_scope(const struct hb_jsonl_want *w, bool run,
                                               bool measurement)
{
    if (measurement && w->measurement) w = w->measurement;
    return run || !w->keys ? NULL : w;
}

/* A record: an object, with only the wanted keys unless it is the run record. */
static enum hb_yy yy_record(yyjson_val *root, const struct hb_jsonl_want *w, size_t len,
                            json_t **out)
{
    if (!yyjson_is_obj(root)) return HB_YY_DEFER; /* jansson words what it is instead */
    yyjson_val *type = yyjson_obj_get(root, "type");
    w = jsonl_scope(w, yyjson_equals_str(type, "run"), yyjson_equals_str(type, "measurement"));
    return yy_object(root, 1, w, len, out);
}

/* Only the wanted keys of a record jansson parsed (it went that way for its verdict). */
static void jsonl_prune(json_t *rec, const struct hb_jsonl_want *w)
{
    if (!json_is_object(rec)) return;
    const char *type = json_string_value(json_object_get(rec, "type"));
    w = jsonl_scope(w, type && strcmp(type, "run") == 0, type && strcmp(type, "measurement") == 0);
    if (!w) return;
    const char *key;
    json_t *v;
    void *tmp;
    json_object_foreach_safe(rec, tmp, key, v)
    {
        bool keep = strcmp(key, "type") == 0;
        for (int i = 0; i < w->n && !keep; i++)
            keep = strcmp(key, w->keys[i]) == 0;
        if (!keep) json_object_del(rec, key);
    }
}

/* The line parsed by jansson, for its verdict and message (only w's keys kept): HB_YY_OK with
 * ln->rec or ln->err, or HB_YY_OOM. */
static enum hb_yy jsonl_jansson(struct hb_jsonl_line *ln, const struct hb_jsonl_want *w)
{
    json_error_t jerr;
    ln->rec = json_loadb(ln->text, ln->len, JSON_REJECT_DUPLICATES, &jerr);
    if (ln->rec) {
        jsonl_prune(ln->rec, w);
        return HB_YY_OK;
    }
    snprintf(ln->err, sizeof(ln->err), "%s", jerr.text);
    return json_error_code(&jerr) == json_error_out_of_memory ? HB_YY_OOM : HB_YY_OK;
}

/* A record a scan is shown: an object with a string "type", not the run record. */
static bool jsonl_viewable(yyjson_val *root)
{
    yyjson_val *type = yyjson_obj_get(root, "type");
    return yyjson_is_str(type) && !yyjson_equals_str(type, "run");
}

void hb_jsonl_yy_parse_line(struct hb_jsonl_line *ln, const struct hb_jsonl_want *w,
                            struct hb_jsonl_thread *th, const struct hb_jsonl_load_scan *scan)
{
    yyjson_read_err yerr;
    enum hb_yy rc = HB_YY_DEFER;
    json_oom = false;
    ln->rec = NULL;
    ln->viewed = false;
    ln->err[0] = 0;
    /* not YYJSON_READ_INSITU: the text is only read */
    yyjson_doc *doc =
        yyjson_read_opts((char *)ln->text, ln->len, YYJSON_READ_BIGNUM_AS_RAW, th->alc, &yerr);
    yyjson_val *root = yyjson_doc_get_root(doc);
    if (doc && scan && jsonl_viewable(root)) {
        rc = hb_jsonl_view(ln, root, w, th, scan, false);
        /* jansson's verdict and message; a line it takes after all is shown as yyjson read it */
        if (rc == HB_YY_DEFER && (rc = jsonl_jansson(ln, w)) == HB_YY_OK && ln->rec) {
            json_decref(ln->rec);
            ln->rec = NULL;
            rc = hb_jsonl_view(ln, root, w, th, scan, true);
        }
        yyjson_doc_free(doc);
    } else if (doc) {
        rc = yy_record(root, w, ln->len, &ln->rec);
        yyjson_doc_free(doc);
    } else if (yerr.code == YYJSON_READ_ERROR_MEMORY_ALLOCATION)
        rc = HB_YY_OOM;
    if (rc == HB_YY_DEFER) rc = jsonl_jansson(ln, w);
    /* A scan sees records through yyjson alone: one yyjson cannot read is an error, whatever
     * jansson makes of it. */
    const char *type = !doc && scan ? json_string_value(json_object_get(ln->rec, "type")) : NULL;
    if (type && strcmp(type, "run") != 0) {
        json_decref(ln->rec);
        ln->rec = NULL;
        snprintf(ln->err, sizeof(ln->err), "%s at byte %zu", yerr.msg, yerr.pos);
    }
    ln->oom = rc == HB_YY_OOM || json_oom;
}
