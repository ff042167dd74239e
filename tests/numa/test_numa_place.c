/* Placement on this machine: buffers are mapped, bound and touched for real, then located
 * with hb_placement_buf_locate and, independently, with hwloc_get_area_memlocation (as hwloc's own
 * tests/hwloc/hwloc_get_area_memlocation.c does). Usage: test_numa_place CASE FIXTURE_DIR.
 * Cases that need two nodes with memory return 77 (skipped) on a smaller machine. */
#include "../hb_check.h"
#include "hb_error.h"
#include "hb_placement.h"
#include "hb_topo.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#define HB_SKIP 77
#define MIB ((size_t)1 << 20)

static const char *fixture_dir;
static struct hb_topo *topo;

/* OS indexes of the nodes with memory. */
/* Linux numbers at most 1024 nodes (MAX_NUMNODES): room for all of them. */
#define HB_TEST_NODES 1024

static int mem_nodes(int *os, int max)
{
    int n = 0;
    for (int i = 0; i < topo->nnodes && n < max; i++)
        if (topo->nodes[i].has_memory) os[n++] = topo->nodes[i].os_index;
    return n;
}

/* hwloc's view of where the touched pages of b are must be exactly the nodes in want[]. */
static void check_memlocation(const struct hb_buf *b, const int *want, int nwant)
{
    hwloc_bitmap_t got = hwloc_bitmap_alloc(), expect = hwloc_bitmap_alloc();
    for (int k = 0; k < nwant; k++)
        hwloc_bitmap_set(expect, (unsigned)want[k]);
    CHECK_INT(hwloc_get_area_memlocation(topo->hw, b->ptr, b->bytes, got, HWLOC_MEMBIND_BYNODESET),
              0);
    /* No expected node: the pages only have to be somewhere. */
    bool ok = nwant ? hwloc_bitmap_isequal(got, expect) : !hwloc_bitmap_iszero(got);
    if (!ok) {
        char g[128], e[128];
        hwloc_bitmap_list_snprintf(g, sizeof(g), got);
        hwloc_bitmap_list_snprintf(e, sizeof(e), expect);
        fprintf(stderr, "hwloc_get_area_memlocation says nodes %s, expected %s\n", g, e);
        hb_check_failures++;
    }
    hwloc_bitmap_free(got);
    hwloc_bitmap_free(expect);
}

/* The policy the kernel holds for the buffer, read back through hwloc. */
static void check_membind(const struct hb_buf *b, hwloc_membind_policy_t want_policy,
                          const int *want, int nwant)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc(), expect = hwloc_bitmap_alloc();
    hwloc_membind_policy_t policy = HWLOC_MEMBIND_DEFAULT;
    for (int k = 0; k < nwant; k++)
        hwloc_bitmap_set(expect, (unsigned)want[k]);
    CHECK_INT(hwloc_get_area_membind(topo->hw, b->ptr, b->map_bytes, set, &policy,
                                     HWLOC_MEMBIND_BYNODESET),
              0);
    CHECK_INT(policy, want_policy);
    if (nwant) CHECK(hwloc_bitmap_isequal(set, expect));
    hwloc_bitmap_free(set);
    hwloc_bitmap_free(expect);
}

/* Allocate, check nothing is there yet, touch, check every page is on want[]. */
static void place_and_check(enum hb_policy policy, const int *nodes, int nnodes,
                            enum hb_pages pages, size_t bytes, const int *want, int nwant)
{
    struct hb_buf b;
    struct hb_pageloc loc;
    int rc = hb_placement_buf_alloc(topo, bytes, policy, nodes, nnodes, pages, &b);
    CHECK_INT(rc, 0);
    if (rc != 0) {
        fprintf(stderr, "%s\n", hb_error_msg());
        return;
    }
    CHECK(b.ptr != NULL);
    CHECK_INT(b.bytes, bytes);
    CHECK(b.map_bytes >= bytes);
    CHECK_INT(b.policy, policy);
    CHECK_INT(b.pages, pages);

