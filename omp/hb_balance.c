/* Automatic NUMA balancing watched (hb_balance.h): worker threads bound to the CPU node
 * stream over a buffer first touched elsewhere while this thread samples, at a fixed
 * interval, where its pages are and how fast the workers go. */
#include "hb_balance.h"

#include "hb_error.h"
#include "hb_kernel.h"
#include "hb_placement.h"
#include "hb_timer.h"
#include "hb_vmstat.h"

#include <errno.h>
#include <linux/mempolicy.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Elements a worker streams between updates of its byte count: 1 MiB. */
#define HB_BALANCE_CHUNK ((size_t)1 << 17)

bool hb_balance_is(const struct hb_experiment *e)
{
    return strcmp(e->suite, "balance") == 0;
}

/* Elements per thread: whole cache lines; the last thread takes what is left. */
static size_t balance_per_thread(size_t elements, int threads)
{
    size_t per = (elements + (size_t)threads - 1) / (size_t)threads;
    return (per + 7) & ~(size_t)7;
}

int hb_balance_check(const struct hb_topo *t, const struct hb_experiment *e)
{
    const struct hb_task *k = e->ntasks == 1 ? &e->tasks[0] : NULL;
    const struct hb_kernel *kern = k ? hb_kernel_registry_find(k->kernel) : NULL;
    int ci = k ? hb_topo_nodes_index(t, k->cpu_node) : -1;
    int mi = k && k->policy == HB_POLICY_BIND ? hb_topo_nodes_index(t, k->mem_node) : -1;
    size_t elements = k ? (size_t)(k->bytes / 8) & ~(size_t)7 : 0;
    double every = hb_plan_param_num_of(e, "interval_s", NAN);
    double most = hb_plan_param_num_of(e, "max_time_s", NAN);
    bool ok = kern && strcmp(kern->name, "read") == 0 && ci >= 0 && mi >= 0 && ci != mi &&
              t->nodes[ci].has_cpus && t->nodes[ci].has_memory && t->nodes[mi].has_memory &&
              k->threads >= 1 && k->threads <= t->nodes[ci].ncpus && elements > 0 &&
              balance_per_thread(elements, k->threads) * (size_t)(k->threads - 1) < elements &&
              every > 0 && most >= every * HB_BALANCE_MIN_POINTS && most / every <= HB_MAX_REPS;
    if (ok) return 0;
    /* Too little data for its threads: the smallest size that gives each whole lines. */
    if (kern && k->threads >= 1 &&
        (elements == 0 ||
         balance_per_thread(elements, k->threads) * (size_t)(k->threads - 1) >= elements)) {
        size_t least = 8;
        while (balance_per_thread(least, k->threads) * (size_t)(k->threads - 1) >= least)
            least += 8;
        hb_error_set("balance: --size %llu bytes is too small for %d threads, each of which reads "
                     "whole cache lines of its own: give at least %zu bytes",
                     (unsigned long long)k->bytes, k->threads, least * 8);
        return -EINVAL;
    }
    hb_error_set("experiment %s: not a balance run (kernel read, bound to a "
                 "node with memory other than its CPU node, threads within the CPU node and data "
                 "for each, interval_s and max_time_s giving %d to %d samples)",
                 e->name, HB_BALANCE_MIN_POINTS, HB_MAX_REPS);
    return -EINVAL;
}

/* The workers and what they share with the sampling thread. */
struct hb_balance_team {
    const struct hb_topo *t;
    const struct hb_task *task;
    const struct hb_kernel *k;
    struct hb_task_result *r;
    struct hb_buf buf;
    size_t elements, per_thread;
    _Atomic uint64_t *moved; /* per worker: bytes its kernel has moved so far */
    _Atomic int touched, go, stop, failed;
    char note[256]; /* the first worker failure */
};

struct hb_balance_worker {
    struct hb_balance_team *tm;
    int idx;
    pthread_t th;
};

static struct hb_kslice balance_slice(const struct hb_balance_team *tm, int idx)
{
    size_t start = (size_t)idx * tm->per_thread;
    size_t n = start < tm->elements ? tm->elements - start : 0;
    return (struct hb_kslice){.a = (double *)tm->buf.ptr + start,
                              .n = n < tm->per_thread ? n : tm->per_thread};
}

