/* What rank 0 keeps of each record for a suite's annotate and derive (hb_suite_keep.h): every
 * column a suite's `reads` names is a real column; of a record with every column and a key the
 * suite added, each suite keeps in its temporary file its `reads`, the added key and the
 * always-kept identity and figure, and drops the columns that grow with threads, samples or
 * repeats unless it reads them; a suite that reads no earlier record keeps nothing. Two hosts
 * of hops, interleaved as a run gathers them: kept per host, derived one host at a time (each
 * verdict its host's, labelled with it), the whole records (HOPBENCH_DEBUG_KEEP=1) giving the
 * same and counted as held while kept. */
#include "../hb_check.h"
#include "hb_records_held.h"
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
    json_object_set_new(rec, "host", json_string("h0"));
    json_object_set_new(rec, "samples_s", json_pack("[f, f, f]", 1.0, 2.0, 3.0));
    json_object_set_new(rec, "bg_level", json_string("low"));
    return rec;
}

static void check_part(const struct hb_suite *s, const json_t *part)
{
    for (const char *const *r = s->reads; r && *r; r++)
        CHECK(json_object_get(part, *r) != NULL);
    CHECK_STR(json_string_value(json_object_get(part, "bg_level")), "low");
    static const char *const figure[] = {"type",     "experiment", "host", "metric",  "cpu_node",
                                         "mem_node", "value",      "ci95", "repeats", "status"};
    for (size_t i = 0; i < sizeof(figure) / sizeof(figure[0]); i++)
        CHECK(json_object_get(part, figure[i]) != NULL);
    static const char *const bulky[] = {"samples_s", "thread_cpus", "mem_nodes",
                                        "t_p95_s",   "t_cv",        "simd",
                                        "elapsed_s", "rank",        "repeat_values"};
    for (size_t i = 0; i < sizeof(bulky) / sizeof(bulky[0]); i++)
        if ((json_object_get(part, bulky[i]) != NULL) != listed(s->reads, bulky[i]))
            fprintf(stderr, "suite '%s': column %s kept %d, in its reads %d\n", s->name, bulky[i],
                    json_object_get(part, bulky[i]) != NULL, listed(s->reads, bulky[i])),
                hb_check_failures++;
}

static void check_suite(const struct hb_suite *s, struct hb_options *o)
{
    snprintf(o->command, sizeof(o->command), "%s", s->name);
    struct hb_suite_env env = {.opts = o};
    struct hb_keep k;
    CHECK_INT(hb_suite_keep_init(&k, &env), 0);
    for (const char *const *r = s->reads; r && *r; r++)
        if (!listed(hb_record_columns, *r))
            fprintf(stderr, "suite '%s' reads '%s', which is no column\n", s->name, *r),
                hb_check_failures++;
    json_t *rec = full_record();
    CHECK_INT(hb_suite_keep_add(&k, &env, rec), 0);
    CHECK_INT(k.nhosts, s->derive ? 1 : 0);
    if (s->derive && k.nhosts == 1) {
        CHECK_STR(k.hosts[0].name, "h0");
        CHECK_INT(k.hosts[0].n, 1);
        json_t *part = hb_spool_get(&k.spool, k.hosts[0].at[0]);
        CHECK(part != NULL);
        if (part) check_part(s, part);
        json_decref(part);
    }
    CHECK(k.whole == NULL);
    json_decref(rec);
    hb_suite_keep_free(&k);
}

/* A hops record of host `host` (the shape of tests/hops/test_verdicts.c). */
static json_t *hops_rec(const char *host, const char *exp, int cpu, int hops, double pct)
{
    char label[32];
    snprintf(label, sizeof(label), "%d.0.r.%d", cpu, hops);
    return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:f, s:f, s:s, s:s, "
                     "s:[i, i]}",
                     "type", "measurement", "host", host, "role", "foreground", "status", "ok",
                     "experiment", exp, "case", "single", "bg_level", "idle", "access", "r",
                     "cpu_node", cpu, "hops", hops, "pct_of_local_read", pct, "t_median_s", 1.0,
                     "label", label, "placement", "one-node", "thread_cpus", cpu, cpu + 1);
}

