/* Topology fixtures: what hb_topo makes of made-up machines written by hwloc's own tools.
 * Usage: test_topo_fixtures CASE FIXTURE_DIR. Fake topologies cannot bind, so nothing here
 * allocates memory. */
#include "../hb_check.h"
#include "hb_error.h"
#include "hb_mpirun_dialect.h"
#include "hb_topo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GIB (1ull << 30)
#define MIB (1ull << 20)
#define KIB (1ull << 10)

static const char *fixture_dir;

static struct hb_topo *fixture_load(const char *name)
{
    char path[1024];
    struct hb_topo *t = NULL;
    snprintf(path, sizeof(path), "%s/%s", fixture_dir, name);
    int rc = hb_topo_load(path, &t);
    if (rc != 0) {
        fprintf(stderr, "loading %s failed (%d): %s\n", path, rc, hb_error_msg());
        exit(1);
    }
    CHECK(!t->is_this_system);
    CHECK_HAS(t->source, name);
    return t;
}

/* Every node: its OS index, CPUs first..first+ncpus-1, cores, memory. */
static void check_node(const struct hb_topo *t, int i, int os, int first_cpu, int ncpus, int ncores,
                       uint64_t mem)
{
    const struct hb_node *n = &t->nodes[i];
    CHECK_INT(n->os_index, os);
    CHECK_INT(n->ncpus, ncpus);
    CHECK_INT(n->ncores, ncores);
    CHECK_INT(n->has_cpus, ncpus > 0);
    CHECK_INT(n->mem_bytes, mem);
    CHECK_INT(n->mem_free_bytes, mem);
    CHECK_INT(n->has_memory, mem > 0);
    for (int k = 0; k < n->ncpus && k < ncpus; k++)
        CHECK_INT(n->cpus[k], first_cpu + k);
    CHECK_INT(hb_topo_nodes_index(t, os), i);
}

static void check_matrix(const struct hb_topo *t, const uint64_t *dist, const int *hops)
{
    int n = t->nnodes;
    CHECK(t->distances != NULL);
    CHECK(t->hop_class != NULL);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            if (hb_topo_distances_between(t, i, j) != dist[i * n + j] ||
                hb_topo_distances_hops(t, i, j) != hops[i * n + j]) {
                fprintf(stderr,
                        "%s [%d][%d]: distance %" PRIu64 " hops %d, expected %" PRIu64 " and %d\n",
                        t->source, i, j, hb_topo_distances_between(t, i, j),
                        hb_topo_distances_hops(t, i, j), dist[i * n + j], hops[i * n + j]);
                hb_check_failures++;
            }
        }
    }
}

static void case_quartet(void)
{
    struct hb_topo *t = fixture_load("4n-quartet.xml");
    CHECK_INT(t->nnodes, 4);
    CHECK_INT(t->ncpus_total, 8);
    for (int i = 0; i < 4; i++)
        check_node(t, i, i, 2 * i, 2, 2, 16 * GIB);
    static const uint64_t dist[] = {10, 16, 16, 22, 16, 10, 22, 16, 16, 22, 10, 16, 22, 16, 16, 10};
    static const int hops[] = {0, 1, 1, 2, 1, 0, 2, 1, 1, 2, 0, 1, 2, 1, 1, 0};
    check_matrix(t, dist, hops);
    CHECK_INT(t->nclasses, 3);
    CHECK_INT(hb_topo_nodes_count_cpu_nodes(t), 4);
    CHECK_INT(hb_topo_nodes_count_mem_nodes(t), 4);
    CHECK_INT(hb_topo_nodes_of_cpu(t, 5), 2);
    CHECK_INT(hb_topo_nodes_of_cpu(t, 8), -1);
    CHECK_INT(hb_topo_nodes_index(t, 4), -1);
    CHECK_INT(hb_topo_distances_hops(t, 0, 4), -1);
    CHECK_INT(hb_topo_distances_between(t, -1, 0), 0);

    const char *src = NULL;
    CHECK_INT(hb_topo_caches_llc_bytes(t, 1, &src), 32 * MIB);
    CHECK_STR(src, "hwloc L3 (2 x 16 MiB)");
    uint64_t lv[4];
    CHECK_INT(hb_topo_caches_sizes(t, 3, lv), 3);
    CHECK_INT(lv[0], 48 * KIB);
    CHECK_INT(lv[1], 1 * MIB);
    CHECK_INT(lv[2], 16 * MIB);
    CHECK_INT(lv[3], 0);

    char *mpirun = NULL, *srun = NULL;
    CHECK_INT(hb_topo_launch_lines(t, NULL, &mpirun, &srun), 0);
    CHECK_STR(mpirun, "mpirun -np 4 --map-by numa --bind-to numa hopbench ...");
    CHECK_STR(srun, "srun --ntasks-per-node=4 --cpus-per-task=2 --cpu-bind=ldoms hopbench ...");
    char *list = hb_topo_nodes_list(t, true, true);
    CHECK_STR(list, "0,1,2,3");
    free(list);
    free(mpirun);
    free(srun);
    hb_topo_load_free(t);
}

