/* The thread team: one OpenMP thread per CPU of a node running the tasks of an experiment
 * (omp layer): placement checks, first touch, pacing, the timed samples. */
#include "hb_team.h"
#include "hb_team_state.h"

#include "hb_error.h"
#include "hb_kernel.h"
#include "hb_spin_barrier.h"
#include "hb_timer.h"

#include <errno.h>
#include <math.h>
#include <omp.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Unpaced background load moves this much per array between checks of the stop flag. */
#define HB_BG_CHUNK_ELEMS ((size_t)1 << 17)
/* Paced load waits after every 8 lines (64 elements): the injection delay sits between small
 * groups of lines, so a low rate is a steady trickle rather than 1 MiB bursts. */
#define HB_BG_PACED_CHUNK_ELEMS ((size_t)64)

static void master_step(struct hb_team *tm)
{
    const struct hb_team_hooks *h = tm->hooks;
    switch (tm->mstate) {
    case HB_M_WAIT_BG:
        if (atomic_load(&tm->bg_running) < tm->nbg_threads) return;
        if (h) h->started(h->ctx);
        atomic_store(&tm->go, 1);
        tm->mstate = HB_M_WAIT_FG_LOCAL;
        return;
    case HB_M_WAIT_FG_LOCAL:
        if (atomic_load(&tm->fg_remaining) > 0) return;
        if (h) h->fg_done(h->ctx);
        tm->mstate = HB_M_WAIT_ALL;
        return;
    case HB_M_WAIT_ALL:
        if (h && !h->all_fg_done(h->ctx)) return;
        atomic_store(&tm->stop, 1);
        tm->mstate = HB_M_DONE;
        return;
    case HB_M_DONE:
        return;
    }
}

static void master_until(struct hb_team *tm, enum hb_master_state until)
{
    while (tm->mstate < until) {
        master_step(tm);
        if (tm->mstate < until) sched_yield();
    }
}

static void wait_flag(_Atomic int *flag)
{
    while (!atomic_load(flag))
        sched_yield();
}

static struct hb_kslice slice_of(const struct hb_task_state *st, int idx, uint64_t seed)
{
    struct hb_kslice s = {.scalar = 3.0,
                          .seed = seed + (uint64_t)idx,
                          .param = st->task->param,
                          .stride = (size_t)st->task->chase_stride,
                          .group_bytes = (size_t)st->task->chase_group_bytes,
                          .chains = st->task->chase_chains};
    size_t start = (size_t)idx * st->per_thread;
    size_t n = start < st->elements ? st->elements - start : 0;
    if (n > st->per_thread) n = st->per_thread;
    double **arr[HB_KERNEL_MAX_STREAMS] = {&s.a, &s.b, &s.c, &s.d};
    for (int i = 0; i < st->k->streams && i < HB_KERNEL_MAX_STREAMS; i++)
        *arr[i] = (double *)st->bufs[i].ptr + start;
    s.n = n;
    return s;
}

/* Record the thread's CPU and refuse to measure when it may run outside its node. */
static void thread_check(struct hb_team *tm, int tid)
{
    const struct hb_node *nd = &tm->topo->nodes[tm->node_index];
    int cpu = sched_getcpu();
    int bad_cpu = -1;
    hwloc_bitmap_t mask = tm->masks[tid], outside = hwloc_bitmap_alloc();
    /* Left empty when it cannot be read: the task's CPU check then fails it, never passes. */
    if (hwloc_get_cpubind(tm->topo->hw, mask, HWLOC_CPUBIND_THREAD) != 0) hwloc_bitmap_zero(mask);
    if (outside) {
        hwloc_bitmap_andnot(outside, mask, tm->node_cpus);
        bad_cpu = hwloc_bitmap_first(outside);
        hwloc_bitmap_free(outside);
    }
    if (!hwloc_bitmap_isset(tm->node_cpus, (unsigned)cpu)) bad_cpu = cpu;
    struct hb_slot sl = tm->slots[tid];
    if (sl.task >= 0) tm->states[sl.task].res->thread_cpus[sl.idx] = cpu;
    if (bad_cpu >= 0) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&tm->fatal, &expected, 1))
            snprintf(tm->fatal_msg, sizeof(tm->fatal_msg),
                     "thread %d runs on CPU %d (may run on CPU %d), outside node %d (CPUs %d-%d); "
                     "bind threads with OMP_PLACES=cores OMP_PROC_BIND=close and one rank per "
                     "node (--bind-to numa)",
                     tid, cpu, bad_cpu, nd->os_index, nd->cpus[0], nd->cpus[nd->ncpus - 1]);
    }
}

