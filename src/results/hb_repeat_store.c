/* Where an experiment's repeats wait for its last (hb_repeat.h): in an unlinked temporary
 * file, read back one task's records at a time as its last repeat's record comes. */
#include "hb_repeat.h"

#include "hb_error.h"
#include "hb_grow.h"
#include "hb_records_held.h"
#include "hb_interval.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One repeat's records in the spool, in the order the repeat lists them, with each one's
 * headline (for --repeat auto to judge without reading them back). */
struct hb_repeat_spans {
    size_t n, cap, hcap;
    struct hb_span *at;
    double *head;
};

/* An experiment's repeats that wait, how many records of its last were merged, and why its
 * repeats stop. */
struct hb_repeat_exp {
    size_t nrep, cap;
    struct hb_repeat_spans *rep;
    size_t merged;
    const char *stop;
};

int hb_repeat_store_init(struct hb_repeats *r, int nexp, double noise_pct)
{
    *r = (struct hb_repeats){
        nexp, noise_pct, NULL, {NULL, "the records that wait for their last repeat"}};
    r->exps = calloc((size_t)(nexp ? nexp : 1), sizeof(*r->exps));
    return r->exps ? 0 : -ENOMEM;
}

static int repeats_oom(void)
{
    hb_error_set("out of memory keeping the records of a measurement's repeats");
    return -ENOMEM;
}

/* Room for one more span in repeat `repeat` of e. */
static struct hb_repeat_spans *repeats_room(struct hb_repeat_exp *e, size_t repeat)
{
    for (; e->nrep <= repeat; e->nrep++) {
        if (hb_grow((void **)&e->rep, &e->cap, e->nrep, sizeof(*e->rep))) return NULL;
        e->rep[e->nrep] = (struct hb_repeat_spans){0};
    }
    struct hb_repeat_spans *s = &e->rep[repeat];
    return hb_grow((void **)&s->at, &s->cap, s->n, sizeof(*s->at)) ||
                   hb_grow((void **)&s->head, &s->hcap, s->n, sizeof(*s->head))
               ? NULL
               : s;
}

int hb_repeat_store_put(struct hb_repeats *r, int x, int repeat, json_t *rec)
{
    struct hb_repeat_spans *s = rec ? repeats_room(&r->exps[x], (size_t)repeat) : NULL;
    hb_records_held_add(rec != NULL);
    int rc = s ? hb_spool_put(&r->spool, rec, &s->at[s->n]) : repeats_oom();
    if (rc == 0) s->head[s->n++] = hb_repeat_headline(rec);
    hb_records_held_add(-(rec != NULL));
    json_decref(rec);
    return rc;
}

bool hb_repeat_store_has(const struct hb_repeats *r, int x)
{
    return r->exps[x].nrep > 0;
}

/* Record k of each waiting repeat of e that has one, read back, then `last` (NULL: none),
 * merged and emitted; what was read is freed. */
static int repeats_merge_at(struct hb_repeats *r, struct hb_repeat_exp *e, size_t k, json_t *last,
                            int (*emit)(json_t *rec, void *ctx), void *ctx)
{
    json_t **one = calloc(e->nrep + 1, sizeof(*one));
    int m = 0, rc = one ? 0 : repeats_oom();
    for (size_t i = 0; rc == 0 && i < e->nrep; i++)
        if (k < e->rep[i].n) {
            one[m] = hb_spool_get(&r->spool, e->rep[i].at[k]);
            rc = one[m] ? 0 : -HB_EENV;
            m += one[m] != NULL;
        }
    if (one && last) one[m++] = json_incref(last);
    hb_records_held_add(m);
    json_t *merged = rc == 0 && m > 0 ? hb_repeat_merge(one, m, r->noise_pct) : NULL;
    if (merged)
        json_object_set_new(merged, "repeat_stop", json_string(e->stop ? e->stop : "fixed"));
    if (rc == 0 && m > 0 && !merged) {
        hb_error_set("out of memory merging the repeats of a measurement");
        rc = -ENOMEM;
    }
    if (merged) hb_records_held_add(1);
    if (rc == 0 && merged) rc = emit(merged, ctx);
    json_decref(merged);
    hb_records_held_add(-(long)m - (merged != NULL));
    for (int i = 0; i < m; i++)
        json_decref(one[i]);
    free(one);
    return rc;
}

int hb_repeat_store_last(struct hb_repeats *r, int x, json_t *rec,
                         int (*emit)(json_t *rec, void *ctx), void *ctx)
{
    if (!rec) return repeats_oom();
    struct hb_repeat_exp *e = &r->exps[x];
    int rc = repeats_merge_at(r, e, e->merged++, rec, emit, ctx);
    json_decref(rec);
    return rc;
}

void hb_repeat_store_end(struct hb_repeats *r, int x)
{
    struct hb_repeat_exp *e = &r->exps[x];
    for (size_t i = 0; i < e->nrep; i++) {
        free(e->rep[i].at);
        free(e->rep[i].head);
    }
    free(e->rep);
    *e = (struct hb_repeat_exp){.stop = e->stop};
}

bool hb_repeat_store_clear(const struct hb_repeats *r, int x)
{
    const struct hb_repeat_exp *e = &r->exps[x];
    double *v = malloc(sizeof(*v) * (e->nrep ? e->nrep : 1));
    size_t most = 0;
    for (size_t i = 0; i < e->nrep; i++)
        most = e->rep[i].n > most ? e->rep[i].n : most;
    bool clear = v != NULL; /* out of memory: go on repeating, a merge will say so */
    for (size_t k = 0; clear && k < most; k++) {
        int n = 0;
        for (size_t i = 0; i < e->nrep; i++)
            if (k < e->rep[i].n && isfinite(e->rep[i].head[k])) v[n++] = e->rep[i].head[k];
        struct hb_interval iv;
        clear = n == 0 || (hb_interval_median(v, n, HB_CI_LEVEL, &iv) == 0 &&
                           !hb_interval_noisy(&iv, r->noise_pct));
    }
    free(v);
    return clear;
}

void hb_repeat_store_stop(struct hb_repeats *r, int x, const char *why)
{
    if (why) r->exps[x].stop = why;
}

int hb_repeat_store_flush(struct hb_repeats *r, int x, int (*emit)(json_t *rec, void *ctx),
                          void *ctx)
{
    struct hb_repeat_exp *e = &r->exps[x];
    size_t most = 0;
    for (size_t i = 0; i < e->nrep; i++)
        most = e->rep[i].n > most ? e->rep[i].n : most;
    int rc = 0;
    for (size_t k = 0; rc == 0 && k < most; k++)
        rc = repeats_merge_at(r, e, k, NULL, emit, ctx);
    hb_repeat_store_end(r, x);
    return rc;
}

void hb_repeat_store_free(struct hb_repeats *r)
{
    for (int x = 0; r->exps && x < r->nexp; x++)
        hb_repeat_store_end(r, x);
    free(r->exps);
    hb_spool_close(&r->spool);
    *r = (struct hb_repeats){0};
}