    size_t step = pages == HB_PAGES_HUGE ? 2 * MIB : 4096;
    CHECK_INT(hb_placement_buf_locate(topo, &b, want, nwant, &loc), 0);
    CHECK_INT(loc.checked, bytes / step);
    CHECK_INT(loc.absent, loc.checked);
    CHECK(loc.on_target_pct == 0.0);
    hb_placement_pageloc_free(&loc);

    memset(b.ptr, 1, bytes);
    CHECK_INT(hb_placement_buf_locate(topo, &b, want, nwant, &loc), 0);
    CHECK_INT(loc.step_bytes, step);
    CHECK_INT(loc.checked, bytes / step);
    CHECK_INT(loc.absent, 0);
    if (loc.on_target_pct != 100.0) {
        fprintf(stderr, "%s/%s: %.2f%% of pages on target\n", hb_placement_policy_name(policy),
                hb_placement_pages_name(pages), loc.on_target_pct);
        hb_check_failures++;
    }
    uint64_t sum = 0;
    for (int i = 0; i < topo->nnodes; i++)
        sum += loc.on_node[i];
    CHECK_INT(sum, loc.checked);
    hb_placement_pageloc_free(&loc);
    check_memlocation(&b, want, nwant);
    hb_placement_buf_free(&b);
    CHECK(b.ptr == NULL);
}

static int case_machine(void)
{
    CHECK(topo->is_this_system);
    CHECK_STR(topo->source, "this machine");
    CHECK(topo->nnodes >= 1);
    CHECK(topo->ncpus_total >= 1);
    CHECK_INT(topo->ncpus_total, hwloc_bitmap_weight(hwloc_topology_get_topology_cpuset(topo->hw)));
    for (int i = 0; i < topo->nnodes; i++) {
        const struct hb_node *n = &topo->nodes[i];
        if (n->has_memory) CHECK(n->mem_free_bytes > 0 && n->mem_free_bytes <= n->mem_bytes);
        for (int k = 0; k < n->ncpus; k++)
            CHECK_INT(hb_topo_nodes_of_cpu(topo, n->cpus[k]), i);
        CHECK(n->ncores <= n->ncpus);
        if (i > 0) CHECK(n->os_index > topo->nodes[i - 1].os_index);
    }
    /* This process runs on some CPU, and that CPU belongs to a node. */
    int cpu = sched_getcpu();
    CHECK(cpu >= 0 && hb_topo_nodes_of_cpu(topo, cpu) >= 0);
    char *mpirun = NULL, *srun = NULL;
    char want[64];
    CHECK_INT(hb_topo_launch_lines(topo, NULL, &mpirun, &srun), 0);
    snprintf(want, sizeof(want), "-np %d ", hb_topo_nodes_count_cpu_nodes(topo));
    CHECK_HAS(mpirun, want);
    CHECK_HAS(mpirun, "hopbench");
    free(mpirun);
    free(srun);
    return 0;
}

static int case_bind(void)
{
    int os[HB_TEST_NODES];
    CHECK(mem_nodes(os, HB_TEST_NODES) >= 1);
    place_and_check(HB_POLICY_BIND, os, 1, HB_PAGES_4K, 16 * MIB, os, 1);
    struct hb_buf b;
    CHECK_INT(hb_placement_buf_alloc(topo, 4 * MIB, HB_POLICY_BIND, os, 1, HB_PAGES_4K, &b), 0);
    check_membind(&b, HWLOC_MEMBIND_BIND, os, 1);
    hb_placement_buf_free(&b);
    return 0;
}

static int case_interleave(void)
{
    int os[HB_TEST_NODES];
    CHECK(mem_nodes(os, HB_TEST_NODES) >= 1);
    place_and_check(HB_POLICY_INTERLEAVE, os, 1, HB_PAGES_4K, 16 * MIB, os, 1);
    struct hb_buf b;
    CHECK_INT(hb_placement_buf_alloc(topo, 4 * MIB, HB_POLICY_INTERLEAVE, os, 1, HB_PAGES_4K, &b),
              0);
    check_membind(&b, HWLOC_MEMBIND_INTERLEAVE, os, 1);
    hb_placement_buf_free(&b);
    return 0;
}

