/* Large machines: node lists parsed and printed for any OS index, experiments of many tasks
 * and node sets through the wire form, launch lines complete for 64 CPU nodes. */
#include "../hb_check.h"
#include "hb_error.h"
#include "hb_nodeset.h"
#include "hb_plan.h"
#include "hb_topo.h"

#include <errno.h>

static void nodeset_parse_print(void)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    /* Ranges and single indexes, past 64 and 255, in any order; printed ascending. */
    static const struct {
        const char *text, *printed;
    } good[] = {
        {"0", "0"},
        {"0-3,8", "0,1,2,3,8"},
        {"252-255", "252,253,254,255"},
        {"300,72-73,64", "64,72,73,300"},
        {"1023", "1023"},
        {"5,5,4-6", "4,5,6"},
    };
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        CHECK_INT(hb_nodeset_parse("--nodes", good[i].text, set), 0);
        char *text = hb_nodeset_print(set);
        CHECK_STR(text, good[i].printed);
        free(text);
    }
    /* The JSON form holds the indexes as numbers. */
    CHECK_INT(hb_nodeset_parse("--nodes", "63-65,300", set), 0);
    json_t *list = hb_nodeset_json(set);
    char *dump = json_dumps(list, JSON_COMPACT);
    CHECK_STR(dump, "[63,64,65,300]");
    free(dump);
    json_decref(list);
    list = hb_nodeset_json(NULL);
    CHECK_INT(json_array_size(list), 0);
    json_decref(list);

    static const char *const bad[] = {"",   "x",   "1-",  "-1",       "3-1",  "1,,2",
                                      "1,", "1 2", "0x3", "99999999", "1-2-3"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        CHECK_INT(hb_nodeset_parse("--nodes", bad[i], set), -EINVAL);
        char want[64];
        snprintf(want, sizeof(want), "--nodes '%s'", bad[i]);
        CHECK_HAS(hb_error_msg(), want);
    }
    hwloc_bitmap_free(set);
}

/* An experiment of 200 tasks with node sets past index 255 is the same after the wire. */
static void experiment_wire(void)
{
    struct hb_experiment e = {.reps = 7, .seed = 42};
    snprintf(e.name, sizeof(e.name), "wire-test");
    const long long pair[2] = {1, 2};
    CHECK_INT(hb_plan_param_str(&e, "k", "v"), 0);
    CHECK_INT(hb_plan_param_int(&e, "n", 1LL << 40), 0);
    CHECK_INT(hb_plan_param_null(&e, "d"), 0);
    CHECK_INT(hb_plan_param_num(&e, "x", 0.125), 0);
    CHECK_INT(hb_plan_param_num(&e, "i", 2.0), 0); /* "%g" writes 2: an integer, as always */
    CHECK_INT(hb_plan_param_ints(&e, "c", pair, 2), 0);
    for (int i = 0; i < 200; i++) {
        struct hb_task *task = hb_plan_experiment_task(&e);
        CHECK(task != NULL);
        if (!task) return;
        task->cpu_node = i;
        task->threads = i + 1;
        task->bytes = (uint64_t)i << 20;
        task->policy = i % 3 == 0 ? HB_POLICY_BIND : HB_POLICY_INTERLEAVE;
        task->mem_node = task->policy == HB_POLICY_BIND ? 300 + i : -1;
        snprintf(task->label, sizeof(task->label), "%d.0.r.x", i);
        if (task->policy == HB_POLICY_INTERLEAVE) {
            task->mem_nodes = hwloc_bitmap_alloc();
            hwloc_bitmap_set_range(task->mem_nodes, 0, 3);
            hwloc_bitmap_set_range(task->mem_nodes, 252, 255);
            hwloc_bitmap_set(task->mem_nodes, (unsigned)(256 + i));
        }
    }
    char *buf = NULL;
    size_t len = 0;
    CHECK_INT(hb_plan_experiment_pack(&e, &buf, &len), 0);
    struct hb_experiment got;
    CHECK_INT(hb_plan_experiment_unpack(buf, len, &got), 0);
    CHECK_STR(got.name, "wire-test");
    json_t *keys = hb_plan_params_json(&got.params);
    char *text = keys ? json_dumps(keys, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    CHECK_STR(text ? text : "", "{\"k\":\"v\",\"n\":1099511627776,\"d\":null,\"x\":0.125,\"i\":2,"
                                "\"c\":[1,2]}");
    free(text);
    json_decref(keys);
    /* No room is refused with a message, never cut. */
    for (int k = e.params.n; k < HB_PARAMS_MAX; k++)
        CHECK_INT(hb_plan_param_int(&e, "filler", k), 0);
    CHECK_INT(hb_plan_param_int(&e, "one_too_many", 7), -EINVAL);
    CHECK_HAS(hb_error_msg(), "one_too_many");
    struct hb_experiment small = {.params.n = 0};
    CHECK_INT(
        hb_plan_param_str(&small, "s", "a string of more than forty characters, which is too long"),
        -EINVAL);
    CHECK_HAS(hb_error_msg(), "longer than 39");
    CHECK_INT(hb_plan_param_str(&small, "a key longer than twenty", "x"), -EINVAL);
    CHECK_INT(small.params.n, 0);
    CHECK_INT(got.reps, 7);
    CHECK_INT(got.ntasks, 200);
    for (int i = 0; i < got.ntasks && i < e.ntasks; i++) {
        const struct hb_task *a = &e.tasks[i], *b = &got.tasks[i];
        CHECK_INT(b->cpu_node, a->cpu_node);
        CHECK_INT(b->threads, a->threads);
        CHECK_INT(b->bytes, a->bytes);
        CHECK_INT(b->mem_node, a->mem_node);
        CHECK_STR(b->label, a->label);
        CHECK((a->mem_nodes == NULL) == (b->mem_nodes == NULL));
        if (a->mem_nodes && b->mem_nodes) CHECK(hwloc_bitmap_isequal(a->mem_nodes, b->mem_nodes));
        int *nodes = NULL;
        int n = hb_plan_task_mem_nodes(b, &nodes);
        CHECK_INT(n, b->policy == HB_POLICY_BIND ? 1 : 9);
        if (n > 0) CHECK_INT(nodes[n - 1], b->policy == HB_POLICY_BIND ? 300 + i : 256 + i);
        free(nodes);
    }
    /* Bytes cut anywhere are refused, never read past. */
    for (size_t cut = 0; cut < len; cut += len / 7 + 1) {
        struct hb_experiment part;
        CHECK_INT(hb_plan_experiment_unpack(buf, cut, &part), -EINVAL);
        CHECK_INT(part.ntasks, 0);
    }
    free(buf);
    hb_plan_experiment_clear(&got);
    hb_plan_experiment_clear(&e);
    CHECK(e.tasks == NULL && e.ntasks == 0);
}

static int count(const char *text, const char *part)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, part)) != NULL; p += strlen(part))
        n++;
    return n;
}

