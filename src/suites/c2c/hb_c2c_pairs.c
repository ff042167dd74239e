/* c2c's pairs, chosen the same way for the plan and the derived records (hb_c2c.h): the
 * CPUs of a matrix cell or a study, and the node of their line. */
#include "hb_suite_c2c.h"

#include "hb_error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* Physical core of an OS CPU (hwloc logical index), or -1 when hwloc cannot say. */
static int c2c_core_of(const struct hb_topo *t, int cpu)
{
    hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t->hw, (unsigned)cpu);
    hwloc_obj_t core = pu ? hwloc_get_ancestor_obj_by_type(t->hw, HWLOC_OBJ_CORE, pu) : NULL;
    return core ? (int)core->logical_index : -1;
}

/* A second CPU of node index i for same-node pairs: on another core when there is one, since
 * SMT siblings share their L1 and would show no transfer at all; else a sibling; else -1. */
static int c2c_second_cpu(const struct hb_topo *t, int i)
{
    const struct hb_node *n = &t->nodes[i];
    if (n->ncpus < 2) return -1;
    int core0 = c2c_core_of(t, n->cpus[0]);
    for (int k = 1; k < n->ncpus; k++)
        if (core0 < 0 || c2c_core_of(t, n->cpus[k]) != core0) return n->cpus[k];
    return n->cpus[1];
}

/* Node that holds the line for a writer on CPU a and a reader on CPU b, or -1 (message set)
 * when that node has no memory. */
static int c2c_home_node(const struct hb_topo *t, int home, int a, int b)
{
    if (home >= 0) return home;
    int i = hb_topo_nodes_of_cpu(t, home == HB_C2C_HOME_WRITER ? a : b);
    if (i < 0 || !t->nodes[i].has_memory) {
        hb_error_set("CPUs %d-%d: the %s's node has no memory; choose --home N", a, b,
                     home == HB_C2C_HOME_WRITER ? "writer" : "reader");
        return -1;
    }
    return t->nodes[i].os_index;
}

int hb_c2c_pairs_ids(const struct hb_suite_env *env, bool cores, int **ids)
{
    const struct hb_topo *t = env->topo;
    *ids = calloc((size_t)(cores ? t->ncpus_total : t->nnodes) + 1, sizeof(**ids));
    if (!*ids) {
        hb_error_set("c2c: out of memory for %d CPUs", t->ncpus_total);
        return -ENOMEM;
    }
    int n = 0;
    for (int i = 0; i < t->nnodes; i++) {
        const struct hb_node *nd = &t->nodes[i];
        if (!hb_suite_kit_node_on(env, i)) continue;
        if (!cores && nd->has_cpus && nd->ncpus > 0) (*ids)[n++] = nd->os_index;
        for (int k = 0; cores && k < nd->ncpus && n < t->ncpus_total; k++)
            (*ids)[n++] = nd->cpus[k];
    }
    return n;
}

int hb_c2c_pairs_cell(const struct hb_topo *t, int home_opt, bool cores, const int *ids, int r,
                      int k, int *a, int *b, int *home)
{
    if (cores) {
        if (r == k) return 1;
        *a = ids[r];
        *b = ids[k];
    } else {
        int ni = hb_topo_nodes_index(t, ids[r]), nj = hb_topo_nodes_index(t, ids[k]);
        *a = t->nodes[ni].cpus[0];
        *b = r == k ? c2c_second_cpu(t, ni) : t->nodes[nj].cpus[0];
        if (*b < 0) {
            hb_error_set("node %d has one CPU: no same-node pair", ids[r]);
            return -1;
        }
    }
    *home = c2c_home_node(t, home_opt, *a, *b);
    return *home < 0 ? -1 : 0;
}

int hb_c2c_pairs_pick(const struct hb_suite_env *env, bool cross, int *a, int *b, int *home)
{
    const struct hb_topo *t = env->topo;
    int home_opt = env->opts->c2c_home;
    int first = -1, second = -1;
    for (int i = 0; i < t->nnodes; i++)
        if (t->nodes[i].has_cpus && t->nodes[i].ncpus > 0 && hb_suite_kit_node_on(env, i)) {
            if (first < 0)
                first = i;
            else if (second < 0)
                second = i;
        }
    *a = *b = *home = -1;
    if (first < 0) {
        hb_error_set("no node has CPUs");
        return -1;
    }
    if (cross && second < 0) {
        hb_error_set("one node with CPUs: no cross-node pair on this machine");
        return -1;
    }
    int b_cpu = cross ? t->nodes[second].cpus[0] : c2c_second_cpu(t, first);
    if (b_cpu < 0) {
        hb_error_set("node %d has one CPU: no same-node pair", t->nodes[first].os_index);
        return -1;
    }
    *a = t->nodes[first].cpus[0];
    *b = b_cpu;
    *home = c2c_home_node(t, home_opt, *a, *b);
    return *home < 0 ? -1 : 0;
}

void hb_c2c_pairs_cell_name(char *buf, size_t len, bool cores, int id_row, int id_col)
{
    snprintf(buf, len, "pingpong.%s.%d-%d", cores ? "core" : "node", id_row, id_col);
}

void hb_c2c_pairs_study_name(char *buf, size_t len, const char *kernel, bool cross)
{
    snprintf(buf, len, "%s.%s", kernel, cross ? "cross-node" : "same-node");
}
