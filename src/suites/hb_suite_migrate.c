/* The migrate suite: what moving pages between memory nodes costs, for every ordered pair of
 * nodes with memory (CPU-less ones too), with move_pages(2) and with mbind(2) MPOL_MF_MOVE,
 * in this process (omp/hb_migrate.h). */
#include "hb_suite_kit.h"
#include "hb_opt_doc.h"

#include "hb_error.h"
#include "hb_interval.h"
#include "hb_jsonl_read.h"
#include "hb_launcher.h"
#include "hb_bytes.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Without --size: big enough that the move, not the call, is timed; small enough for an
 * emulated guest. */
#define HB_MIGRATE_DEFAULT_BYTES ((uint64_t)64 << 20)

static const char *const migrate_methods[] = {"move_pages", "mbind"};

static int migrate_add(const struct hb_suite_env *env, struct hb_plan *out, int cpu, int src,
                       int dst, const char *method, enum hb_pages pages, uint64_t bytes)
{
    struct hb_experiment e;
    char name[HB_NAME_LEN];
    snprintf(name, sizeof(name), "migrate-%d-%d-%s-%s", src, dst, method,
             hb_placement_pages_name(pages));
    hb_suite_kit_experiment(env, &e, "migrate", name, "bandwidth");
    struct hb_task *task = hb_plan_experiment_task(&e);
    if (!task) return -ENOMEM;
    int ci = hb_topo_nodes_index(env->topo, cpu);
    task->role = HB_ROLE_FG;
    task->cpu_node = cpu;
    task->threads = 1;
    snprintf(task->kernel, sizeof(task->kernel), "migrate");
    task->policy = HB_POLICY_BIND;
    task->mem_node = src;
    task->pages = pages;
    task->bytes = bytes;
    task->first_thread = env->topo->nodes[ci].ncpus > 0 ? 0 : -1;
    hb_plan_task_describe(env->topo, task, "rw");
    int rc = hb_plan_param_int(&e, "src_node", src);
    if (rc == 0) rc = hb_plan_param_int(&e, "dst_node", dst);
    if (rc == 0) rc = hb_plan_param_str(&e, "method", method);
    if (rc) {
        hb_plan_experiment_clear(&e);
        return rc;
    }
    return hb_plan_add(out, &e);
}

/* -EINVAL when launched as several ranks; -ENOMEM when a node cannot hold the buffer. (Too
 * few memory nodes never get here: needs_mem_nodes.) */
static int migrate_plan(const struct hb_suite_env *env, struct hb_plan *out)
{
    const struct hb_topo *t = env->topo;
    const struct hb_options *o = env->opts;
    int rc = hb_launcher_refuse_ranks("migrate", false), cpu = o->cpu_node;
    for (int i = 0; i < t->nnodes && cpu < 0; i++)
        if (t->nodes[i].has_cpus) cpu = t->nodes[i].os_index;
    if (rc == 0) rc = hb_suite_kit_check_cpu_node(t, cpu, "--cpu-node");
    if (rc) return rc;
    uint64_t bytes = o->size ? o->size : HB_MIGRATE_DEFAULT_BYTES;
    /* Base pages and THP unless --pages names one. */
    enum hb_pages pages[2] = {HB_PAGES_4K, HB_PAGES_THP};
    int npages = 2;
    if (o->given & ((uint64_t)1 << (OPT_PAGES - OPT_KERNEL))) {
        pages[0] = o->pages;
        npages = 1;
    }
    for (int i = 0; i < t->nnodes && rc == 0; i++)
        if (t->nodes[i].has_memory && hb_suite_kit_node_on(env, i))
            rc = hb_suite_kit_check_fits(env, t->nodes[i].os_index, bytes, 1);
    for (int i = 0; i < t->nnodes && rc == 0; i++)
        for (int j = 0; j < t->nnodes && rc == 0; j++) {
            if (i == j || !t->nodes[i].has_memory || !t->nodes[j].has_memory ||
                !hb_suite_kit_node_on(env, i) || !hb_suite_kit_node_on(env, j))
                continue;
            for (int p = 0; p < npages && rc == 0; p++)
                for (size_t m = 0; m < 2 && rc == 0; m++)
                    rc = migrate_add(env, out, cpu, t->nodes[i].os_index, t->nodes[j].os_index,
                                     migrate_methods[m], pages[p], bytes);
        }
    return rc;
}

/* µs per page from the GB/s of a move and the page size, with the interval. */
static void migrate_annotate(const struct hb_suite_env *env, const json_t *measured, json_t *rec)
{
    (void)env;
    (void)measured;
    if (strcmp(hb_jsonl_read_str(rec, "suite", ""), "migrate") != 0) return;
    double page = strcmp(hb_jsonl_read_str(rec, "pages", "4k"), "4k") == 0 ? 4096.0 : 2097152.0;
    struct hb_interval iv;
    bool have = hb_jsonl_read_interval(rec, &iv) && iv.n > 1;
    double v = hb_jsonl_read_num(rec, "value", NAN);
    if (!(v > 0)) return;
    json_object_set_new(rec, "us_per_page", json_real(page / (v * 1e9) * 1e6));
    json_object_set_new(rec, "us_per_page_ci95",
                        have && iv.lo > 0 ? json_pack("[f, f]", page / (iv.hi * 1e9) * 1e6,
                                                      page / (iv.lo * 1e9) * 1e6)
                                          : json_null());
}

/* The options of its own it takes, besides the run options (hb_opt_doc.h). */
static const int migrate_takes[] = {OPT_CPU_NODE, OPT_SIZE, OPT_PAGES, OPT_NODES, 0};

const struct hb_suite hb_suite_migrate = {
    .takes = migrate_takes,
    .name = "migrate",
    .help =
        "one process: GB/s and microseconds per page moving pages between every ordered pair of "
        "memory nodes, with move_pages and mbind MPOL_MF_MOVE",
    .plan = migrate_plan,
    .annotate = migrate_annotate,
    .flags = HB_SUITE_ONE_PROCESS,
    .needs_mem_nodes = 2,
    .needs_why = "moves pages from one to another",
};
