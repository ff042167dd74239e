/* The MPI world (hb_world.h): started or not (a process alone), every rank's host, binding and
 * node gathered, and the layout and binding checks that refuse a launch before measuring. */
#include "hb_world.h"

#include "hb_ranks.h"
#include "hb_error.h"
#include "hb_launcher.h"
#include "hb_places.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The node whose CPU list holds every CPU of this rank's binding, or -1; *cpus = that
 * binding as a list (to free), NULL when out of memory. */
static int world_find_node(const struct hb_topo *t, char **cpus)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    int node = -2;
    *cpus = NULL;
    if (!set ||
        (hb_places_cpus(set) != 0 && hwloc_get_cpubind(t->hw, set, HWLOC_CPUBIND_PROCESS) != 0)) {
        *cpus = strdup("unknown");
        hwloc_bitmap_free(set);
        return -1;
    }
    if (hwloc_bitmap_list_asprintf(cpus, set) < 0) *cpus = NULL;
    int cpu;
    hwloc_bitmap_foreach_begin(cpu, set)
    {
        int n = hb_topo_nodes_of_cpu(t, cpu);
        if (node == -2)
            node = n;
        else if (n != node)
            node = -1;
    }
    hwloc_bitmap_foreach_end();
    hwloc_bitmap_free(set);
    return node < 0 ? -1 : t->nodes[node].os_index;
}

/* This process's id while MPI_Init runs, else 0: an exit then is MPI_Init failing (a child
 * it forks inherits the value but not the id, and exits untouched). */
static atomic_int world_in_init;

/* Open MPI ends a process whose MPI_Init fails with _exit(1) — our status for a failed
 * measurement — after its own messages, whatever the cause (its MCA settings, the session
 * directory, PMIx, resources). This definition takes the place of libc's for the MPI
 * libraries (the executable's symbols come first), so such an exit says in one hopbench line
 * what failed and ends with 3 (this machine or environment). Any other exit is untouched. */
void _exit(int status)
{
    if (atomic_load(&world_in_init) == (int)getpid()) {
        static const char msg[] =
            "hopbench: MPI_Init failed (Open MPI's messages above say why: its settings, "
            "OMPI_MCA_*, the session directory under TMPDIR, the launcher, file descriptors or "
            "memory); nothing was measured\n";
        ssize_t unused = write(STDERR_FILENO, msg, sizeof(msg) - 1);
        (void)unused;
        status = HB_EXIT_ENV;
    }
    syscall(SYS_exit_group, status);
    __builtin_unreachable();
}

/* The limits that most often make MPI_Init fail are checked before it, so the user reads
 * what to change. Below these an Open MPI 4.1 rank cannot start (it needs about 32
 * descriptors and 200 MB of address space). A process started alone never starts MPI. */
#define HB_MIN_FILES 64
#define HB_MIN_ADDRESS_SPACE ((rlim_t)1 << 30)

int hb_world_limits(void)
{
    struct rlimit fl, as;
    struct hb_launch launch;
    if (!hb_launcher_launched(&launch)) return 0;
    if (getrlimit(RLIMIT_NOFILE, &fl) == 0 && fl.rlim_cur != RLIM_INFINITY &&
        fl.rlim_cur < HB_MIN_FILES) {
        hb_error_set("only %llu file descriptors allowed (ulimit -n): MPI_Init needs at least %d; "
                     "raise it with ulimit -n %d",
                     (unsigned long long)fl.rlim_cur, HB_MIN_FILES, HB_MIN_FILES);
        return -HB_EENV;
    }
    if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY &&
        as.rlim_cur < HB_MIN_ADDRESS_SPACE) {
        hb_error_set("address space limited to %llu MiB (ulimit -v): MPI and the measurement "
                     "need at least %llu MiB; raise or remove the limit",
                     (unsigned long long)(as.rlim_cur >> 20),
                     (unsigned long long)(HB_MIN_ADDRESS_SPACE >> 20));
        return -HB_EENV;
    }
    return 0;
}

