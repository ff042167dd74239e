/* The executor (hb_exec.h): rank 0 sends each experiment, every rank runs its node's tasks
 * between barriers, the results come back to rank 0 as bytes and leave it merged over repeats. */
#include "hb_exec.h"

#include "hb_ranks.h"

#include "hb_error.h"
#include "hb_record.h"
#include "hb_repeat.h"
#include "hb_team.h"
#include "hb_world_interleave_weights.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hb_sync {
    MPI_Request req;
    bool pending;
};

static void sync_started(void *ctx)
{
    (void)ctx;
    hb_ranks_barrier();
}

static void sync_fg_done(void *ctx)
{
    struct hb_sync *s = ctx;
    hb_ranks_ibarrier(&s->req);
    s->pending = true;
}

static bool sync_all_done(void *ctx)
{
    struct hb_sync *s = ctx;
    bool done = hb_ranks_test(&s->req);
    if (done) s->pending = false;
    return done;
}

/* One slot per task and rank: the results travel as bytes, rank 0 picks the ones that ran.
 * Each is followed by its page counts and thread CPUs, every part padded to 8 bytes. */
struct hb_sent {
    int task;
    int rank;
    struct hb_task_result res;
};

#define HB_PAD8(n) (((n) + 7) & ~(size_t)7)

static size_t sent_size(const struct hb_task_result *r)
{
    return HB_PAD8(sizeof(struct hb_sent)) +
           HB_PAD8(sizeof(*r->pages_on_node) * (size_t)r->npages_nodes) +
           HB_PAD8(sizeof(*r->thread_cpus) * (size_t)r->nthread_cpus);
}

/* This rank's results that ran, as bytes: 0 or -ENOMEM. */
static int pack_results(const struct hb_world *w, const struct hb_experiment *e,
                        const struct hb_task_result *mine, char **out, size_t *len)
{
    *len = 0;
    for (int i = 0; i < e->ntasks; i++)
        if (mine[i].ran) *len += sent_size(&mine[i]);
    char *buf = calloc(*len ? *len : 1, 1);
    if (!buf) return -ENOMEM;
    char *p = buf;
    for (int i = 0; i < e->ntasks; i++) {
        const struct hb_task_result *r = &mine[i];
        if (!r->ran) continue;
        struct hb_sent s = {i, w->rank, *r};
        memcpy(p, &s, sizeof(s));
        p += HB_PAD8(sizeof(s));
        memcpy(p, r->pages_on_node, sizeof(*r->pages_on_node) * (size_t)r->npages_nodes);
        p += HB_PAD8(sizeof(*r->pages_on_node) * (size_t)r->npages_nodes);
        memcpy(p, r->thread_cpus, sizeof(*r->thread_cpus) * (size_t)r->nthread_cpus);
        p += HB_PAD8(sizeof(*r->thread_cpus) * (size_t)r->nthread_cpus);
    }
    *out = buf;
    return 0;
}

/* Rank 0: the gathered bytes as results whose arrays point into buf (keep it until done). */
static int unpack_results(char *buf, size_t len, struct hb_sent **all, int *nall)
{
    int n = 0, cap = 0;
    struct hb_sent *list = NULL;
    for (size_t pos = 0; pos < len;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            struct hb_sent *grown = realloc(list, sizeof(*grown) * (size_t)cap);
            if (!grown) {
                free(list);
                return -ENOMEM;
            }
            list = grown;
        }
        struct hb_sent *s = &list[n++];
        memcpy(s, buf + pos, sizeof(*s));
        pos += HB_PAD8(sizeof(*s));
        s->res.pages_on_node = (uint64_t *)(void *)(buf + pos);
        pos += HB_PAD8(sizeof(uint64_t) * (size_t)s->res.npages_nodes);
        s->res.thread_cpus = (int *)(void *)(buf + pos);
        pos += HB_PAD8(sizeof(int) * (size_t)s->res.nthread_cpus);
    }
    *all = list;
    *nall = n;
    return 0;
}

/* Rank 0 gets every rank's results; *raw holds the bytes they point into. */
static int gather(const struct hb_world *w, const struct hb_experiment *e,
                  const struct hb_task_result *mine, char **raw, struct hb_sent **all, int *nall)
{
    char *out = NULL;
    size_t len = 0;
    if (pack_results(w, e, mine, &out, &len) != 0 || len > INT_MAX) return -ENOMEM;
    int bytes = (int)len;
    int *counts = NULL, *displs = NULL, total = 0;
    char *recv = NULL;
    if (w->rank == 0) {
        counts = calloc((size_t)w->size, sizeof(int));
        displs = calloc((size_t)w->size, sizeof(int));
        if (!counts || !displs) return -ENOMEM;
    }
    hb_ranks_gather_int(bytes, counts);
    if (w->rank == 0) {
        for (int r = 0; r < w->size; r++) {
            displs[r] = total;
            total += counts[r];
        }
        recv = malloc(total ? (size_t)total : 1);
        if (!recv) return -ENOMEM;
    }
    hb_ranks_gatherv_bytes(out, bytes, recv, counts, displs);
    free(out);
    free(counts);
    free(displs);
    *raw = recv;
    *all = NULL;
    *nall = 0;
    if (w->rank == 0 && unpack_results(recv, (size_t)total, all, nall) != 0) return -ENOMEM;
    return 0;
}

