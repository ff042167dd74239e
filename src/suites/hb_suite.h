/* The suites as a table, and the dispatcher main uses: find the suite of a command, build
 * its plan, annotate and derive its records. A suite never knows about ranks or threads;
 * what suites share is in hb_suite_kit.h. Adding a suite = one file that defines its
 * struct hb_suite + one row in the table of hb_suite.c. */
#ifndef HB_SUITE_H
#define HB_SUITE_H

#include "hb_suite_kit.h"

/* Every suite, the default suite ("") first, NULL-ended; --help, the man page, the shell
 * completion and the command-line parser list them in this order. */
extern const struct hb_suite *const hb_suites[];

/* The suite of a command ("" = the default suite), or NULL when it names none. */
const struct hb_suite *hb_suite_find(const char *command);

/* --nodes (opts->nodes) checked against t: 0 when not given or valid; -EINVAL with one line
 * naming the value and the valid nodes. (Which suites take --nodes: struct hb_suite.takes.) */
int hb_suite_check_nodes(const struct hb_topo *t, const struct hb_options *o);

/* Build the plan for opts->command, which must name a suite. Validates nodes, threads,
 * sizes and kernels against the topology: -EINVAL (usage) or -ENOMEM (does not fit a
 * node's free memory) with a message. */
int hb_suite_plan(const struct hb_suite_env *env, struct hb_plan *out);

/* After the run: the suite's derived records (struct hb_suite: tiers, derive). */
int hb_suite_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived);

/* Rank 0, as each measurement record is made: the suite's annotate, if it has one. */
void hb_suite_annotate(const struct hb_suite_env *env, const json_t *measured, json_t *rec);

/* Whether annotate looks up earlier records (hb_suite_mlp_annotate with --chains, a suite's
 * `refers`), and whether rec is one it looks up: rank 0 keeps those in memory
 * (hb_suite_keep.h). */
bool hb_suite_annotate_reads(const struct hb_suite_env *env);
bool hb_suite_refers(const struct hb_suite_env *env, const json_t *rec);

/* struct hb_estimate_model's two over a struct hb_suite_env (ctx): the suite's own estimate
 * of e, or -1 where it has none; a kernel's model_bps (0 when the lookup knows no kernel). */
double hb_suite_estimate(const void *env, const struct hb_experiment *e, int *records);
double hb_suite_kernel_bps(const void *env, const char *kernel);

/* One line for people about what this machine cannot show (or NULL). */
const char *hb_suite_note(const struct hb_suite_env *env);

#endif