/* Every rank's binding text, whatever its length: lengths first, then the texts. */
static int world_gather_cpus(struct hb_world *w)
{
    int len = (int)strlen(w->cpus) + 1;
    int *lens = calloc((size_t)w->size, sizeof(int));
    int *displs = calloc((size_t)w->size, sizeof(int));
    if (!lens || !displs) {
        free(lens);
        free(displs);
        hb_error_set("out of memory for the bindings of %d ranks", w->size);
        return -HB_EENV;
    }
    hb_ranks_allgather_int(len, lens);
    size_t total = 0;
    for (int r = 0; r < w->size; r++) {
        displs[r] = (int)total;
        total += (size_t)lens[r];
    }
    w->cpus_text = malloc(total);
    if (!w->cpus_text) {
        free(lens);
        free(displs);
        hb_error_set("out of memory for the bindings of %d ranks", w->size);
        return -HB_EENV;
    }
    hb_ranks_allgatherv_bytes(w->cpus, len, w->cpus_text, lens, displs);
    for (int r = 0; r < w->size; r++)
        w->rank_cpus[r] = w->cpus_text + displs[r];
    free(lens);
    free(displs);
    return 0;
}

/* Every rank runs the same command line: an MPMD launch (mpirun -np 1 hopbench comm : -np 1
 * hopbench lat) would wait forever in collectives that do not match, and a rank with other
 * options would be silently ignored. Compared by a hash of argv (FNV-1a over the words and
 * their ends); a mismatch names the first rank that differs, on every rank. */
static int same_command(const struct hb_world *w, int argc, char **argv)
{
    uint64_t h = 1469598103934665603ULL, *all = calloc((size_t)w->size, sizeof(*all));
    if (!all) {
        hb_error_set("out of memory comparing the ranks' command lines");
        return -HB_EENV;
    }
    for (int i = 0; i < argc; i++)
        for (const char *c = argv[i];; c++) {
            h = (h ^ (unsigned char)*c) * 1099511628211ULL;
            if (!*c) break;
        }
    hb_ranks_allgather_bytes(&h, (int)sizeof(h), all);
    int other = 0;
    for (int r = 1; r < w->size && !other; r++)
        if (all[r] != all[0]) other = r;
    free(all);
    if (!other) return 0;
    hb_error_set("rank %d was started with another command line than rank 0 (an MPMD launch, "
                 "mpirun A : B, or other options per rank): every rank runs one study with the "
                 "same options; start them all with one command",
                 other);
    return -EINVAL;
}

int hb_world_init(int *argc, char ***argv, const struct hb_topo *t, bool threads,
                  struct hb_world *w)
{
    int provided = 0;
    memset(w, 0, sizeof(*w));
    /* The launcher's binding, read before MPI_Init: an Open MPI singleton binds itself to one
     * core during MPI_Init, which says nothing about the node it was started for. */
    w->node = world_find_node(t, &w->cpus);
    if (!w->cpus) {
        hb_error_set("out of memory reading this rank's binding");
        return -HB_EENV;
    }
    int rc = hb_world_limits();
    if (rc) {
        free(w->cpus);
        w->cpus = NULL;
        return rc;
    }
    struct hb_launch launch;
    w->host_comm = MPI_COMM_NULL;
    if (!hb_launcher_launched(&launch)) {
        /* Alone: a world of one, and MPI never starts (hb_ranks.h). */
        hb_ranks_set_solo();
        w->size = 1;
    } else {
        atomic_store(&world_in_init, (int)getpid());
        /* FUNNELED only where other threads run: Open MPI takes its locked paths at any level
         * above SINGLE, which cost a small message's call a tenth of its time or more. */
        MPI_Init_thread(argc, argv, threads ? MPI_THREAD_FUNNELED : MPI_THREAD_SINGLE, &provided);
        atomic_store(&world_in_init, 0);
        MPI_Comm_rank(MPI_COMM_WORLD, &w->rank);
        MPI_Comm_size(MPI_COMM_WORLD, &w->size);
    }
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
        hb_error_set("out of memory for %d ranks", w->size);
        return -HB_EENV;
    }
    hb_ranks_allgather_bytes(w->host, HB_HOST_LEN, names);
    hb_ranks_allgather_int(w->node, w->rank_node);
    rc = world_gather_cpus(w);
    if (rc) {
        free(names);
        return rc;
    }
    for (int r = 0; r < w->size; r++) {
        int h = 0;
        while (h < w->nhosts && strcmp(w->hosts[h], names[r]) != 0)
            h++;
        if (h == w->nhosts) snprintf(w->hosts[w->nhosts++], HB_HOST_LEN, "%s", names[r]);
        w->rank_host[r] = h;
    }
    free(names);
    w->host_index = w->rank_host[w->rank];
    if (hb_ranks_solo()) {
        w->host_size = 1;
    } else {
        if (fake && *fake)
            MPI_Comm_split(MPI_COMM_WORLD, w->host_index, w->rank, &w->host_comm);
        else
            MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, w->rank, MPI_INFO_NULL,
                                &w->host_comm);
        MPI_Comm_rank(w->host_comm, &w->host_rank);
        MPI_Comm_size(w->host_comm, &w->host_size);
    }
    if ((rc = same_command(w, *argc, *argv))) return rc;
    /* A lone rank on a one-node host serves that node even when nothing bound it. */
    if (w->node < 0 && w->host_size == 1 && hb_topo_nodes_count_cpu_nodes(t) == 1)
        for (int i = 0; i < t->nnodes; i++)
            if (t->nodes[i].has_cpus) w->node = w->rank_node[w->rank] = t->nodes[i].os_index;
    hb_ranks_allgather_int(w->node, w->rank_node);
    return 0;
}

