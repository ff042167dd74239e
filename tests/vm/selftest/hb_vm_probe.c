/*
 * hb_vm_probe.c - checks, inside a numa-vm guest, the mechanisms hopbench relies on:
 * one MPI rank bound to each NUMA node, OpenMP threads staying inside it, memory
 * bound with hwloc landing on its node (move_pages), and the SLIT as hwloc reads it.
 * Adapted from the team's numa-vm self-test programs (mpi_hello.c, numa_check.c).
 *
 *   mpirun --map-by numa --bind-to numa -np N hb_vm_probe [MiB per buffer, default 16]
 *
 * Output, one line per fact (rank order), for the test driver to grep:
 *   PROBE bind rank R/N node K cpus LIST threads T on_node T ok|BAD
 *   PROBE pages rank R node K pages P on_node_pct X ok|BAD
 *   PROBE slit "ROWS" expected "ROWS" ok|BAD          (rank 0; expected = $NUMAVM_SLIT)
 *   PROBE simd cpu_avx2 A cpu_avx512f B built_avx2 C built_avx512f D   (rank 0)
 *   PROBE-RESULT PASS|FAIL                             (rank 0)
 * Exit status 0 only when every rank's checks pass.
 */
#include <hwloc.h>
#include <mpi.h>
#include <omp.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LINE 1024
#define MAX_NODES 64

struct report {
    char text[8 * LINE];
    int bad;
};

static void add(struct report *r, int ok, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void add(struct report *r, int ok, const char *fmt, ...)
{
    size_t used = strlen(r->text);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->text + used, sizeof r->text - used, fmt, ap);
    va_end(ap);
    used = strlen(r->text);
    snprintf(r->text + used, sizeof r->text - used, " %s\n", ok ? "ok" : "BAD");
    r->bad += !ok;
}

/* The NUMA node whose cpuset equals the binding exactly, or NULL. */
static hwloc_obj_t node_of_binding(hwloc_topology_t topo, hwloc_const_cpuset_t bound)
{
    hwloc_obj_t n = NULL;
    while ((n = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, n)) != NULL)
        if (!hwloc_bitmap_iszero(n->cpuset) && hwloc_bitmap_isequal(n->cpuset, bound)) return n;
    return NULL;
}

/* Position of node among the nodes that have CPUs (mpirun --map-by numa order). */
static int cpu_node_position(hwloc_topology_t topo, hwloc_obj_t node)
{
    int pos = 0;
    hwloc_obj_t n = NULL;
    while ((n = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, n)) != NULL) {
        if (n == node) return pos;
        pos += !hwloc_bitmap_iszero(n->cpuset);
    }
    return -1;
}

static void check_binding(hwloc_topology_t topo, int rank, int size, struct report *r)
{
    hwloc_cpuset_t bound = hwloc_bitmap_alloc();
    char *list = NULL;
    hwloc_get_cpubind(topo, bound, HWLOC_CPUBIND_PROCESS);
    hwloc_bitmap_list_asprintf(&list, bound);
    hwloc_obj_t node = node_of_binding(topo, bound);
    int threads = 0, on_node = 0;
#pragma omp parallel reduction(+ : threads, on_node)
    {
        int cpu = sched_getcpu();
        threads += 1;
        on_node += node != NULL && cpu >= 0 && hwloc_bitmap_isset(node->cpuset, (unsigned)cpu);
    }
    int ok = node != NULL && cpu_node_position(topo, node) == rank && on_node == threads;
    add(r, ok, "PROBE bind rank %d/%d node %d cpus %s threads %d on_node %d", rank, size,
        node ? (int)node->os_index : -1, list ? list : "?", threads, on_node);
    free(list);
    hwloc_bitmap_free(bound);
}

