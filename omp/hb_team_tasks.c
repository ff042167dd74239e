/* A team's tasks before and after the run (omp layer, below hb_team.c): their layout (shared
 * with the plan check), arrays, first failure, page and CPU placement checks, and results. */
#include "hb_team_state.h"

#include "hb_error.h"

#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hb_team_tasks_fail(struct hb_task_state *st, int err, const char *msg)
{
    int expected = 0;
    if (atomic_compare_exchange_strong(&st->failed, &expected, 1)) {
        st->res->status = err;
        snprintf(st->res->note, sizeof(st->res->note), "%s", msg);
    }
}

/* Thread slices start on 4 KiB boundaries so first touch puts each thread's pages apart. */
#define HB_SLICE_ALIGN_ELEMS 512

/* The sizes near a refused one that lay out (in the units the message names it): the largest
 * under it, the smallest over it, and where every larger size works; 0 = none (within 64
 * bits). Slices start on 4 KiB pages, so the good sizes are not one range: 3 threads of read
 * take 8256 to 12288 bytes and every size from 16448, but not 12352. */
struct hb_size_near {
    uint64_t below, above, from;
};

/* A window of element counts that lays out ([lo, hi], hi UINT64_MAX = no end) in size
 * units: bytes of the task / unit (unit = threads when the size is per thread). Merged into
 * *cur while it touches it, else *cur is done and goes to near. */
static void size_window(uint64_t lo, uint64_t hi, uint64_t size, uint64_t unit, int streams,
                        uint64_t cur[2], bool *have, struct hb_size_near *near)
{
    /* elements e (a multiple of 8) come from e * 8 * streams to (e + 8) * 8 * streams - 1
     * bytes; past 64 bits nothing is reachable */
    uint64_t per = 8 * (uint64_t)streams, blo, bhi = UINT64_MAX;
    if (__builtin_mul_overflow(lo, per, &blo)) return;
    if (hi != UINT64_MAX &&
        (__builtin_add_overflow(hi, 8, &bhi) || __builtin_mul_overflow(bhi, per, &bhi)))
        bhi = UINT64_MAX;
    else if (hi != UINT64_MAX)
        bhi--;
    uint64_t slo = blo / unit + (blo % unit != 0), shi = bhi == UINT64_MAX ? bhi : bhi / unit;
    if (slo > shi) return;
    if (*have && slo <= cur[1] + 1) {
        if (shi > cur[1]) cur[1] = shi;
        return;
    }
    if (*have) {
        if (cur[1] < size) near->below = cur[1];
        if (cur[0] > size && !near->above) near->above = cur[0];
    }
    cur[0] = slo;
    cur[1] = shi;
    *have = true;
}

/* size (per thread when unit = threads) refused for threads of a kernel with `streams` arrays
 * whose slices need at least m8 elements (a multiple of 8): what works near it. A slice
 * starts every P = 512 k elements (k = 1, 2, ...: the thread's share rounded up to 4 KiB);
 * with e elements per array that takes (512 (k-1) T, 512 k T], and it leaves the last thread
 * e - P (T - 1), which must hold m8 too. From k = T + m8 / 512 + 1 on the windows touch. */
static void size_nearest(uint64_t size, uint64_t unit, int streams, int threads, uint64_t m8,
                         struct hb_size_near *near)
{
    memset(near, 0, sizeof(*near));
    uint64_t cur[2] = {0, 0}, t = (uint64_t)threads, kmin = (m8 + 511) / 512;
    bool have = false;
    if (threads == 1) {
        size_window(m8, UINT64_MAX, size, unit, streams, cur, &have, near);
    } else {
        uint64_t last = t + kmin + 1;
        for (uint64_t k = kmin ? kmin : 1; k <= last; k++) {
            uint64_t lo1, lo2, hi;
            if (__builtin_mul_overflow(512 * (k - 1), t, &lo1) ||
                __builtin_mul_overflow(512 * k, t - 1, &lo2) ||
                __builtin_add_overflow(lo2, m8, &lo2) || __builtin_mul_overflow(512 * k, t, &hi))
                break;
            lo1 += 8;
            uint64_t lo = lo1 > lo2 ? lo1 : lo2;
            if (k == last) hi = UINT64_MAX;
            if (lo <= hi) size_window(lo, hi, size, unit, streams, cur, &have, near);
        }
    }
    if (!have) return;
    if (cur[0] > size && !near->above) near->above = cur[0];
    if (cur[1] == UINT64_MAX) near->from = cur[0];
}

/* The least slice (elements, a multiple of 8) the kernel takes with this task's stride and
 * group; 0 when no length would do (a stride or group it refuses whatever the slice). */
