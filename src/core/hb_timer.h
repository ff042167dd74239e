/* Clock: CLOCK_MONOTONIC in seconds, with its measured granularity (STREAM's checktick). */
#ifndef HB_TIMER_H
#define HB_TIMER_H

/* Seconds since an arbitrary fixed point, monotonic; one clock base for every thread and
 * every rank of a host. */
double hb_timer_now(void);

/* Smallest observable difference between two hb_timer_now() calls, measured once and cached. */
double hb_timer_granularity(void);

/* Minimal length of one sample: max(20 ticks, min_time). */
double hb_timer_min_sample(double min_time);

/* A measurement's warm-up runs batches of 1, 2, 4... sweeps until one lasts this share of
 * --min-time, which then sizes the samples (omp/hb_team.c; the estimate counts it). */
#define HB_WARM_SHARE 0.125

#endif
