/* How comm times one pair (mpi/hb_msg_pair.c), in numbers its estimate shares: the window
 * of messages in flight, the warm-up, the pilot batch and the samples sized from --min-time. */
#ifndef HB_MSG_SCHEDULE_H
#define HB_MSG_SCHEDULE_H

/* Messages in flight per window (osu_bw's default). */
#define HB_MSG_WINDOW 64

/* Warm-up: batches of 1, 2, 4... iterations until at least this many were run and one batch
 * lasted this share of --min-time (the caches, the transport's fragments and the page tables
 * are warm then); then a pilot batch as long as the last sizes the samples. */
#define HB_MSG_WARMUP_ITERS 16
#define HB_MSG_WARMUP_SHARE 0.125

/* The time of that schedule for iterations of iteration_s seconds each: warm-up, pilot and
 * reps samples of whole iterations, each at least min_time_s. */
double hb_msg_schedule_s(double iteration_s, int reps, double min_time_s);

#endif
