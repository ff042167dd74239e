/* Plans built from topology fixtures: the matrix and local suites, labels, hops, defaults. */
#include "../hb_check.h"
#include "hb_error.h"
#include "hb_default_size.h"
#include "hb_suite.h"

#include <errno.h>
#include <string.h>

/* The registry lives in omp/; the plan only needs names, access letters, kinds and rates. */
static int fake_lookup(const char *name, struct hb_kernel_ref *out)
{
    static const struct hb_kernel_ref refs[] = {
        {"chase", "r", true, 0},     {"read", "r", false, 14e9},   {"write-nt", "w", false, 19e9},
        {"copy", "rw", false, 18e9}, {"triad", "rw", false, 15e9},
    };
    for (size_t i = 0; i < sizeof(refs) / sizeof(refs[0]); i++)
        if (strcmp(refs[i].name, name) == 0) {
            *out = refs[i];
            return 0;
        }
    hb_error_set("unknown kernel '%s'", name);
    return -EINVAL;
}

static struct hb_topo *load(const char *file)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", HB_FIXTURES, file);
    struct hb_topo *t = NULL;
    CHECK_INT(hb_topo_load(path, &t), 0);
    return t;
}

static void plan_for(struct hb_topo *t, struct hb_options *o, const char *cmd, struct hb_plan *p)
{
    const char *argv[] = {"hopbench", cmd, "--size", "64M"};
    CHECK_INT(hb_cli_options_parse(4, (char **)argv, o), 0);
    struct hb_suite_env env = {t, o, fake_lookup, (uint64_t)1 << 30, NULL, NULL, NULL, NULL};
    memset(p, 0, sizeof(*p));
    int rc = hb_suite_plan(&env, p);
    if (rc) fprintf(stderr, "plan failed: %s\n", hb_error_msg());
    CHECK_INT(rc, 0);
}

static void quartet_matrix(void)
{
    struct hb_topo *t = load("4n-quartet.xml");
    struct hb_options o;
    struct hb_plan p;
    plan_for(t, &o, "matrix", &p);
    CHECK_INT(p.n, 16 * 4); /* latency + read, write-nt, copy */
    static const int square[4][4] = {{0, 1, 1, 2}, {1, 0, 2, 1}, {1, 2, 0, 1}, {2, 1, 1, 0}};
    int lat = 0;
    for (int i = 0; i < p.n; i++) {
        const struct hb_task *task = &p.exps[i].tasks[0];
        CHECK_INT(p.exps[i].ntasks, 1);
        CHECK_INT(task->hops, square[task->cpu_node][task->mem_node]);
        static const int distance_of_class[3] = {10, 16, 22};
        CHECK_INT(task->distance, distance_of_class[task->hops]);
        CHECK_INT(task->bytes, 64 << 20);
        if (strcmp(p.exps[i].metric, "latency") == 0) {
            lat++;
            CHECK_INT(task->threads, 1);
            CHECK_STR(task->kernel, "chase");
        } else {
            CHECK_INT(task->threads, 2); /* every core of the node */
        }
    }
    CHECK_INT(lat, 16);
    CHECK_STR(p.exps[1].tasks[0].label, "0.0.r.1");
    CHECK_STR(p.exps[1].name, "matrix-lat-0-1");
    hb_plan_free(&p);
    hb_cli_options_free(&o);
    hb_topo_load_free(t);
}

static void ladder_matrix(void)
{
    struct hb_topo *t = load("8n-ladder.xml");
    struct hb_options o;
    struct hb_plan p;
    plan_for(t, &o, "matrix", &p);
    int lat = 0, classes[4] = {0};
    for (int i = 0; i < p.n; i++)
        if (strcmp(p.exps[i].metric, "latency") == 0) {
            lat++;
            classes[p.exps[i].tasks[0].hops]++;
        }
    CHECK_INT(lat, 64);
    CHECK_INT(classes[0], 8);  /* local */
    CHECK_INT(classes[1], 24); /* 3 neighbours each */
    CHECK_INT(classes[2], 24);
    CHECK_INT(classes[3], 8);
    hb_plan_free(&p);
    hb_cli_options_free(&o);
    hb_topo_load_free(t);
}

static void memonly_matrix(void)
{
    struct hb_topo *t = load("4n-memonly.xml");
    struct hb_options o;
    struct hb_plan p;
    plan_for(t, &o, "matrix", &p);
    int as_column = 0;
    for (int i = 0; i < p.n; i++) {
        const struct hb_task *task = &p.exps[i].tasks[0];
        CHECK(task->cpu_node == 0 || task->cpu_node == 1); /* never a row */
        as_column += task->mem_node >= 2;
    }
    CHECK_INT(p.n, 2 * 4 * 4);
    CHECK_INT(as_column, 2 * 2 * 4); /* nodes 2 and 3 are memory targets */
    hb_plan_free(&p);
    hb_cli_options_free(&o);
    hb_topo_load_free(t);
}

