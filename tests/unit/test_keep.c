/* What rank 0 keeps of each record for a suite's annotate and derive (hb_suite_keep.h): every
 * column a suite's `reads` names is a real column; of a record with every column and a key the
 * suite added, each suite keeps its `reads`, the added key and the always-kept identity and
 * figure, drops the columns that grow with threads, samples or repeats unless it reads them,
 * and keeps under two thirds of the columns; a suite that reads no earlier record keeps
 * nothing; HOPBENCH_DEBUG_KEEP=1 keeps the whole records beside and counts them as held
 * (hb_held.h). */
#include "../hb_check.h"
#include "hb_held.h"
#include "hb_options.h"
#include "hb_record.h"
#include "hb_suite.h"
#include "hb_suite_keep.h"

static bool listed(const char *const *list, const char *key)
{
    for (; list && *list; list++)
        if (strcmp(*list, key) == 0) return true;
    return false;
}

/* Every column, and a key a suite adds (hops' "bg_level"). */
static json_t *full_record(void)
{
    json_t *rec = json_object();
    for (const char *const *c = hb_record_columns; *c; c++)
        json_object_set_new(rec, *c, json_integer(1));
    json_object_set_new(rec, "samples_s", json_pack("[f, f, f]", 1.0, 2.0, 3.0));
    json_object_set_new(rec, "bg_level", json_string("low"));
    return rec;
}

static void check_suite(const struct hb_suite *s, struct hb_options *o)
{
    snprintf(o->command, sizeof(o->command), "%s", s->name);
    struct hb_suite_env env = {.opts = o};
    struct hb_keep k;
    CHECK_INT(hb_keep_init(&k, &env), 0);
    for (const char *const *r = s->reads; r && *r; r++)
        if (!listed(hb_record_columns, *r))
            fprintf(stderr, "suite '%s' reads '%s', which is no column\n", s->name, *r),
                hb_check_failures++;
    json_t *rec = full_record();
    CHECK_INT(hb_keep_add(&k, rec), 0);
    if (!hb_suite_reads_measured(&env)) {
        CHECK(k.kept == NULL);
    } else {
        json_t *part = json_array_get(k.kept, 0);
        CHECK_INT(json_array_size(k.kept), 1);
        for (const char *const *r = s->reads; r && *r; r++)
            CHECK(json_object_get(part, *r) != NULL);
        CHECK_STR(json_string_value(json_object_get(part, "bg_level")), "low");
        static const char *const figure[] = {"type",     "experiment", "host",  "metric",
                                             "cpu_node", "mem_node",   "value", "ci95",
                                             "repeats",  "status"};
        for (size_t i = 0; i < sizeof(figure) / sizeof(figure[0]); i++)
            CHECK(json_object_get(part, figure[i]) != NULL);
        static const char *const bulky[] = {"samples_s", "thread_cpus", "mem_nodes",
                                            "t_p95_s",   "t_cv",        "simd",
                                            "elapsed_s", "rank",        "repeat_values"};
        for (size_t i = 0; i < sizeof(bulky) / sizeof(bulky[0]); i++)
            CHECK((json_object_get(part, bulky[i]) != NULL) == listed(s->reads, bulky[i]));
        size_t ncols = 0;
        for (const char *const *c = hb_record_columns; *c; c++)
            ncols++;
        if (3 * (json_object_size(part) - 1) > 2 * ncols)
            fprintf(stderr, "suite '%s' keeps %zu of %zu columns\n", s->name,
                    json_object_size(part) - 1, ncols),
                hb_check_failures++;
        CHECK(k.whole == NULL);
    }
    json_decref(rec);
    hb_keep_free(&k);
}

int main(void)
{
    char prog[] = "hopbench", *argv[] = {prog, NULL};
    struct hb_options o;
    HB_EXPECT(hb_options_parse(1, argv, &o) == 0, "the default options do not parse");
    unsetenv("HOPBENCH_DEBUG_KEEP");
    for (const struct hb_suite *const *s = hb_suites; *s; s++)
        check_suite(*s, &o);

    /* The check's mode: whole records beside the kept part, counted as held until freed. */
    setenv("HOPBENCH_DEBUG_KEEP", "1", 1);
    snprintf(o.command, sizeof(o.command), "matrix");
    struct hb_suite_env env = {.opts = &o};
    struct hb_keep k;
    long held = hb_held_max();
    CHECK_INT(hb_keep_init(&k, &env), 0);
    json_t *rec = full_record();
    CHECK_INT(hb_keep_add(&k, rec), 0);
    CHECK_INT(hb_keep_add(&k, rec), 0);
    CHECK_INT(json_array_size(k.whole), 2);
    CHECK(json_array_get(k.whole, 0) == rec);
    CHECK(json_object_get(json_array_get(k.kept, 1), "samples_s") == NULL);
    CHECK_INT(hb_held_max(), held + 2);
    json_decref(rec);
    hb_keep_free(&k);
    hb_options_free(&o);
    return hb_check_result();
}
