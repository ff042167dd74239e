/* What a suite uses: the environment it plans in, its descriptor (struct hb_suite, one per
 * suite, listed in the table of hb_suite.c) and the shared checks and task builders. A suite
 * includes this header only; the dispatcher's API (what main uses) is hb_suite.h. */
#ifndef HB_SUITE_KIT_H
#define HB_SUITE_KIT_H

#include "hb_options.h"
#include "hb_plan.h"
#include "hb_topo.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* What a plan needs to know of a kernel; the registry itself lives in omp/. */
struct hb_kernel_ref {
    const char *name;
    const char *access; /* "r", "w", "rw" */
    bool latency;
    double model_bps; /* the estimate's sweep rate per thread (struct hb_kernel's) */
};

/* Look a kernel up: 0, or -EINVAL with a message naming it and listing the valid ones. */
typedef int (*hb_kernel_lookup_fn)(const char *name, struct hb_kernel_ref *out);

/* Everything a suite needs to decide. */
struct hb_suite_env {
    const struct hb_topo *topo;
    const struct hb_options *opts;
    hb_kernel_lookup_fn lookup;
    uint64_t default_bytes; /* hb_default_size_choose() */
    FILE *note; /* why a suite left part of its study out (one line, as long as it takes), shown
                 * once the plan stands; NULL: nowhere to say it */
    const json_t *host_configs; /* a fleet's: the run record's host_configs; NULL: one host */
    const json_t *host_nics;    /* comm across hosts: {host: its NICs (hb_topo_nics_json)} */
    struct hb_across *across;   /* derive host by host: what spans hosts; NULL: derive sees
                                 * every host's records at once */
};

/* What a suite's derive carries from one host's records to the next host's and to derive_end,
 * when rank 0 derives host by host (docs/design.md#gather). */
struct hb_across {
    bool said;                /* a once-per-run note is out (matrix: no HMAT) */
    void *data;               /* the suite's own (matrix: each host's fleet figures) */
    void (*free)(void *data); /* frees data */
};

/* What sets a suite apart from the others in how it is run. */
enum hb_suite_flag {
    HB_SUITE_ONE_PROCESS = 1 << 0, /* runs in this process, no MPI world (c2c) */
    HB_SUITE_STRIDE_LIST = 1 << 1, /* sweeps a --stride list (others take one stride) */
    HB_SUITE_CHAINS_LIST = 1 << 2, /* measures a --chains list (others take one count) */
    HB_SUITE_MESSAGES = 1 << 3,    /* MPI messages between pairs of ranks (comm, mpi/hb_msg.h):
                                    * its tasks name no kernel of omp/ */
    HB_SUITE_SIZE_LIST = 1 << 4,   /* measures a --size list (others take one size) */
    HB_SUITE_DERIVE_ALL = 1 << 5,  /* its derive reads every host's records at once (comm: the
                                    * links between hosts); the others, one host's at a time */
    HB_SUITE_COLLECTIVES = 1 << 7, /* MPI collectives over communicators of ranks (coll,
                                    * mpi/hb_coll_exec.h); also HB_SUITE_MESSAGES */
    HB_SUITE_CACHES = 1 << 6,      /* measures caches on purpose (sweep walks through them, c2c
                                    * hands one line between cores): a working set in a cache is
                                    * no warning, and its records say `cache_intended` */
    HB_SUITE_FIT_REPEATS = 1 << 8, /* its repeats fitted into --max-time, not --repeat, and its
                                    * records judged after the run (check, src/health) */
};

