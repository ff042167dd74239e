/* comm's estimate of one repeat of an experiment (struct hb_suite.estimate): every ordered
 * pair of ranks on its nodes in turn (hb_msg.c), each end allocating and touching its two
 * buffers, then the schedule of hb_msg_schedule.h at a transport's modest rates; a loaded
 * experiment first starts its loads around each pair. The ranks per node are the launch's
 * over the nodes the run serves. */
#include "hb_suite_comm.h"

#include "hb_estimate.h"
#include "hb_launcher.h"
#include "hb_msg_schedule.h"

#include <string.h>

/* Rates that err long: shared memory between the ranks of one host, and a TCP network for a
 * job that spans hosts. One-way latency of a small message, each message's own cost in a
 * window, and the bandwidth of one direction and of both together. */
struct hb_comm_rates {
    double latency_s, message_s, bps, bi_bps;
};
static const struct hb_comm_rates comm_shm = {0.6e-6, 0.15e-6, 8e9, 12e9};
static const struct hb_comm_rates comm_net = {30e-6, 2e-6, 1e9, 1.5e9};

/* Per pair: the barriers around it, the ends' handshake, their page check and gathering the
 * result to rank 0; per load around a pair: starting it and pacing its rate. */
#define HB_COMM_EST_PAIR_S 0.01
#define HB_COMM_EST_LOAD_S 0.03
/* Under a load, messages take this much longer: it takes memory bandwidth, and its threads may
 * share a core with a rank (comm says so when they do). */
#define HB_COMM_EST_LOADED 2.0

/* One iteration of the metric's exchange for messages of `bytes`. */
static double comm_iteration_s(const char *metric, double bytes, const struct hb_comm_rates *r)
{
    if (strcmp(metric, "latency") == 0) return 2.0 * (r->latency_s + bytes / r->bps);
    if (strcmp(metric, "bandwidth") == 0)
        return HB_MSG_WINDOW * (r->message_s + bytes / r->bps) + r->latency_s;
    return 2.0 * HB_MSG_WINDOW * (r->message_s + bytes / r->bi_bps) + r->latency_s;
}

/* The ordered pairs of ranks on the experiment's two nodes. A dry run of another machine's
 * topology is not launched: it counts the launch comm suggests, one rank per node served,
 * two on a machine of one. */
static double comm_pairs(const struct hb_suite_env *env, const struct hb_experiment *e,
                         bool *spans_hosts)
{
    int served = 0;
    for (int i = 0; i < env->topo->nnodes; i++)
        served += env->topo->nodes[i].has_cpus && hb_suite_kit_node_on(env, i);
    struct hb_launch l;
    bool launched = hb_launcher_launched(&l) && l.ranks > 0;
    *spans_hosts = launched && l.local_ranks > 0 && l.local_ranks < l.ranks;
    double per_node = launched && served ? (double)l.ranks / served : served > 1 ? 1.0 : 2.0;
    bool same = hb_plan_param_int_of(e, "src_node", -1) == hb_plan_param_int_of(e, "dst_node", -2);
    return same ? per_node * (per_node - 1.0 > 0.0 ? per_node - 1.0 : 0.0) : per_node * per_node;
}

double hb_comm_estimate(const struct hb_suite_env *env, const struct hb_experiment *e, int *records)
{
    bool spans;
    double pairs = comm_pairs(env, e, &spans);
    *records = (int)pairs; /* one record a pair */
    const struct hb_comm_rates *r = spans ? &comm_net : &comm_shm;
    double bytes = (double)hb_plan_param_int_of(e, "message_bytes", 8);
    /* The loads: each thread's own working set faulted in, then paced. */
    double load = 0.0;
    for (int k = 0; k < e->ntasks; k++) {
        const struct hb_task *t = &e->tasks[k];
        double touch = (double)t->bytes / (t->threads > 0 ? t->threads : 1) / HB_EST_TOUCH_BPS;
        if (t->role == HB_ROLE_BG && touch + HB_COMM_EST_LOAD_S > load)
            load = touch + HB_COMM_EST_LOAD_S;
    }
    double iteration =
        comm_iteration_s(e->metric, bytes, r) * (load > 0.0 ? HB_COMM_EST_LOADED : 1.0);
    double pair = HB_COMM_EST_PAIR_S + 2.0 * bytes / HB_EST_TOUCH_BPS +
                  hb_msg_schedule_s(iteration, e->reps, e->min_time_s);
    return pairs * (pair + load);
}
