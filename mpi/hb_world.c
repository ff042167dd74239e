#include "hb_world.h"

#include "hb_error.h"
#include "hb_places.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* The node whose CPU list holds every CPU of this rank's binding, or -1. */
static int hb_world_find_node(const struct hb_topo *t, char *cpus, size_t len)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    int node = -2;
    if (!set ||
        (hb_places_cpus(set) != 0 && hwloc_get_cpubind(t->hw, set, HWLOC_CPUBIND_PROCESS) != 0)) {
        snprintf(cpus, len, "unknown");
        hwloc_bitmap_free(set);
        return -1;
    }
    hwloc_bitmap_list_snprintf(cpus, len, set);
    int cpu;
    hwloc_bitmap_foreach_begin(cpu, set)
    {
        int n = hb_topo_node_of_cpu(t, cpu);
        if (node == -2)
            node = n;
        else if (n != node)
            node = -1;
    }
    hwloc_bitmap_foreach_end();
    hwloc_bitmap_free(set);
    return node < 0 ? -1 : t->nodes[node].os_index;
}

/* Open MPI ends a process whose MPI_Init fails with status 1 (ours for a failed
 * measurement) and its own noise. The limits that make it fail are checked first, so the
 * user reads what to change and status 3. Below these an Open MPI 4.1 singleton cannot
 * start (it needs about 32 descriptors and 200 MB of address space). */
#define HB_MIN_FILES 64
#define HB_MIN_ADDRESS_SPACE ((rlim_t)1 << 30)

int hb_world_limits(void)
{
    struct rlimit fl, as;
    if (getrlimit(RLIMIT_NOFILE, &fl) == 0 && fl.rlim_cur != RLIM_INFINITY &&
        fl.rlim_cur < HB_MIN_FILES) {
        hb_err_set("only %llu file descriptors allowed (ulimit -n): MPI_Init needs at least %d; "
                   "raise it with ulimit -n %d",
                   (unsigned long long)fl.rlim_cur, HB_MIN_FILES, HB_MIN_FILES);
        return -HB_EENV;
    }
    if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY &&
        as.rlim_cur < HB_MIN_ADDRESS_SPACE) {
        hb_err_set("address space limited to %llu MiB (ulimit -v): MPI and the measurement "
                   "need at least %llu MiB; raise or remove the limit",
                   (unsigned long long)(as.rlim_cur >> 20),
                   (unsigned long long)(HB_MIN_ADDRESS_SPACE >> 20));
        return -HB_EENV;
    }
    return 0;
}

int hb_world_init(int *argc, char ***argv, const struct hb_topo *t, struct hb_world *w)
{
    int provided = 0;
    memset(w, 0, sizeof(*w));
    /* The launcher's binding, read before MPI_Init: an Open MPI singleton binds itself to one
     * core during MPI_Init, which says nothing about the node it was started for. */
    w->node = hb_world_find_node(t, w->cpus, sizeof(w->cpus));
    int rc = hb_world_limits();
    if (rc) return rc;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &w->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &w->size);
    const char *fake = getenv("HOPBENCH_HOST");
    if (fake && *fake)
        snprintf(w->host, sizeof(w->host), "%s", fake);
    else if (gethostname(w->host, sizeof(w->host)) != 0)
        snprintf(w->host, sizeof(w->host), "unknown");
    w->host[sizeof(w->host) - 1] = '\0';

    char(*names)[HB_HOST_LEN] = calloc((size_t)w->size, sizeof(*names));
    w->rank_node = calloc((size_t)w->size, sizeof(int));
    w->rank_host = calloc((size_t)w->size, sizeof(int));
    w->hosts = calloc((size_t)w->size, sizeof(*w->hosts));
    w->rank_cpus = calloc((size_t)w->size, sizeof(*w->rank_cpus));
    if (!names || !w->rank_node || !w->rank_host || !w->hosts || !w->rank_cpus) {
        free(names);
        hb_err_set("out of memory for %d ranks", w->size);
        return -HB_EENV;
    }
    MPI_Allgather(w->host, HB_HOST_LEN, MPI_CHAR, names, HB_HOST_LEN, MPI_CHAR, MPI_COMM_WORLD);
    MPI_Allgather(&w->node, 1, MPI_INT, w->rank_node, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Allgather(w->cpus, sizeof(w->cpus), MPI_CHAR, w->rank_cpus, sizeof(w->cpus), MPI_CHAR,
                  MPI_COMM_WORLD);
    for (int r = 0; r < w->size; r++) {
        int h = 0;
        while (h < w->nhosts && strcmp(w->hosts[h], names[r]) != 0)
            h++;
        if (h == w->nhosts) snprintf(w->hosts[w->nhosts++], HB_HOST_LEN, "%s", names[r]);
        w->rank_host[r] = h;
    }
    free(names);
    w->host_index = w->rank_host[w->rank];
    if (fake && *fake)
        MPI_Comm_split(MPI_COMM_WORLD, w->host_index, w->rank, &w->host_comm);
    else
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, w->rank, MPI_INFO_NULL,
                            &w->host_comm);
    MPI_Comm_rank(w->host_comm, &w->host_rank);
    MPI_Comm_size(w->host_comm, &w->host_size);
    /* A lone rank on a one-node host serves that node even when nothing bound it. */
    if (w->node < 0 && w->host_size == 1 && hb_topo_count_cpu_nodes(t) == 1)
        for (int i = 0; i < t->nnodes; i++)
            if (t->nodes[i].has_cpus) w->node = w->rank_node[w->rank] = t->nodes[i].os_index;
    MPI_Allgather(&w->node, 1, MPI_INT, w->rank_node, 1, MPI_INT, MPI_COMM_WORLD);
    return 0;
}

