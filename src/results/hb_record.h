/* Result records (docs/records.md): built on rank 0 from plain results. */
#ifndef HB_RECORD_H
#define HB_RECORD_H

#include "hb_options.h"
#include "hb_plan.h"
#include "hb_result.h"
#include "hb_topo.h"

#include <jansson.h>
#include <stdbool.h>

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

/* Every column in CSV's order, null where it does not apply, so JSON Lines and CSV carry
 * the same keys in the same order; suite keys (case, pair, bg_level...) come last, as the
 * plan wrote them. Takes rec; a new reference. */
json_t *hb_record_in_columns(json_t *rec, const struct hb_params *params);
/* A measurement's samples (seconds each) as reps and samples_s, and, when `times`, their
 * statistics as t_min_s, t_median_s, t_p95_s, t_max_s, t_mean_s and t_cv; *st gets them. */
struct hb_stats;
void hb_record_samples(json_t *rec, const double *samples, int n, bool times, struct hb_stats *st);
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

/* What the last record of a run counts, gathered as each measurement record is written so
 * that no record need stay: by status, and each experiment's cost (`cells`: [{experiment,
 * elapsed_s}], one per experiment in order; NULL before the first), each figure's spread_pct
 * (8 bytes a record, for their median). Start from {0}; the caller sets estimate_s, the dry
 * run's estimate of the run's time (hb_estimate_plan; 0: none). */
struct hb_summary {
    long measurements;
    int ok, failed, skipped, noisy;
    json_t *cells;
    double *spreads;
    size_t nspreads, spreadcap;
    double estimate_s;
};
/* Count one measurement record: 0 or -ENOMEM. */
int hb_record_summary_add(struct hb_summary *s, const json_t *rec);
void hb_record_summary_free(struct hb_summary *s);

/* The last record of a run: counts of experiments and of measurement records by status, the
 * whole suite's time, and each experiment's cost (`cell_s`: the longest of its tasks, which
 * run at the same time), for projecting larger machines; the median of the figures'
 * spread_pct (`spread_pct_median`, null when none has one) and the estimate (`estimate_s`,
 * null without one), which hb_stability.h judges. New reference. */
json_t *hb_record_summary(const char *suite, const struct hb_summary *s, double elapsed_s);

/* The keys of a measurement record, in order (CSV columns). NULL-terminated. */
extern const char *const hb_record_columns[];

#endif
