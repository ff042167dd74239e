/* c2c: what sharing a cache line between cores costs, as a suite. The plan is pinned pairs
 * (omp/hb_pair.h: two one-thread tasks, the writer then the reader, one pair kernel):
 * cache-line ping-pong for a node x node matrix (with --cores a core x core one too), false
 * sharing (counters in one line, then padded) and lock hand-off (spinlock, mutex) on one
 * node and across two. It runs in one process that reaches every node, without MPI: a
 * second rank would only disturb it. */
#ifndef HB_C2C_H
#define HB_C2C_H

#include "hb_suite_kit.h"

#include <jansson.h>
#include <stdbool.h>

/* Every pair's shared buffer: a line for ping-pong, two counters 128 bytes apart (the
 * adjacent-line prefetcher pulls lines in 128-byte pairs), or a lock. */
#define HB_C2C_BYTES 256

/* After the run: the matrices, the false-sharing record and the lock records, from the
 * measurement records, with a note for every pair the plan could not make. */
int hb_c2c_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived);

/* Shared by the plan and the derived records, so both see the same pairs. */

/* The ids of a matrix: CPU node OS indexes, or (cores) every CPU in node order, of the
 * nodes taking part (--nodes). Sets *ids (free it) and returns how many, or -ENOMEM. */
int hb_c2c_pairs_ids(const struct hb_suite_env *env, bool cores, int **ids);

/* Cell (r, k) of a matrix over ids: a node cell runs between the nodes' first CPUs, or two
 * CPUs of the node (on two cores when it has them) on the diagonal. Sets *a, *b and *home
 * (the node of the line) and returns 0; 1 for a core with itself (nothing to measure); -1
 * with a message when there is no pair (a node with one CPU) or the home node has no memory. */
int hb_c2c_pairs_cell(const struct hb_topo *t, int home_opt, bool cores, const int *ids, int r,
                      int k, int *a, int *b, int *home);

/* The pair of the false-sharing and lock studies: the first CPU node's first two cores, or
 * (cross) the first CPUs of the first two CPU nodes, among the nodes taking part (--nodes).
 * 0, or -1 with a message. */
int hb_c2c_pairs_pick(const struct hb_suite_env *env, bool cross, int *a, int *b, int *home);

/* Experiment names: "pingpong.node.0-1" for a cell, "spinlock.same-node" for the others. */
void hb_c2c_pairs_cell_name(char *buf, size_t len, bool cores, int id_row, int id_col);
void hb_c2c_pairs_study_name(char *buf, size_t len, const char *kernel, bool cross);

#endif
