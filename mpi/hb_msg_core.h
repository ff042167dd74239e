/* The core each rank's messaging thread runs on (comm). */
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

#endif
