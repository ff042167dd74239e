/* The in-process executor of pinned-pair plans (c2c), page migrations (migrate) and NUMA
 * balancing watches (balance): what mpi/hb_exec.c does for a team, for experiments that must
 * run in one process. */
#include "hb_pair.h"

#include "hb_balance.h"
#include "hb_error.h"
#include "hb_migrate.h"
#include "hb_record.h"
#include "hb_repeat.h"
#include "hb_rounds.h"

#include <errno.h>
#include <stdlib.h>

/* One repeat of experiment x: its record kept in reps, or in the last repeat merged with the
 * earlier ones and emitted; counts a failed measurement. */
static int pair_one(const struct hb_topo *t, const struct hb_experiment *e, int repeat, bool last,
                    const struct hb_pair_io *io, const struct hb_record_origin *origin,
                    struct hb_repeats *reps, int x, int *failed, int *first)
{
    /* Both threads' result is the writer's (task 0); the reader's stays "not run". A balance
     * watch's threads are its one task's, and its series comes as keys of its own. */
    struct hb_task_result res[2];
    struct hb_experiment run = *e;
    run.seed = e->seed + (uint64_t)repeat;
    json_t *keys = NULL, *rec = NULL;
    int rc =
        hb_result_task_init(&res[0], t->nnodes, e->tasks[0].threads > 2 ? e->tasks[0].threads : 2);
    int rc1 = hb_result_task_init(&res[1], t->nnodes, 1);
    rc = rc ? rc : rc1;
    if (rc == 0)
        rc = hb_migrate_is(&run)   ? hb_migrate_run(t, &run, &res[0])
             : hb_balance_is(&run) ? hb_balance_run(t, &run, &res[0], &keys)
                                   : hb_pair_run(t, &run, &res[0]);
    if (rc == 0 && res[0].status) {
        (*failed)++;
        *first = *first ? *first : res[0].status;
    }
    if (rc == 0 && (rec = hb_record_measurement(t, &run, 0, res, origin)) && keys)
        json_object_update(rec, keys);
    if (rc == 0)
        rc = last ? hb_repeat_store_last(reps, x, rec, io->emit, io->ctx)
                  : hb_repeat_store_put(reps, x, repeat, rec);
    else
        json_decref(rec);
    if (last) hb_repeat_store_end(reps, x);
    json_decref(keys);
    hb_result_task_free(&res[0]);
    hb_result_task_free(&res[1]);
    return rc;
}

int hb_pair_exec(const struct hb_topo *t, const struct hb_plan *plan, const struct hb_pair_io *io)
{
    const struct hb_record_origin origin = {io->host, 0, io->simd};
    int failed = 0, first = 0;
    struct hb_repeats reps;
    struct hb_rounds rd;
    hb_rounds_init(&rd, io->repeats, io->until_clear, io->max_time_s);
    int rc = hb_repeat_store_init(&reps, plan->n, io->noise_pct);
    int *run = calloc((size_t)plan->n + 1, sizeof(*run));
    if (!run) rc = rc ? rc : -ENOMEM;
    /* Round the whole plan each repeat (the experiments not yet clear, with --repeat auto),
     * as the MPI executor does. */
    for (int r; rc == 0 && (r = hb_rounds_next(&rd, &reps, run)) >= 0;)
        for (int i = 0; rc == 0 && i < plan->n; i++) {
            if (!run[i]) continue;
            const struct hb_experiment *e = &plan->exps[i];
            struct hb_round_step step = {r, rd.rounds, i, plan->n, rd.until_clear};
            if (io->progress) io->progress(&step, e, io->ctx);
            rc = pair_one(t, e, r, hb_rounds_last(&rd, r), io, &origin, &reps, i, &failed, &first);
        }
    /* --repeat auto merges when the run is done. */
    for (int i = 0; rc == 0 && i < plan->n; i++)
        if (hb_repeat_store_has(&reps, i)) rc = hb_repeat_store_flush(&reps, i, io->emit, io->ctx);
    free(run);
    hb_repeat_store_free(&reps);
    if (rc == -ENOMEM) hb_error_set("out of memory keeping the repeats of the c2c measurements");
    if (rc || !failed) return rc;
    hb_error_set("%d measurement(s) failed (a count off its exact value, or a thread or line not "
                 "where asked); the records' notes say which",
                 failed);
    return first;
}