static int case_firsttouch(void)
{
    /* Pinned to the CPUs of the node it runs on, this thread's first touch must place every
     * page there. */
    int i = hb_topo_nodes_of_cpu(topo, sched_getcpu());
    CHECK(i >= 0);
    if (i < 0) return 0;
    int node = topo->nodes[i].os_index;
    hwloc_bitmap_t cpus = hwloc_bitmap_alloc();
    for (int k = 0; k < topo->nodes[i].ncpus; k++)
        hwloc_bitmap_set(cpus, (unsigned)topo->nodes[i].cpus[k]);
    CHECK_INT(hwloc_set_cpubind(topo->hw, cpus, HWLOC_CPUBIND_THREAD), 0);
    hwloc_bitmap_free(cpus);
    place_and_check(HB_POLICY_FIRSTTOUCH, NULL, 0, HB_PAGES_4K, 8 * MIB, &node, 1);
    place_and_check(HB_POLICY_FIRSTTOUCH, NULL, 0, HB_PAGES_THP, 8 * MIB, NULL, 0);

    struct hb_buf b;
    CHECK_INT(hb_placement_buf_alloc(topo, 4 * MIB, HB_POLICY_FIRSTTOUCH, NULL, 0, HB_PAGES_4K, &b),
              0);
    CHECK_INT(b.nnodes, 0);
    check_membind(&b, HWLOC_MEMBIND_FIRSTTOUCH, NULL, 0);
    hb_placement_buf_free(&b);
    return 0;
}

/* The smaps entry of the mapping holding p: its VmFlags line and AnonHugePages in kB. */
static int smaps_of(const void *p, char *flags, size_t len, long *anon_huge_kb)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    bool inside = false, found = false;
    if (!f) return -errno;
    flags[0] = '\0';
    *anon_huge_kb = -1;
    while (fgets(line, sizeof(line), f)) {
        uintptr_t lo, hi;
        if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &lo, &hi) == 2 && strchr(line, ' ')) {
            if (found && inside) break;
            inside = (uintptr_t)p >= lo && (uintptr_t)p < hi;
            found = found || inside;
            continue;
        }
        if (!inside) continue;
        if (strncmp(line, "VmFlags:", 8) == 0) {
            strncpy(flags, line + 8, len - 1);
            flags[len - 1] = '\0';
        }
        sscanf(line, "AnonHugePages: %ld kB", anon_huge_kb);
    }
    fclose(f);
    return found ? 0 : -ENOENT;
}

static int case_pages(void)
{
    int os[HB_TEST_NODES];
    CHECK(mem_nodes(os, HB_TEST_NODES) >= 1);
    char flags[256];
    long anon_huge = -1;
    struct hb_buf b;

    /* 4k: the kernel must know THP is off for the range (VmFlags "nh"). */
    CHECK_INT(hb_placement_buf_alloc(topo, 8 * MIB + 4096, HB_POLICY_BIND, os, 1, HB_PAGES_4K, &b),
              0);
    CHECK_INT(b.map_bytes, 8 * MIB + 4096);
    memset(b.ptr, 1, b.bytes);
    CHECK_INT(smaps_of(b.ptr, flags, sizeof(flags), &anon_huge), 0);
    CHECK_HAS(flags, " nh");
    CHECK_INT(anon_huge, 0);
    hb_placement_buf_free(&b);

    /* thp: 2 MiB aligned, a whole number of huge pages, MADV_HUGEPAGE (VmFlags "hg").
     * Whether the kernel finds free huge pages right now is not ours to assert. */
    CHECK_INT(hb_placement_buf_alloc(topo, 8 * MIB + 4096, HB_POLICY_BIND, os, 1, HB_PAGES_THP, &b),
              0);
    CHECK_INT((uintptr_t)b.ptr % (2 * MIB), 0);
    CHECK_INT(b.map_bytes, 10 * MIB);
    memset(b.ptr, 1, b.bytes);
    CHECK_INT(smaps_of(b.ptr, flags, sizeof(flags), &anon_huge), 0);
    CHECK_HAS(flags, " hg");
    printf("thp buffer: AnonHugePages %ld kB of %zu kB\n", anon_huge, b.map_bytes / 1024);
    hb_placement_buf_free(&b);

    place_and_check(HB_POLICY_BIND, os, 1, HB_PAGES_THP, 8 * MIB, os, 1);
    return 0;
}

