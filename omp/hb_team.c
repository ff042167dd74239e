#include "hb_team.h"

#include "hb_error.h"
#include "hb_kernel.h"
#include "hb_spin_barrier.h"
#include "hb_timer.h"

#include <errno.h>
#include <math.h>
#include <omp.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Unpaced background load moves this much per array between checks of the stop flag. */
#define HB_BG_CHUNK_ELEMS ((size_t)1 << 17)
/* Paced load waits after every 8 lines (64 elements): the injection delay sits between small
 * groups of lines, so a low rate is a steady trickle rather than 1 MiB bursts. */
#define HB_BG_PACED_CHUNK_ELEMS ((size_t)64)
/* Thread slices start on 4 KiB boundaries so first touch puts each thread's pages apart. */
#define HB_SLICE_ALIGN_ELEMS 512

struct hb_task_state {
    const struct hb_task *task;
    const struct hb_kernel *k;
    struct hb_task_result *res;
    struct hb_buf bufs[3];
    size_t elements; /* per array */
    size_t per_thread;
    struct hb_spin_barrier bar;
    uint64_t sweeps;
    double warm_s;
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

static void hb_master_step(struct hb_team *tm)
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

static void hb_master_until(struct hb_team *tm, enum hb_master_state until)
{
    while (tm->mstate < until) {
        hb_master_step(tm);
        if (tm->mstate < until) sched_yield();
    }
}

static void hb_wait_flag(_Atomic int *flag)
{
    while (!atomic_load(flag))
        sched_yield();
}

static struct hb_kslice hb_slice_of(const struct hb_task_state *st, int idx, uint64_t seed)
{
    struct hb_kslice s = {.scalar = 3.0,
                          .seed = seed + (uint64_t)idx,
                          .param = st->task->param,
                          .stride = (size_t)st->task->chase_stride,
                          .group_bytes = (size_t)st->task->chase_group_bytes};
    size_t start = (size_t)idx * st->per_thread;
    size_t n = start < st->elements ? st->elements - start : 0;
    if (n > st->per_thread) n = st->per_thread;
    double **arr[3] = {&s.a, &s.b, &s.c};
    for (int i = 0; i < st->k->streams && i < 3; i++)
        *arr[i] = (double *)st->bufs[i].ptr + start;
    s.n = n;
    return s;
}

static void hb_task_fail(struct hb_task_state *st, int err, const char *msg)
{
    int expected = 0;
    if (atomic_compare_exchange_strong(&st->failed, &expected, 1)) {
        st->res->status = err;
        snprintf(st->res->note, sizeof(st->res->note), "%s", msg);
    }
}

/* Record the thread's CPU and refuse to measure when it may run outside its node. */
static void hb_thread_check(struct hb_team *tm, int tid)
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

static void hb_run_background(struct hb_team *tm, struct hb_task_state *st, int idx, int tid)
{
    struct hb_kslice whole = hb_slice_of(st, idx, tm->e->seed);
    double fraction = st->task->bg_fraction;
    double rate = st->task->bg_rate_GBps * 1e9;
    double bytes = 0.0, t0 = hb_now();
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
            s.n = n;
            st->k->run(&s, 1);
            bytes += hb_kernel_bytes(st->k, n, 1);
            off = off + n >= whole.n ? 0 : off + n;
        }
        if (calibrating && hb_now() - t0 >= HB_BG_CALIBRATE_S) {
            double now = hb_now();
            rate = fraction * bytes / (now - t0);
            chunk = HB_BG_PACED_CHUNK_ELEMS;
            calibrating = false;
            bytes = 0.0;
            t0 = now;
            atomic_fetch_add(&tm->bg_running, 1);
        }
        /* Pace: hold back until the target rate is met (injection delay). */
        while (rate > 0.0 && !calibrating && hb_now() - t0 < bytes / rate &&
               !atomic_load(&tm->stop))
            if (tid == 0) hb_master_step(tm);
        if (tid == 0) hb_master_step(tm);
    }
    st->bg_bytes[idx] = bytes;
    st->bg_start[idx] = t0;
    st->bg_end[idx] = hb_now();
    st->bg_target[idx] = rate;
}