static int popcount(unsigned x)
{
    int n = 0;
    for (; x; x >>= 1)
        n += (int)(x & 1u);
    return n;
}

static void case_ladder(void)
{
    struct hb_topo *t = fixture_load("8n-ladder.xml");
    CHECK_INT(t->nnodes, 8);
    CHECK_INT(t->ncpus_total, 32);
    for (int i = 0; i < 8; i++)
        check_node(t, i, i, 4 * i, 4, 2, 8 * GIB);
    uint64_t dist[64];
    int hops[64];
    for (int i = 0; i < 8; i++) {
        for (int j = 0; j < 8; j++) {
            dist[i * 8 + j] = 10 + 6 * (uint64_t)popcount((unsigned)(i ^ j));
            hops[i * 8 + j] = popcount((unsigned)(i ^ j));
        }
    }
    check_matrix(t, dist, hops);
    CHECK_INT(t->nclasses, 4);
    CHECK_INT(hb_topo_distances_hops(t, 0, 7), 3);
    CHECK_INT(hb_topo_distances_between(t, 0, 7), 28);
    const char *src = NULL;
    CHECK_INT(hb_topo_caches_llc_bytes(t, 7, &src), 32 * MIB);
    CHECK_STR(src, "hwloc L3 (1 x 32 MiB)");
    char *mpirun = NULL, *srun = NULL;
    CHECK_INT(hb_topo_launch_lines(t, NULL, &mpirun, &srun), 0);
    CHECK_HAS(mpirun, "-np 8 --map-by numa --bind-to numa");
    CHECK_HAS(srun, "--ntasks-per-node=8 --cpus-per-task=4 --cpu-bind=ldoms");
    free(mpirun);
    free(srun);
    hb_topo_load_free(t);
}

static void case_snc(void)
{
    struct hb_topo *t = fixture_load("2s-4n-snc.xml");
    CHECK_INT(t->nnodes, 4);
    for (int i = 0; i < 4; i++)
        check_node(t, i, i, 2 * i, 2, 2, 32 * GIB);
    static const uint64_t dist[] = {10, 11, 21, 21, 11, 10, 21, 21, 21, 21, 10, 11, 21, 21, 11, 10};
    static const int hops[] = {0, 1, 2, 2, 1, 0, 2, 2, 2, 2, 0, 1, 2, 2, 1, 0};
    check_matrix(t, dist, hops);
    CHECK_INT(t->nclasses, 3);
    /* Both nodes of a socket sit under its one L3: each is served by all of it. */
    const char *src = NULL;
    CHECK_INT(hb_topo_caches_llc_bytes(t, 2, &src), 60 * MIB);
    CHECK_STR(src, "hwloc L3 (1 x 60 MiB)");
    char *mpirun = NULL, *srun = NULL;
    CHECK_INT(hb_topo_launch_lines(t, NULL, &mpirun, &srun), 0);
    CHECK_HAS(mpirun, "-np 4 --map-by numa --bind-to numa");
    free(mpirun);
    free(srun);
    hb_topo_load_free(t);
}

