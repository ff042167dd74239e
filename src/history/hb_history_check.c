/* `hopbench history check` (hb_history.h): each host's series loaded in turn and handed to
 * the change-point engine, its splits kept as rows until the false discovery rate has been
 * controlled across every series; then the rows written as compare writes its own, and the
 * gate's exit code. */
#include "hb_history.h"

#include "hb_changepoint.h"
#include "hb_error.h"
#include "hb_grow.h"
#include "hb_history_config_change.h"
#include "hb_history_layout.h"
#include "hb_history_load.h"
#include "hb_history_schema.h"
#include "hb_history_time.h"
#include "hb_outfile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The change points of every host so far, each with its row. */
struct found {
    const struct hb_changepoint_params *params;
    struct hb_changepoint *cps;
    json_t **rows; /* rows[k] is cps[j]'s when cps[j].series == k */
    size_t n, cap_cps, cap_rows, family, series, points;
    json_t *configs; /* every host's config_change rows, host by host */
    size_t n_configs;
};

/* A number, or null when it cannot be computed. */
static json_t *num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* The last point of the segment before the change (a step: the point before it; a creep: the
 * best earlier segment's last), whose knobs and version the engine compared. */
static const struct hb_history_point *before_point(const struct hb_history_series *s,
                                                   const struct hb_changepoint *cp)
{
    return &s->points[cp->before_to ? cp->before_to - 1 : 0];
}

/* The row of one change point (its series and points still loaded). */
static json_t *row_of(const struct hb_history_series *s, const struct hb_changepoint *cp)
{
    const struct hb_history_point *at = &s->points[cp->at];
    const struct hb_history_point *was = before_point(s, cp);
    char when[HB_HISTORY_TIME_LEN];
    hb_history_time_iso(at->time, when);
    char *knobs = hb_history_config_change_knobs_text(was->config_json, at->config_json, cp->knobs,
                                                      cp->n_knobs);
    char *version = hb_history_config_change_version_text(was, at);
    json_t *row = knobs && version ? json_object() : NULL;
    if (row) {
        json_object_set_new(row, "type", json_string("change_point"));
        json_object_set_new(row, "host", json_string(s->host));
        json_object_set_new(row, "series", json_string(s->identity));
        json_object_set_new(row, "metric", json_string(s->metric));
        json_object_set_new(row, "unit", json_string(s->unit));
        json_object_set_new(row, "at_time", json_string(when));
        json_object_set_new(row, "at_time_unix", json_integer(at->time));
        json_object_set_new(row, "at_commit", at->commit ? json_string(at->commit) : json_null());
        json_object_set_new(row, "at_run", json_integer(at->run_id));
        json_object_set_new(row, "direction", json_string(cp->worse ? "worse" : "better"));
        json_object_set_new(row, "kind", json_string(cp->creep ? "creep" : "step"));
        json_object_set_new(row, "change_pct", num(cp->change_pct));
        json_object_set_new(row, "p", num(cp->p));
        json_object_set_new(row, "p_adjusted", json_null());
        json_object_set_new(row, "before", num(cp->before.value));
        json_object_set_new(row, "before_low", num(cp->before.lo));
        json_object_set_new(row, "before_high", num(cp->before.hi));
        json_object_set_new(row, "after", num(cp->after.value));
        json_object_set_new(row, "after_low", num(cp->after.lo));
        json_object_set_new(row, "after_high", num(cp->after.hi));
        json_object_set_new(row, "before_points",
                            json_integer((json_int_t)(cp->before_to - cp->before_from)));
        json_object_set_new(row, "after_points",
                            json_integer((json_int_t)(cp->after_to - cp->after_from)));
        json_object_set_new(row, "knobs", json_string(knobs));
        json_object_set_new(row, "version_changed", json_boolean(cp->version_changed));
        json_object_set_new(row, "version_change",
                            cp->version_changed ? json_string(version) : json_null());
        json_object_set_new(row, "recent", json_boolean(cp->recent));
    }
    free(knobs);
    free(version);
    return row;
}

/* One host's change points moved into fd, each with its row. */
static int take(struct found *fd, const struct hb_history_series *s, struct hb_changepoint *cps,
                size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (hb_grow((void **)&fd->cps, &fd->cap_cps, fd->n, sizeof(*fd->cps)) ||
            hb_grow((void **)&fd->rows, &fd->cap_rows, fd->n, sizeof(*fd->rows)))
            return -ENOMEM;
        json_t *row = row_of(&s[cps[i].series], &cps[i]);
        if (!row) return -ENOMEM;
        fd->rows[fd->n] = row;
        fd->cps[fd->n] = cps[i];
        fd->cps[fd->n].series = fd->n; /* its row from now on */
        cps[i].knobs = NULL;
        cps[i].n_knobs = 0;
        fd->n++;
    }
    return 0;
}

/* One host's series through the engine (hb_history_load_each's fn). */
static int find_host(void *ctx, const struct hb_history_series *s, size_t n)
{
    struct found *fd = ctx;
    struct hb_changepoint *cps = NULL;
    size_t ncp = 0, tested = 0;
    int rc = hb_changepoint_find(s, n, fd->params, &cps, &ncp, &tested);
    if (rc == 0 && (rc = take(fd, s, cps, ncp)) != 0)
        hb_error_set("history check: out of memory keeping %zu change points", fd->n + ncp);
    hb_changepoint_free(cps, ncp);
    if (rc == 0) rc = hb_history_config_change_rows(s, n, fd->configs, &fd->n_configs);
    if (rc == -ENOMEM) hb_error_set("history check: out of memory keeping the config changes");
    fd->family += tested;
    fd->series += n;
    for (size_t i = 0; i < n; i++)
        fd->points += s[i].n_points;
    return rc;
}