/* Background threads paced to a fraction of their own unpaced rate first run unpaced this
 * long, then count as started: the foreground only begins once every pace is set. */
#define HB_BG_CALIBRATE_S 0.02

static void run_background(struct hb_team *tm, struct hb_task_state *st, int idx, int tid)
{
    struct hb_kslice whole = slice_of(st, idx, tm->e->seed);
    double fraction = st->task->bg_fraction;
    double rate = st->task->bg_rate_GBps * 1e9;
    double bytes = 0.0, t0 = hb_timer_now();
    size_t off = 0, chunk = rate > 0.0 ? HB_BG_PACED_CHUNK_ELEMS : HB_BG_CHUNK_ELEMS;
    bool calibrating = fraction > 0.0;
    if (!calibrating) atomic_fetch_add(&tm->bg_running, 1);
    while (!atomic_load(&tm->stop)) {
        struct hb_kslice s = whole;
        if (whole.n > 0) {
            size_t n = whole.n - off < chunk ? whole.n - off : chunk;
            if (s.a) s.a += off;
            if (s.b) s.b += off;
            if (s.c) s.c += off;
            if (s.d) s.d += off;
            s.n = n;
            st->k->run(&s, 1);
            bytes += hb_kernel_registry_bytes(st->k, n, 1);
            off = off + n >= whole.n ? 0 : off + n;
        }
        if (calibrating && hb_timer_now() - t0 >= HB_BG_CALIBRATE_S) {
            double now = hb_timer_now();
            rate = fraction * bytes / (now - t0);
            chunk = HB_BG_PACED_CHUNK_ELEMS;
            calibrating = false;
            bytes = 0.0;
            t0 = now;
            atomic_fetch_add(&tm->bg_running, 1);
        }
        /* Pace: hold back until the target rate is met (injection delay). */
        while (rate > 0.0 && !calibrating && hb_timer_now() - t0 < bytes / rate &&
               !atomic_load(&tm->stop))
            if (tid == 0) master_step(tm);
        if (tid == 0) master_step(tm);
    }
    st->bg_bytes[idx] = bytes;
    st->bg_start[idx] = t0;
    st->bg_end[idx] = hb_timer_now();
    st->bg_target[idx] = rate;
}

static void run_foreground(struct hb_team *tm, struct hb_task_state *st, int idx)
{
    const struct hb_experiment *e = tm->e;
    struct hb_kslice s = slice_of(st, idx, e->seed);
    int sense = 0;
    double r = 0.0;

    double want = hb_timer_min_sample(e->min_time_s);
    if (idx == 0) {
        st->warm_batch = 1;
        st->warm_sweeps = 0;
    }
    /* Warm-up: batches of 1, 2, 4... sweeps until one lasts HB_WARM_SHARE of --min-time, which
     * then sizes the samples: one cold sweep of a small set is mostly the barrier and its
     * misses (a 4 KiB chase's samples came out at 3 ms of 50). */
    for (;;) {
        hb_spin_barrier_wait(&st->bar, &sense); /* thread 0's word on the batch, to all */
        uint64_t batch = st->warm_batch;
        if (!batch) break;
        double t0 = hb_timer_now();
        r = st->k->run(&s, batch);
        hb_spin_barrier_wait(&st->bar, &sense);
        if (idx == 0) {
            double t = hb_timer_now() - t0, n = t > 0.0 ? ceil(want / (t / (double)batch)) : 1.0;
            st->warm_sweeps += batch;
            st->sweeps = n < 1.0 ? 1 : n > (double)(UINT64_MAX / 4) ? UINT64_MAX / 4 : (uint64_t)n;
            st->warm_batch = t >= want * HB_WARM_SHARE || st->sweeps <= batch ? 0 : 2 * batch;
        }
    }
    uint64_t sweeps = st->sweeps;
    for (int rep = 0; rep < e->reps; rep++) {
        hb_spin_barrier_wait(&st->bar, &sense);
        double ts = hb_timer_now();
        r = st->k->run(&s, sweeps);
        hb_spin_barrier_wait(&st->bar, &sense);
        if (idx == 0) {
            double te = hb_timer_now();
            st->res->samples[rep] = te - ts;
            if (rep == 0) st->res->t_start = ts;
            st->res->t_end = te;
        }
    }
    if (st->k->check(&s, r, st->warm_sweeps + (uint64_t)e->reps * sweeps) != 0)
        hb_team_tasks_fail(st, -HB_EVALIDATE, hb_error_msg());
}

