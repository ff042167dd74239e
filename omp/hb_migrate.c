/* Page migration (hb_migrate.h): a buffer's pages moved between two memory nodes and timed,
 * with move_pages(2) or mbind(2), on a thread bound to the experiment's CPU node. */
#include "hb_migrate.h"

#include "hb_error.h"
#include "hb_placement.h"
#include "hb_timer.h"

#include <errno.h>
#include <linux/mempolicy.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

bool hb_migrate_is(const struct hb_experiment *e)
{
    return e->ntasks == 1 && strcmp(e->tasks[0].kernel, "migrate") == 0;
}

static const struct hb_param *migrate_param(const struct hb_experiment *e, const char *key)
{
    for (int i = 0; i < e->params.n; i++)
        if (strcmp(e->params.v[i].key, key) == 0) return &e->params.v[i];
    return NULL;
}

static int migrate_dst(const struct hb_experiment *e)
{
    const struct hb_param *p = migrate_param(e, "dst_node");
    return p && p->kind == HB_PARAM_INT ? (int)p->v.ints[0] : -1;
}

/* 1 for mbind, 0 for move_pages, -1 for neither. */
static int migrate_by_mbind(const struct hb_experiment *e)
{
    const struct hb_param *p = migrate_param(e, "method");
    if (!p || p->kind != HB_PARAM_STR) return -1;
    return strcmp(p->v.str, "mbind") == 0 ? 1 : strcmp(p->v.str, "move_pages") == 0 ? 0 : -1;
}

static bool migrate_mem_ok(const struct hb_topo *t, int os)
{
    int i = hb_topo_nodes_index(t, os);
    return i >= 0 && t->nodes[i].has_memory;
}

int hb_migrate_check(const struct hb_topo *t, const struct hb_experiment *e)
{
    const struct hb_task *k = &e->tasks[0];
    int ci = hb_topo_nodes_index(t, k->cpu_node), dst = migrate_dst(e);
    if (e->reps < 1 || e->reps > HB_MAX_REPS || k->threads != 1 || ci < 0 ||
        !t->nodes[ci].has_cpus || !migrate_mem_ok(t, k->mem_node) || !migrate_mem_ok(t, dst) ||
        dst == k->mem_node || migrate_by_mbind(e) < 0) {
        hb_error_set("experiment %s: not a migration (one thread on a CPU node, reps 1-%d, two "
                     "different nodes with memory, method move_pages or mbind)",
                     e->name, HB_MAX_REPS);
        return -EINVAL;
    }
    return 0;
}

/* The pages of the buffer: one address per page of its size, and room for their status. */
struct hb_migrate_pages {
    void **addr;
    int *node, *status;
    unsigned long n;
};

static int migrate_pages_init(const struct hb_buf *b, struct hb_migrate_pages *p)
{
    size_t page = b->pages == HB_PAGES_4K ? (size_t)sysconf(_SC_PAGESIZE) : (size_t)2 << 20;
    p->n = (unsigned long)((b->map_bytes + page - 1) / page);
    p->addr = calloc(p->n, sizeof(*p->addr));
    p->node = calloc(p->n, sizeof(*p->node));
    p->status = calloc(p->n, sizeof(*p->status));
    if (!p->addr || !p->node || !p->status) {
        hb_error_set("migrate: out of memory for the addresses of %lu pages", p->n);
        return -ENOMEM;
    }
    for (unsigned long i = 0; i < p->n; i++)
        p->addr[i] = (char *)b->ptr + i * page;
    return 0;
}

static void migrate_pages_free(struct hb_migrate_pages *p)
{
    free(p->addr);
    free(p->node);
    free(p->status);
}

/* Move every page to node `to` (os index) one way or the other: 0, or -errno with a message. */
static int migrate_move(const struct hb_buf *b, struct hb_migrate_pages *p, int to, int mbind)
{
    long rc;
    if (mbind) {
        unsigned long mask[(to / (8 * (int)sizeof(unsigned long))) + 1];
        memset(mask, 0, sizeof(mask));
        mask[to / (8 * (int)sizeof(unsigned long))] |= 1UL << (to % (8 * sizeof(unsigned long)));
        rc = syscall(SYS_mbind, b->ptr, b->map_bytes, MPOL_BIND, mask,
                     (unsigned long)(sizeof(mask) * 8 + 1), MPOL_MF_MOVE | MPOL_MF_STRICT);
    } else {
        for (unsigned long i = 0; i < p->n; i++)
            p->node[i] = to;
        rc = syscall(SYS_move_pages, 0, p->n, p->addr, p->node, p->status, MPOL_MF_MOVE);
    }
    if (rc != 0) {
        int err = errno;
        hb_error_set("migrate: %s to node %d refused for %lu pages: %s",
                     mbind ? "mbind MPOL_MF_MOVE" : "move_pages", to, p->n, strerror(err));
        return -err;
    }
    return 0;
}