/* What is wrong on host h, in words (to free), "" when it is right; NULL when out of
 * memory. */
static char *layout_problem(const struct hb_world *w, const struct hb_topo *t, int h)
{
    int *count = calloc((size_t)t->nnodes, sizeof(int));
    int *first = calloc((size_t)t->nnodes, sizeof(int));
    char *what = NULL;
    size_t len = 0;
    FILE *f = count && first ? open_memstream(&what, &len) : NULL;
    if (!f) {
        free(count);
        free(first);
        return NULL;
    }
    int nranks = 0, unbound = -1, dup_a = -1, dup_b = -1, dup_node = -1;
    int cpu_nodes = hb_topo_nodes_count_cpu_nodes(t);
    for (int r = 0; r < w->size; r++) {
        if (w->rank_host[r] != h) continue;
        nranks++;
        int i = w->rank_node[r] < 0 ? -1 : hb_topo_nodes_index(t, w->rank_node[r]);
        if (i < 0) {
            if (unbound < 0) unbound = r;
            continue;
        }
        if (count[i]++ == 0)
            first[i] = r;
        else if (dup_a < 0)
            dup_a = first[i], dup_b = r, dup_node = t->nodes[i].os_index;
    }
    int missing = -1;
    for (int i = 0; i < t->nnodes && missing < 0; i++)
        if (t->nodes[i].has_cpus && count[i] == 0) missing = t->nodes[i].os_index;
    if (dup_a >= 0 || unbound >= 0 || missing >= 0)
        fprintf(f, "%d rank%s on host %s for %d NUMA node%s with CPUs; ", nranks,
                nranks == 1 ? "" : "s", w->hosts[h], cpu_nodes, cpu_nodes == 1 ? "" : "s");
    if (dup_a >= 0)
        fprintf(f, "ranks %d and %d both on node %d", dup_a, dup_b, dup_node);
    else if (unbound >= 0)
        fprintf(f, "rank %d is not bound inside one NUMA node", unbound);
    else if (missing >= 0)
        fprintf(f, "no rank on node %d", missing);
    /* Open MPI 4.1's --map-by numa also counts memory-only nodes: one rank per node then gives
     * more ranks than CPU nodes, two of them sharing a package. */
    if (missing + unbound + dup_a > -3 && nranks == t->nnodes && nranks > cpu_nodes)
        fprintf(f,
                "; Open MPI's --map-by numa also put ranks on the %d memory-only node(s), which "
                "have no CPUs of their own",
                t->nnodes - cpu_nodes);
    free(count);
    free(first);
    if (fclose(f) != 0) {
        free(what);
        return NULL;
    }
    return what;
}

/* What is wrong, then the launch lines that work for this topology. */
static void world_say_launch(const struct hb_topo *t, const char *args, const char *what)
{
    char *mpirun = NULL, *srun = NULL;
    if (hb_topo_launch_lines(t, args, &mpirun, &srun) != 0)
        hb_error_set("%s", what);
    else if (hb_topo_nodes_count_cpu_nodes(t) == 1)
        hb_error_set("%s; run one rank: hopbench %s (no mpirun needed) or %s", what, args, mpirun);
    else
        hb_error_set("%s; run: %s  or: %s", what, mpirun, srun);
    free(mpirun);
    free(srun);
}

