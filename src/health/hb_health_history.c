/* check's --history (hb_health_history.h): check's series of one host turned back into the
 * records its cells come from, so the history's figures are named and keyed as a run's. */
#include "hb_health_history.h"

#include "hb_error.h"
#include "hb_history_load.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

/* Waiting for another writer's lock, as history's commands do by default. */
#define HEALTH_HISTORY_BUSY_MS 5000

/* A measurement record of series s ("check EXP LABEL cpu=C mem=M KERNEL threads=T bytes=B"),
 * its repeats those of the newest points; NULL when s is not one of check's. */
static json_t *record_of(const struct hb_history_series *s)
{
    char exp[128], kernel[64];
    int cpu, mem, threads;
    long long bytes;
    if (sscanf(s->identity, "check %127s %*s cpu=%d mem=%d %63s threads=%d bytes=%lld", exp, &cpu,
               &mem, kernel, &threads, &bytes) != 6)
        return NULL;
    json_t *reps = json_array();
    size_t from =
        s->n_points > HB_HEALTH_HISTORY_POINTS ? s->n_points - HB_HEALTH_HISTORY_POINTS : 0;
    for (size_t p = from; reps && p < s->n_points; p++)
        for (size_t k = 0; k < s->points[p].n_repeats; k++)
            json_array_append_new(reps, json_real(s->points[p].repeats[k]));
    return reps ? json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:i, s:I, s:s, s:s, s:o}", "type",
                            "measurement", "status", "ok", "experiment", exp, "kernel", kernel,
                            "policy", "bind", "cpu_node", cpu, "mem_node", mem, "threads", threads,
                            "bytes", bytes, "host", s->host, "metric", s->metric, "repeat_values",
                            reps)
                : NULL;
}

int hb_health_history_load(const char *url, const char *host, struct hb_health_cells *cells,
                           json_t **config)
{
    *config = NULL;
    struct hb_history_filter f = {host, "check *", LLONG_MIN};
    struct hb_history_set set;
    int rc = hb_history_load_all(url, HEALTH_HISTORY_BUSY_MS, &f, &set);
    if (rc) return rc == -ENOMEM ? rc : -EINVAL;
    json_t *records = json_array();
    const struct hb_history_point *newest = NULL;
    for (size_t i = 0; records && i < set.n; i++) {
        const struct hb_history_series *s = &set.series[i];
        json_t *rec = s->n_points ? record_of(s) : NULL;
        if (rec) json_array_append_new(records, rec);
        const struct hb_history_point *last = s->n_points ? &s->points[s->n_points - 1] : NULL;
        if (rec && last && (!newest || last->time > newest->time)) newest = last;
    }
    rc = records ? hb_health_cells_of(records, cells) : -ENOMEM;
    if (rc == 0 && newest && newest->config_json)
        *config = json_loads(newest->config_json, 0, NULL);
    if (rc == 0 && cells->n == 0) {
        hb_error_set("check: --history %s has no check of host %s: add this host's checks with "
                     "hopbench history add first",
                     url, host);
        rc = -EINVAL;
    }
    json_decref(records);
    hb_history_load_set_free(&set);
    return rc;
}
