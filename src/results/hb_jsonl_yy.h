/* Inside the result-file reader: what its yyjson paths share, the one that builds jansson
 * records (hb_jsonl_yy.c) and the one that shows records to a scan (hb_jsonl_view.c); what
 * jansson takes of a line and the wanted keys' lookup are hb_jsonl_accept.c's. */
#ifndef HB_JSONL_YY_H
#define HB_JSONL_YY_H

#include "hb_jsonl_parse.h"

#include <yyjson.h>

#include <stdbool.h>
#include <stddef.h>

/* What reading a value came to: done, jansson must decide, or memory ran out. */
enum hb_yy { HB_YY_OK, HB_YY_DEFER, HB_YY_OOM };

/* jansson refuses NUL in strings and keys; yyjson keeps it. */
bool hb_jsonl_accept_has_nul(yyjson_val *s);

/* Whether jansson takes the scalar v as yyjson read it (not a NUL in a string, a number beyond
 * its range): HB_YY_OK or HB_YY_DEFER. */
enum hb_yy hb_jsonl_accept_scalar_ok(yyjson_val *v);

/* Whether two keys of an object are the same (jansson refuses the line); with w (else NULL),
 * the values of w's keys into vals (by index) on the way. */
enum hb_yy hb_jsonl_accept_unique_keys(yyjson_val *obj, const struct hb_jsonl_want *w, void **vals);

/* The index of key k in w's list, or -1. */
int hb_jsonl_accept_key_index(const struct hb_jsonl_want *w, yyjson_val *k);

/* A scan's record: root (an object with a string "type" other than "run") checked whole as
 * jansson would (HB_YY_DEFER: jansson must decide; checked: it took the line), then shown to
 * scan->prepare through a view of w's keys. */
enum hb_yy hb_jsonl_view(struct hb_jsonl_line *ln, yyjson_val *root, const struct hb_jsonl_want *w,
                         struct hb_jsonl_thread *th, const struct hb_jsonl_load_scan *scan,
                         bool checked);

#endif