static void hb_run_foreground(struct hb_team *tm, struct hb_task_state *st, int idx)
{
    const struct hb_experiment *e = tm->e;
    struct hb_kslice s = hb_slice_of(st, idx, e->seed);
    int sense = 0;
    double r = 0.0;

    hb_spin_barrier_wait(&st->bar, &sense);
    double t0 = hb_now();
    r = st->k->run(&s, 1);
    hb_spin_barrier_wait(&st->bar, &sense);
    if (idx == 0) {
        st->warm_s = hb_now() - t0;
        double want = hb_timer_min_sample(e->min_time_s);
        double n = st->warm_s > 0.0 ? ceil(want / st->warm_s) : 1.0;
        st->sweeps = n < 1.0 ? 1 : (uint64_t)n;
    }
    hb_spin_barrier_wait(&st->bar, &sense);
    uint64_t sweeps = st->sweeps;
    for (int rep = 0; rep < e->reps; rep++) {
        hb_spin_barrier_wait(&st->bar, &sense);
        double ts = hb_now();
        r = st->k->run(&s, sweeps);
        hb_spin_barrier_wait(&st->bar, &sense);
        if (idx == 0) {
            double te = hb_now();
            st->res->samples[rep] = te - ts;
            if (rep == 0) st->res->t_start = ts;
            st->res->t_end = te;
        }
    }
    if (st->k->check(&s, r, 1 + (uint64_t)e->reps * sweeps) != 0)
        hb_task_fail(st, -HB_EVALIDATE, hb_err_msg());
}

static void hb_thread_body(struct hb_team *tm, int tid)
{
    struct hb_slot sl = tm->slots[tid];
    struct hb_task_state *st = sl.task >= 0 ? &tm->states[sl.task] : NULL;

    hb_thread_check(tm, tid);
    /* Policy "os": one thread initialises everything, as a serial init loop would, and the
     * kernel places the pages where it likes; otherwise each thread touches its own slice. */
    bool master_touch = st && st->task->touch_master;
    for (int j = sl.idx; st && (master_touch ? sl.idx == 0 && j < st->task->threads : j == sl.idx);
         j++) {
        struct hb_kslice s = hb_slice_of(st, j, tm->e->seed);
        if (st->k->init(&s) != 0) hb_task_fail(st, -HB_EVALIDATE, hb_err_msg());
    }
#pragma omp barrier
    if (atomic_load(&tm->fatal)) return;
    bool bg = st && st->task->role == HB_ROLE_BG;
    if (bg) {
        hb_run_background(tm, st, sl.idx, tid);
    } else if (st) {
        if (tid == 0)
            hb_master_until(tm, HB_M_WAIT_FG_LOCAL);
        else
            hb_wait_flag(&tm->go);
        hb_run_foreground(tm, st, sl.idx);
        atomic_fetch_sub(&tm->fg_remaining, 1);
    }
    if (tid == 0) hb_master_until(tm, HB_M_DONE);
}