/* Rank 0: one repeat's record of every task that ran, host by host, each kept for the
 * experiment's last repeat or, in the last, merged with the earlier ones and emitted
 * (hb_repeat.h). 0, or the first error of the repeats' store or emit. */
static int repeat_records(const struct hb_world *w, const struct hb_topo *t,
                          const struct hb_experiment *e, const struct hb_sent *got, int ngot,
                          const struct hb_exec_io *io, struct hb_repeats *reps, int x, int repeat,
                          bool last)
{
    struct hb_task_result *host_res = calloc((size_t)e->ntasks, sizeof(*host_res));
    int *host_rank = calloc((size_t)e->ntasks, sizeof(int));
    int rc = host_res && host_rank ? 0 : -ENOMEM;
    if (rc) hb_error_set("out of memory making the records of experiment %s", e->name);
    for (int h = 0; h < w->nhosts && rc == 0; h++) {
        memset(host_res, 0, sizeof(*host_res) * (size_t)e->ntasks);
        for (int k = 0; k < ngot; k++)
            if (w->rank_host[got[k].rank] == h) {
                host_res[got[k].task] = got[k].res;
                host_rank[got[k].task] = got[k].rank;
            }
        for (int i = 0; i < e->ntasks && rc == 0; i++) {
            struct hb_record_origin o = {w->hosts[h], host_rank[i], io->simd};
            json_t *rec = hb_record_measurement(t, e, i, host_res, &o);
            rc = last ? hb_repeat_store_last(reps, x, rec, io->emit, io->ctx)
                      : hb_repeat_store_put(reps, x, repeat, rec);
        }
    }
    if (last) hb_repeat_store_end(reps, x);
    free(host_res);
    free(host_rank);
    return rc;
}

/* The first failed task of this rank, as the job's message. */
static int local_failure(const struct hb_experiment *e, const struct hb_task_result *mine,
                         char *msg, size_t len)
{
    for (int i = 0; i < e->ntasks; i++)
        if (mine[i].ran && mine[i].status) {
            snprintf(msg, len, "experiment %s task %s failed: %s", e->name, e->tasks[i].label,
                     mine[i].note);
            return hb_error_exit_code(mine[i].status);
        }
    return 0;
}

/* Tasks that use the whole node take this host's core count: hosts of a fleet may differ. */
static void exec_fit_host(const struct hb_topo *t, int node, struct hb_experiment *e)
{
    int i = hb_topo_nodes_index(t, node);
    for (int k = 0; i >= 0 && k < e->ntasks; k++)
        if (e->tasks[k].whole_node && e->tasks[k].cpu_node == node)
            e->tasks[k].threads = t->nodes[i].ncores;
}

void hb_exec_receive(const struct hb_world *w, const struct hb_plan *plan, int x,
                     struct hb_experiment *e)
{
    char *buf = NULL;
    size_t len = 0;
    int ok = 1;
    if (w->rank == 0)
        ok = hb_plan_experiment_pack(&plan->exps[x], &buf, &len) == 0 && len <= INT_MAX;
    hb_ranks_bcast_ints(&ok, 1);
    if (!ok) hb_world_abort(w, HB_EXIT_ENV, "out of memory packing an experiment");
    int n = (int)len;
    hb_ranks_bcast_ints(&n, 1);
    if (w->rank != 0 && !(buf = malloc(n ? (size_t)n : 1)))
        hb_world_abort(w, HB_EXIT_ENV, "out of memory receiving an experiment");
    hb_ranks_bcast_bytes(buf, n);
    int rc = hb_plan_experiment_unpack(buf, (size_t)n, e);
    free(buf);
    if (rc) hb_world_abort(w, hb_error_exit_code(rc), hb_error_msg());
}

/* One repeat of experiment x on every rank; rank 0 keeps its records in reps and, after the
 * last repeat, emits them merged. Returns the exit code every rank agrees on. */
