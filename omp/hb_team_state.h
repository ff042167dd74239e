/* The team of one node as its files share it: each task's state and the threads' slots.
 * Private to omp/. One way only: hb_team.c runs the team and calls hb_team_tasks.c (set up,
 * fail, check and close a task), which calls nothing of hb_team.c. */
#ifndef HB_TEAM_STATE_H
#define HB_TEAM_STATE_H

#include "hb_kernel.h"
#include "hb_spin_barrier.h"
#include "hb_team.h"

#include <hwloc.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hb_task_state {
    const struct hb_task *task;
    const struct hb_kernel *k;
    struct hb_task_result *res;
    struct hb_buf bufs[HB_KERNEL_MAX_STREAMS];
    size_t elements; /* per array */
    size_t per_thread;
    struct hb_spin_barrier bar;
    uint64_t sweeps;      /* per sample */
    uint64_t warm_batch;  /* warm-up: the batch running now, 0 once the samples are sized */
    uint64_t warm_sweeps; /* warm-up: sweeps run */
    _Atomic int failed;
    /* Per thread of the task (task->threads of each). */
    double *bg_bytes;
    double *bg_start, *bg_end;
    double *bg_target; /* bytes/s each thread paced to, 0 = unpaced */
};

struct hb_slot {
    int task; /* index into the team's task states, -1 idle */
    int idx;  /* thread number inside the task */
};

enum hb_master_state { HB_M_WAIT_BG, HB_M_WAIT_FG_LOCAL, HB_M_WAIT_ALL, HB_M_DONE };

struct hb_team {
    const struct hb_topo *topo;
    const struct hb_experiment *e;
    const struct hb_team_hooks *hooks;
    int node_index;
    int nstates;
    struct hb_task_state *states; /* one per task of the experiment at most */
    int nthreads;
    int nslots;               /* the node's CPUs: one thread each at most */
    struct hb_slot *slots;    /* per thread */
    hwloc_bitmap_t *masks;    /* each thread's affinity, as it found it (any number of CPUs) */
    hwloc_bitmap_t node_cpus; /* the CPUs of this node */
    int nbg_threads;
    _Atomic int bg_running;
    _Atomic int fg_remaining;
    _Atomic int go;
    _Atomic int stop;
    _Atomic int fatal;
    char fatal_msg[320];
    enum hb_master_state mstate;
};

/* The first failure of a task: its status and note (later ones are dropped). */
void hb_team_tasks_fail(struct hb_task_state *st, int err, const char *msg);

/* Allocate and lay out a task's arrays. 0 or -errno with hb_error_msg() set. */
int hb_team_tasks_alloc(struct hb_team *tm, struct hb_task_state *st);
/* Where the task's pages are; a task whose pages are elsewhere fails (unless allowed). */
void hb_team_tasks_locate(struct hb_team *tm, struct hb_task_state *st, bool allow_misplaced);
/* A task whose threads shared a CPU fails: each measured half of what it would alone. */
void hb_team_tasks_cpus_check(struct hb_team *tm, struct hb_task_state *st);
/* What the run leaves in the task's result (threads on the node, sweeps, background spans
 * and bytes, loads per sample); its arrays freed. */
void hb_team_tasks_finish(struct hb_team *tm, struct hb_task_state *st);

#endif