/* Allocate MiB bound to node, touch it from every thread, count pages on node. */
static void check_pages(hwloc_topology_t topo, hwloc_obj_t node, size_t bytes, int rank,
                        struct report *r)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t n = bytes / (size_t)page;
    char *buf = hwloc_alloc_membind(topo, bytes, node->nodeset, HWLOC_MEMBIND_BIND,
                                    HWLOC_MEMBIND_BYNODESET | HWLOC_MEMBIND_STRICT);
    void **pages = calloc(n, sizeof *pages);
    int *status = calloc(n, sizeof *status);
    long on = 0;
    int ok = buf != NULL && pages != NULL && status != NULL;
    if (ok) {
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++) {
            buf[i * (size_t)page] = (char)i;
            pages[i] = buf + i * (size_t)page;
            status[i] = -1;
        }
        /* nodes == NULL: move nothing, report each page's node */
        ok = syscall(SYS_move_pages, 0, (unsigned long)n, pages, NULL, status, 0) == 0;
        for (size_t i = 0; ok && i < n; i++)
            on += status[i] == (int)node->os_index;
        ok = ok && on == (long)n;
    }
    add(r, ok, "PROBE pages rank %d node %u pages %zu on_node_pct %.1f", rank, node->os_index, n,
        n ? 100.0 * (double)on / (double)n : 0.0);
    if (buf) hwloc_free(topo, buf, bytes);
    free(pages);
    free(status);
}

/* SLIT rows by OS index, "10 21;21 10" like $NUMAVM_SLIT; empty if none. */
static void read_slit(hwloc_topology_t topo, char *out, size_t len)
{
    unsigned nr = 1;
    struct hwloc_distances_s *d = NULL;
    out[0] = '\0';
    if (hwloc_distances_get_by_type(topo, HWLOC_OBJ_NUMANODE, &nr, &d, HWLOC_DISTANCES_KIND_FROM_OS,
                                    0) != 0 ||
        nr == 0)
        return;
    unsigned nb = d->nbobjs;
    int pos[MAX_NODES];
    for (unsigned i = 0; i < nb && i < MAX_NODES; i++)
        pos[i] = -1;
    for (unsigned i = 0; i < nb; i++)
        if (d->objs[i]->os_index < nb && d->objs[i]->os_index < MAX_NODES)
            pos[d->objs[i]->os_index] = (int)i;
    for (unsigned a = 0; a < nb && a < MAX_NODES; a++) {
        for (unsigned b = 0; b < nb; b++) {
            size_t used = strlen(out);
            unsigned long long v = pos[a] < 0 || b >= MAX_NODES || pos[b] < 0
                                       ? 0
                                       : (unsigned long long)d->values[pos[a] * nb + pos[b]];
            snprintf(out + used, len - used, "%s%llu", b ? " " : (a ? ";" : ""), v);
        }
    }
    hwloc_distances_release(topo, d);
}

static void check_slit_and_simd(hwloc_topology_t topo, struct report *r)
{
    char slit[LINE];
    const char *want = getenv("NUMAVM_SLIT");
    read_slit(topo, slit, sizeof slit);
    add(r, want != NULL && strcmp(slit, want) == 0, "PROBE slit \"%s\" expected \"%s\"", slit,
        want ? want : "(NUMAVM_SLIT unset)");
    int built_avx2 = 0, built_avx512f = 0;
#ifdef __AVX2__
    built_avx2 = 1;
#endif
#ifdef __AVX512F__
    built_avx512f = 1;
#endif
    __builtin_cpu_init();
    add(r, 1, "PROBE simd cpu_avx2 %d cpu_avx512f %d built_avx2 %d built_avx512f %d",
        __builtin_cpu_supports("avx2") != 0, __builtin_cpu_supports("avx512f") != 0, built_avx2,
        built_avx512f);
}

int main(int argc, char **argv)
{
    int rank = 0, size = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 16;

    hwloc_topology_t topo;
    hwloc_topology_init(&topo);
    hwloc_topology_load(topo);
    static struct report rep;

    check_binding(topo, rank, size, &rep);
    hwloc_obj_t node = NULL;
    while ((node = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, node)) != NULL)
        if (node->attr->numanode.local_memory > 0) check_pages(topo, node, mib << 20, rank, &rep);
    if (rank == 0) check_slit_and_simd(topo, &rep);

    for (int i = 0; i < size; i++) {
        if (i == rank) {
            fputs(rep.text, stdout);
            fflush(stdout);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    int bad = rep.bad, all_bad = 0;
    MPI_Allreduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("PROBE-RESULT %s\n", all_bad ? "FAIL" : "PASS");
    hwloc_topology_destroy(topo);
    MPI_Finalize();
    return all_bad ? 1 : 0;
}
