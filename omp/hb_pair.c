/* The pinned pair: two threads bound to chosen CPUs, released together, each timing its
 * side of a sample; what they do with the shared buffer depends on the kernel's kind. */
#include "hb_pair.h"

#include "hb_balance.h"
#include "hb_error.h"
#include "hb_migrate.h"
#include "hb_placement.h"
#include "hb_stats.h"
#include "hb_timer.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The padded layout keeps the two counters 128 bytes apart: the adjacent-line prefetcher
 * pulls cache lines in 128-byte pairs on x86, so 64 bytes would still share a little. */
#define HB_C2C_PAD 128
/* Least iterations per sample. The pilot that calibrates the count to --min-time doubles
 * from there until one lasts this share of it: a short one is all thread start-up (the
 * padded counters' samples came out at half --min-time) or runs before the other thread
 * contends (the shared ones' at five times). */
#define HB_C2C_MIN_ITERS 1000
#define HB_C2C_PILOT_SHARE 0.1

enum hb_c2c_kind { HB_C2C_PINGPONG, HB_C2C_FS_SHARED, HB_C2C_FS_PADDED, HB_C2C_SPIN, HB_C2C_MUTEX };

/* What the lock hand-off studies share; lives in the bound buffer. `turn` and `count` are
 * plain: the lock orders them, which is what the study exercises. */
struct hb_c2c_lockdata {
    atomic_flag flag;
    pthread_mutex_t mutex;
    int turn;
    uint64_t count;
};

/* The pair kernels: the least buffer each needs, and what a sample counts per iteration
 * (the record's lat_ns_* is time per event). */
static const struct hb_pair_kernel {
    const char *name;
    enum hb_c2c_kind kind;
    size_t bytes;
    double events;
} pair_kernels[] = {
    /* One line passed back and forth; one way is half a round trip: two per iteration. */
    {"pingpong", HB_C2C_PINGPONG, 64, 2.0},
    /* Each thread increments its own counter, both in one line, then 128 bytes apart. */
    {"fs_shared", HB_C2C_FS_SHARED, 2 * HB_C2C_PAD, 1.0},
    {"fs_padded", HB_C2C_FS_PADDED, 2 * HB_C2C_PAD, 1.0},
    /* A lock passed in strict alternation: a hand-off per thread per iteration. */
    {"spinlock", HB_C2C_SPIN, sizeof(struct hb_c2c_lockdata), 2.0},
    {"mutex", HB_C2C_MUTEX, sizeof(struct hb_c2c_lockdata), 2.0},
};
#define HB_PAIR_NKERNELS ((int)(sizeof(pair_kernels) / sizeof(pair_kernels[0])))

/* The pair kernel with this name, or NULL. */
static const struct hb_pair_kernel *pair_kernel_find(const char *name)
{
    for (int i = 0; i < HB_PAIR_NKERNELS; i++)
        if (strcmp(pair_kernels[i].name, name) == 0) return &pair_kernels[i];
    return NULL;
}

struct hb_c2c_pair {
    const struct hb_topo *t;
    enum hb_c2c_kind kind;
    int cpu[2];
    int bind_err[2]; /* errno of a failed bind, or -1 when the thread ran elsewhere */
    int ran_on[2];   /* the CPU each thread found itself on once bound */
    pthread_barrier_t barrier;
    atomic_int go; /* 1 once both threads exist, -1 when the second could not be started */
    char *mem;
    size_t bytes; /* of mem: the plan's, at least the kernel's */
    uint64_t n;   /* iterations per sample per thread */
    int samples;  /* warm-up included */
    double *t_s;  /* samples x 2: each thread's time per sample */
};