static int collect(json_t *rec, void *ctx)
{
    return json_array_append((json_t *)ctx, rec);
}

/* The verdict on myth 1 for single idle reads one hop away, of host `host`. */
static const json_t *verdict(const json_t *derived, const char *host)
{
    size_t i;
    json_t *v;
    json_array_foreach(derived, i, v)
    {
        if (strcmp(json_string_value(json_object_get(v, "type")), "verdict") == 0 &&
            json_integer_value(json_object_get(v, "myth")) == 1 &&
            json_integer_value(json_object_get(v, "hops")) == 1 &&
            strcmp(json_string_value(json_object_get(v, "host")), host) == 0)
            return v;
    }
    return NULL;
}

static void check_hosts(struct hb_options *o, const struct hb_topo *t)
{
    setenv("HOPBENCH_DEBUG_KEEP", "1", 1);
    snprintf(o->command, sizeof(o->command), "hops");
    o->tolerance_pct = 5.0;
    struct hb_suite_env env = {.topo = t, .opts = o};
    struct hb_keep k;
    long held = hb_records_held_max();
    CHECK_INT(hb_suite_keep_init(&k, &env), 0);
    /* Experiment by experiment, host by host. h0's hop-1 reads are 15.7% apart, h1's equal. */
    static const struct {
        const char *exp;
        int cpu, hops;
        double pct[2];
    } plan[] = {{"s1", 0, 0, {100.0, 100.0}},
                {"s2", 1, 0, {101.0, 101.0}},
                {"s3", 0, 1, {108.0, 120.0}},
                {"s4", 1, 1, {125.0, 120.0}}};
    for (size_t x = 0; x < sizeof(plan) / sizeof(plan[0]); x++)
        for (int h = 0; h < 2; h++) {
            json_t *rec =
                hops_rec(h ? "h1" : "h0", plan[x].exp, plan[x].cpu, plan[x].hops, plan[x].pct[h]);
            CHECK_INT(hb_suite_keep_add(&k, &env, rec), 0);
            json_decref(rec);
        }
    CHECK_INT(k.nhosts, 2);
    CHECK_INT(k.hosts[0].n, 4);
    CHECK_INT(k.hosts[1].n, 4);
    CHECK_INT(json_array_size(k.whole), 8);
    CHECK_INT(hb_records_held_max(), held + 8);
    json_t *derived = json_array();
    CHECK_INT(hb_suite_keep_derive(&k, &env, collect, derived), 0);
    const json_t *v0 = verdict(derived, "h0"), *v1 = verdict(derived, "h1");
    CHECK(v0 && v1);
    if (v0 && v1) {
        CHECK(!json_is_true(json_object_get(v0, "holds")));
        CHECK(json_is_true(json_object_get(v1, "holds")));
    }
    json_decref(derived);
    hb_suite_keep_free(&k);
    unsetenv("HOPBENCH_DEBUG_KEEP");
}

int main(void)
{
    char prog[] = "hopbench", *argv[] = {prog, NULL};
    struct hb_options o;
    HB_EXPECT(hb_cli_options_parse(1, argv, &o) == 0, "the default options do not parse");
    unsetenv("HOPBENCH_DEBUG_KEEP");
    for (const struct hb_suite *const *s = hb_suites; *s; s++)
        check_suite(*s, &o);
    struct hb_topo *t = NULL;
    HB_EXPECT(hb_topo_load(HB_FIXTURES "/2n-nodist.xml", &t) == 0, "no topology fixture");
    check_hosts(&o, t);
    hb_topo_load_free(t);
    hb_cli_options_free(&o);
    return hb_check_result();
}
