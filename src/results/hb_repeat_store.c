/* Where an experiment's repeats wait for its last (hb_repeat.h): the latest in memory, the
 * earlier ones in an unlinked temporary file, read back one experiment at a time. */
#include "hb_repeat.h"

#include "hb_error.h"
#include "hb_held.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* One repeat's records in the file: `len` bytes of JSON at `off`. */
struct hb_repeat_span {
    off_t off;
    size_t len;
};

struct hb_repeat_spans {
    int n, cap;
    struct hb_repeat_span *at;
};

int hb_repeats_init(struct hb_repeats *r, int nexp, double noise_pct)
{
    *r = (struct hb_repeats){nexp, noise_pct, NULL, NULL, -1, NULL};
    r->spilled = calloc((size_t)(nexp ? nexp : 1), sizeof(*r->spilled));
    return r->spilled ? 0 : -ENOMEM;
}

/* The temporary file, made and unlinked at the first repeat that waits. */
static int hb_repeats_open(struct hb_repeats *r)
{
    if (r->file) return 0;
    const char *dir = getenv("TMPDIR");
    dir = dir && dir[0] ? dir : "/tmp";
    size_t len = strlen(dir) + sizeof("/hopbench-repeats-XXXXXX");
    char *path = malloc(len);
    if (!path) return -ENOMEM;
    snprintf(path, len, "%s/hopbench-repeats-XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd >= 0) unlink(path);
    r->file = fd >= 0 ? fdopen(fd, "w+") : NULL;
    if (!r->file) {
        hb_err_set("cannot make a temporary file in %s for the records that wait for their "
                   "last repeat: %s; set TMPDIR to a writable directory",
                   dir, strerror(errno));
        if (fd >= 0) close(fd);
    }
    free(path);
    return r->file ? 0 : -HB_EENV;
}

/* The repeat in memory, written to the end of the file and freed. */
static int hb_repeats_spill(struct hb_repeats *r)
{
    struct hb_repeat_spans *s = &r->spilled[r->last_x];
    if (s->n == s->cap) {
        int cap = s->cap ? s->cap * 2 : 4;
        struct hb_repeat_span *grown = realloc(s->at, sizeof(*grown) * (size_t)cap);
        if (!grown) return -ENOMEM;
        s->at = grown;
        s->cap = cap;
    }
    int rc = hb_repeats_open(r);
    if (rc) return rc;
    off_t off = fseeko(r->file, 0, SEEK_END) == 0 ? ftello(r->file) : -1;
    if (off < 0 || json_dumpf(r->last, r->file, JSON_COMPACT) != 0 || fflush(r->file) != 0) {
        hb_err_set("cannot write the records that wait for their last repeat to a temporary "
                   "file: %s; set TMPDIR to a directory with room",
                   strerror(errno));
        return -HB_EENV;
    }
    s->at[s->n++] = (struct hb_repeat_span){off, (size_t)(ftello(r->file) - off)};
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

/* One repeat read back from the file (a new array); NULL with a message. */
static json_t *hb_repeats_read(struct hb_repeats *r, const struct hb_repeat_span *sp)
{
    char *buf = malloc(sp->len ? sp->len : 1);
    if (!buf) {
        hb_err_set("out of memory reading back a measurement's repeats (%zu bytes)", sp->len);
        return NULL;
    }
    json_t *recs = NULL;
    if (fseeko(r->file, sp->off, SEEK_SET) == 0 && fread(buf, 1, sp->len, r->file) == sp->len)
        recs = json_loadb(buf, sp->len, 0, NULL);
    free(buf);
    if (!recs)
        hb_err_set("cannot read back the records that waited for their last repeat from the "
                   "temporary file: %s",
                   ferror(r->file) ? strerror(errno) : "it changed under this run");
    else
        hb_held_add((long)json_array_size(recs));
    return recs;
}

/* Experiment x's repeats in repeat order, each an array of its records (a new array). */
static int hb_repeats_gather(struct hb_repeats *r, int x, json_t **out)
{
    json_t *reps = json_array();
    int rc = reps ? 0 : -ENOMEM;
    struct hb_repeat_spans *s = &r->spilled[x];
    for (int i = 0; rc == 0 && i < s->n; i++) {
        json_t *one = hb_repeats_read(r, &s->at[i]);
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
    if (r->file) fclose(r->file);
    *r = (struct hb_repeats){0};
}
