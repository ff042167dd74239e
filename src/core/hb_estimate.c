/* The plan's cost (hb_estimate.h): counts, nodes and a time model that errs long. */
#include "hb_estimate.h"

#include "hb_chase.h"
#include "hb_error.h"
#include "hb_launcher.h"
#include "hb_timer.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The model's rates: deliberately those of a modest machine, so the estimate errs long (the
 * touch and flop rates: hb_estimate.h; a bandwidth kernel's sweep: its model_bps). A
 * bandwidth kernel's sweep when the kernel has no rate; a latency kernel's init (each thread
 * faults its share in and links it into a shuffled ring); one dependent load of a chase. */
#define HB_EST_SWEEP_BPS 4e9
#define HB_EST_CHASE_INIT_BPS 0.43e9
#define HB_EST_CHASE_LOAD_S 180e-9
/* Per repeat of an experiment: the ranks' barriers, gathering results; per run: starting
 * alone (loading the topology, writing the records), or under a launcher (MPI's start-up
 * and the ranks' hand-shakes besides). */
#define HB_EST_OVERHEAD_S 0.03
#define HB_EST_START_S 0.1
#define HB_EST_START_LAUNCHED_S 0.6

/* One sweep of a task's working set: each thread's share, at once. */
static double est_sweep_s(const struct hb_estimate_model *m, const struct hb_task *t)
{
    double share = (double)t->bytes / (t->threads > 0 ? t->threads : 1);
    if (t->chase_stride) {
        double loads = share / (double)t->chase_stride;
        return (loads < HB_LATENCY_SWEEP_LOADS ? loads : HB_LATENCY_SWEEP_LOADS) *
               HB_EST_CHASE_LOAD_S;
    }
    double bps = m && m->kernel_bps ? m->kernel_bps(m->ctx, t->kernel) : 0.0;
    return share / (bps > 0.0 ? bps : HB_EST_SWEEP_BPS) + share * t->param / HB_EST_FLOPS;
}

/* One repeat of an experiment: its tasks run at once, so the slowest sets the time. Each
 * faults its working set in, warms up (batches of 1, 2, 4... sweeps until one lasts an eighth
 * of --min-time: a sweep, or up to a quarter of --min-time in all), then takes --reps samples
 * of whole sweeps, each at least --min-time (so up to a sweep more). */
static double est_experiment_s(const struct hb_estimate_model *m, const struct hb_experiment *e)
{
    double setup = 0.0, timed = 0.0;
    for (int k = 0; k < e->ntasks; k++) {
        const struct hb_task *t = &e->tasks[k];
        /* Policy "os": one thread touches everything, as a serial init loop would. */
        int threads = t->threads > 0 && !t->touch_master ? t->threads : 1;
        double rate = t->chase_stride ? HB_EST_CHASE_INIT_BPS : HB_EST_TOUCH_BPS;
        double touch = (double)t->bytes / (rate * threads);
        double sweep = est_sweep_s(m, t);
        /* Doubling batches up to one of HB_WARM_SHARE: at most twice that in all. */
        double least = 2.0 * HB_WARM_SHARE * e->min_time_s;
        double warm = sweep > least ? sweep : least;
        double run = warm + e->reps * (e->min_time_s + sweep);
        if (touch > setup) setup = touch;
        if (t->role == HB_ROLE_FG && run > timed) timed = run;
    }
    return setup + timed;
}

int hb_estimate_plan(const struct hb_plan *p, int repeats, const struct hb_estimate_model *m,
                     struct hb_estimate *out)
{
    memset(out, 0, sizeof(*out));
    out->repeats = repeats > 0 ? repeats : 1;
    out->cpu_nodes = hwloc_bitmap_alloc();
    out->mem_nodes = hwloc_bitmap_alloc();
    if (!out->cpu_nodes || !out->mem_nodes) {
        hb_estimate_free(out);
        hb_error_set("out of memory estimating the plan");
        return -ENOMEM;
    }
    out->experiments = p->n;
    struct hb_launch l;
    out->seconds = hb_launcher_launched(&l) ? HB_EST_START_LAUNCHED_S : HB_EST_START_S;
    for (int x = 0; x < p->n; x++) {
        const struct hb_experiment *e = &p->exps[x];
        int records = -1;
        double own = m && m->experiment_s ? m->experiment_s(m->ctx, e, &records) : -1.0;
        out->seconds +=
            out->repeats * ((own >= 0.0 ? own : est_experiment_s(m, e)) + HB_EST_OVERHEAD_S);
        if (records >= 0) out->measurements += records;
        for (int k = 0; k < e->ntasks; k++) {
            const struct hb_task *t = &e->tasks[k];
            if (t->role == HB_ROLE_FG && records < 0) out->measurements++;
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
