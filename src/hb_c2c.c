/* The c2c plan: which pairs of CPUs, which kernel, where the line lives. */
#include "hb_c2c.h"

#include "hb_error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 0 when this process is alone; -EINVAL with a message when a launcher (mpirun, srun, hydra)
 * started it as one of several ranks. */
static int hb_c2c_check_singleton(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS",
                                       NULL};
    for (int i = 0; vars[i]; i++) {
        const char *v = getenv(vars[i]);
        if (v && atol(v) > 1) {
            hb_err_set("c2c runs in one process that reaches every node, but this is one of %s "
                       "ranks (%s=%s); run it without mpirun/srun: hopbench c2c ...",
                       v, vars[i], v);
            return -EINVAL;
        }
    }
    return 0;
}

/* Physical core of an OS CPU (hwloc logical index), or -1 when hwloc cannot say. */
static int hb_c2c_core_of(const struct hb_topo *t, int cpu)
{
    hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t->hw, (unsigned)cpu);
    hwloc_obj_t core = pu ? hwloc_get_ancestor_obj_by_type(t->hw, HWLOC_OBJ_CORE, pu) : NULL;
    return core ? (int)core->logical_index : -1;
}

/* A second CPU of node index i for same-node pairs: on another core when there is one, since
 * SMT siblings share their L1 and would show no transfer at all; else a sibling; else -1. */
static int hb_c2c_second_cpu(const struct hb_topo *t, int i)
{
    const struct hb_node *n = &t->nodes[i];
    if (n->ncpus < 2) return -1;
    int core0 = hb_c2c_core_of(t, n->cpus[0]);
    for (int k = 1; k < n->ncpus; k++)
        if (core0 < 0 || hb_c2c_core_of(t, n->cpus[k]) != core0) return n->cpus[k];
    return n->cpus[1];
}

/* Node that holds the line for a writer on CPU a and a reader on CPU b, or -1 (message set)
 * when that node has no memory. */
static int hb_c2c_home_node(const struct hb_topo *t, int home, int a, int b)
{
    if (home >= 0) return home;
    int i = hb_topo_node_of_cpu(t, home == HB_C2C_HOME_WRITER ? a : b);
    if (i < 0 || !t->nodes[i].has_memory) {
        hb_err_set("CPUs %d-%d: the %s's node has no memory; choose --home N", a, b,
                   home == HB_C2C_HOME_WRITER ? "writer" : "reader");
        return -1;
    }
    return t->nodes[i].os_index;
}

int hb_c2c_ids(const struct hb_suite_env *env, bool cores, int **ids)
{
    const struct hb_topo *t = env->topo;
    *ids = calloc((size_t)(cores ? t->ncpus_total : t->nnodes) + 1, sizeof(**ids));
    if (!*ids) {
        hb_err_set("c2c: out of memory for %d CPUs", t->ncpus_total);
        return -ENOMEM;
    }
    int n = 0;
    for (int i = 0; i < t->nnodes; i++) {
        const struct hb_node *nd = &t->nodes[i];
        if (!hb_suite_node_on(env, i)) continue;
        if (!cores && nd->has_cpus && nd->ncpus > 0) (*ids)[n++] = nd->os_index;
        for (int k = 0; cores && k < nd->ncpus && n < t->ncpus_total; k++)
            (*ids)[n++] = nd->cpus[k];
    }
    return n;
}

int hb_c2c_cell(const struct hb_topo *t, int home_opt, bool cores, const int *ids, int r, int k,
                int *a, int *b, int *home)
{
    if (cores) {
        if (r == k) return 1;
        *a = ids[r];
        *b = ids[k];
    } else {
        int ni = hb_topo_node_index(t, ids[r]), nj = hb_topo_node_index(t, ids[k]);
        *a = t->nodes[ni].cpus[0];
        *b = r == k ? hb_c2c_second_cpu(t, ni) : t->nodes[nj].cpus[0];
        if (*b < 0) {
            hb_err_set("node %d has one CPU: no same-node pair", ids[r]);
            return -1;
        }
    }
    *home = hb_c2c_home_node(t, home_opt, *a, *b);
    return *home < 0 ? -1 : 0;
}

int hb_c2c_pick(const struct hb_suite_env *env, bool cross, int *a, int *b, int *home)
{
    const struct hb_topo *t = env->topo;
    int home_opt = env->opts->c2c_home;
    int first = -1, second = -1;
    for (int i = 0; i < t->nnodes; i++)
        if (t->nodes[i].has_cpus && t->nodes[i].ncpus > 0 && hb_suite_node_on(env, i)) {
            if (first < 0)
                first = i;
            else if (second < 0)
                second = i;
        }
    *a = *b = *home = -1;
    if (first < 0) {
        hb_err_set("no node has CPUs");
        return -1;
    }
    if (cross && second < 0) {
        hb_err_set("one node with CPUs: no cross-node pair on this machine");
        return -1;
    }
    int b_cpu = cross ? t->nodes[second].cpus[0] : hb_c2c_second_cpu(t, first);
    if (b_cpu < 0) {
        hb_err_set("node %d has one CPU: no same-node pair", t->nodes[first].os_index);
        return -1;
    }
    *a = t->nodes[first].cpus[0];
    *b = b_cpu;
    *home = hb_c2c_home_node(t, home_opt, *a, *b);
    return *home < 0 ? -1 : 0;
}

void hb_c2c_cell_name(char *buf, size_t len, bool cores, int id_row, int id_col)
{
    snprintf(buf, len, "pingpong.%s.%d-%d", cores ? "core" : "node", id_row, id_col);
}