static int exec_one(const struct hb_world *w, const struct hb_topo *t, const struct hb_plan *plan,
                    int x, int repeat, bool last, const struct hb_exec_io *io,
                    struct hb_repeats *reps)
{
    struct hb_experiment e;
    hb_exec_receive(w, plan, x, &e);
    hb_world_interleave_weights_experiment(w, &e);
    /* A new chase permutation each repeat, as the memory is new. */
    e.seed += (uint64_t)repeat;
    struct hb_task_result *mine = calloc((size_t)(e.ntasks ? e.ntasks : 1), sizeof(*mine));
    if (!mine) hb_world_abort(w, HB_EXIT_ENV, "out of memory for results");
    struct hb_sync sync = {0};
    struct hb_team_hooks hooks = {sync_started, sync_fg_done, sync_all_done, &sync};
    exec_fit_host(t, w->node, &e);
    int rc = hb_team_run(t, &e, w->node, io->allow_misplaced, &hooks, mine);
    for (int i = 0; i < e.ntasks; i++)
        mine[i].threads = e.tasks[i].threads;
    if (rc) {
        char msg[600];
        snprintf(msg, sizeof(msg), "experiment %s: %s", e.name, hb_error_msg());
        hb_world_abort(w, hb_error_exit_code(rc), msg);
    }
    struct hb_sent *got = NULL;
    char *raw = NULL;
    int ngot = 0;
    if (gather(w, &e, mine, &raw, &got, &ngot) != 0)
        hb_world_abort(w, HB_EXIT_ENV, "out of memory gathering results");
    int keep_rc = 0;
    if (w->rank == 0) keep_rc = repeat_records(w, t, &e, got, ngot, io, reps, x, repeat, last);
    free(got);
    free(raw);
    char msg[600];
    int local = local_failure(&e, mine, msg, sizeof(msg)), code;
    if (local)
        fprintf(stderr, "hopbench: rank %d (host %s, node %d): %s\n", w->rank, w->host, w->node,
                msg);
    if (keep_rc) {
        fprintf(stderr, "hopbench: rank 0 (host %s): %s\n", w->host, hb_error_msg());
        local = HB_EXIT_ENV;
    }
    code = hb_ranks_max_int(local);
    for (int i = 0; i < e.ntasks; i++)
        hb_result_task_free(&mine[i]);
    free(mine);
    hb_plan_experiment_clear(&e);
    return code;
}

int hb_exec_rounds(const struct hb_world *w, const struct hb_plan *plan, int n,
                   const struct hb_exec_io *io, struct hb_repeats *reps,
                   int (*one)(void *ctx, int x, int round, bool last), void *ctx)
{
    struct hb_rounds rd;
    hb_rounds_init(&rd, io->repeats, io->until_clear, io->max_time_s);
    int *run = calloc((size_t)n + 1, sizeof(*run)), code = 0;
    if (!run) hb_world_abort(w, HB_EXIT_ENV, "out of memory planning the repeats");
    /* Rank 0 decides each round (which experiments are not yet clear); every rank runs it. A
     * measurement that failed its checks (status 1) leaves the others to be measured; worse
     * stops the run. */
    for (int round; code <= HB_EXIT_FAILED;) {
        round = w->rank == 0 ? hb_rounds_next(&rd, reps, run) : 0;
        hb_ranks_bcast_ints(&round, 1);
        if (round < 0) break;
        hb_ranks_bcast_ints(run, n);
        for (int x = 0; x < n && code <= HB_EXIT_FAILED; x++) {
            if (!run[x]) continue;
            struct hb_round_step step = {round, rd.rounds, x, n, rd.until_clear};
            if (w->rank == 0 && io->progress) io->progress(&step, &plan->exps[x], io->ctx);
            int c = one(ctx, x, round, hb_rounds_last(&rd, round));
            code = c > code ? c : code;
        }
    }
    free(run);
    return code;
}

/* What hb_exec_rounds hands each experiment's round to. */
struct exec_round {
    const struct hb_world *w;
    const struct hb_topo *t;
    const struct hb_plan *plan;
    const struct hb_exec_io *io;
    struct hb_repeats *reps;
};

static int exec_round_one(void *ctx, int x, int round, bool last)
{
    struct exec_round *er = ctx;
    return exec_one(er->w, er->t, er->plan, x, round, last, er->io, er->reps);
}

int hb_exec_plan(const struct hb_world *w, const struct hb_topo *t, const struct hb_plan *plan,
                 const struct hb_exec_io *io)
{
    int n = w->rank == 0 ? plan->n : 0;
    hb_ranks_bcast_ints(&n, 1);
    struct hb_repeats reps = {0};
    if (w->rank == 0 && hb_repeat_store_init(&reps, n, io->noise_pct))
        hb_world_abort(w, HB_EXIT_ENV, "out of memory for the repeats' records");
    /* Repeats go round the whole plan, so drift over the run shows in each figure's spread;
     * each experiment's records are merged and emitted once its last repeat is in. */
    struct exec_round er = {w, t, plan, io, &reps};
    int code = hb_exec_rounds(w, plan, n, io, &reps, exec_round_one, &er);
    code = hb_exec_emit_rest(w, &reps, io, code);
    hb_world_interleave_weights_restore(w); /* the weights an experiment or the run set */
    hb_repeat_store_free(&reps);
    return code;
}

int hb_exec_emit_rest(const struct hb_world *w, struct hb_repeats *reps,
                      const struct hb_exec_io *io, int code)
{
    /* code stays what every rank agreed on; a write failure here is rank 0's to report. */
    int emit_rc = 0;
    for (int x = 0; w->rank == 0 && code <= HB_EXIT_FAILED && x < reps->nexp; x++)
        if (hb_repeat_store_has(reps, x) && emit_rc == 0)
            emit_rc = hb_repeat_store_flush(reps, x, io->emit, io->ctx);
    if (emit_rc) {
        fprintf(stderr, "hopbench: rank 0 (host %s): %s\n", w->host, hb_error_msg());
        code = HB_EXIT_ENV;
    }
    return code;
}