/* A suite: its command, its help line and what it does at each step of a run. */
struct hb_suite {
    const char *name;      /* the command; "" = the default suite */
    const char *args;      /* its operand in --help ("FILE"), or NULL */
    const char *args_need; /* "<suite> needs <args_need>" when the operand is missing */
    const char *help;
    /* The plan: -EINVAL (usage) or -ENOMEM (does not fit a node's free memory) with a
     * message. */
    int (*plan)(const struct hb_suite_env *env, struct hb_plan *out);
    /* Rank 0, as each measurement record is made and before it is written: the keys the
     * suite computes from what was measured before it (`measured`: the part, as `reads` says,
     * of the records `refers` picks); NULL: none. */
    void (*annotate)(const struct hb_suite_env *env, const json_t *measured, json_t *rec);
    /* After the run: derived records (matrices, notes...) from the measurement records in
     * `measured` (rank 0; the part of them it reads; one host's records at a time unless the
     * suite is HB_SUITE_DERIVE_ALL), appended to `derived`; NULL: none. */
    int (*derive)(const struct hb_suite_env *env, json_t *measured, json_t *derived);
    /* The record columns (hb_record_columns) its annotate or derive reads in `measured` besides
     * those every suite keeps (hb_suite_keep.c), NULL-ended; NULL: none. Rank 0 keeps no other
     * column of the records there (the keys a suite adds, it keeps). */
    const char *const *reads;
    /* The earlier records its annotate looks up in `measured` (hops: the reference); only
     * those are there. NULL: none. */
    bool (*refers)(const json_t *rec);
    /* After derive saw each host's records in turn: the records that span hosts (matrix: the
     * fleet's), from env->across, appended to derived. NULL: none. */
    int (*derive_end)(const struct hb_suite_env *env, json_t *derived);
    /* The suite name of the tiers record (hb_suite_kit_tiers_note) derive adds first; NULL: the
     * suite groups no memory by kind or tier. */
    const char *tiers;
    /* Its own model of one repeat of an experiment, in seconds, where the kernel model of
     * hb_estimate.c does not fit (struct hb_estimate_model: it may set *records); NULL: that
     * model. */
    double (*estimate)(const struct hb_suite_env *env, const struct hb_experiment *e, int *records);
    /* What a suite of messages writes into the run record instead of a working set (comm,
     * coll: the message sizes and where the buffers are); NULL: none. 0 or -ENOMEM. */
    int (*run_sizes)(const struct hb_suite_env *env, const struct hb_plan *plan, json_t *run);
    unsigned flags; /* enum hb_suite_flag */
    /* Its own options (enum hb_opt_id, 0-ended), besides the run options every suite takes
     * (hb_opt_doc.h): any other is refused, and --help lists these under the command. */
    const int *takes;
    /* Run options that mean nothing to it (0-ended; NULL: none): refused like any other. */
    const int *drops;
    /* What it runs without --kernel, as its help says it (NULL: it takes no --kernel). */
    const char *kernels;
    /* A study between memory nodes needs this many with memory (0: runs on any machine); a
     * machine with fewer is refused before anything is planned (exit 3), --nodes leaving
     * fewer is a usage error (2). --help and the man page say it, with needs_why: what the
     * study does with them ("compares memory at different hop distances"). */
    int needs_mem_nodes;
    const char *needs_why;
};

/* When the machine has memory-only nodes or more than one kind of memory: a
 * {"type":"tiers", suite, tiers} record (hb_topo_mem_tiers) appended to derived, so a suite's
 * results say how it grouped them. */
void hb_suite_kit_tiers_note(const struct hb_suite_env *env, const char *suite, json_t *derived);

/* Say why the plan leaves part of a study out: added to env->note (after "; " when it holds
 * something already), shown once after planning. Nothing when there is no note. */
