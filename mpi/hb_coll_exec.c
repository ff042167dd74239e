/* The coll executor (hb_coll_exec.h): the plan's experiments round the repeats, each on a
 * communicator of the ranks on its nodes, under its load when it has one (hb_msg_bg.h). */
#include "hb_coll_exec.h"

#include "hb_coll_mpit.h"
#include "hb_coll_run.h"
#include "hb_ranks.h"
#include "hb_error.h"
#include "hb_msg_bg.h"
#include "hb_msg_core.h"
#include "hb_options.h"
#include "hb_repeat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HB_TAG_COLL 7301

/* What every experiment shares. */
struct coll_exec {
    const struct hb_world *w;
    const struct hb_topo *t;
    const struct hb_exec_io *io;
    bool clean;
    struct hb_coll_mpit *mpit; /* rank 0 */
    struct hb_msg_bg_got *bg;  /* rank 0: every rank's load of a loaded experiment */
    json_t *unserved;          /* rank 0: experiments with fewer than two ranks, said once */
};

/* One experiment's communicator as every rank sees it from the world's tables. */
struct coll_members {
    int n;     /* ranks on its nodes */
    int first; /* lowest world rank among them */
    int last;  /* highest */
    int root;  /* world rank of the root (rooted op), else -1 */
    bool one_host;
    bool me;
};

/* The foreground task of node os in e, or NULL. */
static const struct hb_task *coll_task_of(const struct hb_experiment *e, int os)
{
    for (int k = 0; k < e->ntasks; k++)
        if (e->tasks[k].role == HB_ROLE_FG && e->tasks[k].cpu_node == os) return &e->tasks[k];
    return NULL;
}

static struct coll_members coll_members_of(const struct hb_world *w, const struct hb_experiment *e)
{
    struct coll_members m = {0, -1, -1, -1, true, false};
    int root_node = (int)hb_plan_param_int_of(e, "root_node", -1);
    int root_rank = (int)hb_plan_param_int_of(e, "root_rank_opt", -1);
    for (int r = 0; r < w->size; r++) {
        if (w->rank_node[r] < 0 || !coll_task_of(e, w->rank_node[r])) continue;
        m.n++;
        if (m.first < 0) m.first = r;
        m.one_host = m.one_host && w->rank_host[r] == w->rank_host[m.first];
        m.last = r;
        m.me = m.me || r == w->rank;
        if (m.root < 0 && root_node >= 0 && w->rank_node[r] == root_node) m.root = r;
        if (r == root_rank) m.root = r;
    }
    return m;
}

/* This rank's job in e. */
struct coll_body {
    struct coll_exec *x;
    const struct hb_experiment *e;
    const struct coll_members *m;
    MPI_Comm comm;
    struct hb_coll_rank mine;
    struct hb_coll_result res;
    struct hb_coll_rank *per;
    double *samples;
};

static void coll_body_run(void *ctx)
{
    struct coll_body *b = ctx;
    const struct hb_world *w = b->x->w;
    if (!b->m->me) return;
    const struct hb_task *task = coll_task_of(b->e, w->node);
    int nodes[HB_MAX_WEIGHTED], n = 0, os;
    if (task->policy == HB_POLICY_BIND) nodes[n++] = task->mem_node;
    if (task->mem_nodes) {
        hwloc_bitmap_foreach_begin(os, task->mem_nodes) if (n < HB_MAX_WEIGHTED) nodes[n++] = os;
        hwloc_bitmap_foreach_end();
    }
    int root = -1;
    /* The communicator's ranks are the world's in order: the root's is its place among them. */
    for (int r = b->m->first, k = 0; b->m->root >= 0 && r <= b->m->root; r++)
        if (w->rank_node[r] >= 0 && coll_task_of(b->e, w->rank_node[r])) root = k++;
    struct hb_coll_job job = {
        b->x->t,
        b->comm,
        hb_coll_op_index(b->e->tasks[0].kernel),
        (size_t)hb_plan_param_int_of(b->e, "message_bytes", 0),
        root,
        task->policy,
        nodes,
        n,
        task->pages,
        b->e->reps,
        b->e->min_time_s,
        b->x->clean,
        b->x->io->allow_misplaced,
    };
    hb_coll_run(&job, &b->mine, &b->res, b->per, b->samples);
}