static void balance_fail(struct hb_balance_team *tm, const char *msg)
{
    int expected = 0;
    if (atomic_compare_exchange_strong(&tm->failed, &expected, 1))
        snprintf(tm->note, sizeof(tm->note), "%s", msg);
}

/* Bind the calling worker to the idx-th core of the CPU node (past the cores: its idx-th
 * CPU) and note where it runs. */
static void balance_bind(struct hb_balance_team *tm, int idx)
{
    const struct hb_node *n = &tm->t->nodes[hb_topo_nodes_index(tm->t, tm->task->cpu_node)];
    hwloc_bitmap_t cpus = hwloc_bitmap_alloc();
    for (int c = 0; cpus && c < n->ncpus; c++)
        hwloc_bitmap_set(cpus, (unsigned)n->cpus[c]);
    hwloc_obj_t core =
        cpus ? hwloc_get_obj_inside_cpuset_by_type(tm->t->hw, cpus, HWLOC_OBJ_CORE, (unsigned)idx)
             : NULL;
    hwloc_bitmap_t one = core ? hwloc_bitmap_dup(core->cpuset) : hwloc_bitmap_alloc();
    if (one && !core) hwloc_bitmap_only(one, (unsigned)n->cpus[idx]);
    if (!one || hwloc_set_cpubind(tm->t->hw, one, HWLOC_CPUBIND_THREAD) != 0)
        balance_fail(tm, "cannot bind a worker thread to the CPU node's CPUs");
    hwloc_bitmap_free(one);
    hwloc_bitmap_free(cpus);
    tm->r->thread_cpus[idx] = sched_getcpu();
}

/* A worker: first touch of its slice (under the bind: on mem_node), then passes over it a
 * chunk at a time until told to stop, so that an interval counts the bytes moved in it even
 * when one pass takes longer; then one whole pass and the kernel's check of its data (the
 * read kernel's: every element as first written, and their sum). */
static void *balance_work(void *arg)
{
    struct hb_balance_worker *w = arg;
    struct hb_balance_team *tm = w->tm;
    balance_bind(tm, w->idx);
    struct hb_kslice s = balance_slice(tm, w->idx);
    if (tm->k->init(&s) != 0) balance_fail(tm, hb_error_msg());
    atomic_fetch_add(&tm->touched, 1);
    while (!atomic_load(&tm->go))
        sched_yield();
    uint64_t moved = 0;
    for (size_t off = 0; !atomic_load(&tm->stop);
         off = off + HB_BALANCE_CHUNK < s.n ? off + HB_BALANCE_CHUNK : 0) {
        struct hb_kslice c = s;
        c.a += off;
        c.n = s.n - off < HB_BALANCE_CHUNK ? s.n - off : HB_BALANCE_CHUNK;
        tm->k->run(&c, 1);
        moved += (uint64_t)hb_kernel_registry_bytes(tm->k, c.n, 1);
        atomic_store(&tm->moved[w->idx], moved);
    }
    if (tm->k->check(&s, tm->k->run(&s, 1), 1) != 0) balance_fail(tm, hb_error_msg());
    return NULL;
}

/* Bytes the workers have moved so far. */
static double balance_bytes(const struct hb_balance_team *tm)
{
    double bytes = 0.0;
    for (int i = 0; i < tm->task->threads; i++)
        bytes += (double)atomic_load(&tm->moved[i]);
    return bytes;
}

/* The share of the buffer's pages on node `os` now (move_pages, status only); -1 when they
 * cannot be located. */
static double balance_share(const struct hb_balance_team *tm, int os)
{
    struct hb_pageloc pl;
    if (hb_placement_buf_locate(tm->t, &tm->buf, &os, 1, &pl) != 0) return -1.0;
    double pct = pl.on_target_pct;
    hb_placement_pageloc_free(&pl);
    return pct;
}

static void balance_sleep_until(double when)
{
    double left = when - hb_timer_now();
    if (left <= 0) return;
    struct timespec ts = {(time_t)left, (long)((left - floor(left)) * 1e9)};
    nanosleep(&ts, NULL);
}

/* The series, a point per interval from the moment the bind was dropped: until the local
 * share has held HB_BALANCE_TARGET_PCT for HB_BALANCE_HELD points (and there are
 * HB_BALANCE_MIN_POINTS), or max_time_s has passed. The bandwidths of the intervals that
 * ended at HB_BALANCE_TARGET_PCT or more are the samples: the figure once placement is fixed. */
