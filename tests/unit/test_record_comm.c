/* comm's records without MPI: the record of one pair (hb_record_comm) from a hand-made
 * result, and the node x node matrices comm derives from such records (4-node fixture). */
#include "../hb_check.h"
#include "hb_record_comm.h"
#include "hb_repeat.h"
#include "hb_suite_comm.h"

#include <math.h>

static struct hb_topo *load(const char *file)
{
    char path[1024];
    struct hb_topo *t = NULL;
    snprintf(path, sizeof(path), "%s/%s", HB_FIXTURES, file);
    CHECK_INT(hb_topo_load(path, &t), 0);
    return t;
}

/* An experiment as the comm plan makes it: src -> dst, buffers on their own nodes. */
static void experiment(struct hb_experiment *e, const char *metric, int src, int dst, int bytes)
{
    memset(e, 0, sizeof(*e));
    snprintf(e->suite, sizeof(e->suite), "comm");
    snprintf(e->name, sizeof(e->name), "comm-%s-%d-%d-%d", metric, src, dst, bytes);
    snprintf(e->metric, sizeof(e->metric), "%s", metric);
    struct hb_task *task = hb_plan_experiment_task(e);
    task->cpu_node = src;
    task->mem_node = src;
    snprintf(task->kernel, sizeof(task->kernel), "pingpong");
    hb_plan_param_int(e, "src_node", src);
    hb_plan_param_int(e, "dst_node", dst);
    hb_plan_param_int(e, "hops", src == dst ? 0 : 1);
    hb_plan_param_int(e, "message_bytes", bytes);
    hb_plan_param_int(e, "src_mem_node", src);
    hb_plan_param_int(e, "dst_mem_node", dst);
}

static void check_record(const struct hb_topo *t)
{
    struct hb_experiment e;
    experiment(&e, "latency", 0, 1, 8);
    struct hb_comm_result r = {.src_rank = 0,
                               .dst_rank = 1,
                               .src_pages_pct = 100,
                               .dst_pages_pct = 87.5,
                               .iterations = 1000,
                               .nsamples = 2,
                               .p50_us = 0.4444,
                               .p99_us = 0.9,
                               .max_us = 3.0};
    double samples[2] = {0.002, 0.001};
    struct hb_comm_origin o = {"a", "a", "btl vader", 3, 5};
    json_t *rec = hb_record_comm(t, &e, &r, samples, &o);
    /* As measured: the display rounds once (hb_figure_text.h), the record never. */
    CHECK_WITHIN(json_number_value(json_object_get(rec, "p50_us")), 0.4444, 1e-12);
    CHECK_WITHIN(json_number_value(json_object_get(rec, "pages_on_target_pct")), 87.5, 1e-9);
    CHECK_INT(json_integer_value(json_object_get(rec, "hops")), 1);
    CHECK_INT(json_integer_value(json_object_get(rec, "bytes")), 8);
    json_t *want = json_pack("[i, i]", 0, 1);
    CHECK(json_equal(json_object_get(rec, "mem_nodes"), want));
    json_decref(want);
    CHECK(strcmp(json_string_value(json_object_get(rec, "label")), "r0.n0-r1.n1") == 0);
    CHECK(json_is_null(json_object_get(rec, "window")));
    /* Each end's messaging CPU; the sender's is the record's thread_cpus. */
    CHECK_INT(json_integer_value(json_object_get(rec, "src_cpu")), 3);
    CHECK_INT(json_integer_value(json_object_get(rec, "dst_cpu")), 5);
    want = json_pack("[i]", 3);
    CHECK(json_equal(json_object_get(rec, "thread_cpus"), want));
    json_decref(want);
    /* Merged over one repeat, the headline is the median latency in microseconds. */
    json_t *merged = hb_repeat_merge(&rec, 1, 5.0);
    CHECK(strcmp(json_string_value(json_object_get(merged, "unit")), "us") == 0);
    CHECK_WITHIN(json_number_value(json_object_get(merged, "value")), 0.4444, 1e-12);
    json_decref(merged);
    json_decref(rec);
    /* Two hosts: no hop class between their nodes; bandwidth from the fastest sample. */
    hb_plan_experiment_clear(&e);
    experiment(&e, "bandwidth", 0, 1, 1024);
    r.bytes_per_sample = 2e9;
    r.window = 64;
    o.dst_host = "b";
    rec = hb_record_comm(t, &e, &r, samples, &o);
    CHECK(json_is_null(json_object_get(rec, "hops")));
    CHECK(json_is_null(json_object_get(rec, "p50_us")));
    CHECK_WITHIN(json_number_value(json_object_get(rec, "bw_GBps_best")), 2000.0, 1e-6);
    CHECK_INT(json_integer_value(json_object_get(rec, "window")), 64);
    json_decref(rec);
    hb_plan_experiment_clear(&e);
}

/* A measured comm record of host h: node src -> dst, metric, size, value. */
static json_t *measured_rec(const char *h, int src, int dst, const char *metric, int bytes,
                            double v)
{
    return json_pack("{s:s, s:s, s:s, s:i, s:i, s:s, s:i, s:f, s:s}", "suite", "comm", "src_host",
                     h, "dst_host", h, "src_node", src, "dst_node", dst, "metric", metric,
                     "message_bytes", bytes, "value", v, "status", "ok");
}

static void check_matrix(const struct hb_topo *t)
{
    struct hb_options o = {0};
    o.mem_node = -1;
    struct hb_suite_env env = {.topo = t, .opts = &o};
    json_t *measured = json_array(), *derived = json_array();
    json_array_append_new(measured, measured_rec("a", 0, 1, "latency", 8, 2.0));
    json_array_append_new(measured, measured_rec("a", 0, 1, "latency", 32, 9.0));
    json_array_append_new(measured, measured_rec("a", 1, 1, "latency", 8, 1.0));
    json_array_append_new(measured, measured_rec("a", 1, 1, "latency", 8, 3.0));
    json_array_append_new(measured, measured_rec("a", 2, 3, "bandwidth", 32, 5.0));
    CHECK_INT(hb_comm_derive(&env, measured, derived), 0);
    CHECK_INT(json_array_size(derived), 2);
    json_t *lat = json_array_get(derived, 0), *bw = json_array_get(derived, 1);
    json_t *v = json_object_get(lat, "values");
    CHECK(strcmp(json_string_value(json_object_get(lat, "metric")), "latency") == 0);
    CHECK_INT(json_integer_value(json_object_get(lat, "message_bytes")), 8);
    CHECK_WITHIN(json_number_value(json_array_get(json_array_get(v, 0), 1)), 2.0, 1e-12);
    /* Two rank pairs on node 1: their median. */
    CHECK_WITHIN(json_number_value(json_array_get(json_array_get(v, 1), 1)), 2.0, 1e-12);
    CHECK(json_is_null(json_array_get(json_array_get(v, 1), 0)));
    CHECK_INT(json_integer_value(json_object_get(bw, "message_bytes")), 32);
    v = json_object_get(bw, "values");
    CHECK_WITHIN(json_number_value(json_array_get(json_array_get(v, 2), 3)), 5.0, 1e-12);
    CHECK_INT(json_array_size(json_object_get(bw, "rows")), 4);
    json_decref(measured);
    json_decref(derived);
}

int main(void)
{
    struct hb_topo *t = load("4n-quartet.xml");
    if (!t) return 1;
    check_record(t);
    check_matrix(t);
    hb_topo_load_free(t);
    return hb_check_result();
}