/* 64 CPU nodes and 16 memory-only ones (252-267): one CPU list and one mask per CPU
 * node, the arguments once however long they are. */
static void launch_lines(void)
{
    struct hb_topo *t = NULL;
    CHECK_INT(hb_topo_load(HB_FIXTURES "/64c16m-hi-numbers.xml", &t), 0);
    if (!t) return;
    CHECK_INT(hb_topo_nodes_count_cpu_nodes(t), 64);
    CHECK_INT(t->nnodes, 80);
    char *args = malloc(5001);
    memset(args, 'a', 5000);
    args[5000] = '\0';
    memcpy(args, "matrix -o ", 10);
    char *mpirun = NULL, *srun = NULL;
    CHECK_INT(hb_topo_launch_lines(t, args, &mpirun, &srun), 0);
    /* One app context: 64 CPU lists, the command once. */
    CHECK_INT(count(mpirun, ":"), 63);
    CHECK_INT(count(mpirun, args), 1);
    CHECK_HAS(mpirun, "mpirun -np 64 --bind-to none -x HOPBENCH_RANK_CPUS=0-7:8-15:");
    CHECK_HAS(mpirun, ":496-503:504-511 hopbench matrix -o ");
    CHECK_HAS(srun, "--ntasks-per-node=64 --cpus-per-task=8 --cpu-bind=mask_cpu:0xff,0xff00,");
    CHECK_INT(count(srun, ",") + 1, 64);
    CHECK_INT(count(srun, args), 1);
    free(mpirun);
    free(srun);
    char *list = hb_topo_nodes_list(t, false, true);
    CHECK_HAS(list, "0,1,2,3,4,");
    CHECK_HAS(list, ",63,252,253,254,255,256,");
    CHECK_HAS(list, ",267");
    free(list);
    hwloc_bitmap_t mem = hb_topo_nodeset(t, false, true);
    CHECK_INT(hwloc_bitmap_weight(mem), 80);
    CHECK(hwloc_bitmap_isset(mem, 267));
    hwloc_bitmap_free(mem);
    free(args);
    hb_topo_load_free(t);
}

int main(void)
{
    nodeset_parse_print();
    experiment_wire();
    launch_lines();
    return hb_check_result();
}
