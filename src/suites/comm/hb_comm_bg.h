/* comm --bg (hb_comm_bg.c): each comm experiment idle and again under the hops suite's
 * background read load on chosen nodes; the loaded/idle comparison (hb_comm_bg_derive.c). */
#ifndef HB_COMM_BG_H
#define HB_COMM_BG_H

#include "hb_suite_kit.h"

/* The options of the load: --load-nodes and --bg-rate only with --bg, each --load-nodes node
 * one with CPUs and memory and two cores or more (one for the messages of the rank there, the
 * rest for the load), whose load at most threads fits its free memory. 0, or -EINVAL or
 * -ENOMEM with a message. */
int hb_comm_bg_check(const struct hb_suite_env *env);

/* Mark e idle (level 0: key bg_level "idle") or loaded at hb_options_bg_level_names[level]: key
 * bg_level and one background task per load node (--load-nodes, or every CPU node taking
 * part that has memory and two cores) from thread 1 (thread 0 is the rank's messaging
 * thread), reading 64 MiB per thread of its own node, paced as hops paces its levels. The plan
 * says 1 thread; the rank that runs the load runs one per core of its binding on the node
 * but the first. 0 or -errno with a message. */
int hb_comm_bg_add(const struct hb_suite_env *env, struct hb_experiment *e, int level);

/* Per pair of ranks measured idle and loaded: a {"type":"comm_bg"} record with the loaded/idle
 * ratio of the latency at the smallest size and of the bandwidth at the largest, each with
 * its interval and a verdict only where the two are apart beyond their noise. 0 or -ENOMEM. */
int hb_comm_bg_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived);

#endif