int hb_world_check_layout(const struct hb_world *w, const struct hb_topo *t, const char *args)
{
    for (int h = 0; h < w->nhosts; h++) {
        char *what = layout_problem(w, t, h);
        if (!what) {
            hb_error_set("out of memory checking the ranks of host %s", w->hosts[h]);
            return -HB_EENV;
        }
        if (what[0]) world_say_launch(t, args, what);
        bool bad = what[0] != '\0';
        free(what);
        if (bad) return -HB_EENV;
    }
    return 0;
}

int hb_world_cores_in(const struct hb_topo *t, const char *cpus, int i)
{
    hwloc_bitmap_t bound = hwloc_bitmap_alloc();
    int n = 0;
    if (!bound || hwloc_bitmap_list_sscanf(bound, cpus) != 0) {
        hwloc_bitmap_free(bound);
        return -1;
    }
    hwloc_obj_t core = NULL;
    while ((core = hwloc_get_next_obj_by_type(t->hw, HWLOC_OBJ_CORE, core)))
        if (hwloc_bitmap_intersects(core->cpuset, bound) &&
            hwloc_bitmap_intersects(core->cpuset, t->nodes[i].obj->cpuset))
            n++;
    hwloc_bitmap_free(bound);
    return n;
}

int hb_world_check_binding(const struct hb_world *w, const struct hb_topo *t, int need,
                           const char *args)
{
    int i = w->node < 0 ? -1 : hb_topo_nodes_index(t, w->node);
    int have = i < 0 ? need : hb_world_cores_in(t, w->cpus, i);
    int bad = have >= 0 && have < need;
    /* Collective: the lowest rank that is short says why; every rank returns the same. */
    int first = w->size - hb_ranks_max_int(bad ? w->size - w->rank : 0);
    if (first == w->size) return 0;
    if (first == w->rank) {
        /* What narrowed it: an explicit place list, a launcher's default, or the affinity. */
        const char *places = getenv("OMP_PLACES"), *gomp = getenv("GOMP_CPU_AFFINITY"),
                   *why = "this process's CPU affinity allows no more (taskset, numactl -C, a "
                          "cgroup)";
        struct hb_launch launch;
        char cause[256];
        if (places && strchr(places, '{')) {
            snprintf(cause, sizeof(cause), "OMP_PLACES='%s' lists only these", places);
            why = cause;
        } else if (gomp && *gomp) {
            /* libgomp binds the first thread by its own list before main, and exec keeps it. */
            snprintf(cause, sizeof(cause), "GOMP_CPU_AFFINITY='%s' lists only these", gomp);
            why = cause;
        } else if (hb_launcher_launched(&launch)) {
            snprintf(cause, sizeof(cause),
                     "%s binds a rank to one core unless told to bind it to its NUMA node",
                     launch.launcher);
            why = cause;
        }
        char *what = NULL;
        if (asprintf(&what,
                     "rank %d (host %s) is bound to %d core%s of node %d (CPUs %s), but the "
                     "plan runs %d thread%s there, one per core (%s)",
                     w->rank, w->host, have, have == 1 ? "" : "s", w->node, w->cpus, need,
                     need == 1 ? "" : "s", why) < 0) {
            hb_error_set("out of memory checking rank %d's binding", w->rank);
            return -HB_EENV;
        }
        world_say_launch(t, args, what);
        free(what);
    }
    return -HB_EENV;
}

void hb_world_abort(const struct hb_world *w, int code, const char *msg)
{
    fprintf(stderr, "hopbench: rank %d (host %s, node %d): %s\n", w->rank, w->host, w->node, msg);
    fflush(stderr);
    /* Alone, there is nobody to stop: an Open MPI singleton's MPI_Abort only adds noise. */
    if (w->size == 1) {
        if (!hb_ranks_solo()) MPI_Finalize();
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
    free(w->cpus_text);
    free(w->cpus);
    if (!hb_ranks_solo()) MPI_Finalize();
}

int hb_world_node_ranks(const struct hb_world *w, int *below)
{
    int n = 0;
    *below = 0;
    for (int r = 0; r < w->size; r++) {
        if (w->rank_host[r] != w->host_index || w->rank_node[r] != w->node) continue;
        n++;
        if (r < w->rank) (*below)++;
    }
    return n;
}