static inline void c2c_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void c2c_body(struct hb_c2c_pair *p, int who)
{
    uint64_t v = 0;
    _Atomic uint64_t *line = (_Atomic uint64_t *)p->mem;
    volatile uint64_t *mine =
        (volatile uint64_t *)(p->mem +
                              (p->kind == HB_C2C_FS_PADDED ? HB_C2C_PAD : sizeof(uint64_t)) * who);
    struct hb_c2c_lockdata *ld = (struct hb_c2c_lockdata *)p->mem;
    for (int s = 0; s < p->samples; s++) {
        /* Ping-pong paces itself through the line; the others start each sample together. */
        if (p->kind != HB_C2C_PINGPONG) pthread_barrier_wait(&p->barrier);
        double t0 = hb_timer_now();
        switch (p->kind) {
        case HB_C2C_PINGPONG:
            for (uint64_t i = 0; i < p->n; i++) {
                if (who == 0) {
                    atomic_store_explicit(line, ++v, memory_order_release);
                    ++v;
                    while (atomic_load_explicit(line, memory_order_acquire) != v)
                        c2c_relax();
                } else {
                    ++v;
                    while (atomic_load_explicit(line, memory_order_acquire) != v)
                        c2c_relax();
                    atomic_store_explicit(line, ++v, memory_order_release);
                }
            }
            break;
        case HB_C2C_FS_SHARED:
        case HB_C2C_FS_PADDED:
            /* A volatile load + store per increment, not a locked RMW: each counter has one
             * writer, and the cost measured should be the line moving, not the lock prefix. */
            for (uint64_t i = 0; i < p->n; i++)
                *mine = *mine + 1;
            break;
        case HB_C2C_SPIN:
        case HB_C2C_MUTEX:
            /* Strict alternation: a thread counts a hand-off only on its turn, so each sample
             * is exactly 2n hand-offs whoever wins the lock in between. */
            for (uint64_t done = 0; done < p->n;) {
                if (p->kind == HB_C2C_SPIN)
                    while (atomic_flag_test_and_set_explicit(&ld->flag, memory_order_acquire))
                        c2c_relax();
                else
                    pthread_mutex_lock(&ld->mutex);
                if (ld->turn == who) {
                    ld->count++;
                    ld->turn = 1 - who;
                    done++;
                }
                if (p->kind == HB_C2C_SPIN)
                    atomic_flag_clear_explicit(&ld->flag, memory_order_release);
                else
                    pthread_mutex_unlock(&ld->mutex);
            }
            break;
        }
        p->t_s[2 * s + who] = hb_timer_now() - t0;
    }
}

struct hb_c2c_thread {
    struct hb_c2c_pair *p;
    int who;
};

static void *c2c_thread_main(void *arg)
{
    struct hb_c2c_thread *th = arg;
    struct hb_c2c_pair *p = th->p;
    int go;
    while ((go = atomic_load(&p->go)) == 0)
        sched_yield();
    if (go < 0) return NULL;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    hwloc_bitmap_only(set, (unsigned)p->cpu[th->who]);
    if (hwloc_set_cpubind(p->t->hw, set, HWLOC_CPUBIND_THREAD | HWLOC_CPUBIND_STRICT) != 0)
        p->bind_err[th->who] = errno ? errno : EINVAL;
    else if ((p->ran_on[th->who] = sched_getcpu()) != p->cpu[th->who])
        p->bind_err[th->who] = -1;
    hwloc_bitmap_free(set);
    /* Both threads learn whether both are pinned before either starts. */
    pthread_barrier_wait(&p->barrier);
    if (p->bind_err[0] == 0 && p->bind_err[1] == 0) c2c_body(p, th->who);
    return NULL;
}

