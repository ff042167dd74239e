/* The repeats' store (hb_repeat.h): records that wait in the temporary file come back exactly
 * as kept (the merge equals the merge of the records never written), rank 0 holds one task's
 * repeats at a time (hb_records_held.h), a run stopped early gets what waits merged, and a TMPDIR
 * that cannot take the file is named (with one repeat no file is made). */
#include "../hb_check.h"
#include "hb_error.h"
#include "hb_records_held.h"
#include "hb_repeat.h"

enum { NEXP = 3, NTASK = 2, NREP = 3 };

/* Task k of experiment x, repeat r: floats that a lossy round trip would change. */
static json_t *record(int x, int k, int r)
{
    return json_pack("{s:s, s:s, s:i, s:s, s:f, s:f, s:f, s:[f, i, s], s:n, s:s}", "type",
                     "measurement", "experiment",
                     x == 0   ? "e0"
                     : x == 1 ? "e1"
                              : "e2",
                     "task", k, "metric", "latency", "lat_ns_median", 100.0 / 3.0 + r * 0.1 + x + k,
                     "elapsed_s", 1e-300 * (r + 1), "pages_on_target_pct", 99.99999999999 - r,
                     "thread_cpus", 0.1, 7, "n\u00f6de \"q\"", "note", "status", "ok");
}

/* The merge of experiment x's records made afresh, none of them written anywhere. */
/* hb_repeat_merge of recs, with the stop the store says (a fixed --repeat N). */
static json_t *merge_fixed(json_t *const *recs, int n)
{
    json_t *m = hb_repeat_merge(recs, n, 5.0);
    json_object_set_new(m, "repeat_stop", json_string("fixed"));
    return m;
}

static char *expected(int x)
{
    json_t *recs[NREP], *merged = json_array();
    for (int k = 0; k < NTASK; k++) {
        for (int r = 0; r < NREP; r++)
            recs[r] = record(x, k, r);
        json_array_append_new(merged, merge_fixed(recs, NREP));
        for (int r = 0; r < NREP; r++)
            json_decref(recs[r]);
    }
    char *text = json_dumps(merged, JSON_COMPACT);
    json_decref(merged);
    return text;
}

static int collect(json_t *rec, void *ctx)
{
    return json_array_append((json_t *)ctx, rec);
}

/* Repeats round the whole plan, as the executor runs them: every record of a repeat that is
 * not the last waits; each record of the last is merged with its earlier ones and emitted. */
static void round_trip(void)
{
    struct hb_repeats reps;
    CHECK_INT(hb_repeat_store_init(&reps, NEXP, 5.0), 0);
    for (int r = 0; r < NREP; r++)
        for (int x = 0; x < NEXP; x++) {
            json_t *merged = json_array();
            for (int k = 0; k < NTASK; k++)
                CHECK_INT(r < NREP - 1
                              ? hb_repeat_store_put(&reps, x, r, record(x, k, r))
                              : hb_repeat_store_last(&reps, x, record(x, k, r), collect, merged),
                          0);
            CHECK(hb_repeat_store_has(&reps, x));
            if (r < NREP - 1) {
                CHECK_INT(json_array_size(merged), 0);
                json_decref(merged);
                continue;
            }
            hb_repeat_store_end(&reps, x);
            char *got = json_dumps(merged, JSON_COMPACT), *want = expected(x);
            CHECK_STR(got, want);
            CHECK(!hb_repeat_store_has(&reps, x));
            free(got);
            free(want);
            json_decref(merged);
        }
    /* One task's repeats and their merge, never an experiment's, let alone the plan's. */
    CHECK_INT(hb_records_held_max(), NREP + 1);
    hb_repeat_store_free(&reps);
}

/* A run stopped before the last repeat: what waits is merged over the repeats it has. */
static void flush(void)
{
    struct hb_repeats reps;
    CHECK_INT(hb_repeat_store_init(&reps, NEXP, 5.0), 0);
    for (int r = 0; r < 2; r++)
        for (int k = 0; k < NTASK; k++)
            CHECK_INT(hb_repeat_store_put(&reps, 1, r, record(1, k, r)), 0);
    json_t *got = json_array(), *want = json_array();
    CHECK_INT(hb_repeat_store_flush(&reps, 1, collect, got), 0);
    for (int k = 0; k < NTASK; k++) {
        json_t *recs[2] = {record(1, k, 0), record(1, k, 1)};
        json_array_append_new(want, merge_fixed(recs, 2));
        json_decref(recs[0]);
        json_decref(recs[1]);
    }
    CHECK(json_equal(got, want));
    CHECK(!hb_repeat_store_has(&reps, 1));
    json_decref(got);
    json_decref(want);
    hb_repeat_store_free(&reps);
}

/* A repeat that waits needs the file; with one repeat none is made. */
static void unwritable_tmpdir(void)
{
    struct hb_repeats reps;
    setenv("TMPDIR", "/nonexistent/hb-tmp", 1);
    CHECK_INT(hb_repeat_store_init(&reps, NEXP, 5.0), 0);
    json_t *got = json_array();
    CHECK_INT(hb_repeat_store_last(&reps, 0, record(0, 0, 0), collect, got), 0);
    CHECK_INT(json_array_size(got), 1);
    CHECK_INT(hb_repeat_store_put(&reps, 1, 0, record(1, 0, 0)), -HB_EENV);
    CHECK_HAS(hb_error_msg(), "/nonexistent/hb-tmp");
    CHECK_HAS(hb_error_msg(), "set TMPDIR");
    json_decref(got);
    hb_repeat_store_free(&reps);
    unsetenv("TMPDIR");
}

int main(void)
{
    round_trip();
    flush();
    unwritable_tmpdir();
    return hb_check_result();
}
