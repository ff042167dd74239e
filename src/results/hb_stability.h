/* Whether a run's own figures are stable enough to trust, judged from its summary record
 * (docs/method.md#unstable-runs): most figures noisy, repeats far apart, or a run much
 * longer than its estimate. The run says so on stderr when it ends; compare says it of each
 * side. */
#ifndef HB_STABILITY_H
#define HB_STABILITY_H

#include <jansson.h>
#include <stdbool.h>

/* Unstable when more than this share of the figures is noisy (and the repeats have a
 * spread: with one repeat every figure is noisy by definition, and that is no news)... */
#define HB_UNSTABLE_NOISY_SHARE 0.5
/* ... when the figures' median spread_pct is over this ... */
#define HB_UNSTABLE_SPREAD_PCT 10.0
/* ... or when the run took over this many times its estimate, and at least
 * HB_UNSTABLE_OVERRUN_MIN_S seconds more (start-up dominates a run of a second). */
#define HB_UNSTABLE_OVERRUN 3.0
#define HB_UNSTABLE_OVERRUN_MIN_S 10.0

/* What is unstable about the run of summary (a summary record), in words: "16 of 17 figures
 * noisy, median spread 12%, it took 3.1x its estimate" (only the parts that hold). True and
 * *text a new string (the caller frees it; NULL when out of memory) when any holds; false
 * and *text NULL when the run is stable or the record does not say (an older file). For
 * compare to describe each side as the run itself did. */
bool hb_stability_describe(const json_t *summary, char **text);

/* The warning a run prints at its end, without the "hopbench: warning: " it is printed
 * after: "this run is unstable: <hb_stability_describe>: repeat until clear with --repeat
 * auto, or run on a quieter machine"; NULL when stable (or out of memory). Caller frees. */
char *hb_stability_message(const json_t *summary);

#endif
