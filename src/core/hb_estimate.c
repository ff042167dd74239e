/* The plan's cost (hb_estimate.h): counts, nodes and a time model that errs long. */
#include "hb_estimate.h"

#include "hb_error.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The model's rates: deliberately those of a modest machine, so the estimate errs long.
 * Faulting pages in and initialising them (MADV_POPULATE_WRITE, then the kernel's init),
 * per thread; a bandwidth kernel's sweep, per thread; one dependent load of a chase. */
#define HB_EST_TOUCH_BPS 0.6e9
#define HB_EST_SWEEP_BPS 4e9
#define HB_EST_CHASE_LOAD_S 120e-9
/* Per repeat of an experiment: allocation, the ranks' barriers, gathering results, page
 * checks; per run: starting, loading the topology, writing the records. */
#define HB_EST_OVERHEAD_S 0.06
#define HB_EST_START_S 1.0

/* One sweep of a task's working set. */
static double hb_est_sweep_s(const struct hb_task *t)
{
    int threads = t->threads > 0 ? t->threads : 1;
    if (t->chase_stride) return (double)t->bytes / (double)t->chase_stride * HB_EST_CHASE_LOAD_S;
    return (double)t->bytes / (HB_EST_SWEEP_BPS * threads);
}

/* One repeat of an experiment: its tasks run at once, so the slowest sets the time. */
static double hb_est_experiment_s(const struct hb_experiment *e)
{
    double setup = 0.0, timed = 0.0;
    for (int k = 0; k < e->ntasks; k++) {
        const struct hb_task *t = &e->tasks[k];
        /* Policy "os": one thread touches everything, as a serial init loop would. */
        int threads = t->threads > 0 && !t->touch_master ? t->threads : 1;
        double touch = (double)t->bytes / (HB_EST_TOUCH_BPS * threads);
        double sweep = hb_est_sweep_s(t);
        double sample = sweep > e->min_time_s ? sweep : e->min_time_s;
        double run = sweep + e->reps * sample;
        if (touch > setup) setup = touch;
        if (t->role == HB_ROLE_FG && run > timed) timed = run;
    }
    return setup + timed + HB_EST_OVERHEAD_S;
}

int hb_estimate_plan(const struct hb_plan *p, int repeats, struct hb_estimate *out)
{
    memset(out, 0, sizeof(*out));
    out->repeats = repeats > 0 ? repeats : 1;
    out->cpu_nodes = hwloc_bitmap_alloc();
    out->mem_nodes = hwloc_bitmap_alloc();
    if (!out->cpu_nodes || !out->mem_nodes) {
        hb_estimate_free(out);
        hb_err_set("out of memory estimating the plan");
        return -ENOMEM;
    }
    out->experiments = p->n;
    out->seconds = HB_EST_START_S;
    for (int x = 0; x < p->n; x++) {
        const struct hb_experiment *e = &p->exps[x];
        out->seconds += out->repeats * hb_est_experiment_s(e);
        for (int k = 0; k < e->ntasks; k++) {
            const struct hb_task *t = &e->tasks[k];
            if (t->role == HB_ROLE_FG) out->measurements++;
            hwloc_bitmap_set(out->cpu_nodes, (unsigned)t->cpu_node);
            /* Bound, interleaved over a set, or first touch on the CPU node's own memory. */
            if (t->mem_node >= 0)
                hwloc_bitmap_set(out->mem_nodes, (unsigned)t->mem_node);
            else if (t->mem_nodes)
                hwloc_bitmap_or(out->mem_nodes, out->mem_nodes, t->mem_nodes);
            else
                hwloc_bitmap_set(out->mem_nodes, (unsigned)t->cpu_node);
        }
    }
    return 0;
}

void hb_estimate_free(struct hb_estimate *e)
{
    hwloc_bitmap_free(e->cpu_nodes);
    hwloc_bitmap_free(e->mem_nodes);
    e->cpu_nodes = e->mem_nodes = NULL;
}

const char *hb_estimate_words(double s, char *buf, size_t len)
{
    if (s < 90.0)
        snprintf(buf, len, "about %.0f s", s < 1.0 ? 1.0 : s);
    else if (s < 5400.0)
        snprintf(buf, len, "about %.0f min", s / 60.0);
    else
        snprintf(buf, len, "about %.1f h", s / 3600.0);
    return buf;
}

void hb_estimate_range(struct hb_estimate *e, int least, int most, double max_time_s)
{
    double round = e->repeats > 0 ? e->seconds / e->repeats : e->seconds;
    e->repeats = least;
    e->seconds = round * least;
    e->repeats_max = most;
    e->seconds_max = round * most;
    if (max_time_s > 0.0 && e->seconds_max > max_time_s + round)
        e->seconds_max = max_time_s + round;
    if (e->seconds_max < e->seconds) e->seconds_max = e->seconds;
}