static long free_hugepages(int os)
{
    char path[128];
    long n = -1;
    snprintf(path, sizeof(path),
             "/sys/devices/system/node/node%d/hugepages/hugepages-2048kB/free_hugepages", os);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    if (fscanf(f, "%ld", &n) != 1) n = -1;
    fclose(f);
    return n;
}

static int case_huge(void)
{
    int os[HB_TEST_NODES];
    CHECK(mem_nodes(os, HB_TEST_NODES) >= 1);
    long have = free_hugepages(os[0]);
    if (have >= 2) {
        printf("node %d has %ld free huge pages: allocating instead of checking the refusal\n",
               os[0], have);
        place_and_check(HB_POLICY_BIND, os, 1, HB_PAGES_HUGE, 4 * MIB, os, 1);
        return 0;
    }
    struct hb_buf b = {.ptr = &b};
    char want[512];
    CHECK_INT(hb_placement_buf_alloc(topo, 3 * MIB, HB_POLICY_BIND, os, 1, HB_PAGES_HUGE, &b),
              -ENOMEM);
    CHECK(b.ptr == NULL);
    snprintf(want, sizeof(want),
             "--pages huge needs 2 free 2 MiB huge pages on node %d, found %ld; reserve them "
             "with: echo 2 > /sys/devices/system/node/node%d/hugepages/hugepages-2048kB/"
             "nr_hugepages",
             os[0], have < 0 ? 0 : have, os[0]);
    CHECK_STR(hb_error_msg(), want);
    return 0;
}