/* Rank 0: the communicator's result from its first rank. */
static void coll_collect(const struct hb_world *w, struct coll_body *b)
{
    int from = b->m->first;
    if (from == 0) return;
    if (w->rank == from) {
        MPI_Send(&b->res, sizeof(b->res), MPI_BYTE, 0, HB_TAG_COLL, MPI_COMM_WORLD);
        MPI_Send(b->per, (int)sizeof(*b->per) * b->m->n, MPI_BYTE, 0, HB_TAG_COLL, MPI_COMM_WORLD);
        MPI_Send(b->samples, b->e->reps, MPI_DOUBLE, 0, HB_TAG_COLL, MPI_COMM_WORLD);
    } else if (w->rank == 0) {
        /* While the communicator measures, rank 0 waits without spinning. */
        MPI_Request req;
        MPI_Irecv(&b->res, sizeof(b->res), MPI_BYTE, from, HB_TAG_COLL, MPI_COMM_WORLD, &req);
        hb_ranks_wait_idle(&req);
        MPI_Recv(b->per, (int)sizeof(*b->per) * b->m->n, MPI_BYTE, from, HB_TAG_COLL,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(b->samples, b->e->reps, MPI_DOUBLE, from, HB_TAG_COLL, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    }
}

/* Rank 0: e's record from what its communicator measured. */
static json_t *coll_record(struct coll_exec *x, const struct hb_experiment *e, struct coll_body *b,
                           bool loaded)
{
    const struct hb_world *w = x->w;
    char comp[32], alg[64], why[400];
    hb_coll_mpit_choose(x->mpit, e->tasks[0].kernel, b->m->one_host, comp, sizeof(comp), alg,
                        sizeof(alg), why, sizeof(why));
    struct hb_coll_origin o = {w->hosts[w->rank_host[b->m->first]], comp, alg[0] ? alg : NULL, why};
    b->res.root_rank = b->m->root;
    b->res.ref_rank = b->m->root >= 0 ? b->m->root : b->m->first;
    if (b->res.status) fprintf(stderr, "hopbench: experiment %s: %s\n", e->name, b->res.note);
    json_t *rec = hb_record_coll(x->t, e, &b->res, b->per, b->samples, x->clean, &o);
    if (!rec || (loaded && hb_msg_bg_columns(w, x->bg, rec)))
        hb_world_abort(w, HB_EXIT_ENV, "out of memory");
    return rec;
}

/* Rank 0: remember an experiment no two ranks served (said once, at the end). */
static void coll_unserved(struct coll_exec *x, const struct hb_experiment *e)
{
    json_array_append_new(x->unserved, json_string(e->name));
}

/* One repeat of experiment x; rank 0 keeps its record and emits it after the last. */
static int coll_one(struct coll_exec *x, const struct hb_plan *plan, int xi, int repeat, bool last,
                    struct hb_repeats *reps)
{
    const struct hb_world *w = x->w;
    struct hb_experiment e;
    hb_exec_receive(w, plan, xi, &e);
    struct coll_members m = coll_members_of(w, &e);
    bool rooted = hb_plan_param_int_of(&e, "root_node", -1) >= 0 ||
                  hb_plan_param_int_of(&e, "root_rank_opt", -1) >= 0;
    if (m.n < 2 || (rooted && m.root < 0)) {
        if (w->rank == 0 && repeat == 0) coll_unserved(x, &e);
        if (w->rank == 0 && last) hb_repeat_store_end(reps, xi);
        hb_plan_experiment_clear(&e);
        return 0;
    }
    struct coll_body b = {x, &e, &m, MPI_COMM_NULL, {0}, {0}, NULL, NULL};
    b.mine.rank = w->rank;
    b.mine.node = w->node;
    b.mine.host = w->host_index;
    b.per = calloc((size_t)m.n, sizeof(*b.per));
    b.samples = calloc((size_t)e.reps, sizeof(*b.samples));
    if (!b.per || !b.samples) hb_world_abort(w, HB_EXIT_ENV, "out of memory for coll's results");
    MPI_Comm_split(MPI_COMM_WORLD, m.me ? 0 : MPI_UNDEFINED, w->rank, &b.comm);
    bool loaded = hb_msg_bg_loaded(&e);
    /* The ranks that wait sleep: spinning ones would take the communicator's CPUs. */
    hb_ranks_barrier_idle();
    if (loaded)
        hb_msg_bg_around(w, x->t, &e, m.first, m.last, x->io->allow_misplaced, coll_body_run, &b,
                         x->bg);
    else
        coll_body_run(&b);
    coll_collect(w, &b);
    if (b.comm != MPI_COMM_NULL) MPI_Comm_free(&b.comm);
    int failed = 0, keep_rc = 0;
    if (w->rank == 0) {
        failed = b.res.status != 0;
        json_t *rec = coll_record(x, &e, &b, loaded);
        keep_rc = last ? hb_repeat_store_last(reps, xi, rec, x->io->emit, x->io->ctx)
                       : hb_repeat_store_put(reps, xi, repeat, rec);
        if (last) hb_repeat_store_end(reps, xi);
        if (keep_rc) fprintf(stderr, "hopbench: rank 0 (host %s): %s\n", w->host, hb_error_msg());
    }
    free(b.per);
    free(b.samples);
    hb_plan_experiment_clear(&e);
    return hb_ranks_max_int(keep_rc ? HB_EXIT_ENV : failed ? HB_EXIT_FAILED : 0);
}

static void coll_say_unserved(const json_t *unserved)
{
    if (!json_array_size(unserved)) return;
    fprintf(stderr, "hopbench: coll: fewer than two ranks (or not --root's) on the nodes of");
    size_t i;
    json_t *v;
    json_array_foreach(unserved, i, v) fprintf(stderr, " %s", json_string_value(v));
    fprintf(stderr, ", so they were not measured; one rank per node (mpirun --map-by numa "
                    "--bind-to numa) serves every communicator\n");
}

/* What hb_exec_rounds hands each experiment's round to. */
struct coll_round {
    struct coll_exec *x;
    const struct hb_plan *plan;
    struct hb_repeats *reps;
};

static int coll_round_one(void *ctx, int xi, int round, bool last)
{
    struct coll_round *cr = ctx;
    return coll_one(cr->x, cr->plan, xi, round, last, cr->reps);
}

int hb_coll_exec_plan(const struct hb_world *w, const struct hb_topo *t, const struct hb_plan *plan,
                      const struct hb_exec_io *io, bool clean)
{
    int n = w->rank == 0 ? plan->n : 0;
    hb_ranks_bcast_ints(&n, 1);
    struct coll_exec x = {
        w, t, io, clean, NULL, calloc((size_t)w->size, sizeof(struct hb_msg_bg_got)), json_array()};
    struct hb_repeats reps = {0};
    if (hb_msg_core_own(w, t) != 0) hb_world_abort(w, HB_EXIT_ENV, hb_error_msg());
    if (w->rank == 0 && !(x.mpit = hb_coll_mpit_read()))
        hb_world_abort(w, HB_EXIT_ENV, "out of memory reading the MPI library's variables");
    if (!x.bg || !x.unserved || (w->rank == 0 && hb_repeat_store_init(&reps, n, io->noise_pct)))
        hb_world_abort(w, HB_EXIT_ENV, "out of memory for the repeats' records");
    char(*machine)[HB_HOST_LEN] = hb_msg_core_machines(w);
    int code = hb_msg_core_apart(w, t, (const char(*)[HB_HOST_LEN])machine, "coll");
    free(machine);
    struct coll_round cr = {&x, plan, &reps};
    if (code == 0) code = hb_exec_rounds(w, plan, n, io, &reps, coll_round_one, &cr);
    /* A rank failed: what was measured is still written, with the repeats it has. */
    code = hb_exec_emit_rest(w, &reps, io, code);
    if (w->rank == 0) coll_say_unserved(x.unserved);
    json_decref(x.unserved);
    free(x.bg);
    hb_coll_mpit_free(x.mpit);
    hb_repeat_store_free(&reps);
    return code;
}
