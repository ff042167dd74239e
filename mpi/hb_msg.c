/* The comm executor (hb_msg.h): the plan's experiments round the repeats, each for every
 * ordered pair of ranks on its nodes, one pair at a time between barriers. */
#include "hb_msg.h"

#include "hb_ranks.h"
#include "hb_error.h"
#include "hb_msg_bg.h"
#include "hb_msg_core.h"
#include "hb_msg_pair.h"
#include "hb_msg_transport.h"
#include "hb_record_comm.h"
#include "hb_repeat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HB_TAG_RESULT 7201

int hb_msg_check_layout(const struct hb_world *w, const char *command, const char *args)
{
    if (w->size < 2) {
        hb_error_set("%s needs two or more ranks (this launch has 1); run mpirun -np 2 "
                     "hopbench %s",
                     command, args);
        return -EINVAL;
    }
    for (int r = 0; r < w->size; r++)
        if (w->rank_node[r] < 0) {
            hb_error_set("rank %d (host %s, CPUs %s) is not bound inside one NUMA node: %s runs "
                         "each rank on one node; run mpirun --map-by numa --bind-to numa hopbench "
                         "%s (two ranks per node: --map-by ppr:2:numa)",
                         r, w->hosts[w->rank_host[r]], w->rank_cpus[r], command, args);
            return -HB_EENV;
        }
    return 0;
}

/* What every pair of an experiment shares. */
struct hb_msg_run {
    const struct hb_world *w;
    const struct hb_topo *t;
    const struct hb_exec_io *io;
    char transport[2][160];       /* rank 0: [1] one host, [0] two */
    char (*machine)[HB_HOST_LEN]; /* per rank: gethostname(), even where HOPBENCH_HOST names
                                   * emulated hosts (which still share memory) */
    json_t *unpaired;             /* rank 0: "src-dst" node pairs that had no ranks */
    struct hb_msg_bg_got *bg;     /* rank 0: every rank's load of a loaded pair */
    int *cpu;                     /* per rank: the CPU its messaging thread runs on, -1 unknown */
};

static enum hb_msg_metric msg_metric_of(const char *metric)
{
    return strcmp(metric, "latency") == 0     ? HB_MSG_LATENCY
           : strcmp(metric, "bandwidth") == 0 ? HB_MSG_BANDWIDTH
                                              : HB_MSG_BIBANDWIDTH;
}

