/* `check`'s experiments by name, as its plan makes them and src/health reads their records:
 * HB_CHECK_LATENCY (a task per node), HB_CHECK_LOCAL-N, HB_CHECK_NEAR-N-M, HB_CHECK_FAR-N-M,
 * HB_CHECK_PEAK (a task per node, run together). */
#ifndef HB_SUITE_CHECK_H
#define HB_SUITE_CHECK_H

#define HB_CHECK_LATENCY "check-latency"
#define HB_CHECK_LOCAL "check-local"
#define HB_CHECK_NEAR "check-near"
#define HB_CHECK_FAR "check-far"
#define HB_CHECK_PEAK "check-peak"

/* The most repeats check fits into --max-time: by default a quick check's 10; a --max-time
 * given fills its time up to 50, the repeats that narrow a noisy node's intervals (the least is
 * what the rank test needs to tell a change at 5%: hb_signif_mwu_repeats_for). */
#define HB_CHECK_REPEATS_MAX 10
#define HB_CHECK_REPEATS_GIVEN_MAX 50
/* --max-time's default: a 2-socket, 128-core machine's plan fits with room under Slurm's 60 s. */
#define HB_CHECK_MAX_TIME_S 45.0

#endif