static void case_memonly(void)
{
    struct hb_topo *t = fixture_load("4n-memonly.xml");
    CHECK_INT(t->nnodes, 4);
    check_node(t, 0, 0, 0, 2, 2, 16 * GIB);
    check_node(t, 1, 1, 2, 2, 2, 16 * GIB);
    check_node(t, 2, 2, 0, 0, 0, 64 * GIB);
    check_node(t, 3, 3, 0, 0, 0, 64 * GIB);
    CHECK_INT(t->ncpus_total, 4);
    CHECK_INT(hb_topo_nodes_count_cpu_nodes(t), 2);
    CHECK_INT(hb_topo_nodes_count_mem_nodes(t), 4);
    CHECK_INT(hb_topo_nodes_of_cpu(t, 0), 0);
    CHECK_INT(hb_topo_nodes_of_cpu(t, 3), 1);
    static const uint64_t dist[] = {10, 21, 14, 24, 21, 10, 24, 14, 14, 24, 10, 28, 24, 14, 28, 10};
    /* Hop classes are the interconnect's: the socket link is class 1, whatever the CXL
     * nodes' distances; their columns are -1. */
    static const int hops[] = {0, 1, -1, -1, 1, 0, -1, -1, -1, -1, 0, -1, -1, -1, -1, 0};
    check_matrix(t, dist, hops);
    CHECK_INT(t->nclasses, 2);
    char *list = hb_topo_nodes_list(t, true, false);
    CHECK_STR(list, "0,1");
    free(list);
    list = hb_topo_nodes_list(t, false, true);
    CHECK_STR(list, "0,1,2,3");
    free(list);
    const char *src = NULL;
    CHECK_INT(hb_topo_caches_llc_bytes(t, 3, &src), 0);
    CHECK_HAS(src, "no CPUs");
    uint64_t lv[4];
    CHECK_INT(hb_topo_caches_sizes(t, 2, lv), 0);

    /* One package per CPU node: Open MPI maps by package and never sees nodes 2 and 3. */
    char *mpirun = NULL, *srun = NULL;
    CHECK_INT(hb_topo_launch_lines(t, NULL, &mpirun, &srun), 0);
    CHECK_STR(mpirun, "mpirun -np 2 --map-by ppr:1:socket --bind-to socket hopbench ...");
    CHECK_STR(srun, "srun --ntasks-per-node=2 --cpus-per-task=2 --cpu-bind=mask_cpu:0x3,0xc "
                    "hopbench ...");
    CHECK_LACKS(mpirun, "--map-by numa");
    free(mpirun);
    free(srun);
    /* Open MPI 5's mpirun (PRRTE) calls a package a package. */
    hb_mpirun_dialect_choose("Open MPI v5.0.7, package: Debian OpenMPI");
    CHECK_INT(hb_topo_launch_lines(t, NULL, &mpirun, &srun), 0);
    CHECK_STR(mpirun, "mpirun -np 2 --map-by ppr:1:package --bind-to package hopbench ...");
    hb_mpirun_dialect_choose("Open MPI v4.1.4");
    free(mpirun);
    free(srun);
    hb_topo_load_free(t);
}

static void case_snc_cxl(void)
{
    struct hb_topo *t = fixture_load("3n-snc-cxl.xml");
    CHECK_INT(t->nnodes, 3);
    check_node(t, 0, 0, 0, 2, 2, 32 * GIB);
    check_node(t, 1, 1, 2, 2, 2, 32 * GIB);
    check_node(t, 2, 2, 0, 0, 0, 256 * GIB);
    static const uint64_t dist[] = {10, 12, 20, 12, 10, 20, 20, 20, 10};
    static const int hops[] = {0, 1, -1, 1, 0, -1, -1, -1, 0};
    check_matrix(t, dist, hops);
    /* Two CPU nodes in one package: only an explicit per-rank CPU list is exact. */
    char *mpirun = NULL, *srun = NULL;
    CHECK_INT(hb_topo_launch_lines(t, NULL, &mpirun, &srun), 0);
    CHECK_STR(mpirun, "mpirun -np 2 --bind-to none -x HOPBENCH_RANK_CPUS=0-1:2-3 hopbench ...");
    CHECK_HAS(srun, "--ntasks-per-node=2 --cpus-per-task=2 --cpu-bind=mask_cpu:0x3,0xc ");
    free(mpirun);
    free(srun);
    hb_topo_load_free(t);
}