static uint64_t kernel_least_slice(const struct hb_task *task, const struct hb_kernel *k)
{
    struct hb_kslice s = {.param = task->param,
                          .stride = (size_t)task->chase_stride,
                          .group_bytes = (size_t)task->chase_group_bytes,
                          .chains = task->chase_chains};
    uint64_t lo = 0, hi = 8, top = (uint64_t)1 << 57; /* fits(lo) fails, fits(hi) holds */
    if (!k->fits) return 8;
    /* Doubling, then halving: about 2 log2 of the answer tries, each a message when it fails. */
    for (s.n = (size_t)hi; k->fits(&s); s.n = (size_t)hi) {
        if (hi >= top) return 0;
        lo = hi;
        hi *= 2;
    }
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        s.n = (size_t)mid;
        if (k->fits(&s))
            lo = mid;
        else
            hi = mid;
    }
    return hi < 8 ? 8 : (hi + 7) & ~(uint64_t)7;
}

/* What works near a refused size: "it needs at least N bytes" and the like, into buf. */
static void size_works(const struct hb_size_near *near, const char *u, char *buf, size_t len)
{
    unsigned long long b = near->below, a = near->above, f = near->from;
    if (!a)
        snprintf(buf, len,
                 b ? "%llu %s works, and nothing larger under 16 EiB"
                   : "no size under 16 EiB works",
                 b, u);
    else if (!b && (a == f || !f))
        snprintf(buf, len, "it needs at least %llu %s", a, u);
    else if (!b)
        snprintf(buf, len, "it needs at least %llu %s, and every size from %llu %s works", a, u, f,
                 u);
    else if (a == f)
        snprintf(buf, len, "%llu %s works, as does every size from %llu %s", b, u, f, u);
    else if (!f)
        snprintf(buf, len, "the nearest sizes that work are %llu and %llu %s", b, a, u);
    else
        snprintf(buf, len,
                 "the nearest sizes that work are %llu and %llu %s, and every size from %llu %s "
                 "works",
                 b, a, u, f, u);
}

/* The one line for a task whose size does not lay out: what is wrong (`why`, the kernel's
 * message, not hb_error_msg() itself; NULL: the slices), then the sizes near it that work.
 * -EINVAL. */
static int task_size_error(const struct hb_task *task, const struct hb_kernel *k, const char *why)
{
    uint64_t m8 = kernel_least_slice(task, k);
    if (!m8) { /* no size would do: the kernel's reason is the whole story */
        hb_error_set("%s", why ? why : "the kernel refuses every slice");
        return -EINVAL;
    }
    /* A scenario's size is per thread and named by its line: the sizes that work are told in
     * its terms. */
    bool named = task->size_from[0] != '\0';
    uint64_t unit = named && task->size_per_thread ? (uint64_t)task->threads : 1;
    uint64_t size = task->bytes / unit;
    struct hb_size_near near;
    size_nearest(size, unit, k->streams, task->threads, m8, &near);
    char who[64], works[240], slices[160], subject[sizeof(task->size_from) + 32];
    size_works(&near, unit > 1 ? "bytes per thread" : "bytes", works, sizeof(works));
    if (named)
        snprintf(subject, sizeof(subject), "%s", task->size_from);
    else
        snprintf(subject, sizeof(subject), "size %llu %s", (unsigned long long)size,
                 size == 1 ? "byte" : "bytes");
    if (task->threads == 1)
        snprintf(who, sizeof(who), "kernel %s", k->name);
    else
        snprintf(who, sizeof(who), "%d threads of kernel %s", task->threads, k->name);
    if (task->threads == 1 && k->streams == 1)
        snprintf(slices, sizeof(slices), "its array needs a whole 64-byte line");
    else if (task->threads == 1)
        snprintf(slices, sizeof(slices), "each of its %d arrays needs a whole 64-byte line",
                 k->streams);
    else
        snprintf(slices, sizeof(slices),
                 "each thread's slice of an array starts on a 4 KiB page, which leaves the last "
                 "thread no data");
    /* "Too small" only when nothing smaller works. */
    hb_error_set("%s %s %s: %s; %s", subject,
                 near.below ? "cannot be laid out for" : "is too small for", who,
                 why ? why : slices, works);
    return -EINVAL;
}

/* How the team lays a task out: elements per array (whole cache lines, so the chase and
 * every SIMD path see the same data) and per thread (aligned slices). Refuses a size that
 * leaves an array or a thread without data, or a slice the kernel cannot take, with the
 * sizes near it that work. Shared by the plan check and the run. */