static int hb_team_prepare(struct hb_team *tm, struct hb_task_result *results)
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
        hb_err_set("out of memory for a team of %d threads and %d tasks", tm->nslots, e->ntasks);
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
            hb_err_set("task %s needs threads %d-%d on node %d, which has %d CPUs", task->label,
                       task->first_thread, end - 1, nd->os_index, nd->ncpus);
            return -EINVAL;
        }
        if (hb_task_result_init(st->res, tm->topo->nnodes, task->threads) != 0) return -ENOMEM;
        st->res->ran = 1;
        tm->nstates++; /* from here its buffers are the team's to free */
        st->k = hb_kernel_find(task->kernel);
        if (!st->k) return -EINVAL;
        size_t nt = (size_t)task->threads;
        st->bg_bytes = calloc(nt, sizeof(double));
        st->bg_start = calloc(nt, sizeof(double));
        st->bg_end = calloc(nt, sizeof(double));
        st->bg_target = calloc(nt, sizeof(double));
        if (!st->bg_bytes || !st->bg_start || !st->bg_end || !st->bg_target) {
            hb_err_set("out of memory for the %d threads of task %s", task->threads, task->label);
            return -ENOMEM;
        }
        for (int j = 0; j < task->threads; j++) {
            if (tm->slots[task->first_thread + j].task >= 0) {
                hb_err_set("tasks overlap on thread %d of node %d", task->first_thread + j,
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

/* How the team lays a task out: elements per array (whole cache lines, so the chase and
 * every SIMD path see the same data) and per thread (aligned slices). Refuses a size that
 * leaves an array or a thread without data, or a slice the kernel cannot take. Shared by the
 * plan check and the run. */
static int hb_task_geometry(const struct hb_task *task, const struct hb_kernel *k, size_t *elements,
                            size_t *per_thread)
{
    *elements = (size_t)(task->bytes / (uint64_t)k->streams / 8) & ~(size_t)7;
    if (*elements == 0) {
        hb_err_set("size %llu bytes is too small for kernel %s: it needs at least %d bytes "
                   "(64 per array)",
                   (unsigned long long)task->bytes, k->name, 64 * k->streams);
        return -EINVAL;
    }
    size_t per = (*elements + (size_t)task->threads - 1) / (size_t)task->threads;
    *per_thread = (per + HB_SLICE_ALIGN_ELEMS - 1) / HB_SLICE_ALIGN_ELEMS * HB_SLICE_ALIGN_ELEMS;
    if (*per_thread * (size_t)(task->threads - 1) >= *elements) {
        hb_err_set("size %llu bytes is too small for %d threads of kernel %s: slices are %zu "
                   "bytes per array, so it needs more than %llu bytes",
                   (unsigned long long)task->bytes, task->threads, k->name, *per_thread * 8,
                   (unsigned long long)(*per_thread * 8 * (size_t)(task->threads - 1) *
                                        (size_t)k->streams));
        return -EINVAL;
    }
    /* The kernel's own minimum (dgemm: one whole product; chase: one stride) for the first
     * slice and the last, which holds the rest and may be smaller: what init would refuse. */
    size_t first = *per_thread < *elements ? *per_thread : *elements;
    size_t last = *elements - *per_thread * (size_t)(task->threads - 1);
    for (int i = 0; k->fits && i < 2; i++) {
        struct hb_kslice s = {.n = i ? last : first,
                              .param = task->param,
                              .stride = (size_t)task->chase_stride,
                              .group_bytes = (size_t)task->chase_group_bytes};
        int rc = k->fits(&s);
        if (rc) return rc;
    }
    return 0;
}

int hb_plan_check(const struct hb_topo *t, const struct hb_plan *plan)
{
    for (int x = 0; x < plan->n; x++) {
        const struct hb_experiment *e = &plan->exps[x];
        if (e->reps < 1 || e->reps > HB_MAX_REPS) {
            hb_err_set("experiment %s: reps %d outside 1-%d", e->name, e->reps, HB_MAX_REPS);
            return -EINVAL;
        }
        for (int i = 0; i < e->ntasks; i++) {
            const struct hb_task *a = &e->tasks[i];
            const struct hb_kernel *k = hb_kernel_find(a->kernel);
            int ni = hb_topo_node_index(t, a->cpu_node);
            int end = a->first_thread + a->threads;
            size_t elements, per;
            if (!k || ni < 0) return -EINVAL; /* the suites name only known kernels, nodes */
            if (a->threads < 1 || a->first_thread < 0 || end > t->nodes[ni].ncpus) {
                hb_err_set("experiment %s: task %s needs threads %d-%d on node %d, which has "
                           "%d CPUs",
                           e->name, a->label, a->first_thread, end - 1, a->cpu_node,
                           t->nodes[ni].ncpus);
                return -EINVAL;
            }
            int rc = hb_task_geometry(a, k, &elements, &per);
            if (rc) return rc;
            for (int j = 0; j < i; j++) {
                const struct hb_task *b = &e->tasks[j];
                int lo = a->first_thread > b->first_thread ? a->first_thread : b->first_thread;
                if (b->cpu_node == a->cpu_node && lo < end && lo < b->first_thread + b->threads) {
                    hb_err_set("experiment %s: tasks %s and %s overlap on thread %d of node %d",
                               e->name, b->label, a->label, lo, a->cpu_node);
                    return -EINVAL;
                }
            }
        }
    }
    return 0;
}

static int hb_task_alloc(struct hb_team *tm, struct hb_task_state *st)
{
    const struct hb_task *task = st->task;
    int rc = hb_task_geometry(task, st->k, &st->elements, &st->per_thread);
    if (rc) return rc;
    int *nodes = NULL;
    int nn = hb_task_mem_nodes(task, &nodes);
    if (nn < 0) return nn;
    for (int i = 0; rc == 0 && i < st->k->streams; i++)
        rc = hb_buf_alloc(tm->topo, st->elements * sizeof(double), task->policy, nn ? nodes : NULL,
                          nn, task->pages, &st->bufs[i]);
    free(nodes);
    st->res->elements = st->elements;
    return rc;
}

static void hb_task_locate(struct hb_team *tm, struct hb_task_state *st, bool allow_misplaced)
{
    const struct hb_task *task = st->task;
    /* Pages belong on the task's memory nodes; plain first touch puts them on the threads'
     * node. First touch with a node set (policy "os") accepts any node of the set: where the
     * pages land is what it measures. */
    int *expect = NULL;
    int ne = hb_task_mem_nodes(task, &expect);
    if (ne < 0) {
        hb_task_fail(st, ne, hb_err_msg());
        return;
    }
    if (ne == 0) expect[ne++] = task->cpu_node; /* room for one is always there */
    struct hb_task_result *res = st->res;
    memset(res->pages_on_node, 0, sizeof(*res->pages_on_node) * (size_t)res->npages_nodes);
    res->pages_checked = 0;
    uint64_t on_target = 0;
    for (int i = 0; i < st->k->streams; i++) {
        struct hb_pageloc pl;
        if (hb_buf_locate(tm->topo, &st->bufs[i], expect, ne, &pl) != 0) {
            hb_task_fail(st, -HB_EPLACEMENT, hb_err_msg());
            free(expect);
            return;
        }
        res->pages_checked += pl.checked;
        on_target += (uint64_t)llround(pl.on_target_pct / 100.0 * (double)pl.checked);
        for (int n = 0; n < res->npages_nodes && n < pl.nnodes; n++)
            res->pages_on_node[n] += pl.on_node[n];
        hb_pageloc_free(&pl);
    }
    free(expect);
    double pct = res->pages_checked ? 100.0 * (double)on_target / (double)res->pages_checked : 0.0;
    res->pages_on_target_pct = pct;
    if (pct < 100.0 && !allow_misplaced) {
        char msg[200];
        snprintf(msg, sizeof(msg),
                 "only %.2f%% of %llu pages on the target (%s); rerun with --allow-misplaced to "
                 "measure anyway",
                 pct, (unsigned long long)res->pages_checked, task->label);
        hb_task_fail(st, -HB_EPLACEMENT, msg);
    }
}

/* Two threads of one task on one CPU halve what each measures: a placement failure, found
 * from their affinity (both pinned to the same single CPU, or fewer CPUs allowed than
 * threads), never a silent "ok". */
static void hb_task_cpus_check(struct hb_team *tm, struct hb_task_state *st)
{
    const struct hb_task *task = st->task;
    hwloc_bitmap_t all = hwloc_bitmap_alloc();
    if (!all) {
        hb_task_fail(st, -HB_EENV, "out of memory checking where the threads ran");
        return;
    }
    int t0 = -1, t1 = -1;
    for (int j = 0; j < task->threads; j++) {
        hwloc_const_bitmap_t mj = tm->masks[task->first_thread + j];
        hwloc_bitmap_or(all, all, mj);
        for (int k = 0; k < j && t0 < 0; k++) {
            hwloc_const_bitmap_t mk = tm->masks[task->first_thread + k];
            if (hwloc_bitmap_weight(mj) == 1 && hwloc_bitmap_isequal(mj, mk)) t0 = k, t1 = j;
        }
    }
    int nall = hwloc_bitmap_weight(all);
    hwloc_bitmap_free(all);
    char msg[256];
    if (t0 >= 0) {
        snprintf(msg, sizeof(msg),
                 "threads %d and %d of task %s are both bound to CPU %d only; bind one thread "
                 "per CPU (OMP_PLACES=cores OMP_PROC_BIND=close)",
                 t0, t1, task->label, st->res->thread_cpus[t0]);
    } else if (nall < task->threads) {
        snprintf(msg, sizeof(msg),
                 "the %d threads of task %s may only run on %d CPUs, so some share one; bind one "
                 "thread per CPU (OMP_PLACES=cores OMP_PROC_BIND=close)",
                 task->threads, task->label, nall);
    } else {
        return;
    }
    hb_task_fail(st, -HB_EPLACEMENT, msg);
}

static void hb_task_finish(struct hb_team *tm, struct hb_task_state *st)
{
    struct hb_task_result *res = st->res;
    const struct hb_task *task = st->task;
    int on_node = 0;
    for (int j = 0; j < task->threads; j++)
        on_node += hb_topo_node_of_cpu(tm->topo, res->thread_cpus[j]) == tm->node_index;
    res->threads_on_node = on_node;
    res->sweeps_per_sample = st->sweeps;
    if (task->role == HB_ROLE_BG) {
        res->t_start = st->bg_start[0];
        res->t_end = st->bg_end[0];
        for (int j = 0; j < task->threads; j++) {
            res->bg_bytes += st->bg_bytes[j];
            res->bg_target_GBps += st->bg_target[j] / 1e9;
            if (st->bg_start[j] > res->t_start) res->t_start = st->bg_start[j];
            if (st->bg_end[j] < res->t_end) res->t_end = st->bg_end[j];
        }
    } else {
        res->nsamples = tm->e->reps;
        res->bytes_per_sample = hb_kernel_bytes(st->k, st->elements, st->sweeps);
        res->bytes_wa_per_sample = hb_kernel_bytes_wa_model(st->k, st->elements, st->sweeps);
        /* Threads chase side by side: latency is a sample's time over one thread's loads. */
        size_t mine = st->per_thread < st->elements ? st->per_thread : st->elements;
        res->loads_per_sample = hb_kernel_loads(st->k, mine, st->sweeps, task->chase_stride);
    }
    for (int i = 0; i < st->k->streams; i++)
        hb_buf_free(&st->bufs[i]);
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
    tm->node_index = hb_topo_node_index(t, node);
    double t_begin = hb_now();
    int rc = -EINVAL;
    if (tm->node_index < 0 || e->reps < 1 || e->reps > HB_MAX_REPS) {
        hb_err_set("experiment %s: node %d unknown or reps %d outside 1-%d", e->name, node, e->reps,
                   HB_MAX_REPS);
        goto out;
    }
    rc = hb_team_prepare(tm, results);
    for (int i = 0; rc == 0 && i < tm->nstates; i++)
        rc = hb_task_alloc(tm, &tm->states[i]);
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
            hb_thread_body(tm, tid);
        }
    }
    if (atomic_load(&tm->fatal)) {
        hb_err_set("%s", tm->fatal_msg);
        rc = -HB_EENV;
    }
    for (int i = 0; i < tm->nstates; i++) {
        if (rc == 0) hb_task_cpus_check(tm, &tm->states[i]);
        if (rc == 0) hb_task_locate(tm, &tm->states[i], allow_misplaced);
        hb_task_finish(tm, &tm->states[i]);
        tm->states[i].res->elapsed_s = hb_now() - t_begin;
    }
out:
    for (int i = 0; i < tm->nstates; i++) {
        struct hb_task_state *st = &tm->states[i];
        for (int b = 0; rc && b < 3; b++)
            hb_buf_free(&st->bufs[b]);
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
