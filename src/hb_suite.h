/* Suites: build a plan from the topology and the options, and derive summary records from
 * what the plan measured. A suite never knows about ranks or threads. */
#ifndef HB_SUITE_H
#define HB_SUITE_H

#include "hb_options.h"
#include "hb_plan.h"
#include "hb_topo.h"

#include <jansson.h>
#include <stdbool.h>

/* What a plan needs to know of a kernel; the registry itself lives in omp/. */
struct hb_kernel_ref {
    const char *name;
    const char *access; /* "r", "w", "rw" */
    bool latency;
};

/* Look a kernel up: 0, or -EINVAL with a message naming it and listing the valid ones. */
typedef int (*hb_kernel_lookup_fn)(const char *name, struct hb_kernel_ref *out);

/* Everything a suite needs to decide. */
struct hb_suite_env {
    const struct hb_topo *topo;
    const struct hb_options *opts;
    hb_kernel_lookup_fn lookup;
    uint64_t default_bytes; /* hb_sizes_default() */
};

/* Build the plan for opts->command ("" = default suite). Validates nodes, threads, sizes and
 * kernels against the topology: -EINVAL (usage) or -ENOMEM (does not fit a node's free
 * memory) with a message. */
int hb_suite_plan(const struct hb_suite_env *env, struct hb_plan *out);

/* After the run: derived records (matrices, notes...) from the measurement records, in
 * `measured` (a JSON array, rank 0 only). Appends to `derived` (a JSON array). */
int hb_suite_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived);

/* One line for people about what this machine cannot show (or NULL). */
const char *hb_suite_note(const struct hb_suite_env *env);

/* Shared by suites: the common checks and task set-up. */
int hb_suite_check_cpu_node(const struct hb_topo *t, int os_index, const char *opt);
int hb_suite_check_mem_node(const struct hb_topo *t, int os_index, const char *opt);
int hb_suite_check_threads(const struct hb_topo *t, int cpu_node, int threads);
int hb_suite_check_fits(const struct hb_topo *t, int mem_node, uint64_t bytes);
void hb_suite_experiment(const struct hb_suite_env *env, struct hb_experiment *e,
                         const char *suite, const char *name, const char *metric);
/* A foreground task: threads on cpu_node running kernel against mem_node (bind) or the
 * given policy. Fills hops, distance and label. */
int hb_suite_task(const struct hb_suite_env *env, struct hb_task *task, int cpu_node,
                  int first_thread, int threads, const char *kernel, enum hb_policy policy,
                  int mem_node, uint64_t bytes);

/* The suites behind hb_suite_plan / hb_suite_derive, one file each. */
int hb_suite_local_plan(const struct hb_suite_env *env, struct hb_plan *out);
int hb_suite_matrix_plan(const struct hb_suite_env *env, struct hb_plan *out);
int hb_suite_matrix_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived);

#endif