void hb_suite_kit_say(const struct hb_suite_env *env, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Whether node index i takes part: every node unless --nodes chose some. */
bool hb_suite_kit_node_on(const struct hb_suite_env *env, int i);
/* The nodes with CPUs that take part. */
int hb_suite_kit_count_cpu_nodes(const struct hb_suite_env *env);

/* The nodes with memory that take part, for interleave and "os" sets (hwloc_bitmap_free
 * it); NULL with a message when out of memory. */
hwloc_bitmap_t hb_suite_kit_mem_nodes(const struct hb_suite_env *env);

/* Shared by suites: the common checks and task set-up. */
int hb_suite_kit_check_cpu_node(const struct hb_topo *t, int os_index, const char *opt);
int hb_suite_kit_check_mem_node(const struct hb_topo *t, int os_index, const char *opt);
int hb_suite_kit_check_threads(const struct hb_suite_env *env, int cpu_node, int threads);
/* bytes (ntasks together) fit the free memory of mem_node, or one line naming the size
 * (--size or the default) and -ENOMEM. */
int hb_suite_kit_check_fits(const struct hb_suite_env *env, int mem_node, uint64_t bytes,
                            int ntasks);
/* The same for a size that is not plainly --size or the default (a scenario line's size=):
 * size_from says how messages name it ("t.scn:3:13: size=4K"); NULL: as hb_suite_kit_check_fits. */
int hb_suite_kit_check_fits_from(const struct hb_suite_env *env, int mem_node, uint64_t bytes,
                                 int ntasks, const char *size_from);
void hb_suite_kit_experiment(const struct hb_suite_env *env, struct hb_experiment *e,
                             const char *suite, const char *name, const char *metric);
/* A foreground task: threads on cpu_node running kernel against mem_node (bind) or the
 * given policy. Fills hops, distance and label. */
int hb_suite_kit_task(const struct hb_suite_env *env, struct hb_task *task, int cpu_node,
                      int first_thread, int threads, const char *kernel, enum hb_policy policy,
                      int mem_node, uint64_t bytes);
/* hb_suite_kit_task for a size that is not plainly --size or the default: its messages, and the
 * plan check's (the task's size_from), name it as size_from says, per thread when
 * per_thread (bytes = that size x threads). */
int hb_suite_kit_task_from(const struct hb_suite_env *env, struct hb_task *task, int cpu_node,
                           int first_thread, int threads, const char *kernel, enum hb_policy policy,
                           int mem_node, uint64_t bytes, const char *size_from, bool per_thread);

/* An experiment of one foreground task (hb_suite_kit_task), its metric latency or bandwidth as
 * the kernel is; stride: a latency kernel's chase stride, 0 = the first --stride. 0, or the
 * task's error with e cleared. */
int hb_suite_kit_single(const struct hb_suite_env *env, struct hb_experiment *e, const char *suite,
                        const char *name, const char *kernel, int cpu, int threads,
                        enum hb_policy policy, int mem, uint64_t bytes, uint64_t stride);

/* Set a latency task's chase stride and check it against its group and per-thread share:
 * 0 or -EINVAL with a message. hb_suite_kit_task applies the first --stride. */
int hb_suite_kit_chase_stride(struct hb_task *task, uint64_t stride);

/* Pace a background task at a --level (hb_options_bg_level_names index, 0 = idle = unpaced): 1/8,
 * 1/4, 1/2, 1 of `very_high` GB/s per thread (--bg-rate), or, when that is 0, the same shares
 * of each thread's own measured unpaced rate (the team measures it before the foreground
 * starts). Sets task->bg_rate_GBps and task->bg_fraction. */
void hb_suite_bg_level_pace(int level, double very_high, struct hb_task *task);
/* Add background tasks to e: on every CPU node with memory not in `skip_mask` (fg nodes at
 * under/high subscription) each reading its local memory, `subscription` 0 under (1 thread),
 * 1 high (all but one), 2 full (every CPU; on fg nodes the CPUs after the fg threads). */
int hb_suite_bg_add_background(const struct hb_suite_env *env, struct hb_experiment *e,
                               int subscription, int level, uint64_t bytes_per_thread);

/* A chase record with `chains` (hb_suite_mlp.c): loads_per_s (all chains and threads) and
 * concurrency (loads_per_s x the latency of one chain of the same pair measured before it in
 * `measured`; null without one), each with its ci95 from the latencies' intervals. */
void hb_suite_mlp_annotate(const json_t *measured, json_t *rec);
/* The earlier records hb_suite_mlp_annotate looks up: one chain, measured ok. */
bool hb_suite_mlp_refers(const json_t *rec);

#endif
