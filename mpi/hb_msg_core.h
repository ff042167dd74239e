/* The core each rank's messaging thread runs on (comm, coll). */
#ifndef HB_MSG_CORE_H
#define HB_MSG_CORE_H

#include "hb_topo.h"
#include "hb_world.h"

/* Ranks that share a node message from cores of their own: the OpenMP runtime pins a rank's
 * main thread to the first core of its binding, which every rank bound to the whole node
 * shares, and two ranks on one core ping-pong through the scheduler (milliseconds, not
 * microseconds). The node's lowest rank on this host keeps the first core, the k-th other one
 * takes the k-th core from the end (the cores between are left to comm --bg's load); a binding
 * of one core stays as it is. 0, or -HB_EENV with a message when the binding fails. */
int hb_msg_core_own(const struct hb_world *w, const struct hb_topo *t);

/* The CPU this thread last ran on (the records' src_cpu, dst_cpu), -1 when unknown. */
int hb_msg_core_cpu_now(const struct hb_topo *t);

/* The one core (hwloc logical index) this thread is bound to, -1 when it is bound to more
 * (or its binding cannot be read). */
int hb_msg_core_now(const struct hb_topo *t);

/* Collective: every rank's gethostname() (where HOPBENCH_HOST names emulated hosts, these
 * still tell one machine from another), w->size of them (the job ends when out of memory). */
char (*hb_msg_core_machines(const struct hb_world *w))[HB_HOST_LEN];

/* Collective: two ranks messaging from one core of one machine (more ranks than cores,
 * emulated hosts) time the scheduler, not the messages. 0, or HB_EXIT_ENV on every rank, rank
 * 0 having said which ranks and the launch that works for `command` (comm, coll). */
int hb_msg_core_apart(const struct hb_world *w, const struct hb_topo *t,
                      const char (*machine)[HB_HOST_LEN], const char *command);

#endif