/* Pin this thread to the task's CPU node: 0, or -HB_EENV with a message. */
static int migrate_pin(const struct hb_topo *t, int cpu_node, int *ran_on)
{
    const struct hb_node *n = &t->nodes[hb_topo_nodes_index(t, cpu_node)];
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    for (int k = 0; set && k < n->ncpus; k++)
        hwloc_bitmap_set(set, (unsigned)n->cpus[k]);
    int rc = set && hwloc_set_cpubind(t->hw, set, HWLOC_CPUBIND_THREAD) == 0 ? 0 : -HB_EENV;
    hwloc_bitmap_free(set);
    if (rc) hb_error_set("migrate: cannot bind this thread to node %d's CPUs", cpu_node);
    *ran_on = sched_getcpu();
    return rc;
}

/* Where the pages are now, against the destination. */
static void migrate_locate(const struct hb_topo *t, const struct hb_buf *buf, int dst,
                           struct hb_task_result *r)
{
    struct hb_buf moved = *buf;
    moved.nodes = &dst;
    moved.nnodes = 1;
    struct hb_pageloc pl;
    if (hb_placement_buf_locate(t, &moved, NULL, 0, &pl) != 0) {
        r->pages_on_target_pct = -1.0;
        return;
    }
    r->pages_checked = pl.checked;
    r->pages_on_target_pct = pl.on_target_pct;
    for (int n = 0; n < t->nnodes && n < r->npages_nodes; n++)
        r->pages_on_node[n] = pl.on_node[n];
    hb_placement_pageloc_free(&pl);
}

/* The timed moves; a page left behind is a failed measurement, not a figure. */
static int migrate_samples(const struct hb_experiment *e, const struct hb_buf *buf,
                           struct hb_migrate_pages *p, int src, int dst, struct hb_task_result *r)
{
    int mbind = migrate_by_mbind(e);
    for (int s = 0; s < e->reps; s++) {
        int rc = s ? migrate_move(buf, p, src, mbind) : 0;
        double t0 = hb_timer_now();
        if (rc == 0) rc = migrate_move(buf, p, dst, mbind);
        double t1 = hb_timer_now();
        if (rc) return rc;
        if (s == 0) r->t_start = t0;
        r->t_end = t1;
        r->samples[r->nsamples++] = t1 - t0;
        for (unsigned long i = 0; !mbind && i < p->n; i++)
            if (p->status[i] != dst) {
                hb_error_set("validation failed: migrate page %lu of %lu: expected node %d, "
                             "observed %d",
                             i, p->n, dst, p->status[i]);
                return -HB_EVALIDATE;
            }
    }
    return 0;
}

int hb_migrate_run(const struct hb_topo *t, const struct hb_experiment *e, struct hb_task_result *r)
{
    const struct hb_task *k = &e->tasks[0];
    int src = k->mem_node, dst = migrate_dst(e);
    double t_alloc = hb_timer_now();
    struct hb_buf buf;
    r->ran = 1;
    r->threads = 1;
    int rc = migrate_pin(t, k->cpu_node, &r->thread_cpus[0]);
    r->threads_on_node =
        hb_topo_nodes_of_cpu(t, r->thread_cpus[0]) == hb_topo_nodes_index(t, k->cpu_node);
    if (rc == 0) rc = hb_placement_buf_alloc(t, k->bytes, HB_POLICY_BIND, &src, 1, k->pages, &buf);
    if (rc) return rc;
    memset(buf.ptr, 1, buf.bytes); /* first touch: every page on the source */
    struct hb_migrate_pages p = {0};
    r->status = migrate_pages_init(&buf, &p);
    if (r->status == 0) r->status = migrate_samples(e, &buf, &p, src, dst, r);
    if (r->status) snprintf(r->note, sizeof(r->note), "%s", hb_error_msg());
    r->bytes_per_sample = (double)buf.bytes;
    r->sweeps_per_sample = 1;
    migrate_locate(t, &buf, dst, r);
    migrate_pages_free(&p);
    hb_placement_buf_free(&buf);
    r->elapsed_s = hb_timer_now() - t_alloc;
    return 0;
}