/* The sender's result and samples on rank 0. */
static void msg_collect(const struct hb_world *w, int sender, struct hb_comm_result *r,
                        double *samples)
{
    if (sender == 0) return;
    if (w->rank == sender) {
        MPI_Send(r, sizeof(*r), MPI_BYTE, 0, HB_TAG_RESULT, MPI_COMM_WORLD);
        MPI_Send(samples, r->nsamples, MPI_DOUBLE, 0, HB_TAG_RESULT, MPI_COMM_WORLD);
    } else if (w->rank == 0) {
        /* While the pair measures, rank 0 waits without spinning. */
        MPI_Request req;
        MPI_Irecv(r, sizeof(*r), MPI_BYTE, sender, HB_TAG_RESULT, MPI_COMM_WORLD, &req);
        hb_ranks_wait_idle(&req);
        MPI_Recv(samples, r->nsamples, MPI_DOUBLE, sender, HB_TAG_RESULT, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    }
}

/* What the two ends of a pair run (the others return at once). */
struct hb_msg_ends {
    struct hb_msg_run *run;
    const struct hb_experiment *e;
    int a, b;
    double *samples;
    struct hb_comm_result *res;
};

static void msg_ends_run(void *ctx)
{
    struct hb_msg_ends *p = ctx;
    const struct hb_world *w = p->run->w;
    if (w->rank != p->a && w->rank != p->b) return;
    bool sender = w->rank == p->a;
    struct hb_msg_job job = {
        p->run->t,
        sender ? p->b : p->a,
        sender,
        msg_metric_of(p->e->metric),
        (size_t)hb_plan_param_int_of(p->e, "message_bytes", 8),
        (int)hb_plan_param_int_of(p->e, sender ? "src_mem_node" : "dst_mem_node", w->node),
        p->e->tasks[0].pages,
        p->e->reps,
        p->e->min_time_s,
        p->run->io->allow_misplaced,
    };
    hb_msg_pair_run(&job, p->res, p->samples);
}

/* Rank 0: a load that failed fails the pair (its record says which node and why). */
static void msg_bg_verdict(const struct hb_world *w, const struct hb_msg_bg_got *got,
                           struct hb_comm_result *res)
{
    for (int r = 0; got && r < w->size && res->status == 0; r++)
        if (got[r].node >= 0 && got[r].status) {
            res->status = got[r].status;
            snprintf(res->note, sizeof(res->note), "load on node %d (rank %d): %s", got[r].node, r,
                     got[r].note);
        }
}

/* One pair (a sends, b receives), under e's load when it has one; rank 0 appends its record
 * to recs. 1 when it failed. */
static int msg_pair(struct hb_msg_run *run, const struct hb_experiment *e, int a, int b,
                    double *samples, json_t *recs)
{
    const struct hb_world *w = run->w;
    struct hb_comm_result res = {0};
    res.src_rank = a;
    res.dst_rank = b;
    struct hb_msg_ends ends = {run, e, a, b, samples, &res};
    /* The ranks that wait sleep: on a host with fewer CPUs than ranks, spinning ones would
     * take the pair's CPUs. */
    hb_ranks_barrier_idle();
    bool loaded = hb_msg_bg_loaded(e);
    if (loaded)
        hb_msg_bg_around(w, run->t, e, a, b, run->io->allow_misplaced, msg_ends_run, &ends,
                         run->bg);
    else
        msg_ends_run(&ends);
    msg_collect(w, a, &res, samples);
    if (w->rank != 0) return 0;
    if (loaded) msg_bg_verdict(w, run->bg, &res);
    const char *src_host = w->hosts[w->rank_host[a]], *dst_host = w->hosts[w->rank_host[b]];
    bool one_machine = strcmp(run->machine[a], run->machine[b]) == 0;
    struct hb_comm_origin o = {src_host, dst_host, run->transport[one_machine], run->cpu[a],
                               run->cpu[b]};
    if (res.status)
        fprintf(stderr, "hopbench: experiment %s, ranks %d -> %d: %s\n", e->name, a, b, res.note);
    json_t *rec = hb_record_comm(run->t, e, &res, samples, &o);
    if (!rec || (loaded && hb_msg_bg_columns(w, run->bg, rec)) || json_array_append_new(recs, rec))
        hb_world_abort(w, HB_EXIT_ENV, "out of memory");
    return res.status != 0;
}

/* Every ordered pair of ranks on e's nodes; how many there were, *failed when one failed. */
static int msg_pairs(struct hb_msg_run *run, const struct hb_experiment *e, json_t *recs,
                     int *failed)
{
    const struct hb_world *w = run->w;
    int src = (int)hb_plan_param_int_of(e, "src_node", -1),
        dst = (int)hb_plan_param_int_of(e, "dst_node", -1);
    double *samples = calloc((size_t)e->reps, sizeof(*samples));
    if (!samples) hb_world_abort(w, HB_EXIT_ENV, "out of memory for samples");
    int pairs = 0;
    for (int a = 0; a < w->size; a++)
        for (int b = 0; b < w->size; b++)
            if (a != b && w->rank_node[a] == src && w->rank_node[b] == dst) {
                pairs++;
                *failed |= msg_pair(run, e, a, b, samples, recs);
            }
    free(samples);
    return pairs;
}

/* Rank 0: remember a node pair no two ranks served (said once, at the end). */
static void msg_unpaired(struct hb_msg_run *run, const struct hb_experiment *e)
{
    char pair[48];
    snprintf(pair, sizeof(pair), "%lld-%lld", hb_plan_param_int_of(e, "src_node", -1),
             hb_plan_param_int_of(e, "dst_node", -1));
    size_t i;
    json_t *v;
    json_array_foreach(run->unpaired, i, v) if (strcmp(json_string_value(v), pair) == 0) return;
    json_array_append_new(run->unpaired, json_string(pair));
}

static void msg_say_unpaired(const json_t *unpaired)
{
    if (!json_array_size(unpaired)) return;
    fprintf(stderr, "hopbench: comm: no two ranks on node pair(s)");
    size_t i;
    json_t *v;
    json_array_foreach(unpaired, i, v) fprintf(stderr, " %s", json_string_value(v));
    fprintf(stderr, " (src-dst), so they were not measured; two ranks per node (mpirun "
                    "--map-by ppr:2:numa --bind-to numa) measure same-node pairs\n");
}

/* One repeat of experiment x; rank 0 keeps its records and emits them after the last. */
static int msg_one(struct hb_msg_run *run, const struct hb_plan *plan, int x, int repeat, bool last,
                   struct hb_repeats *reps)
{
    const struct hb_world *w = run->w;
    struct hb_experiment e;
    hb_exec_receive(w, plan, x, &e);
    json_t *recs = w->rank == 0 ? json_array() : NULL;
    int failed = 0, keep_rc = 0;
    int pairs = msg_pairs(run, &e, recs, &failed);
    if (w->rank == 0 && repeat == 0 && pairs == 0) msg_unpaired(run, &e);
    /* Each record kept for the last repeat, or merged with the earlier ones and emitted. */
    size_t i;
    json_t *rec;
    json_array_foreach(recs, i, rec) if (keep_rc == 0) keep_rc =
        last ? hb_repeat_store_last(reps, x, json_incref(rec), run->io->emit, run->io->ctx)
             : hb_repeat_store_put(reps, x, repeat, json_incref(rec));
    if (w->rank == 0 && last) hb_repeat_store_end(reps, x);
    json_decref(recs);
    if (keep_rc) fprintf(stderr, "hopbench: rank 0 (host %s): %s\n", w->host, hb_error_msg());
    hb_plan_experiment_clear(&e);
    return hb_ranks_max_int(keep_rc ? HB_EXIT_ENV : failed ? HB_EXIT_FAILED : 0);
}

/* What hb_exec_rounds hands each experiment's round to. */
struct msg_round {
    struct hb_msg_run *run;
    const struct hb_plan *plan;
    struct hb_repeats *reps;
};

static int msg_round_one(void *ctx, int x, int round, bool last)
{
    struct msg_round *mr = ctx;
    return msg_one(mr->run, mr->plan, x, round, last, mr->reps);
}

int hb_msg_exec_plan(const struct hb_world *w, const struct hb_topo *t, const struct hb_plan *plan,
                     const struct hb_exec_io *io)
{
    int n = w->rank == 0 ? plan->n : 0;
    hb_ranks_bcast_ints(&n, 1);
    struct hb_msg_run run = {w,
                             t,
                             io,
                             {"", ""},
                             hb_msg_core_machines(w),
                             json_array(),
                             calloc((size_t)w->size, sizeof(struct hb_msg_bg_got)),
                             calloc((size_t)w->size, sizeof(int))};
    struct hb_repeats reps = {0};
    if (hb_msg_core_own(w, t) != 0) hb_world_abort(w, HB_EXIT_ENV, hb_error_msg());
    if (!run.cpu) hb_world_abort(w, HB_EXIT_ENV, "out of memory for the ranks' CPUs");
    hb_ranks_allgather_int(hb_msg_core_cpu_now(t), run.cpu);
    if (!run.unpaired || !run.machine || !run.bg ||
        (w->rank == 0 && hb_repeat_store_init(&reps, n, io->noise_pct)))
        hb_world_abort(w, HB_EXIT_ENV, "out of memory for the repeats' records");
    int code = hb_msg_core_apart(w, t, (const char(*)[HB_HOST_LEN])run.machine, "comm");
    if (w->rank == 0) {
        hb_msg_transport(false, run.transport[0], sizeof(run.transport[0]));
        hb_msg_transport(true, run.transport[1], sizeof(run.transport[1]));
    }
    struct msg_round mr = {&run, plan, &reps};
    if (code == 0) code = hb_exec_rounds(w, plan, n, io, &reps, msg_round_one, &mr);
    /* A pair failed: what was measured is still written, with the repeats it has. */
    code = hb_exec_emit_rest(w, &reps, io, code);
    if (w->rank == 0) msg_say_unpaired(run.unpaired);
    json_decref(run.unpaired);
    free(run.machine);
    free(run.bg);
    free(run.cpu);
    hb_repeat_store_free(&reps);
    return code;
}
