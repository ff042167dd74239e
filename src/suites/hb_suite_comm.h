/* comm (hb_suite_comm.c): MPI messages between ranks' NUMA nodes; its derived records. */
#ifndef HB_SUITE_COMM_H
#define HB_SUITE_COMM_H

#include "hb_suite_kit.h"

/* Per host that has pairs of its own: a {"type":"comm_matrix"} record of latency (us) at the
 * smallest message size and one of bandwidth (GBps) at the largest, rows the sending node,
 * cols the receiving node (the CPU nodes taking part), each cell the median over the rank
 * pairs on those nodes (null when none measured it), with the pairs' hop classes. 0 or
 * -ENOMEM. */
int hb_comm_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived);

#endif