static int task_geometry(const struct hb_task *task, const struct hb_kernel *k, size_t *elements,
                         size_t *per_thread)
{
    *elements = (size_t)(task->bytes / (uint64_t)k->streams / 8) & ~(size_t)7;
    if (*elements == 0) return task_size_error(task, k, NULL);
    size_t per = (*elements + (size_t)task->threads - 1) / (size_t)task->threads;
    *per_thread = (per + HB_SLICE_ALIGN_ELEMS - 1) / HB_SLICE_ALIGN_ELEMS * HB_SLICE_ALIGN_ELEMS;
    if (*per_thread * (size_t)(task->threads - 1) >= *elements)
        return task_size_error(task, k, NULL);
    /* The kernel's own minimum (dgemm: one whole product; chase: one stride) for the first
     * slice and the last, which holds the rest and may be smaller: what init would refuse. */
    size_t first = *per_thread < *elements ? *per_thread : *elements;
    size_t last = *elements - *per_thread * (size_t)(task->threads - 1);
    for (int i = 0; k->fits && i < 2; i++) {
        struct hb_kslice s = {.n = i ? last : first,
                              .param = task->param,
                              .stride = (size_t)task->chase_stride,
                              .group_bytes = (size_t)task->chase_group_bytes,
                              .chains = task->chase_chains};
        if (k->fits(&s)) {
            char *why = strdup(hb_error_msg());
            int rc = task_size_error(task, k, why ? why : "the kernel refuses the slice");
            free(why);
            return rc;
        }
    }
    return 0;
}

int hb_team_tasks_plan_check(const struct hb_topo *t, const struct hb_plan *plan)
{
    for (int x = 0; x < plan->n; x++) {
        const struct hb_experiment *e = &plan->exps[x];
        if (e->reps < 1 || e->reps > HB_MAX_REPS) {
            hb_error_set("experiment %s: reps %d outside 1-%d", e->name, e->reps, HB_MAX_REPS);
            return -EINVAL;
        }
        for (int i = 0; i < e->ntasks; i++) {
            const struct hb_task *a = &e->tasks[i];
            const struct hb_kernel *k = hb_kernel_registry_find(a->kernel);
            int ni = hb_topo_nodes_index(t, a->cpu_node);
            int end = a->first_thread + a->threads;
            size_t elements, per;
            if (!k || ni < 0) return -EINVAL; /* the suites name only known kernels, nodes */
            if (a->threads < 1 || a->first_thread < 0 || end > t->nodes[ni].ncpus) {
                hb_error_set("experiment %s: task %s needs threads %d-%d on node %d, which has "
                             "%d CPUs",
                             e->name, a->label, a->first_thread, end - 1, a->cpu_node,
                             t->nodes[ni].ncpus);
                return -EINVAL;
            }
            int rc = task_geometry(a, k, &elements, &per);
            if (rc) return rc;
            for (int j = 0; j < i; j++) {
                const struct hb_task *b = &e->tasks[j];
                int lo = a->first_thread > b->first_thread ? a->first_thread : b->first_thread;
                if (b->cpu_node == a->cpu_node && lo < end && lo < b->first_thread + b->threads) {
                    hb_error_set("experiment %s: tasks %s and %s overlap on thread %d of node %d",
                                 e->name, b->label, a->label, lo, a->cpu_node);
                    return -EINVAL;
                }
            }
        }
    }
    return 0;
}

int hb_team_tasks_alloc(struct hb_team *tm, struct hb_task_state *st)
{
    const struct hb_task *task = st->task;
    int rc = task_geometry(task, st->k, &st->elements, &st->per_thread);
    if (rc) return rc;
    int *nodes = NULL;
    int nn = hb_plan_task_mem_nodes(task, &nodes);
    if (nn < 0) return nn;
    for (int i = 0; rc == 0 && i < st->k->streams; i++)
        rc = hb_placement_buf_alloc(tm->topo, st->elements * sizeof(double), task->policy,
                                    nn ? nodes : NULL, nn, task->pages, &st->bufs[i]);
    free(nodes);
    st->res->elements = st->elements;
    return rc;
}

void hb_team_tasks_locate(struct hb_team *tm, struct hb_task_state *st, bool allow_misplaced)
{
    const struct hb_task *task = st->task;
    /* Pages belong on the task's memory nodes; plain first touch puts them on the threads'
     * node. First touch with a node set (policy "os") accepts any node of the set: where the
     * pages land is what it measures. */
    int *expect = NULL;
    int ne = hb_plan_task_mem_nodes(task, &expect);
    if (ne < 0) {
        hb_team_tasks_fail(st, ne, hb_error_msg());
        return;
    }
    if (ne == 0) expect[ne++] = task->cpu_node; /* room for one is always there */
    struct hb_task_result *res = st->res;
    memset(res->pages_on_node, 0, sizeof(*res->pages_on_node) * (size_t)res->npages_nodes);
    res->pages_checked = 0;
    uint64_t on_target = 0;
    for (int i = 0; i < st->k->streams; i++) {
        struct hb_pageloc pl;
        if (hb_placement_buf_locate(tm->topo, &st->bufs[i], expect, ne, &pl) != 0) {
            hb_team_tasks_fail(st, -HB_EPLACEMENT, hb_error_msg());
            free(expect);
            return;
        }
        res->pages_checked += pl.checked;
        on_target += (uint64_t)llround(pl.on_target_pct / 100.0 * (double)pl.checked);
        for (int n = 0; n < res->npages_nodes && n < pl.nnodes; n++)
            res->pages_on_node[n] += pl.on_node[n];
        hb_placement_pageloc_free(&pl);
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
        hb_team_tasks_fail(st, -HB_EPLACEMENT, msg);
    }
}