static void labels_and_defaults(void)
{
    struct hb_topo *t = load("4n-quartet.xml");
    struct hb_task task = {
        .cpu_node = 2, .first_thread = 1, .policy = HB_POLICY_BIND, .mem_node = 3};
    hb_plan_task_describe(t, &task, "w");
    CHECK_STR(task.label, "2.1.w.3");
    CHECK_INT(task.hops, 1);
    task.policy = HB_POLICY_INTERLEAVE;
    hb_plan_task_describe(t, &task, "r");
    CHECK_STR(task.label, "2.1.r.i");
    CHECK_INT(task.hops, -1);

    char why[HB_SIZES_SOURCE_LEN];
    uint64_t llc = 0;
    uint64_t size = hb_default_size_choose(t, why, sizeof(why), &llc);
    CHECK(size >= HB_SIZE_FLOOR && size <= HB_SIZE_CAP);
    CHECK_HAS(why, "last-level cache");

    struct hb_options o;
    struct hb_plan p;
    plan_for(t, &o, "lat", &p);
    CHECK_INT(p.n, 1);
    CHECK_STR(p.exps[0].tasks[0].label, "0.0.r.0");
    hb_plan_free(&p);
    hb_cli_options_free(&o);
    hb_topo_load_free(t);
}

/* The default working set and the reason the run record gives for it. */
static void default_size(const char *file, uint64_t want, const char *why)
{
    struct hb_topo *t = load(file);
    char source[HB_SIZES_SOURCE_LEN];
    uint64_t llc = 0;
    CHECK_INT(hb_default_size_choose(t, source, sizeof(source), &llc), want);
    CHECK_HAS(source, why);
    hb_topo_load_free(t);
}

/* Memory-side caches: 4x the largest when memory allows (64 MiB caches: 256 MiB), and when a
 * quarter of the free memory is below the cache, a size that says it is not above it. */
static void memside_cache_size(void)
{
    default_size("2n1m-hbm-cache.xml", (uint64_t)32 << 30,
                 "a quarter of the smallest free node memory: last-level cache 16 MiB");
    default_size("2n1m-hbm-cache.xml", (uint64_t)32 << 30,
                 "; memory-side cache 16 GiB: the size is above it");
    struct hb_topo *t = load("2n1m-hmat-contra.xml");
    char source[HB_SIZES_SOURCE_LEN];
    for (int i = 0; i < t->nnodes; i++)
        t->nodes[i].mem_free_bytes = (uint64_t)4 << 30;
    CHECK_INT(hb_default_size_choose(t, source, sizeof(source), NULL), (uint64_t)256 << 20);
    CHECK_HAS(source, "; memory-side cache 64 MiB: the size is above it");
    for (int i = 0; i < t->nnodes; i++)
        t->nodes[i].mem_free_bytes = (uint64_t)128 << 20;
    CHECK_INT(hb_default_size_choose(t, source, sizeof(source), NULL), (uint64_t)32 << 20);
    CHECK_HAS(source, "a quarter of the smallest free node memory");
    CHECK_HAS(source,
              "memory-side cache 64 MiB: the size is NOT above it (a default takes at most a "
              "quarter of the smallest free node memory, which is 128 MiB), figures include its "
              "hits; "
              "--size above 64 MiB measures the memory behind it");
    hb_topo_load_free(t);
    t = load("2n1m-hbm-cache.xml"); /* memory enough for 4 x 16 GiB */
    for (int i = 0; i < t->nnodes; i++)
        t->nodes[i].mem_free_bytes = (uint64_t)1 << 40;
    CHECK_INT(hb_default_size_choose(t, source, sizeof(source), NULL), (uint64_t)64 << 30);
    CHECK_HAS(source, "4 x memory-side cache: ");
    hb_topo_load_free(t);
}

int main(void)
{
    memside_cache_size();
    default_size("1n-single.xml", (uint64_t)256 << 20, "floor of 256 MiB");
    default_size("1n-bigcache.xml", (uint64_t)4 << 30,
                 "4 x last-level cache: last-level cache 1 GiB");
    /* 2 cores: at most 4 x 2 x 32 MiB = 256 MiB, not 4 x the 480 MiB reported. */
    default_size("1n-vmcache.xml", (uint64_t)256 << 20,
                 "4 x 32 MiB per core, at most 1 GiB (the last-level cache reported");
    quartet_matrix();
    ladder_matrix();
    memonly_matrix();
    labels_and_defaults();
    return hb_check_result();
}