static void case_single(void)
{
    struct hb_topo *t = fixture_load("1n-single.xml");
    CHECK_INT(t->nnodes, 1);
    check_node(t, 0, 0, 0, 8, 4, 8 * GIB);
    CHECK(t->distances == NULL);
    CHECK(t->hop_class == NULL);
    CHECK_INT(t->nclasses, 0);
    CHECK_INT(hb_topo_distances_hops(t, 0, 0), 0);
    CHECK_INT(hb_topo_distances_between(t, 0, 0), 0);
    const char *src = NULL;
    CHECK_INT(hb_topo_caches_llc_bytes(t, 0, &src), 8 * MIB);
    char *mpirun = NULL, *srun = NULL;
    CHECK_INT(hb_topo_launch_lines(t, NULL, &mpirun, &srun), 0);
    CHECK_HAS(mpirun, "-np 1 --map-by numa --bind-to numa");
    CHECK_HAS(srun, "--ntasks-per-node=1 --cpus-per-task=8");
    free(mpirun);
    free(srun);
    hb_topo_load_free(t);
}

static void case_nodist(void)
{
    struct hb_topo *t = fixture_load("2n-nodist.xml");
    CHECK_INT(t->nnodes, 2);
    check_node(t, 0, 0, 0, 2, 2, 16 * GIB);
    check_node(t, 1, 1, 2, 2, 2, 16 * GIB);
    CHECK(t->distances == NULL);
    CHECK_INT(t->nclasses, 0);
    CHECK_INT(hb_topo_distances_hops(t, 0, 1), -1);
    CHECK_INT(hb_topo_distances_hops(t, 1, 1), 0);
    CHECK_INT(hb_topo_distances_between(t, 0, 1), 0);
    hb_topo_load_free(t);
}

static void case_badfiles(void)
{
    struct hb_topo *t = (struct hb_topo *)&t;
    char path[1024];
    snprintf(path, sizeof(path), "%s/no-such-machine.xml", fixture_dir);
    CHECK_INT(hb_topo_load(path, &t), -ENOENT);
    CHECK(t == NULL);
    char want[1200];
    snprintf(want, sizeof(want), "topology file '%s' does not exist", path);
    CHECK_STR(hb_error_msg(), want);

    /* Not XML at all, and XML that is not a topology. */
    static const char *const bodies[] = {"hello, not a topology\n",
                                         "<?xml version=\"1.0\"?>\n<html><body/></html>\n"};
    for (int k = 0; k < 2; k++) {
        char tmp[] = "/tmp/hb-topo-bad-XXXXXX";
        int fd = mkstemp(tmp);
        CHECK(fd >= 0);
        if (fd < 0) continue;
        CHECK(write(fd, bodies[k], strlen(bodies[k])) == (ssize_t)strlen(bodies[k]));
        close(fd);
        t = (struct hb_topo *)&t;
        CHECK_INT(hb_topo_load(tmp, &t), -EINVAL);
        CHECK(t == NULL);
        /* hwloc's own reason in the middle; the start and the advice are ours. */
        snprintf(want, sizeof(want), "topology file '%s' cannot be loaded by the installed hwloc",
                 tmp);
        CHECK(strncmp(hb_error_msg(), want, strlen(want)) == 0);
        CHECK(strstr(hb_error_msg(), "; make one with: lstopo --of xml FILE.xml") != NULL);
        CHECK(strchr(hb_error_msg(), '\n') == NULL);
        unlink(tmp);
    }
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*run)(void);
    } cases[] = {
        {"quartet", case_quartet}, {"ladder", case_ladder},     {"snc", case_snc},
        {"memonly", case_memonly}, {"snc-cxl", case_snc_cxl},   {"single", case_single},
        {"nodist", case_nodist},   {"badfiles", case_badfiles},
    };
    if (argc != 3) {
        fprintf(stderr, "usage: %s CASE FIXTURE_DIR\n", argv[0]);
        return 2;
    }
    fixture_dir = argv[2];
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        if (strcmp(argv[1], cases[k].name) == 0) {
            cases[k].run();
            return hb_check_result();
        }
    }
    fprintf(stderr, "unknown case '%s'\n", argv[1]);
    return 2;
}
