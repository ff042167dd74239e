/* A host's configuration changes as check's rows (hb_history_config_change.h): its runs
 * gathered from its series' points (each run once, in time order), consecutive runs'
 * configs compared by compare's config diff (hb_changepoint_knobs), and hopbench's version
 * and commit. */
#include "hb_history_config_change.h"

#include "hb_changepoint_knobs.h"
#include "hb_config.h"
#include "hb_grow.h"
#include "hb_history_time.h"
#include "hb_strf.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The knob's value in a config's JSON text as words ("never"), or NULL. */
static char *knob_words(const char *config_json, const char *knob)
{
    json_t *config = config_json ? json_loads(config_json, 0, NULL) : NULL;
    const json_t *v = json_object_get(config, knob);
    char *words = v ? hb_config_diff_words(v) : NULL;
    json_decref(config);
    return words;
}

char *hb_history_config_change_knobs_text(const char *was_json, const char *now_json,
                                          char *const *knobs, size_t n)
{
    char *text = strdup("");
    for (size_t i = 0; text && i < n; i++) {
        char *a = knob_words(was_json, knobs[i]);
        char *b = knob_words(now_json, knobs[i]);
        char *more = a || b ? hb_strf("%s%s%s %s -> %s", text, i ? ", " : "", knobs[i], a ? a : "?",
                                      b ? b : "?")
                            : hb_strf("%s%s%s", text, i ? ", " : "", knobs[i]);
        free(a);
        free(b);
        free(text);
        text = more;
    }
    return text;
}

char *hb_history_config_change_version_text(const struct hb_history_point *was,
                                            const struct hb_history_point *now)
{
    return hb_strf("%s %s -> %s %s", was->version ? was->version : "?",
                   was->commit ? was->commit : "?", now->version ? now->version : "?",
                   now->commit ? now->commit : "?");
}

static bool text_differs(const char *a, const char *b)
{
    return (a || b) && (!a || !b || strcmp(a, b) != 0);
}

static int by_time(const void *x, const void *y)
{
    const struct hb_history_point *a = *(const struct hb_history_point *const *)x;
    const struct hb_history_point *b = *(const struct hb_history_point *const *)y;
    if (a->time != b->time) return a->time < b->time ? -1 : 1;
    return (a->run_id > b->run_id) - (a->run_id < b->run_id);
}

/* A point of each run of the host, in time order, into *out (*n of them). The series of a
 * host mostly share their runs: a point whose run the first series has at the same place is
 * skipped before the sort. */
static int host_runs(const struct hb_history_series *s, size_t ns,
                     const struct hb_history_point ***out, size_t *n)
{
    const struct hb_history_point **runs = NULL;
    size_t k = 0, cap = 0;
    for (size_t j = 0; j < ns; j++)
        for (size_t i = 0; i < s[j].n_points; i++) {
            const struct hb_history_point *p = &s[j].points[i];
            if (j && i < s[0].n_points && s[0].points[i].run_id == p->run_id) continue;
            if (hb_grow((void **)&runs, &cap, k, sizeof(*runs))) {
                free(runs);
                return -ENOMEM;
            }
            runs[k++] = p;
        }
    if (k) qsort(runs, k, sizeof(*runs), by_time);
    size_t u = 0;
    for (size_t i = 0; i < k; i++)
        if (u == 0 || runs[u - 1]->run_id != runs[i]->run_id) runs[u++] = runs[i];
    *out = runs, *n = u;
    return 0;
}

/* The row of run `now` against run `was`, or NULL when out of memory. */
static json_t *row_of(const char *host, const struct hb_history_point *was,
                      const struct hb_history_point *now, char *const *knobs, size_t nk,
                      bool version_changed)
{
    char when[HB_HISTORY_TIME_LEN];
    hb_history_time_iso(now->time, when);
    char *text = hb_history_config_change_knobs_text(was->config_json, now->config_json, knobs, nk);
    char *version = hb_history_config_change_version_text(was, now);
    json_t *row = text && version ? json_object() : NULL;
    if (row) {
        json_object_set_new(row, "type", json_string("config_change"));
        json_object_set_new(row, "host", json_string(host));
        json_object_set_new(row, "kind", json_string("config"));
        json_object_set_new(row, "at_time", json_string(when));
        json_object_set_new(row, "at_time_unix", json_integer(now->time));
        json_object_set_new(row, "at_commit", now->commit ? json_string(now->commit) : json_null());
        json_object_set_new(row, "at_run", json_integer(now->run_id));
        json_object_set_new(row, "knobs", json_string(text));
        json_object_set_new(row, "version_changed", json_boolean(version_changed));
        json_object_set_new(row, "version_change",
                            version_changed ? json_string(version) : json_null());
    }
    free(text);
    free(version);
    return row;
}

int hb_history_config_change_rows(const struct hb_history_series *s, size_t n, json_t *rows,
                                  size_t *count)
{
    const struct hb_history_point **runs = NULL;
    size_t nr = 0;
    int rc = n ? host_runs(s, n, &runs, &nr) : 0;
    for (size_t i = 1; rc == 0 && i < nr; i++) {
        const struct hb_history_point *was = runs[i - 1], *now = runs[i];
        bool version =
            text_differs(was->version, now->version) || text_differs(was->commit, now->commit);
        char **knobs = NULL;
        size_t nk = 0;
        if (text_differs(was->config_json, now->config_json))
            rc = hb_changepoint_knobs(was->config_json, now->config_json, &knobs, &nk);
        if (rc == 0 && (nk || version)) {
            json_t *row = row_of(s[0].host, was, now, knobs, nk, version);
            if (!row || json_array_append_new(rows, row)) rc = -ENOMEM;
            if (rc == 0) ++*count;
        }
        hb_changepoint_knobs_free(knobs, nk);
    }
    free(runs);
    return rc;
}