void hb_c2c_study_name(char *buf, size_t len, const char *kernel, bool cross)
{
    snprintf(buf, len, "%s.%s", kernel, cross ? "cross-node" : "same-node");
}

/* One thread of a pair on `cpu`: its node, its place in the node's CPU list. */
static void hb_c2c_task(const struct hb_topo *t, struct hb_task *task, int cpu, const char *kernel,
                        int home)
{
    int ni = hb_topo_node_of_cpu(t, cpu);
    const struct hb_node *n = &t->nodes[ni];
    memset(task, 0, sizeof(*task));
    task->role = HB_ROLE_FG;
    task->cpu_node = n->os_index;
    for (int k = 0; k < n->ncpus; k++)
        if (n->cpus[k] == cpu) task->first_thread = k;
    task->threads = 1;
    snprintf(task->kernel, sizeof(task->kernel), "%s", kernel);
    task->policy = HB_POLICY_BIND;
    task->mem_node = home;
    task->pages = HB_PAGES_4K;
    task->bytes = HB_C2C_BYTES;
    hb_task_describe(t, task, "rw");
}

/* Append the experiment of a pair: writer on a, reader on b, the line on home. `keys`: the
 * suite keys after "home" and "cpus", as JSON members. */
static int hb_c2c_add(const struct hb_suite_env *env, struct hb_plan *out, const char *name,
                      const char *kernel, int a, int b, int home, const char *keys)
{
    static const char *const homes[] = {"", "writer", "reader"};
    struct hb_experiment e;
    hb_suite_experiment(env, &e, "c2c", name, "latency");
    /* A task pointer moves when the next is added: each is filled before the next. */
    for (int i = 0; i < 2; i++) {
        struct hb_task *task = hb_experiment_task(&e);
        if (!task) {
            hb_experiment_clear(&e);
            return -ENOMEM;
        }
        hb_c2c_task(env->topo, task, i == 0 ? a : b, kernel, home);
    }
    int h = env->opts->c2c_home;
    int n = snprintf(e.extra, sizeof(e.extra), "{\"home\": \"%s\", \"cpus\": [%d, %d], %s}",
                     h == HB_C2C_HOME_WRITER || h == HB_C2C_HOME_READER ? homes[-h] : "node", a, b,
                     keys);
    if (n < 0 || (size_t)n >= sizeof(e.extra)) {
        hb_err_set("c2c: the keys of experiment %s do not fit %zu bytes", name, sizeof(e.extra));
        hb_experiment_clear(&e);
        return -HB_EUSAGE;
    }
    return hb_plan_add(out, &e);
}

static int hb_c2c_plan_matrix(const struct hb_suite_env *env, struct hb_plan *out, bool cores)
{
    int *ids = NULL;
    int n = hb_c2c_ids(env, cores, &ids), rc = n < 0 ? n : 0;
    for (int r = 0; rc == 0 && r < n; r++)
        for (int k = 0; rc == 0 && k < n; k++) {
            int a, b, home;
            if (hb_c2c_cell(env->topo, env->opts->c2c_home, cores, ids, r, k, &a, &b, &home))
                continue; /* the matrix record says why */
            char name[HB_NAME_LEN], keys[96];
            hb_c2c_cell_name(name, sizeof(name), cores, ids[r], ids[k]);
            snprintf(keys, sizeof(keys),
                     "\"study\": \"pingpong\", \"axis\": \"%s\", \"pair\": [%d, %d]",
                     cores ? "core" : "node", ids[r], ids[k]);
            rc = hb_c2c_add(env, out, name, "pingpong", a, b, home, keys);
        }
    free(ids);
    return rc;
}

int hb_c2c_plan(const struct hb_suite_env *env, struct hb_plan *out)
{
    const struct hb_topo *t = env->topo;
    const struct hb_options *o = env->opts;
    int rc = hb_c2c_check_singleton();
    if (rc == 0 && o->c2c_home >= 0) rc = hb_suite_check_mem_node(t, o->c2c_home, "--home");
    if (rc == 0) rc = hb_c2c_plan_matrix(env, out, false);
    if (rc == 0 && o->c2c_cores) rc = hb_c2c_plan_matrix(env, out, true);
    /* False sharing on different nodes when there are several: where a shared line hurts
     * most. Locks on one node and across two. */
    static const struct {
        const char *kernel;
        int cross; /* 1 cross-node, 0 same-node, -1 cross-node when there is a second node */
    } studies[] = {{"fs_shared", -1}, {"fs_padded", -1}, {"spinlock", 0},
                   {"mutex", 0},      {"spinlock", 1},   {"mutex", 1}};
    for (size_t s = 0; rc == 0 && s < sizeof(studies) / sizeof(studies[0]); s++) {
        bool cross = studies[s].cross < 0 ? hb_suite_count_cpu_nodes(env) > 1 : studies[s].cross;
        int a, b, home;
        if (hb_c2c_pick(env, cross, &a, &b, &home)) continue; /* a record says why */
        char name[HB_NAME_LEN], keys[96];
        hb_c2c_study_name(name, sizeof(name), studies[s].kernel, cross);
        snprintf(keys, sizeof(keys), "\"study\": \"%s\"",
                 studies[s].kernel[0] == 'f' ? "false_sharing" : "lock");
        rc = hb_c2c_add(env, out, name, studies[s].kernel, a, b, home, keys);
    }
    if (rc == 0 && out->n == 0) {
        int a, b, home;
        char why[256];
        hb_c2c_pick(env, false, &a, &b, &home);
        snprintf(why, sizeof(why), "%s", hb_err_msg());
        hb_err_set("c2c: no pair of CPUs to measure on this machine (%s)", why);
        return -HB_EENV;
    }
    return rc;
}
