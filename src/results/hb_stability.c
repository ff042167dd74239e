/* The judgement of a run's stability from its summary record (hb_stability.h): thresholds as
 * named constants, the parts that hold joined in one line. */
#include "hb_stability.h"

#include "hb_jsonl_read.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

bool hb_stability_describe(const json_t *summary, char **text)
{
    *text = NULL;
    double figures = hb_jsonl_read_num(summary, "measurements", 0);
    double noisy = hb_jsonl_read_num(summary, "noisy", 0);
    double spread = hb_jsonl_read_num(summary, "spread_pct_median", NAN);
    double elapsed = hb_jsonl_read_num(summary, "elapsed_s", NAN);
    double estimate = hb_jsonl_read_num(summary, "estimate_s", NAN);
    /* Noise counts only where the repeats had a spread (two or more of them). */
    bool many_noisy = isfinite(spread) && figures > 0 && noisy > HB_UNSTABLE_NOISY_SHARE * figures;
    bool spread_wide = spread > HB_UNSTABLE_SPREAD_PCT;
    bool overran = estimate > 0.0 && elapsed > HB_UNSTABLE_OVERRUN * estimate &&
                   elapsed - estimate >= HB_UNSTABLE_OVERRUN_MIN_S;
    if (!many_noisy && !spread_wide && !overran) return false;
    char parts[3][64];
    int n = 0;
    if (many_noisy)
        snprintf(parts[n++], sizeof(parts[0]), "%.0f of %.0f figures noisy", noisy, figures);
    if (spread_wide) snprintf(parts[n++], sizeof(parts[0]), "median spread %.0f%%", spread);
    if (overran)
        snprintf(parts[n++], sizeof(parts[0]), "it took %.1fx its estimate", elapsed / estimate);
    size_t len = 0;
    FILE *m = open_memstream(text, &len);
    if (!m) return true;
    for (int i = 0; i < n; i++)
        fprintf(m, "%s%s", i ? ", " : "", parts[i]);
    if (fclose(m) != 0) {
        free(*text);
        *text = NULL;
    }
    return true;
}

char *hb_stability_message(const json_t *summary)
{
    char *what = NULL, *line = NULL;
    if (!hb_stability_describe(summary, &what) || !what) return NULL;
    if (asprintf(&line,
                 "this run is unstable: %s: repeat until clear with --repeat auto, or run on a "
                 "quieter machine",
                 what) < 0)
        line = NULL;
    free(what);
    return line;
}
