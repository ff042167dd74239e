/* A task's result as it travels (hb_result.h): packed on its rank, unpacked on rank 0. */
#include "hb_result.h"

#include "hb_error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int hb_result_task_init(struct hb_task_result *r, int nnodes, int threads)
{
    memset(r, 0, sizeof(*r));
    r->pages_on_node = calloc((size_t)(nnodes > 0 ? nnodes : 1), sizeof(*r->pages_on_node));
    r->thread_cpus = calloc((size_t)(threads > 0 ? threads : 1), sizeof(*r->thread_cpus));
    if (!r->pages_on_node || !r->thread_cpus) {
        hb_error_set("out of memory for the result of a task of %d threads on %d nodes", threads,
                     nnodes);
        return -ENOMEM;
    }
    r->npages_nodes = nnodes;
    r->nthread_cpus = threads;
    return 0;
}

void hb_result_task_free(struct hb_task_result *r)
{
    free(r->pages_on_node);
    free(r->thread_cpus);
    r->pages_on_node = NULL;
    r->thread_cpus = NULL;
    r->npages_nodes = r->nthread_cpus = 0;
}