/* The rows that passed, then the summary; *worse_recent counts the gate's. */
static int write_rows(const struct hb_history_opts *o, const struct hb_history_db *db,
                      struct found *fd, size_t hosts, size_t *worse_recent)
{
    struct hb_sink *sink = NULL;
    int rc = hb_sink_open(o->format, o->output ? o->output : "", &hb_history_layout, &sink);
    if (rc) return rc;
    json_t *head =
        json_pack("{s:s, s:s, s:I, s:f, s:f, s:I}", "type", "history_header", "db",
                  hb_history_db_name(db), "window", (json_int_t)o->window, "min_change_pct",
                  o->min_change, "fdr", o->fdr, "recent", (json_int_t)o->recent);
    rc = head ? hb_sink_write(sink, head) : -ENOMEM;
    json_decref(head);
    *worse_recent = 0;
    for (size_t i = 0; rc == 0 && i < fd->n; i++) {
        const struct hb_changepoint *cp = &fd->cps[i];
        json_t *row = fd->rows[cp->series];
        json_object_set_new(row, "p_adjusted", num(cp->p_adjusted));
        if (cp->worse && cp->recent) (*worse_recent)++;
        rc = hb_sink_write(sink, row);
    }
    for (size_t i = 0; rc == 0 && i < fd->n_configs; i++)
        rc = hb_sink_write(sink, json_array_get(fd->configs, i));
    json_t *sum =
        rc ? NULL
           : json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:s, s:f}", "type",
                       "history_summary", "hosts", (json_int_t)hosts, "series",
                       (json_int_t)fd->series, "points", (json_int_t)fd->points, "change_points",
                       (json_int_t)fd->n, "config_changes", (json_int_t)fd->n_configs,
                       "worse_recent", (json_int_t)*worse_recent, "recent", (json_int_t)o->recent,
                       "family", (json_int_t)fd->family, "rule", "BH FDR", "level", o->fdr);
    if (rc == 0) rc = sum ? hb_sink_write(sink, sum) : -ENOMEM;
    json_decref(sum);
    int crc = hb_sink_close(sink, rc == 0);
    return rc ? rc : crc;
}

/* fd's rows (all nrows made, passed or not) and the change points left. */
static void found_free(struct found *fd, size_t nrows)
{
    for (size_t i = 0; i < nrows; i++)
        json_decref(fd->rows[i]);
    free(fd->rows);
    hb_changepoint_free(fd->cps, fd->n);
    json_decref(fd->configs);
}

/* The engine's settings from the options. */
static struct hb_changepoint_params params_of(const struct hb_history_opts *o)
{
    struct hb_changepoint_params params = hb_changepoint_defaults();
    params.window = o->window;
    params.min_change = o->min_change;
    params.fdr = o->fdr;
    params.recent = o->recent;
    params.fdr_later = true;
    params.one_thread = true;
    return params;
}

/* Every change point of db's series that passes the FDR, into fd (*nrows rows made). */
static int collect(struct hb_history_db *db, const struct hb_history_opts *o, struct found *fd,
                   size_t *nrows, size_t *hosts)
{
    const struct hb_changepoint_params params = params_of(o);
    const struct hb_history_filter f = {o->host, o->match, o->since};
    fd->params = &params;
    fd->configs = json_array();
    int rc = fd->configs ? hb_history_schema_ready(db, false) : -ENOMEM;
    if (rc == 0) rc = hb_history_load_each(db, &f, find_host, fd, hosts);
    /* Each change point keeps its row's index in series while the FDR drops those that fail. */
    *nrows = fd->n;
    return rc ? rc : hb_changepoint_fdr(fd->cps, &fd->n, fd->family, &params);
}

int hb_history_check_change_rows(struct hb_history_db *db, const struct hb_history_opts *o,
                                 json_t *rows)
{
    struct found fd = {0};
    size_t nrows = 0, hosts = 0;
    int rc = collect(db, o, &fd, &nrows, &hosts);
    for (size_t i = 0; rc == 0 && i < fd.n; i++) {
        json_t *row = fd.rows[fd.cps[i].series];
        json_object_set_new(row, "p_adjusted", num(fd.cps[i].p_adjusted));
        if (json_array_append(rows, row)) rc = -ENOMEM;
    }
    found_free(&fd, nrows);
    return rc;
}

int hb_history_check(const struct hb_history_opts *o)
{
    struct hb_history_db *db = NULL;
    struct found fd = {0};
    size_t hosts = 0, worse_recent = 0, nrows = 0;
    const struct hb_history_db_how how = {o->busy_ms, false};
    int rc = o->output ? hb_outfile_check(o->output, (const char *const[]){o->db, NULL}) : 0;
    if (rc == 0) rc = hb_history_db_open(o->db, &how, &db);
    if (rc == 0) rc = collect(db, o, &fd, &nrows, &hosts);
    if (rc == 0) rc = write_rows(o, db, &fd, hosts, &worse_recent);
    found_free(&fd, nrows);
    hb_history_db_close(db);
    if (rc) {
        hb_error_print(rc);
        return hb_error_exit_code(rc);
    }
    return worse_recent ? HB_EXIT_FAILED : HB_EXIT_OK;
}
