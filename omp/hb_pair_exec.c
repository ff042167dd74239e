/* The in-process executor of pinned-pair plans (c2c): what mpi/hb_exec.c does for a team,
 * for experiments whose two threads must share one process. */
#include "hb_pair.h"

#include "hb_error.h"
#include "hb_record.h"

int hb_pair_exec(const struct hb_topo *t, const struct hb_plan *plan, const struct hb_pair_io *io,
                 json_t *measured)
{
    const struct hb_record_origin origin = {io->host, 0, io->simd};
    int failed = 0, first = 0, rc = 0;
    for (int i = 0; rc == 0 && i < plan->n; i++) {
        const struct hb_experiment *e = &plan->exps[i];
        if (io->progress) io->progress(i, plan->n, e, io->ctx);
        /* Both threads' result is the writer's (task 0); the reader's stays "not run". */
        struct hb_task_result res[2];
        rc = hb_task_result_init(&res[0], t->nnodes, 2);
        int rc1 = hb_task_result_init(&res[1], t->nnodes, 1);
        rc = rc ? rc : rc1;
        if (rc == 0) rc = hb_pair_run(t, e, &res[0]);
        if (rc == 0) {
            if (res[0].status) {
                failed++;
                first = first ? first : res[0].status;
            }
            json_t *rec = hb_record_measurement(t, e, 0, res, &origin);
            rc = io->emit(rec, io->ctx);
            json_array_append_new(measured, rec);
        }
        hb_task_result_free(&res[0]);
        hb_task_result_free(&res[1]);
    }
    if (rc || !failed) return rc;
    hb_err_set("%d measurement(s) failed (a count off its exact value, or a thread or line not "
               "where asked); the records' notes say which",
               failed);
    return first;
}