/* One run of the two threads: memory set up for the kind, n iterations x samples, checked. */
static int c2c_once(struct hb_c2c_pair *p, uint64_t n, int samples)
{
    p->n = n;
    p->samples = samples;
    p->bind_err[0] = p->bind_err[1] = 0;
    memset(p->mem, 0, p->bytes);
    struct hb_c2c_lockdata *ld = (struct hb_c2c_lockdata *)p->mem;
    if (p->kind == HB_C2C_SPIN || p->kind == HB_C2C_MUTEX) {
        atomic_flag_clear(&ld->flag);
        pthread_mutex_init(&ld->mutex, NULL);
    }
    atomic_store(&p->go, 0);
    int rc = pthread_barrier_init(&p->barrier, NULL, 2);
    if (rc) {
        hb_error_set("c2c: cannot make a thread barrier: %s", strerror(rc));
        return -rc;
    }
    pthread_t tid[2];
    struct hb_c2c_thread th[2] = {{p, 0}, {p, 1}};
    int started = 0;
    for (; started < 2; started++)
        if ((rc = pthread_create(&tid[started], NULL, c2c_thread_main, &th[started]))) break;
    /* The threads wait for this before they touch the barrier, so a thread whose partner
     * never started can leave instead of waiting for it forever. */
    atomic_store(&p->go, started == 2 ? 1 : -1);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    if (started < 2) {
        pthread_barrier_destroy(&p->barrier);
        if (p->kind == HB_C2C_MUTEX) pthread_mutex_destroy(&ld->mutex);
        hb_error_set("c2c: cannot start a thread for CPU %d: %s", p->cpu[started], strerror(rc));
        return -HB_EENV;
    }
    pthread_barrier_destroy(&p->barrier);
    if (p->kind == HB_C2C_MUTEX) pthread_mutex_destroy(&ld->mutex);
    for (int i = 0; i < 2; i++) {
        if (p->bind_err[i] > 0) {
            hb_error_set("c2c: cannot pin a thread to CPU %d: %s", p->cpu[i],
                         strerror(p->bind_err[i]));
            return -HB_EENV;
        }
        if (p->bind_err[i] < 0) {
            hb_error_set("c2c: a thread pinned to CPU %d ran elsewhere", p->cpu[i]);
            return -HB_EENV;
        }
    }
    uint64_t want = 2 * n * (uint64_t)samples, got[2] = {0, 0};
    const uint64_t *c = (const uint64_t *)p->mem;
    switch (p->kind) {
    case HB_C2C_PINGPONG:
        got[0] = got[1] = c[0];
        break;
    case HB_C2C_FS_SHARED:
    case HB_C2C_FS_PADDED:
        want = n * (uint64_t)samples;
        got[0] = c[0];
        got[1] = c[p->kind == HB_C2C_FS_PADDED ? HB_C2C_PAD / sizeof(uint64_t) : 1];
        break;
    case HB_C2C_SPIN:
    case HB_C2C_MUTEX:
        got[0] = got[1] = ld->count;
        break;
    }
    for (int i = 0; i < 2; i++)
        if (got[i] != want) {
            hb_error_set("c2c: counter of CPUs %d-%d ended at %llu, expected %llu", p->cpu[0],
                         p->cpu[1], (unsigned long long)got[i], (unsigned long long)want);
            return -HB_EVALIDATE;
        }
    return 0;
}

/* Time per sample: ping-pong from the writer (it starts and ends every round trip), the
 * concurrent studies from the slower thread. */
static double c2c_sample(const struct hb_c2c_pair *p, int s)
{
    if (p->kind == HB_C2C_PINGPONG) return p->t_s[2 * s];
    return p->t_s[2 * s] > p->t_s[2 * s + 1] ? p->t_s[2 * s] : p->t_s[2 * s + 1];
}

/* Where a task of the plan runs: the CPU its node lists at first_thread. */
static int pair_cpu(const struct hb_topo *t, const struct hb_task *task)
{
    int ni = hb_topo_nodes_index(t, task->cpu_node);
    if (ni < 0 || task->first_thread < 0 || task->first_thread >= t->nodes[ni].ncpus) return -1;
    return t->nodes[ni].cpus[task->first_thread];
}