/* What is wrong on host h, in words, or "" when it is right. */
static void hb_layout_problem(const struct hb_world *w, const struct hb_topo *t, int h, char *what,
                              size_t len)
{
    int count[HB_MAX_NODES] = {0}, first[HB_MAX_NODES], nranks = 0, unbound = -1;
    int cpu_nodes = hb_topo_count_cpu_nodes(t);
    what[0] = '\0';
    for (int r = 0; r < w->size; r++) {
        if (w->rank_host[r] != h) continue;
        nranks++;
        int i = w->rank_node[r] < 0 ? -1 : hb_topo_node_index(t, w->rank_node[r]);
        if (i < 0) {
            if (unbound < 0) unbound = r;
            continue;
        }
        if (count[i]++ == 0)
            first[i] = r;
        else if (!what[0])
            snprintf(what, len, "ranks %d and %d both on node %d", first[i], r,
                     t->nodes[i].os_index);
    }
    if (!what[0] && unbound >= 0)
        snprintf(what, len, "rank %d is not bound inside one NUMA node", unbound);
    for (int i = 0; i < t->nnodes && !what[0]; i++)
        if (t->nodes[i].has_cpus && count[i] == 0)
            snprintf(what, len, "no rank on node %d", t->nodes[i].os_index);
    if (!what[0]) return;
    char head[HB_HOST_LEN + 160];
    snprintf(head, sizeof(head), "%d rank%s on host %s for %d NUMA node%s with CPUs; ", nranks,
             nranks == 1 ? "" : "s", w->hosts[h], cpu_nodes, cpu_nodes == 1 ? "" : "s");
    /* Open MPI 4.1's --map-by numa also counts memory-only nodes: one rank per node then gives
     * more ranks than CPU nodes, two of them sharing a package. */
    if (nranks == t->nnodes && nranks > cpu_nodes) {
        char tail[200];
        snprintf(tail, sizeof(tail),
                 "; Open MPI's --map-by numa also put ranks on the %d "
                 "memory-only node(s), which have no CPUs of their own",
                 t->nnodes - cpu_nodes);
        strncat(what, tail, len - strlen(what) - 1);
    }
    size_t hl = strlen(head);
    if (hl + strlen(what) + 1 <= len) {
        memmove(what + hl, what, strlen(what) + 1);
        memcpy(what, head, hl);
    }
}

/* Put the user's arguments where the launch line says "hopbench ...". */
static void hb_complete_line(char *line, size_t len, const char *args)
{
    char *dots = strstr(line, "hopbench");
    if (!dots) return;
    snprintf(dots, len - (size_t)(dots - line), "hopbench%s%s", *args ? " " : "", args);
}

int hb_world_check_layout(const struct hb_world *w, const struct hb_topo *t, const char *args)
{
    char what[768];
    for (int h = 0; h < w->nhosts; h++) {
        hb_layout_problem(w, t, h, what, sizeof(what));
        if (!what[0]) continue;
        char mpirun[512], srun[512];
        hb_topo_launch_lines(t, mpirun, sizeof(mpirun), srun, sizeof(srun));
        hb_complete_line(mpirun, sizeof(mpirun), args);
        hb_complete_line(srun, sizeof(srun), args);
        if (hb_topo_count_cpu_nodes(t) == 1)
            hb_err_set("%s; run one rank: hopbench %s (no mpirun needed) or %s", what, args,
                       mpirun);
        else
            hb_err_set("%s; run: %s  or: %s", what, mpirun, srun);
        return -HB_EENV;
    }
    return 0;
}

void hb_world_abort(const struct hb_world *w, int code, const char *msg)
{
    fprintf(stderr, "hopbench: rank %d (host %s, node %d): %s\n", w->rank, w->host, w->node, msg);
    fflush(stderr);
    /* Alone, there is nobody to stop: an Open MPI singleton's MPI_Abort only adds noise. */
    if (w->size == 1) {
        MPI_Finalize();
        exit(code);
    }
    MPI_Abort(MPI_COMM_WORLD, code);
    exit(code);
}

void hb_world_finalize(struct hb_world *w)
{
    if (w->host_comm != MPI_COMM_NULL && w->host_comm) MPI_Comm_free(&w->host_comm);
    free(w->rank_node);
    free(w->rank_host);
    free(w->hosts);
    free(w->rank_cpus);
    MPI_Finalize();
}