/* Fault a slice's whole pages in with one call per array (MADV_POPULATE_WRITE, Linux 5.14):
 * they land where this thread's first touch would put them (the same thread, the same memory
 * policy, still verified afterwards), about twice as fast as a fault per page on a virtual
 * machine, and every repeat allocates anew. The kernel's init still writes every element, so
 * an older kernel that refuses the advice only loses the speed. */
static void populate(const struct hb_kslice *s)
{
#ifdef MADV_POPULATE_WRITE
    double *arrays[4] = {s->a, s->b, s->c, s->d};
    long page = sysconf(_SC_PAGESIZE);
    for (int i = 0; i < 4 && page > 0 && s->n; i++) {
        if (!arrays[i]) continue;
        uintptr_t lo = ((uintptr_t)arrays[i] + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
        uintptr_t hi = (uintptr_t)(arrays[i] + s->n) & ~((uintptr_t)page - 1);
        if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
    }
#else
    (void)s;
#endif
}

static void thread_body(struct hb_team *tm, int tid)
{
    struct hb_slot sl = tm->slots[tid];
    struct hb_task_state *st = sl.task >= 0 ? &tm->states[sl.task] : NULL;

    thread_check(tm, tid);
    /* Policy "os": one thread initialises everything, as a serial init loop would, and the
     * kernel places the pages where it likes; otherwise each thread touches its own slice. */
    bool master_touch = st && st->task->touch_master;
    for (int j = sl.idx; st && (master_touch ? sl.idx == 0 && j < st->task->threads : j == sl.idx);
         j++) {
        struct hb_kslice s = slice_of(st, j, tm->e->seed);
        populate(&s);
        if (st->k->init(&s) != 0) hb_team_tasks_fail(st, -HB_EVALIDATE, hb_error_msg());
    }
#pragma omp barrier
    if (atomic_load(&tm->fatal)) return;
    bool bg = st && st->task->role == HB_ROLE_BG;
    if (bg) {
        run_background(tm, st, sl.idx, tid);
    } else if (st) {
        if (tid == 0)
            master_until(tm, HB_M_WAIT_FG_LOCAL);
        else
            wait_flag(&tm->go);
        run_foreground(tm, st, sl.idx);
        atomic_fetch_sub(&tm->fg_remaining, 1);
    }
    if (tid == 0) master_until(tm, HB_M_DONE);
}

static int team_prepare(struct hb_team *tm, struct hb_task_result *results)
{
    const struct hb_experiment *e = tm->e;
    const struct hb_node *nd = &tm->topo->nodes[tm->node_index];
    /* Thread 0 is the master even when the node runs nothing. */
    tm->nslots = nd->ncpus > 0 ? nd->ncpus : 1;
    tm->slots = calloc((size_t)tm->nslots, sizeof(*tm->slots));
    tm->masks = calloc((size_t)tm->nslots, sizeof(*tm->masks));
    tm->states = calloc((size_t)(e->ntasks ? e->ntasks : 1), sizeof(*tm->states));
    tm->node_cpus = hwloc_bitmap_alloc();
    bool ok = tm->slots && tm->masks && tm->states && tm->node_cpus;
    for (int i = 0; ok && i < tm->nslots; i++)
        ok = (tm->masks[i] = hwloc_bitmap_alloc()) != NULL;
    if (!ok) {
        hb_error_set("out of memory for a team of %d threads and %d tasks", tm->nslots, e->ntasks);
        return -ENOMEM;
    }
    for (int k = 0; k < nd->ncpus; k++)
        hwloc_bitmap_set(tm->node_cpus, (unsigned)nd->cpus[k]);
    for (int i = 0; i < tm->nslots; i++)
        tm->slots[i] = (struct hb_slot){-1, 0};
    for (int i = 0; i < e->ntasks; i++) {
        const struct hb_task *task = &e->tasks[i];
        if (task->cpu_node != nd->os_index) continue;
        int si = tm->nstates;
        struct hb_task_state *st = &tm->states[si];
        st->task = task;
        st->res = &results[i];
        int end = task->first_thread + task->threads;
        if (task->threads < 1 || task->first_thread < 0 || end > nd->ncpus) {
            hb_error_set("task %s needs threads %d-%d on node %d, which has %d CPUs", task->label,
                         task->first_thread, end - 1, nd->os_index, nd->ncpus);
            return -EINVAL;
        }
        if (hb_result_task_init(st->res, tm->topo->nnodes, task->threads) != 0) return -ENOMEM;
        st->res->ran = 1;
        tm->nstates++; /* from here its buffers are the team's to free */
        st->k = hb_kernel_registry_find(task->kernel);
        if (!st->k) return -EINVAL;
        size_t nt = (size_t)task->threads;
        st->bg_bytes = calloc(nt, sizeof(double));
        st->bg_start = calloc(nt, sizeof(double));
        st->bg_end = calloc(nt, sizeof(double));
        st->bg_target = calloc(nt, sizeof(double));
        if (!st->bg_bytes || !st->bg_start || !st->bg_end || !st->bg_target) {
            hb_error_set("out of memory for the %d threads of task %s", task->threads, task->label);
            return -ENOMEM;
        }
        for (int j = 0; j < task->threads; j++) {
            if (tm->slots[task->first_thread + j].task >= 0) {
                hb_error_set("tasks overlap on thread %d of node %d", task->first_thread + j,
                             nd->os_index);
                return -EINVAL;
            }
            tm->slots[task->first_thread + j] = (struct hb_slot){si, j};
        }
        if (end > tm->nthreads) tm->nthreads = end;
        if (task->role == HB_ROLE_BG)
            tm->nbg_threads += task->threads;
        else
            tm->fg_remaining += task->threads;
        hb_spin_barrier_init(&st->bar, task->threads);
    }
    if (tm->nthreads == 0) tm->nthreads = 1; /* the master still takes part in the protocol */
    return 0;
}

int hb_team_run(const struct hb_topo *t, const struct hb_experiment *e, int node,
                bool allow_misplaced, const struct hb_team_hooks *hooks,
                struct hb_task_result *results)
{
    struct hb_team *tm = calloc(1, sizeof(*tm));
    if (!tm) return -ENOMEM;
    tm->topo = t;
    tm->e = e;
    tm->hooks = hooks;
    tm->node_index = hb_topo_nodes_index(t, node);
    double t_begin = hb_timer_now();
    int rc = -EINVAL;
    if (tm->node_index < 0 || e->reps < 1 || e->reps > HB_MAX_REPS) {
        hb_error_set("experiment %s: node %d unknown or reps %d outside 1-%d", e->name, node,
                     e->reps, HB_MAX_REPS);
        goto out;
    }
    rc = team_prepare(tm, results);
    for (int i = 0; rc == 0 && i < tm->nstates; i++)
        rc = hb_team_tasks_alloc(tm, &tm->states[i]);
    if (rc) goto out;

#pragma omp parallel num_threads(tm->nthreads) proc_bind(close)
    {
        int tid = omp_get_thread_num();
        if (omp_get_num_threads() != tm->nthreads) {
#pragma omp single
            {
                atomic_store(&tm->fatal, 1);
                snprintf(tm->fatal_msg, sizeof(tm->fatal_msg),
                         "OpenMP gave %d threads, %d needed (OMP_THREAD_LIMIT or OMP_DYNAMIC?)",
                         omp_get_num_threads(), tm->nthreads);
            }
        } else {
            thread_body(tm, tid);
        }
    }
    if (atomic_load(&tm->fatal)) {
        hb_error_set("%s", tm->fatal_msg);
        rc = -HB_EENV;
    }
    for (int i = 0; i < tm->nstates; i++) {
        if (rc == 0) hb_team_tasks_cpus_check(tm, &tm->states[i]);
        if (rc == 0) hb_team_tasks_locate(tm, &tm->states[i], allow_misplaced);
        hb_team_tasks_finish(tm, &tm->states[i]);
        tm->states[i].res->elapsed_s = hb_timer_now() - t_begin;
    }
out:
    for (int i = 0; i < tm->nstates; i++) {
        struct hb_task_state *st = &tm->states[i];
        for (int b = 0; rc && b < 3; b++)
            hb_placement_buf_free(&st->bufs[b]);
        free(st->bg_bytes);
        free(st->bg_start);
        free(st->bg_end);
        free(st->bg_target);
    }
    free(tm->states);
    free(tm->slots);
    for (int i = 0; tm->masks && i < tm->nslots; i++)
        hwloc_bitmap_free(tm->masks[i]);
    free(tm->masks);
    hwloc_bitmap_free(tm->node_cpus);
    free(tm);
    return rc;
}
