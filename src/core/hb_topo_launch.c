/* Launch lines (mpirun, srun) with one rank per CPU node. */
#include "hb_topo.h"

#include "hb_error.h"
#include "hb_mpirun_dialect.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* True when every CPU node is exactly the CPUs of one package and vice versa. */
static bool topo_nodes_are_packages(const struct hb_topo *t, int ncpu_nodes)
{
    if (hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_PACKAGE) != ncpu_nodes) return false;
    bool same = true;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    for (int i = 0; i < t->nnodes && same && set; i++) {
        const struct hb_node *node = &t->nodes[i];
        if (!node->has_cpus) continue;
        hwloc_bitmap_zero(set);
        for (int k = 0; k < node->ncpus; k++)
            hwloc_bitmap_set(set, (unsigned)node->cpus[k]);
        hwloc_obj_t pkg = hwloc_get_obj_covering_cpuset(t->hw, set);
        while (pkg && pkg->type != HWLOC_OBJ_PACKAGE)
            pkg = pkg->parent;
        same = pkg && hwloc_bitmap_isequal(pkg->cpuset, set);
    }
    same = same && set;
    hwloc_bitmap_free(set);
    return same;
}

/* The CPUs of a node as a list ("0-7,16-23") or a taskset mask ("0xff00ff") into f.
 * Returns 0 or -ENOMEM. */
static int topo_node_cpus_print(FILE *f, const struct hb_node *node, bool mask)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    char *text = NULL;
    for (int k = 0; set && k < node->ncpus; k++)
        hwloc_bitmap_set(set, (unsigned)node->cpus[k]);
    int rc = set && (mask ? hwloc_bitmap_taskset_asprintf(&text, set)
                          : hwloc_bitmap_list_asprintf(&text, set)) >= 0
                 ? 0
                 : -ENOMEM;
    if (rc == 0) fputs(text, f);
    hwloc_bitmap_free(set);
    free(text);
    return rc;
}

/* mpirun (Open MPI 4.1 or 5: hb_mpirun_dialect) with one rank per CPU node.
 *
 * --map-by numa counts every hwloc NUMA node, and a memory-only node carries the cpuset of
 * the package it hangs from, so with one present Open MPI would place a rank "on" it,
 * overlapping a real node's rank. Then: when each CPU node is exactly one package,
 * --map-by ppr:1:package --bind-to package gives the same binding (Open MPI 4.1 calls a
 * package "socket"; it rejects "package"). Otherwise (SNC plus CXL, HBM...) nothing in Open
 * MPI's mapping language names "CPU nodes only": mpirun's binding is off and each rank binds
 * itself to the exact CPU list of its node, local rank r the r-th CPU node (hb_rank_cpus.h).
 * One app context: Open MPI 5.0.7 crashes on several (open-mpi/ompi#13303). */
static int topo_mpirun_line(const struct hb_topo *t, const char *cmd, FILE *f)
{
    int ncpu_nodes = hb_topo_nodes_count_cpu_nodes(t);
    if (ncpu_nodes == t->nnodes) {
        fprintf(f, "mpirun -np %d --map-by numa --bind-to numa %s", ncpu_nodes, cmd);
        return 0;
    }
    if (topo_nodes_are_packages(t, ncpu_nodes)) {
        const char *pkg = hb_mpirun_dialect()->package;
        fprintf(f, "mpirun -np %d --map-by ppr:1:%s --bind-to %s %s", ncpu_nodes, pkg, pkg, cmd);
        return 0;
    }
    fprintf(f, "mpirun -np %d --bind-to none -x HOPBENCH_RANK_CPUS=", ncpu_nodes);
    const char *sep = "";
    for (int i = 0; i < t->nnodes; i++) {
        if (!t->nodes[i].has_cpus) continue;
        fputs(sep, f);
        if (topo_node_cpus_print(f, &t->nodes[i], false)) return -ENOMEM;
        sep = ":";
    }
    fprintf(f, " %s", cmd);
    return 0;
}

/* srun with one task per CPU node. --cpu-bind=ldoms binds each task to a NUMA locality
 * domain, which is exact while every node has CPUs; with memory-only nodes Slurm's domains
 * may include them, so each task gets the exact mask of its node instead (mask i goes to
 * local task i). --cpus-per-task is the smallest node's CPU count so every task fits. */
static int topo_srun_line(const struct hb_topo *t, const char *cmd, FILE *f)
{
    int ncpu_nodes = hb_topo_nodes_count_cpu_nodes(t);
    int per_task = 0;
    for (int i = 0; i < t->nnodes; i++)
        if (t->nodes[i].has_cpus && (per_task == 0 || t->nodes[i].ncpus < per_task))
            per_task = t->nodes[i].ncpus;
    fprintf(f, "srun --ntasks-per-node=%d --cpus-per-task=%d --cpu-bind=", ncpu_nodes, per_task);
    if (ncpu_nodes == t->nnodes) {
        fprintf(f, "ldoms %s", cmd);
        return 0;
    }
    const char *sep = "mask_cpu:";
    for (int i = 0; i < t->nnodes; i++) {
        if (!t->nodes[i].has_cpus) continue;
        fputs(sep, f);
        if (topo_node_cpus_print(f, &t->nodes[i], true)) return -ENOMEM;
        sep = ",";
    }
    fprintf(f, " %s", cmd);
    return 0;
}

/* One launch line written by `line` into a string that grows to fit. */
static char *topo_line_text(const struct hb_topo *t, const char *cmd,
                            int (*line)(const struct hb_topo *, const char *, FILE *))
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return NULL;
    int rc = line(t, cmd, f);
    if (fclose(f) != 0 || rc != 0) {
        free(text);
        return NULL;
    }
    return text;
}

int hb_topo_launch_lines(const struct hb_topo *t, const char *args, char **mpirun, char **srun)
{
    char *cmd = NULL;
    if (asprintf(&cmd, "hopbench%s%s", args && !*args ? "" : " ", args ? args : "...") < 0)
        cmd = NULL;
    *mpirun = cmd ? topo_line_text(t, cmd, topo_mpirun_line) : NULL;
    *srun = cmd ? topo_line_text(t, cmd, topo_srun_line) : NULL;
    free(cmd);
    if (*mpirun && *srun) return 0;
    free(*mpirun);
    free(*srun);
    *mpirun = *srun = NULL;
    hb_error_set("out of memory writing the launch lines for %d NUMA nodes", t->nnodes);
    return -ENOMEM;
}
