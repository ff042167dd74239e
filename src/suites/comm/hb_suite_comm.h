/* comm (hb_suite_comm.c): MPI messages between ranks' NUMA nodes; its derived records. */
#ifndef HB_SUITE_COMM_H
#define HB_SUITE_COMM_H

#include "hb_interval.h"
#include "hb_suite_kit.h"

/* Per host that has pairs of its own: a {"type":"comm_matrix"} record of latency (us) at the
 * smallest message size and one of bandwidth (GBps) at the largest, rows the sending node,
 * cols the receiving node (the CPU nodes taking part), each cell the median over the rank
 * pairs on those nodes (null when none measured it), with the pairs' hop classes. 0 or
 * -ENOMEM. */
int hb_comm_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived);

/* What comm uses instead of a working set, into the run record `run`: "messages" ({"bytes":
 * the plan's message sizes, smallest first; "buffers": where each end's are}), and the largest
 * message as sizes.size_bytes with its source. 0 or -ENOMEM. */
int hb_suite_comm_run_sizes(const struct hb_suite_env *env, const struct hb_plan *plan,
                            json_t *run);

/* One repeat of comm experiment e, in seconds, and its records, one a rank pair (struct
 * hb_suite.estimate). */
double hb_comm_estimate(const struct hb_suite_env *env, const struct hb_experiment *e,
                        int *records);

/* The smallest and largest message size among the records (INFINITY and 0 when none). */
void hb_comm_pool_sizes(const json_t *measured, double *least, double *most);

/* Whether a comm record belongs to a group (a link, the ranks near a NIC...). */
typedef bool (*hb_comm_pick_fn)(const json_t *rec, const void *ctx);

/* A group's figure: the median of every repeat value (repeat_values, else value) of the ok
 * records of `metric` and `bytes` that pick takes, pooled, so that the interval holds the
 * spread between the group's rank pairs as well as between repeats; NAN ends with fewer than
 * two values, a NAN value with none. With values, the pooled values (out->n of them, sorted)
 * go into *values, for the caller to free. Returns the records taken, or -ENOMEM. */
int hb_comm_pool(const json_t *measured, const char *metric, double bytes, hb_comm_pick_fn pick,
                 const void *ctx, struct hb_interval *out, double **values);

/* A figure as records conclude from it: {"value": v or null, "ci95": [lo, hi] or null,
 * "ci_coverage": the interval's exact coverage or null (none, or not known), "repeats": the
 * values it is the median of (a pooled figure: every pair's repeats) or null}. */
json_t *hb_comm_pool_figure_json(const struct hb_interval *iv);

/* The unordered host pairs (links) of the cross-host records, in order of first appearance:
 * [[a, b], ...] (new reference, NULL when out of memory). */
json_t *hb_comm_pool_links_of(const json_t *measured);

/* With three hosts or more: a {"type":"comm_links"} record, one entry per link (8 B latency
 * and largest-size bandwidth pooled over its rank pairs, with intervals), a link worse than
 * the reference (the median of the better half of the links) by more than pct percent
 * flagged beyond the noise (intervals apart, and the rank test against the reference links'
 * pooled values passing the adjustment over every link worse on that figure: the family), or
 * said inconclusive within it; a flagged link's reason names the
 * knobs in which either of its hosts differs from the fleet's majority (host_configs: the run
 * record's, NULL: none known). 0 or -ENOMEM. */
int hb_comm_links_derive(const json_t *measured, double pct, const json_t *host_configs,
                         json_t *derived);

/* Per link and NIC of either host (host_nics: {host: nics of its topology}): a
 * {"type":"comm_nic"} record comparing the pairs whose rank on that host sits on a node local
 * to the NIC (near) with those whose rank does not (far); where one side has no rank, a note
 * says why nothing is compared (also on stderr, once per text). 0 or -ENOMEM. */
int hb_comm_nic_derive(const json_t *measured, const json_t *host_nics, json_t *derived);

#endif