static json_t *balance_series(struct hb_balance_team *tm, double every, double most,
                              double *reached)
{
    json_t *series = json_array();
    double t0 = hb_timer_now(), prev_t = t0, prev_bytes = 0.0,
           sweep = hb_kernel_registry_bytes(tm->k, tm->elements, 1);
    int held = 0;
    *reached = NAN;
    for (int n = 1; series && !atomic_load(&tm->failed); n++) {
        balance_sleep_until(t0 + n * every);
        double now = hb_timer_now(), bytes = balance_bytes(tm);
        double local = balance_share(tm, tm->task->cpu_node);
        double gbps = (bytes - prev_bytes) / (now - prev_t) / 1e9;
        if (local < 0) {
            balance_fail(tm, hb_error_msg());
            break;
        }
        json_array_append_new(series, json_pack("{s:f, s:f, s:f}", "t_s", now - t0, "local_pct",
                                                round(local * 100) / 100, "GBps", gbps));
        if (local >= HB_BALANCE_TARGET_PCT && bytes > prev_bytes && tm->r->nsamples < HB_MAX_REPS)
            tm->r->samples[tm->r->nsamples++] = (now - prev_t) * sweep / (bytes - prev_bytes);
        held = local >= HB_BALANCE_TARGET_PCT ? held + 1 : 0;
        if (held == 1) *reached = isnan(*reached) ? now - t0 : *reached;
        prev_t = now;
        prev_bytes = bytes;
        if ((held >= HB_BALANCE_HELD && n >= HB_BALANCE_MIN_POINTS) || now - t0 + every > most)
            break;
    }
    tm->r->t_start = t0;
    tm->r->t_end = prev_t;
    return series;
}

/* The record's keys of the run: the series and what it came to, the counters that moved. */
static json_t *balance_keys(const struct hb_balance_team *tm, json_t *series, double reached,
                            double first_pct, int mode, json_t *moved, double every)
{
    char why[160] = "";
    double last = json_number_value(
        json_object_get(json_array_get(series, json_array_size(series) - 1), "local_pct"));
    if (isnan(reached))
        snprintf(why, sizeof(why), "the local share reached %.1f%%, not %.0f%%, in %.1f s", last,
                 HB_BALANCE_TARGET_PCT, tm->r->t_end - tm->r->t_start);
    size_t page = tm->buf.pages == HB_PAGES_4K ? (size_t)sysconf(_SC_PAGESIZE) : (size_t)2 << 20;
    return json_pack("{s:o, s:o, s:o, s:f, s:i, s:o, s:f, s:I}", "series", series,
                     "time_to_90pct_s", isnan(reached) ? json_null() : json_real(reached),
                     "time_to_90pct_why", why[0] ? json_string(why) : json_null(),
                     "first_touch_pct", round(first_pct * 100) / 100, "numa_balancing", mode,
                     "vmstat_moved", moved ? moved : json_object(), "interval_s", every,
                     "page_bytes", (json_int_t)page);
}

/* Drop the first-touch bind of the buffer. Dropped, not replaced: without MPOL_MF_MOVE no
 * page moves now, and the range falls back to the threads' default (local) policy, which NUMA
 * balancing acts on. A range left bound is skipped by its scanner (MPOL_BIND without
 * MPOL_F_NUMA_BALANCING), and first touch by threads on mem_node's own CPUs would need CPUs
 * there (a memory-only node has none). */
static int balance_unbind(const struct hb_buf *b)
{
    if (syscall(SYS_mbind, b->ptr, b->map_bytes, MPOL_DEFAULT, NULL, 0UL, 0U) == 0) return 0;
    int err = errno;
    hb_error_set("balance: mbind MPOL_DEFAULT (dropping the first-touch bind) refused: %s",
                 strerror(err));
    return -err;
}

/* Start the workers, let them first-touch the buffer, drop its bind, sample the series, stop
 * and join them; then the record's keys into *keys. */
