/* Result records (docs/records.md): built on rank 0 from plain results. */
#ifndef HB_RECORD_H
#define HB_RECORD_H

#include "hb_options.h"
#include "hb_plan.h"
#include "hb_result.h"
#include "hb_topo.h"

#include <jansson.h>

/* Where a result came from. */
struct hb_record_origin {
    const char *host;
    int rank;
    const char *simd;
};

/* The measurement record of task `ti` of e. `all` holds the results of every task of e on
 * the same host (background tasks are described from them). New reference. */
json_t *hb_record_measurement(const struct hb_topo *t, const struct hb_experiment *e, int ti,
                              const struct hb_task_result *all, const struct hb_record_origin *o);

/* {"type":"topology", nodes, distances, hop_class}. New reference. */
json_t *hb_record_topology(const struct hb_topo *t);

/* A matrix of nnodes x nnodes ints / uint64 in node order, or JSON null. */
json_t *hb_record_int_matrix(const struct hb_topo *t, const int *m);

/* Everything the run record says about this process and machine, except what only the MPI
 * layer knows (hosts, ranks, rank layout, MPI version, other hosts' configurations: the
 * caller adds them). cfg: this host's knobs as hb_config_read gives them. */
json_t *hb_record_run(const struct hb_topo *t, const struct hb_options *o, const char *simd,
                      uint64_t default_bytes, const char *size_source, uint64_t llc_bytes,
                      const json_t *cfg);

/* The last record of a run: counts of experiments and of measurement records by status, the
 * whole suite's time, and each experiment's cost (`cell_s`: the longest of its tasks, which
 * run at the same time), for projecting larger machines. New reference. */
json_t *hb_record_summary(const char *suite, json_t *measured, double elapsed_s);

/* The keys of a measurement record, in order (CSV columns). NULL-terminated. */
extern const char *const hb_record_columns[];

#endif
