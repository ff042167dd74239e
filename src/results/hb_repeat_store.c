/* Where an experiment's repeats wait for its last (hb_repeat.h): the latest in memory, the
 * earlier ones in an unlinked temporary file, read back one experiment at a time. */
#include "hb_repeat.h"

#include "hb_error.h"
#include "hb_held.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct hb_repeat_spans {
    int n, cap;
    struct hb_span *at; /* each repeat's records in the spool */
};

int hb_repeats_init(struct hb_repeats *r, int nexp, double noise_pct)
{
    *r = (struct hb_repeats){
        nexp, noise_pct, NULL, {NULL, "the records that wait for their last repeat"}, -1, NULL};
    r->spilled = calloc((size_t)(nexp ? nexp : 1), sizeof(*r->spilled));
    return r->spilled ? 0 : -ENOMEM;
}

/* The repeat in memory, written to the end of the file and freed. */
static int hb_repeats_spill(struct hb_repeats *r)
{
    struct hb_repeat_spans *s = &r->spilled[r->last_x];
    if (s->n == s->cap) {
        int cap = s->cap ? s->cap * 2 : 4;
        struct hb_span *grown = realloc(s->at, sizeof(*grown) * (size_t)cap);
        if (!grown) return -ENOMEM;
        s->at = grown;
        s->cap = cap;
    }
    int rc = hb_spool_put(&r->spool, r->last, &s->at[s->n]);
    if (rc) return rc;
    s->n++;
    hb_held_add(-(long)json_array_size(r->last));
    json_decref(r->last);
    r->last = NULL;
    r->last_x = -1;
    return 0;
}

int hb_repeats_add(struct hb_repeats *r, int x, json_t *records)
{
    int rc = records ? 0 : -ENOMEM;
    if (rc == 0 && r->last) rc = hb_repeats_spill(r);
    if (rc == 0) {
        r->last = records;
        r->last_x = x;
        hb_held_add((long)json_array_size(records));
        return 0;
    }
    json_decref(records);
    if (rc == -ENOMEM) hb_err_set("out of memory keeping the records of a measurement's repeats");
    return rc;
}

bool hb_repeats_has(const struct hb_repeats *r, int x)
{
    return r->spilled[x].n > 0 || r->last_x == x;
}

/* Experiment x's repeats in repeat order, each an array of its records (a new array). */
static int hb_repeats_gather(struct hb_repeats *r, int x, json_t **out)
{
    json_t *reps = json_array();
    int rc = reps ? 0 : -ENOMEM;
    struct hb_repeat_spans *s = &r->spilled[x];
    for (int i = 0; rc == 0 && i < s->n; i++) {
        json_t *one = hb_spool_get(&r->spool, s->at[i]);
        if (one) hb_held_add((long)json_array_size(one));
        rc = !one ? -HB_EENV : json_array_append_new(reps, one) ? -ENOMEM : 0;
    }
    if (rc == 0 && r->last_x == x) {
        rc = json_array_append_new(reps, r->last) ? -ENOMEM : 0;
        r->last = NULL;
        r->last_x = -1;
    }
    free(s->at);
    *s = (struct hb_repeat_spans){0};
    *out = reps;
    return rc;
}

/* Each task's records over the repeats, merged (a new array). */
static json_t *hb_repeats_merged(const json_t *reps, double noise_pct)
{
    json_t *merged = json_array();
    size_t n = json_array_size(reps), ntasks = json_array_size(json_array_get(reps, 0));
    json_t **one = calloc(n ? n : 1, sizeof(*one));
    bool ok = merged && one;
    for (size_t k = 0; ok && k < ntasks; k++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if ((one[m] = json_array_get(json_array_get(reps, i), k))) m++;
        ok = json_array_append_new(merged, hb_repeat_merge(one, (int)m, noise_pct)) == 0;
    }
    free(one);
    if (ok) return merged;
    json_decref(merged);
    return NULL;
}

/* How many records the repeats hold in all. */
static long hb_repeats_count(const json_t *reps)
{
    long n = 0;
    for (size_t i = 0; i < json_array_size(reps); i++)
        n += (long)json_array_size(json_array_get(reps, i));
    return n;
}

int hb_repeats_take(struct hb_repeats *r, int x, json_t **merged)
{
    json_t *reps = NULL;
    int rc = hb_repeats_gather(r, x, &reps);
    *merged = rc == 0 ? hb_repeats_merged(reps, r->noise_pct) : NULL;
    if (rc == 0 && !*merged) rc = -ENOMEM;
    if (*merged) hb_held_add((long)json_array_size(*merged));
    hb_held_add(-hb_repeats_count(reps));
    json_decref(reps);
    if (rc == -ENOMEM) hb_err_set("out of memory merging the repeats of a measurement");
    return rc;
}

int hb_repeats_emit(struct hb_repeats *r, int x, int (*emit)(json_t *rec, void *ctx), void *ctx)
{
    json_t *merged = NULL;
    int rc = hb_repeats_take(r, x, &merged);
    size_t i;
    json_t *rec;
    json_array_foreach(merged, i, rec) if (rc == 0) rc = emit(rec, ctx);
    hb_held_add(-(long)json_array_size(merged));
    json_decref(merged);
    return rc;
}

void hb_repeats_free(struct hb_repeats *r)
{
    for (int x = 0; r->spilled && x < r->nexp; x++)
        free(r->spilled[x].at);
    free(r->spilled);
    if (r->last) hb_held_add(-(long)json_array_size(r->last));
    json_decref(r->last);
    hb_spool_close(&r->spool);
    *r = (struct hb_repeats){0};
}
