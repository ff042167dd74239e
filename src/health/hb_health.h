/* `check`'s verdict (docs/running.md#health-checks): each host's cells judged against a
 * baseline file, the run history or the run's peers by compare's rules, its configuration
 * against theirs, and the run's exit code: 0 healthy, 1 degraded, 5 cannot tell, 2 bad
 * input. A layer above suites and history, below cli; main calls it on rank 0. */
#ifndef HB_HEALTH_H
#define HB_HEALTH_H

#include "hb_options.h"
#include "hb_plan.h"
#include "hb_topo.h"

#include <jansson.h>
#include <stdio.h>

/* The exit code of a check that cannot tell (healthy 0 and degraded 1 are HB_EXIT_OK and
 * HB_EXIT_FAILED). */
#define HB_HEALTH_EXIT_UNCLEAR 5

/* What the judge reads of a finished check run. */
struct hb_health_run {
    const struct hb_options *opts;
    const json_t *run;            /* the run record (config, host_configs, topology) */
    const json_t *records;        /* its measurement records, every host's */
    const char *const *hosts;     /* the run's hosts, nhosts of them */
    struct hb_topo *const *topos; /* each host's topology (NULL: one host, opts' machine) */
    const struct hb_topo *topo;   /* this machine's */
    int nhosts;
};

/* Before anything runs: --baseline readable, of this machine, with every cell of the plan
 * (checked after the run too, host by host). 0 or -EINVAL / -ENOMEM with one line. */
int hb_health_precheck(const struct hb_options *o, const struct hb_topo *t,
                       const struct hb_plan *plan);

/* Judge the run: one line per failing cell or differing knob, per unclear cell, and one
 * verdict line per host on out, and each host's "health" record (hb_health_record.h) appended
 * to verdicts; returns 0, 1 or HB_HEALTH_EXIT_UNCLEAR, or -errno with a message (bad input:
 * 2). */
int hb_health_judge(const struct hb_health_run *r, FILE *out, json_t *verdicts);

#endif