int hb_pair_check(const struct hb_topo *t, const struct hb_plan *plan)
{
    for (int x = 0; x < plan->n; x++) {
        const struct hb_experiment *e = &plan->exps[x];
        if (hb_migrate_is(e)) {
            int rc = hb_migrate_check(t, e);
            if (rc) return rc;
            continue;
        }
        if (hb_balance_is(e)) {
            int rc = hb_balance_check(t, e);
            if (rc) return rc;
            continue;
        }
        if (e->reps < 1 || e->reps + 1 > HB_MAX_REPS) {
            hb_error_set("experiment %s: reps %d outside 1-%d", e->name, e->reps, HB_MAX_REPS - 1);
            return -EINVAL;
        }
        bool pair = e->ntasks == 2 && pair_kernel_find(e->tasks[0].kernel) &&
                    strcmp(e->tasks[0].kernel, e->tasks[1].kernel) == 0;
        for (int i = 0; pair && i < 2; i++)
            pair = e->tasks[i].threads == 1 && pair_cpu(t, &e->tasks[i]) >= 0 &&
                   e->tasks[i].bytes == e->tasks[0].bytes;
        if (!pair) {
            hb_error_set("experiment %s: not a pinned pair (two one-thread tasks on CPUs of this "
                         "topology, one pair kernel, one buffer)",
                         e->name);
            return -EINVAL;
        }
        const struct hb_pair_kernel *k = pair_kernel_find(e->tasks[0].kernel);
        if (e->tasks[0].bytes < k->bytes) {
            hb_error_set("experiment %s: %s needs a buffer of %zu bytes, the plan gives %llu",
                         e->name, k->name, k->bytes, (unsigned long long)e->tasks[0].bytes);
            return -EINVAL;
        }
    }
    return 0;
}

int hb_pair_run(const struct hb_topo *t, const struct hb_experiment *e, struct hb_task_result *r)
{
    const struct hb_pair_kernel *k = pair_kernel_find(e->tasks[0].kernel);
    enum hb_c2c_kind kind = k->kind;
    int a = pair_cpu(t, &e->tasks[0]), b = pair_cpu(t, &e->tasks[1]);
    int mem_node = e->tasks[0].mem_node;
    double t_alloc = hb_timer_now();
    struct hb_buf buf;
    int rc = hb_placement_buf_alloc(t, e->tasks[0].bytes, HB_POLICY_BIND, &mem_node, 1, HB_PAGES_4K,
                                    &buf);
    if (rc) return rc;
    int samples = e->reps + 1;
    struct hb_c2c_pair p = {
        .t = t, .kind = kind, .cpu = {a, b}, .mem = buf.ptr, .bytes = e->tasks[0].bytes};
    p.t_s = calloc((size_t)samples * 2, sizeof(*p.t_s));
    if (!p.t_s) {
        hb_placement_buf_free(&buf);
        hb_error_set("c2c: out of memory for %d samples", samples);
        return -ENOMEM;
    }
    r->ran = 1;
    r->threads = r->threads_on_node = 2;
    double want = hb_timer_min_sample(e->min_time_s), pilot = 0.0;
    uint64_t tried = HB_C2C_MIN_ITERS;
    for (;; tried *= 2) {
        r->status = c2c_once(&p, tried, 1);
        pilot = r->status ? 0.0 : c2c_sample(&p, 0);
        if (r->status || pilot >= want * HB_C2C_PILOT_SHARE || tried > UINT64_MAX / 4) break;
    }
    if (r->status == 0) {
        double per_iter = pilot / (double)tried;
        uint64_t n = per_iter > 0 ? (uint64_t)(want / per_iter) + 1 : HB_C2C_MIN_ITERS;
        if (n < HB_C2C_MIN_ITERS) n = HB_C2C_MIN_ITERS;
        r->t_start = hb_timer_now();
        r->status = c2c_once(&p, n, samples);
        r->t_end = hb_timer_now();
        for (int s = 1; r->status == 0 && s < samples; s++)
            r->samples[r->nsamples++] = c2c_sample(&p, s);
        r->sweeps_per_sample = n;
        r->loads_per_sample = k->events * (double)n;
    }
    if (r->status) snprintf(r->note, sizeof(r->note), "%s", hb_error_msg());
    for (int i = 0; i < 2; i++)
        r->thread_cpus[i] = p.ran_on[i];
    struct hb_pageloc pl;
    if (hb_placement_buf_locate(t, &buf, NULL, 0, &pl) == 0) {
        r->pages_checked = pl.checked;
        r->pages_on_target_pct = pl.on_target_pct;
        for (int n = 0; n < t->nnodes && n < r->npages_nodes; n++)
            r->pages_on_node[n] = pl.on_node[n];
        hb_placement_pageloc_free(&pl);
    } else {
        r->pages_on_target_pct = -1.0;
    }
    free(p.t_s);
    hb_placement_buf_free(&buf);
    r->elapsed_s = hb_timer_now() - t_alloc;
    return 0;
}