static int balance_watch(struct hb_balance_team *tm, const struct hb_experiment *e, json_t **keys,
                         int mode)
{
    int n = tm->task->threads, started = 0, rc = 0;
    struct hb_balance_worker *w = calloc((size_t)n, sizeof(*w));
    for (rc = w ? 0 : -ENOMEM; rc == 0 && started < n; started++) {
        w[started] = (struct hb_balance_worker){tm, started, 0};
        rc = -pthread_create(&w[started].th, NULL, balance_work, &w[started]);
    }
    started -= rc != 0;
    if (rc) hb_error_set("balance: cannot start worker %d of %d: %s", started, n, strerror(-rc));
    if (rc) atomic_store(&tm->stop, 1);
    while (atomic_load(&tm->touched) < started)
        sched_yield();
    double first = rc ? -1.0 : balance_share(tm, tm->task->mem_node);
    if (rc == 0 && first < 0) rc = -HB_EENV;
    json_t *before = rc ? NULL : hb_vmstat_numa(), *series = NULL, *after = NULL;
    if (rc == 0 && !before) rc = -HB_EENV;
    if (rc == 0) rc = balance_unbind(&tm->buf);
    atomic_store(&tm->go, 1);
    double reached = NAN, every = hb_plan_param_num_of(e, "interval_s", 1.0);
    if (rc == 0)
        series = balance_series(tm, every, hb_plan_param_num_of(e, "max_time_s", 0.0), &reached);
    if (rc == 0 && !series) rc = -ENOMEM;
    atomic_store(&tm->stop, 1);
    for (int i = 0; i < started; i++)
        pthread_join(w[i].th, NULL);
    free(w);
    if (rc == 0 && !(after = hb_vmstat_numa())) rc = -HB_EENV;
    if (rc == 0)
        *keys =
            balance_keys(tm, series, reached, first, mode, hb_vmstat_moved(before, after), every);
    else
        json_decref(series);
    json_decref(before);
    json_decref(after);
    return rc;
}

int hb_balance_run(const struct hb_topo *t, const struct hb_experiment *e, struct hb_task_result *r,
                   json_t **keys)
{
    const struct hb_task *task = &e->tasks[0];
    struct hb_balance_team tm = {
        .t = t, .task = task, .k = hb_kernel_registry_find(task->kernel), .r = r};
    tm.elements = (size_t)(task->bytes / 8) & ~(size_t)7;
    tm.per_thread = balance_per_thread(tm.elements, task->threads);
    double t_alloc = hb_timer_now();
    *keys = NULL;
    r->ran = 1;
    r->threads = task->threads;
    int mode = 0, rc = hb_vmstat_numa_balancing_mode(&mode);
    if (rc == 0 && mode == 0) {
        hb_error_set("balance: automatic NUMA balancing was turned off after the plan "
                     "(/proc/sys/kernel/numa_balancing is 0)");
        rc = -HB_EENV;
    }
    if (rc == 0)
        rc = hb_placement_buf_alloc(t, tm.elements * 8, HB_POLICY_BIND, &task->mem_node, 1,
                                    task->pages, &tm.buf);
    if (rc) return rc;
    tm.moved = calloc((size_t)task->threads, sizeof(*tm.moved));
    rc = tm.moved ? balance_watch(&tm, e, keys, mode) : -ENOMEM;
    if (rc == -ENOMEM) hb_error_set("balance: out of memory watching %d threads", task->threads);
    if (rc == 0 && tm.failed) {
        r->status = -HB_EVALIDATE;
        snprintf(r->note, sizeof(r->note), "%s", tm.note);
    }
    struct hb_pageloc pl;
    if (rc == 0 && hb_placement_buf_locate(t, &tm.buf, &task->cpu_node, 1, &pl) == 0) {
        r->pages_checked = pl.checked;
        r->pages_on_target_pct = pl.on_target_pct;
        for (int n = 0; n < t->nnodes && n < r->npages_nodes; n++)
            r->pages_on_node[n] = pl.on_node[n];
        hb_placement_pageloc_free(&pl);
    }
    for (int i = 0; i < task->threads; i++)
        r->threads_on_node +=
            hb_topo_nodes_of_cpu(t, r->thread_cpus[i]) == hb_topo_nodes_index(t, task->cpu_node);
    r->bytes_per_sample = hb_kernel_registry_bytes(tm.k, tm.elements, 1);
    r->bytes_wa_per_sample = hb_kernel_registry_bytes_wa_model(tm.k, tm.elements, 1);
    r->sweeps_per_sample = 1;
    r->elements = tm.elements;
    free(tm.moved);
    hb_placement_buf_free(&tm.buf);
    r->elapsed_s = hb_timer_now() - t_alloc;
    return rc;
}