/* Two threads of one task on one CPU halve what each measures: a placement failure, found
 * from their affinity (both pinned to the same single CPU, or fewer CPUs allowed than
 * threads) or from where they were seen running, never a silent "ok". */
void hb_team_tasks_cpus_check(struct hb_team *tm, struct hb_task_state *st)
{
    const struct hb_task *task = st->task;
    hwloc_bitmap_t all = hwloc_bitmap_alloc();
    if (!all) {
        hb_team_tasks_fail(st, -HB_EENV, "out of memory checking where the threads ran");
        return;
    }
    int t0 = -1, t1 = -1, s0 = -1, s1 = -1, wide = -1;
    const int *ran = st->res->thread_cpus;
    for (int j = 0; j < task->threads; j++) {
        hwloc_const_bitmap_t mj = tm->masks[task->first_thread + j];
        hwloc_bitmap_or(all, all, mj);
        /* A place wider than one core (OMP_PLACES=numa_domains, sockets): the thread may
         * move between cores, and meet another on one, while it is timed. */
        hwloc_obj_t in = hwloc_get_obj_covering_cpuset(tm->topo->hw, mj);
        bool one_core =
            in && (in->type == HWLOC_OBJ_PU || in->type == HWLOC_OBJ_CORE ||
                   hwloc_get_nbobjs_inside_cpuset_by_type(tm->topo->hw, mj, HWLOC_OBJ_CORE) <= 1);
        if (wide < 0 && !one_core) wide = j;
        for (int k = 0; k < j && t0 < 0; k++) {
            hwloc_const_bitmap_t mk = tm->masks[task->first_thread + k];
            if (hwloc_bitmap_weight(mj) == 1 && hwloc_bitmap_isequal(mj, mk)) t0 = k, t1 = j;
            /* Places wider than a CPU (OMP_PLACES=numa_domains): seen sharing one. */
            if (s0 < 0 && ran[j] >= 0 && ran[j] == ran[k]) s0 = k, s1 = j;
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
    } else if (wide >= 0) {
        snprintf(msg, sizeof(msg),
                 "thread %d of task %s may run on %d CPUs of several cores (an OpenMP place "
                 "wider than a core); bind one thread per CPU or core (OMP_PLACES=cores "
                 "OMP_PROC_BIND=close)",
                 wide, task->label, hwloc_bitmap_weight(tm->masks[task->first_thread + wide]));
    } else if (s0 >= 0) {
        snprintf(msg, sizeof(msg),
                 "threads %d and %d of task %s were both found running on CPU %d (each may run "
                 "on %d CPUs); bind one thread per CPU (OMP_PLACES=cores OMP_PROC_BIND=close)",
                 s0, s1, task->label, ran[s0],
                 hwloc_bitmap_weight(tm->masks[task->first_thread + s1]));
    } else if (nall < task->threads) {
        snprintf(msg, sizeof(msg),
                 "the %d threads of task %s may only run on %d CPUs, so some share one; bind one "
                 "thread per CPU (OMP_PLACES=cores OMP_PROC_BIND=close)",
                 task->threads, task->label, nall);
    } else {
        return;
    }
    hb_team_tasks_fail(st, -HB_EPLACEMENT, msg);
}

void hb_team_tasks_finish(struct hb_team *tm, struct hb_task_state *st)
{
    struct hb_task_result *res = st->res;
    const struct hb_task *task = st->task;
    int on_node = 0;
    for (int j = 0; j < task->threads; j++)
        on_node += hb_topo_nodes_of_cpu(tm->topo, res->thread_cpus[j]) == tm->node_index;
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
        res->bytes_per_sample = hb_kernel_registry_bytes(st->k, st->elements, st->sweeps);
        res->bytes_wa_per_sample =
            hb_kernel_registry_bytes_wa_model(st->k, st->elements, st->sweeps);
        /* Threads chase side by side: latency is a sample's time over one thread's loads. */
        size_t mine = st->per_thread < st->elements ? st->per_thread : st->elements;
        res->loads_per_sample =
            hb_kernel_registry_loads(st->k, mine, st->sweeps, task->chase_stride);
    }
    for (int i = 0; i < st->k->streams; i++)
        hb_placement_buf_free(&st->bufs[i]);
}
