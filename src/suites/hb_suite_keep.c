/* What rank 0 keeps of each measurement record for annotate and derive (hb_suite_keep.h). */
#include "hb_suite_keep.h"
#include "hb_suite.h"

#include "hb_error.h"
#include "hb_held.h"
#include "hb_record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The columns every suite keeps: a record's identity and place (what derive matches records
 * on), its headline figure and what its interval is made of (hb_rec_interval), its status, and
 * what hb_mlp_annotate matches a chase's one-chain record on. The rest of the columns (the
 * samples, the other statistics, the CPUs and node sets, the times) only a suite's `reads`
 * keeps. */
static const char *const hb_keep_always[] = {
    "type",           "suite",      "experiment", "label",         "host",
    "metric",         "kernel",     "access",     "role",          "cpu_node",
    "mem_node",       "policy",     "hops",       "distance",      "threads",
    "bytes",          "pages",      "level",      "chase_stride",  "chase_group_bytes",
    "chains",         "value",      "unit",       "relative",      "ci95",
    "ci_coverage",    "noisy",      "repeats",    "lat_ns_median", "bw_GBps_best",
    "measured_class", "background", "status",     "note",          NULL,
};

static bool hb_keep_listed(const char *const *list, const char *key)
{
    for (; list && *list; list++)
        if (strcmp(*list, key) == 0) return true;
    return false;
}

int hb_keep_init(struct hb_keep *k, const struct hb_suite_env *env)
{
    *k = (struct hb_keep){0};
    if (!hb_suite_reads_measured(env)) return 0;
    const struct hb_suite *s = hb_suite_find(env->opts->command);
    const char *const *reads = s ? s->reads : NULL;
    k->drop = json_object();
    k->kept = json_array();
    const char *debug = getenv("HOPBENCH_DEBUG_KEEP");
    if (debug && strcmp(debug, "1") == 0) k->whole = json_array();
    bool ok = k->drop && k->kept && (!debug || strcmp(debug, "1") != 0 || k->whole);
    /* Without a suite (never in a run) nothing is left out. */
    for (const char *const *c = hb_record_columns; ok && s && *c; c++)
        if (!hb_keep_listed(hb_keep_always, *c) && !hb_keep_listed(reads, *c))
            ok = json_object_set_new(k->drop, *c, json_true()) == 0;
    if (ok) return 0;
    hb_keep_free(k);
    hb_err_set("out of memory keeping the records for the derived ones");
    return -ENOMEM;
}

/* The first key whose value differs between a and b (objects), or "-". */
static const char *hb_keep_first_difference(const json_t *a, const json_t *b)
{
    const char *key;
    const json_t *v;
    if (!json_is_object(a) || !json_is_object(b)) return "-";
    json_object_foreach((json_t *)a, key, v)
    {
        if (!json_equal(v, json_object_get(b, key))) return key;
    }
    json_object_foreach((json_t *)b, key, v)
    {
        if (!json_object_get(a, key)) return key;
    }
    return "-";
}

/* Remember the first difference: which step, which record, which key. */
#define HB_KEEP_DIFFERS                                                                            \
    "%s from the kept part of the records than from whole ones (experiment %s, key %s)"
static void hb_keep_note(struct hb_keep *k, const char *what, const json_t *a, const json_t *b)
{
    if (k->differ) return;
    k->differ = true;
    const char *x = json_string_value(json_object_get(a, "experiment"));
    const char *key = hb_keep_first_difference(a, b);
    int len = snprintf(NULL, 0, HB_KEEP_DIFFERS, what, x ? x : "-", key);
    k->differs = len > 0 ? malloc((size_t)len + 1) : NULL;
    if (k->differs) snprintf(k->differs, (size_t)len + 1, HB_KEEP_DIFFERS, what, x ? x : "-", key);
}

void hb_keep_annotate(struct hb_keep *k, const struct hb_suite_env *env, json_t *rec)
{
    json_t *copy = k->whole ? json_deep_copy(rec) : NULL;
    hb_suite_annotate(env, k->kept, rec);
    if (!copy) return;
    hb_suite_annotate(env, k->whole, copy);
    if (!json_equal(copy, rec)) hb_keep_note(k, "annotate gave another record", copy, rec);
    json_decref(copy);
}

int hb_keep_add(struct hb_keep *k, json_t *rec)
{
    if (!k->kept) return 0;
    json_t *part = json_object();
    const char *key;
    json_t *v;
    int rc = part ? 0 : -1;
    json_object_foreach(rec, key, v)
    {
        if (rc == 0 && !json_object_get(k->drop, key)) rc = json_object_set(part, key, v);
    }
    if (rc == 0)
        rc = json_array_append_new(k->kept, part);
    else
        json_decref(part);
    if (rc == 0 && k->whole) {
        rc = json_array_append(k->whole, rec);
        if (rc == 0) hb_held_add(1);
    }
    if (rc == 0) return 0;
    hb_err_set("out of memory keeping the records for the derived ones");
    return -ENOMEM;
}

int hb_keep_derive(struct hb_keep *k, const struct hb_suite_env *env, json_t *derived)
{
    size_t from = json_array_size(derived);
    int rc = hb_suite_derive(env, k->kept, derived);
    if (!k->whole || rc == -ENOMEM) return rc;
    json_t *check = json_array();
    /* A derive may say a note on stderr (comm's NICs): the check's second derive stays quiet. */
    fflush(stderr);
    int quiet = open("/dev/null", O_WRONLY | O_CLOEXEC), saved = quiet >= 0 ? dup(2) : -1;
    if (saved >= 0) dup2(quiet, 2);
    int wrc = check ? hb_suite_derive(env, k->whole, check) : -ENOMEM;
    fflush(stderr);
    if (saved >= 0) dup2(saved, 2), close(saved);
    if (quiet >= 0) close(quiet);
    for (size_t i = 0; wrc == 0 && i < json_array_size(check); i++) {
        const json_t *a = json_array_get(check, i), *b = json_array_get(derived, from + i);
        if (!json_equal(a, b)) hb_keep_note(k, "derive gave another record", a, b);
    }
    if (wrc == 0 && rc == 0 && json_array_size(check) != json_array_size(derived) - from)
        hb_keep_note(k, "derive gave another number of records", NULL, NULL);
    json_decref(check);
    if (wrc == -ENOMEM) return wrc;
    if (!k->differ && wrc == rc) return rc;
    hb_err_set("HOPBENCH_DEBUG_KEEP: %s: %s: a key it reads is left out (struct hb_suite.reads)",
               env->opts->command[0] ? env->opts->command : "the default suite",
               k->differs  ? k->differs
               : k->differ ? "(out of memory saying where)"
                           : "derive returned another status from whole records");
    return -HB_EENV;
}

void hb_keep_free(struct hb_keep *k)
{
    json_decref(k->drop);
    json_decref(k->kept);
    if (k->whole) hb_held_add(-(long)json_array_size(k->whole));
    json_decref(k->whole);
    free(k->differs);
    *k = (struct hb_keep){0};
}
