#include "hb_exec.h"

#include "hb_error.h"
#include "hb_record.h"
#include "hb_team.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hb_sync {
    MPI_Request req;
    bool pending;
};

static void hb_sync_started(void *ctx)
{
    (void)ctx;
    MPI_Barrier(MPI_COMM_WORLD);
}

static void hb_sync_fg_done(void *ctx)
{
    struct hb_sync *s = ctx;
    MPI_Ibarrier(MPI_COMM_WORLD, &s->req);
    s->pending = true;
}

static bool hb_sync_all_done(void *ctx)
{
    struct hb_sync *s = ctx;
    int flag = 0;
    MPI_Test(&s->req, &flag, MPI_STATUS_IGNORE);
    if (flag) s->pending = false;
    return flag != 0;
}

/* One slot per task and rank: the results travel as bytes, rank 0 picks the ones that ran. */
struct hb_sent {
    int task;
    int rank;
    struct hb_task_result res;
};

static int hb_gather(const struct hb_world *w, const struct hb_experiment *e,
                     const struct hb_task_result *mine, struct hb_sent **all, int *nall)
{
    int n = 0;
    for (int i = 0; i < e->ntasks; i++)
        n += mine[i].ran;
    struct hb_sent *out = calloc((size_t)(n ? n : 1), sizeof(*out));
    if (!out) return -ENOMEM;
    for (int i = 0, k = 0; i < e->ntasks; i++)
        if (mine[i].ran) out[k++] = (struct hb_sent){i, w->rank, mine[i]};
    int bytes = n * (int)sizeof(*out);
    int *counts = NULL, *displs = NULL, total = 0;
    char *recv = NULL;
    if (w->rank == 0) {
        counts = calloc((size_t)w->size, sizeof(int));
        displs = calloc((size_t)w->size, sizeof(int));
    }
    MPI_Gather(&bytes, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (w->rank == 0) {
        for (int r = 0; r < w->size; r++) {
            displs[r] = total;
            total += counts[r];
        }
        recv = malloc(total ? (size_t)total : 1);
    }
    MPI_Gatherv(out, bytes, MPI_BYTE, recv, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
    free(out);
    free(counts);
    free(displs);
    *all = (struct hb_sent *)recv;
    *nall = total / (int)sizeof(struct hb_sent);
    return 0;
}

/* Rank 0: records for every task that ran, host by host. */
static int hb_emit_records(const struct hb_world *w, const struct hb_topo *t,
                           const struct hb_experiment *e, const struct hb_sent *got, int ngot,
                           const struct hb_exec_io *io, json_t *measured)
{
    struct hb_task_result *host_res = calloc((size_t)e->ntasks, sizeof(*host_res));
    int *host_rank = calloc((size_t)e->ntasks, sizeof(int));
    int rc = host_res && host_rank ? 0 : -ENOMEM;
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
            rc = io->emit(rec, io->ctx);
            if (measured) json_array_append(measured, rec);
            json_decref(rec);
        }
    }
    free(host_res);
    free(host_rank);
    return rc;
}

/* The first failed task of this rank, as the job's message. */
static int hb_local_failure(const struct hb_experiment *e, const struct hb_task_result *mine,
                            char *msg, size_t len)
{
    for (int i = 0; i < e->ntasks; i++)
        if (mine[i].ran && mine[i].status) {
            snprintf(msg, len, "experiment %s task %s failed: %s", e->name, e->tasks[i].label,
                     mine[i].note);
            return hb_err_exit_code(mine[i].status);
        }
    return 0;
}

/* Tasks that use the whole node take this host's core count: hosts of a fleet may differ. */
static void hb_exec_fit_host(const struct hb_topo *t, int node, struct hb_experiment *e)
{
    int i = hb_topo_node_index(t, node);
    for (int k = 0; i >= 0 && k < e->ntasks; k++)
        if (e->tasks[k].whole_node && e->tasks[k].cpu_node == node)
            e->tasks[k].threads = t->nodes[i].ncores;
}

int hb_exec_plan(const struct hb_world *w, const struct hb_topo *t, const struct hb_plan *plan,
                 const struct hb_exec_io *io, json_t *measured)
{
    int n = w->rank == 0 ? plan->n : 0;
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    struct hb_task_result *mine = calloc(HB_MAX_TASKS, sizeof(*mine));
    if (!mine) hb_world_abort(w, HB_EXIT_ENV, "out of memory for results");
    int code = 0;
    for (int x = 0; x < n && code == 0; x++) {
        struct hb_experiment e;
        if (w->rank == 0) {
            e = plan->exps[x];
            if (io->progress) io->progress(x, n, &e, io->ctx);
        }
        MPI_Bcast(&e, (int)sizeof(e), MPI_BYTE, 0, MPI_COMM_WORLD);
        memset(mine, 0, sizeof(*mine) * HB_MAX_TASKS);
        struct hb_sync sync = {0};
        struct hb_team_hooks hooks = {hb_sync_started, hb_sync_fg_done, hb_sync_all_done, &sync};
        hb_exec_fit_host(t, w->node, &e);
        int rc = hb_team_run(t, &e, w->node, io->allow_misplaced, &hooks, mine);
        for (int i = 0; i < e.ntasks; i++)
            mine[i].threads = e.tasks[i].threads;
        if (rc) {
            char msg[600];
            snprintf(msg, sizeof(msg), "experiment %s: %s", e.name, hb_err_msg());
            hb_world_abort(w, hb_err_exit_code(rc), msg);
        }
        struct hb_sent *got = NULL;
        int ngot = 0;
        if (hb_gather(w, &e, mine, &got, &ngot) != 0)
            hb_world_abort(w, HB_EXIT_ENV, "out of memory gathering results");
        int emit_rc = 0;
        if (w->rank == 0) emit_rc = hb_emit_records(w, t, &e, got, ngot, io, measured);
        free(got);
        char msg[600];
        int local = hb_local_failure(&e, mine, msg, sizeof(msg));
        if (local)
            fprintf(stderr, "hopbench: rank %d (host %s, node %d): %s\n", w->rank, w->host, w->node,
                    msg);
        if (emit_rc) {
            fprintf(stderr, "hopbench: rank 0 (host %s): %s\n", w->host, hb_err_msg());
            local = HB_EXIT_ENV;
        }
        MPI_Allreduce(&local, &code, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    }
    free(mine);
    return code;
}
