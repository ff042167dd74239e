/* The repeats' store (hb_repeat.h): records that wait in the temporary file come back exactly
 * as kept (the merge equals the merge of the records never written), rank 0 holds one
 * experiment's repeats at a time (hb_held.h), and a TMPDIR that cannot take the file is named. */
#include "../hb_check.h"
#include "hb_error.h"
#include "hb_held.h"
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

static json_t *repeat(int x, int r)
{
    json_t *a = json_array();
    for (int k = 0; k < NTASK; k++)
        json_array_append_new(a, record(x, k, r));
    return a;
}

/* The merge of experiment x's records made afresh, none of them written anywhere. */
static char *expected(int x)
{
    json_t *recs[NREP], *merged = json_array();
    for (int k = 0; k < NTASK; k++) {
        for (int r = 0; r < NREP; r++)
            recs[r] = record(x, k, r);
        json_array_append_new(merged, hb_repeat_merge(recs, NREP, 5.0));
        for (int r = 0; r < NREP; r++)
            json_decref(recs[r]);
    }
    char *text = json_dumps(merged, JSON_COMPACT);
    json_decref(merged);
    return text;
}

/* Repeats round the whole plan, as the executor runs them; each experiment taken after its
 * last. */
static void round_trip(void)
{
    struct hb_repeats reps;
    CHECK_INT(hb_repeats_init(&reps, NEXP, 5.0), 0);
    for (int r = 0; r < NREP; r++)
        for (int x = 0; x < NEXP; x++) {
            CHECK_INT(hb_repeats_add(&reps, x, repeat(x, r)), 0);
            CHECK(hb_repeats_has(&reps, x));
            if (r < NREP - 1) continue;
            json_t *merged = NULL;
            CHECK_INT(hb_repeats_take(&reps, x, &merged), 0);
            char *got = json_dumps(merged, JSON_COMPACT), *want = expected(x);
            CHECK_STR(got, want);
            CHECK(!hb_repeats_has(&reps, x));
            hb_held_add(-(long)json_array_size(merged));
            free(got);
            free(want);
            json_decref(merged);
        }
    /* One experiment's repeats and their merge, never the plan's. */
    CHECK_INT(hb_held_max(), NTASK * (NREP + 1));
    hb_repeats_free(&reps);
}

static void unwritable_tmpdir(void)
{
    struct hb_repeats reps;
    setenv("TMPDIR", "/nonexistent/hb-tmp", 1);
    CHECK_INT(hb_repeats_init(&reps, NEXP, 5.0), 0);
    CHECK_INT(hb_repeats_add(&reps, 0, repeat(0, 0)), 0);
    CHECK_INT(hb_repeats_add(&reps, 1, repeat(1, 0)), -HB_EENV);
    CHECK_HAS(hb_err_msg(), "/nonexistent/hb-tmp");
    CHECK_HAS(hb_err_msg(), "set TMPDIR");
    hb_repeats_free(&reps);
    unsetenv("TMPDIR");
}

int main(void)
{
    round_trip();
    unwritable_tmpdir();
    return hb_check_result();
}
