/* The commands that print without measuring: topology with its launch lines, and plans. */
#include "hb_print.h"

#include "hb_error.h"
#include "hb_mpirun_dialect.h"
#include "hb_nodeset.h"
#include "hb_run_layout.h"
#include "hb_record.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int hb_print_topo(const struct hb_topo *t, const struct hb_options *o)
{
    char *mpirun = NULL, *srun = NULL;
    int rc = hb_topo_launch_lines(t, NULL, &mpirun, &srun);
    if (rc) return rc;
    json_t *rec = hb_record_topology(t);
    json_object_set_new(rec, "mpirun", json_string(mpirun));
    json_object_set_new(rec, "srun", json_string(srun));
    json_object_set_new(rec, "mpirun_conventions", json_string(hb_mpirun_dialect()->name));
    json_t *near = hb_topo_nics_launch_json(t, json_object_get(rec, "nics"));
    if (!near) {
        hb_error_set("out of memory writing the launch lines near the NICs");
        rc = -ENOMEM;
    }
    json_object_set_new(rec, "nic_launch", near ? near : json_null());
    struct hb_sink *sink = NULL;
    if (rc == 0)
        rc = hb_sink_open(o->format == HB_FORMAT_TABLE ? HB_FORMAT_TABLE : HB_FORMAT_JSONL,
                          o->output, &hb_run_layout, &sink);
    if (rc == 0) rc = hb_sink_write(sink, rec);
    json_decref(rec);
    free(mpirun);
    free(srun);
    int crc = hb_sink_close(sink, rc == 0);
    return rc ? rc : crc;
}

void hb_print_plan_line(const struct hb_estimate *est)
{
    char when[48], most[48];
    if (est->repeats_max) {
        fprintf(stderr,
                "hopbench: plan: %d experiment%s, %d measurement%s x %d to %d repeats (until "
                "clear), %s to %s\n",
                est->experiments, est->experiments == 1 ? "" : "s", est->measurements,
                est->measurements == 1 ? "" : "s", est->repeats, est->repeats_max,
                hb_estimate_words(est->seconds, when, sizeof(when)),
                hb_estimate_words(est->seconds_max, most, sizeof(most)) + strlen("about "));
        return;
    }
    fprintf(stderr, "hopbench: plan: %d experiment%s, %d measurement%s x %d repeat%s, %s\n",
            est->experiments, est->experiments == 1 ? "" : "s", est->measurements,
            est->measurements == 1 ? "" : "s", est->repeats, est->repeats == 1 ? "" : "s",
            hb_estimate_words(est->seconds, when, sizeof(when)));
}

/* The last record of a dry run: what the plan will cost, and where. */
static json_t *plan_summary_record(const struct hb_estimate *est, const char *where)
{
    json_t *s = json_pack("{s:s, s:i, s:i, s:i, s:f, s:o, s:o, s:[s]}", "type", "plan_summary",
                          "experiments", est->experiments, "measurements", est->measurements,
                          "repeats", est->repeats, "estimated_s", est->seconds, "cpu_nodes",
                          hb_nodeset_json(est->cpu_nodes), "mem_nodes",
                          hb_nodeset_json(est->mem_nodes), "hosts", where);
    /* --repeat auto: the range, from its fewest rounds to its most. */
    if (s && est->repeats_max) {
        json_object_set_new(s, "repeats_max", json_integer(est->repeats_max));
        json_object_set_new(s, "estimated_max_s", json_real(est->seconds_max));
    }
    return s;
}

int hb_print_plan(const struct hb_plan *plan, const struct hb_options *o,
                  const struct hb_estimate *est, const char *where)
{
    struct hb_sink *sink = NULL;
    int rc = hb_sink_open(HB_FORMAT_JSONL, o->output, &hb_run_layout, &sink);
    for (int i = 0; rc == 0 && i < plan->n; i++) {
        const struct hb_experiment *e = &plan->exps[i];
        json_t *tasks = json_array();
        for (int k = 0; k < e->ntasks; k++) {
            const struct hb_task *task = &e->tasks[k];
            json_t *set = hb_nodeset_json(task->mem_nodes);
            json_array_append_new(
                tasks,
                json_pack(
                    "{s:s, s:i, s:i, s:i, s:s, s:s, s:o, s:s, s:o, s:o, s:o, s:I, s:s, "
                    "s:s, s:f}",
                    "role", task->role == HB_ROLE_FG ? "foreground" : "background", "cpu_node",
                    task->cpu_node, "first_thread", task->first_thread, "threads", task->threads,
                    "kernel", task->kernel, "access", task->access, "mem_node",
                    task->mem_node >= 0 ? json_integer(task->mem_node) : json_null(), "policy",
                    hb_placement_policy_name(task->policy), "mem_nodes", set, "hops",
                    task->hops >= 0 ? json_integer(task->hops) : json_null(), "distance",
                    task->distance ? json_integer((json_int_t)task->distance) : json_null(),
                    "bytes", (json_int_t)task->bytes, "pages", hb_placement_pages_name(task->pages),
                    "label", task->label, "bg_rate_GBps", task->bg_rate_GBps));
            json_t *tr = json_array_get(tasks, json_array_size(tasks) - 1);
            if (task->bg_fraction > 0.0)
                json_object_set_new(tr, "bg_fraction", json_real(task->bg_fraction));
            if (task->param != 0.0) json_object_set_new(tr, "param", json_real(task->param));
            if (task->touch_master) json_object_set_new(tr, "touch", json_string("master"));
            if (task->chase_stride) {
                json_object_set_new(tr, "chase_stride",
                                    json_integer((json_int_t)task->chase_stride));
                json_object_set_new(tr, "chase_group_bytes",
                                    task->chase_group_bytes == HB_CHASE_GROUP_ALL
                                        ? json_string("all")
                                        : json_integer((json_int_t)task->chase_group_bytes));
                json_object_set_new(tr, "chains",
                                    json_integer(task->chase_chains > 1 ? task->chase_chains : 1));
            }
        }
        json_t *rec =
            json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:o}", "type", "experiment", "suite",
                      e->suite, "name", e->name, "label", e->ntasks ? e->tasks[0].label : "",
                      "metric", e->metric, "reps", e->reps, "repeats", o->repeats, "tasks", tasks);
        /* The suite's own keys (workload, policy, mode...) as the records will carry them. */
        json_t *keys = hb_plan_params_json(&e->params);
        if (keys) json_object_update(rec, keys);
        json_decref(keys);
        rc = hb_sink_write(sink, rec);
        json_decref(rec);
    }
    if (rc == 0) {
        json_t *sum = plan_summary_record(est, where);
        rc = hb_sink_write(sink, sum);
        json_decref(sum);
    }
    int crc = sink ? hb_sink_close(sink, rc == 0) : 0;
    return rc ? rc : crc;
}
