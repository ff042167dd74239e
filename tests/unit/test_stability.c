/* The stability judgement (hb_stability.h) on summary records: a steady run says nothing;
 * most figures noisy, a wide median spread or a run far over its estimate each say so, in the
 * words the run's warning and compare share; one repeat and older files stay quiet. */
#include "../hb_check.h"
#include "hb_stability.h"

#include <stdlib.h>

/* A summary record: measurements, noisy, spread_pct_median (< 0: null), elapsed, estimate. */
static json_t *hb_sum(int n, int noisy, double spread, double elapsed, double estimate)
{
    return json_pack("{s:s, s:i, s:i, s:o, s:f, s:f}", "type", "summary", "measurements", n,
                     "noisy", noisy, "spread_pct_median",
                     spread < 0 ? json_null() : json_real(spread), "elapsed_s", elapsed,
                     "estimate_s", estimate);
}

/* hb_stability_describe's words for the summary (freed), or "" when stable. */
static void hb_expect(json_t *sum, const char *want)
{
    char *text = NULL;
    bool unstable = hb_stability_describe(sum, &text);
    CHECK(unstable == (want[0] != '\0'));
    CHECK_STR(text ? text : "", want);
    free(text);
    json_decref(sum);
}

int main(void)
{
    hb_expect(hb_sum(17, 2, 3.0, 60.0, 50.0), "");
    hb_expect(hb_sum(17, 16, 3.0, 60.0, 50.0), "16 of 17 figures noisy");
    hb_expect(hb_sum(17, 8, 3.0, 60.0, 50.0), ""); /* half is not most */
    hb_expect(hb_sum(17, 2, 12.0, 60.0, 50.0), "median spread 12%");
    hb_expect(hb_sum(17, 2, 3.0, 155.0, 50.0), "it took 3.1x its estimate");
    hb_expect(hb_sum(17, 16, 12.0, 155.0, 50.0),
              "16 of 17 figures noisy, median spread 12%, it took 3.1x its estimate");
    /* One repeat: every figure noisy by definition, no spread: nothing new to say. */
    hb_expect(hb_sum(4, 4, -1.0, 1.0, 1.0), "");
    /* A short run far over its estimate: start-up, not the machine. */
    hb_expect(hb_sum(4, 0, 1.0, 4.0, 0.5), "");
    /* An older summary without the keys says nothing. */
    hb_expect(json_pack("{s:s, s:i, s:i, s:f}", "type", "summary", "measurements", 4, "noisy", 4,
                        "elapsed_s", 100.0),
              "");
    /* The run's warning: the words and the remedy. */
    json_t *sum = hb_sum(17, 16, 12.0, 155.0, 50.0);
    char *line = hb_stability_message(sum);
    CHECK_STR(line ? line : "",
              "this run is unstable: 16 of 17 figures noisy, median spread 12%, it took 3.1x its "
              "estimate: repeat until clear with --repeat auto, or run on a quieter machine");
    free(line);
    json_decref(sum);
    sum = hb_sum(17, 0, 1.0, 10.0, 10.0);
    CHECK(hb_stability_message(sum) == NULL);
    json_decref(sum);
    return hb_check_result();
}