static int maps_count(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    int n = 0, c;
    if (!f) return -1;
    while ((c = fgetc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

static int case_errors(void)
{
    struct hb_buf b = {.ptr = &b};
    char want[1200], *list = NULL;
    int before = maps_count();

    int bad = 999;
    list = hb_topo_nodes_list(topo, false, false);
    CHECK_INT(hb_placement_buf_alloc(topo, MIB, HB_POLICY_BIND, &bad, 1, HB_PAGES_4K, &b), -EINVAL);
    snprintf(want, sizeof(want), "unknown NUMA node 999; valid nodes: %s", list);
    CHECK_STR(hb_error_msg(), want);
    CHECK(b.ptr == NULL);
    CHECK_INT(hb_placement_buf_alloc(topo, MIB, HB_POLICY_INTERLEAVE, &bad, 1, HB_PAGES_4K, &b),
              -EINVAL);
    CHECK_STR(hb_error_msg(), want);

    int os[HB_TEST_NODES];
    CHECK(mem_nodes(os, HB_TEST_NODES) >= 1);
    int two[2] = {os[0], os[0]};
    CHECK_INT(hb_placement_buf_alloc(topo, MIB, HB_POLICY_BIND, two, 2, HB_PAGES_4K, &b), -EINVAL);
    CHECK_HAS(hb_error_msg(), "bind placement got 2 nodes; it needs exactly one");
    CHECK_INT(hb_placement_buf_alloc(topo, 0, HB_POLICY_BIND, os, 1, HB_PAGES_4K, &b), -EINVAL);

    /* Far more than the node has free: refused before anything is mapped. */
    size_t huge = (size_t)topo->nodes[hb_topo_nodes_index(topo, os[0])].mem_bytes * 4;
    CHECK_INT(hb_placement_buf_alloc(topo, huge, HB_POLICY_BIND, os, 1, HB_PAGES_4K, &b), -ENOMEM);
    CHECK_HAS(hb_error_msg(), "buffer of ");
    snprintf(want, sizeof(want), " does not fit node %d: ", os[0]);
    CHECK_HAS(hb_error_msg(), want);
    CHECK_HAS(hb_error_msg(), " free");
    CHECK(b.ptr == NULL);
    CHECK_INT(maps_count(), before);

    /* A topology read from a file describes some other machine: never allocate on it. */
    char path[1024];
    struct hb_topo *xml = NULL;
    snprintf(path, sizeof(path), "%s/4n-quartet.xml", fixture_dir);
    CHECK_INT(hb_topo_load(path, &xml), 0);
    if (xml) {
        int zero = 0;
        CHECK_INT(hb_placement_buf_alloc(xml, MIB, HB_POLICY_BIND, &zero, 1, HB_PAGES_4K, &b),
                  -EINVAL);
        snprintf(want, sizeof(want), "cannot allocate on a topology loaded from %s", path);
        CHECK_STR(hb_error_msg(), want);
        hb_topo_load_free(xml);
    }
    free(list);
    return 0;
}

static int case_multinode(void)
{
    int os[HB_TEST_NODES];
    int n = mem_nodes(os, HB_TEST_NODES);
    if (n < 2) {
        printf("SKIP: this machine has %d NUMA node(s) with memory; binding to a second node "
               "and interleaving need 2\n",
               n);
        return HB_SKIP;
    }
    /* Bind to the last node, which is remote for most CPUs. */
    place_and_check(HB_POLICY_BIND, &os[n - 1], 1, HB_PAGES_4K, 16 * MIB, &os[n - 1], 1);
    place_and_check(HB_POLICY_BIND, &os[n - 1], 1, HB_PAGES_THP, 16 * MIB, &os[n - 1], 1);

    /* Interleave over two nodes: every page on one of them, about half on each. */
    struct hb_buf b;
    struct hb_pageloc loc;
    CHECK_INT(hb_placement_buf_alloc(topo, 64 * MIB, HB_POLICY_INTERLEAVE, os, 2, HB_PAGES_4K, &b),
              0);
    if (!b.ptr) return hb_check_result();
    memset(b.ptr, 1, b.bytes);
    CHECK_INT(hb_placement_buf_locate(topo, &b, NULL, 0, &loc), 0);
    CHECK(loc.on_target_pct == 100.0);
    for (int k = 0; k < 2; k++) {
        double share = loc.share_pct[hb_topo_nodes_index(topo, os[k])];
        if (share < 40.0 || share > 60.0) {
            fprintf(stderr, "interleave put %.1f%% of pages on node %d, expected about 50%%\n",
                    share, os[k]);
            hb_check_failures++;
        }
    }
    hb_placement_pageloc_free(&loc);
    /* Against a single expected node, half the pages are off target. */
    CHECK_INT(hb_placement_buf_locate(topo, &b, &os[0], 1, &loc), 0);
    CHECK(loc.on_target_pct > 40.0 && loc.on_target_pct < 60.0);
    hb_placement_pageloc_free(&loc);
    check_memlocation(&b, os, 2);
    hb_placement_buf_free(&b);
    return 0;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(void);
    } cases[] = {
        {"machine", case_machine},       {"bind", case_bind},
        {"interleave", case_interleave}, {"firsttouch", case_firsttouch},
        {"pages", case_pages},           {"huge", case_huge},
        {"errors", case_errors},         {"multinode", case_multinode},
    };
    if (argc != 3) {
        fprintf(stderr, "usage: %s CASE FIXTURE_DIR\n", argv[0]);
        return 2;
    }
    fixture_dir = argv[2];
    int rc = hb_topo_load(NULL, &topo);
    if (rc != 0) {
        fprintf(stderr, "cannot load this machine's topology (%d): %s\n", rc, hb_error_msg());
        return 1;
    }
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        if (strcmp(argv[1], cases[k].name) == 0) {
            rc = cases[k].run();
            hb_topo_load_free(topo);
            return rc == HB_SKIP ? HB_SKIP : hb_check_result();
        }
    }
    hb_topo_load_free(topo);
    fprintf(stderr, "unknown case '%s'\n", argv[1]);
    return 2;
}
