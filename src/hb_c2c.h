/* c2c: what sharing a cache line between cores costs, inside one process.
 *
 * Two pthreads pinned to chosen CPUs: cache-line ping-pong (one-way latency as node x node
 * and, with --cores, core x core matrices), false sharing (counters in one line vs padded)
 * and lock hand-off (C11 atomic_flag spinlock, pthread mutex) on one node and across nodes.
 * It needs no MPI: one process reaches every node, and a second rank would only disturb it. */
#ifndef HB_C2C_H
#define HB_C2C_H

#include "hb_options.h"
#include "hb_output.h"
#include "hb_topo.h"

/* Special values of hb_options.c2c_home; any other value is a node OS index. */
#define HB_C2C_HOME_WRITER (-1)
#define HB_C2C_HOME_READER (-2)

/* Parse --home writer|reader|N into *home. 0, or -EINVAL naming the value and what is valid. */
int hb_c2c_home_parse(const char *text, int *home);

/* 0 when this process is alone; -EINVAL with a message when a launcher (mpirun, srun, hydra)
 * started it as one of several ranks: c2c runs in a single process. */
int hb_c2c_check_singleton(void);

/* Check the options against the topology before anything runs: --home N must be a node with
 * memory (-EINVAL naming the nodes that have memory); t must be this machine (-EINVAL). */
int hb_c2c_check(const struct hb_topo *t, const struct hb_options *o);

/* Run every c2c study and write its records (matrix, c2c_false_sharing, c2c_lock, note,
 * summary) to sink as each is made. Returns 0; -HB_EVALIDATE when a counter or count ended
 * off its exact expected value (the record says which, the others are still written);
 * -HB_EENV when a thread cannot be pinned or the line cannot be bound; -errno from the sink. */
int hb_c2c_run(const struct hb_topo *t, const struct hb_options *o, struct hb_sink *sink);

/* `hopbench c2c`: refuses several ranks, --dry-run and CSV (-EINVAL with a message), then
 * writes the run record (simd: the SIMD path name) and every study's records to the output.
 * Returns what hb_c2c_run returns. */
int hb_c2c_command(const struct hb_topo *t, const struct hb_options *o, const char *simd);

#endif
