/* Interval coverage in words (hb_coverage.h): the range of a set of figures' coverages and
 * repeat counts, and the label captions and headers print. */
#include "hb_coverage.h"

#include "hb_interval.h"
#include "hb_jsonl_read.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* n into [*lo, *hi] (the first one sets both). */
static void coverage_range(int n, bool first, int *lo, int *hi)
{
    if (n <= 0) return;
    *lo = first || *lo <= 0 || n < *lo ? n : *lo;
    *hi = n > *hi ? n : *hi;
}

void hb_coverage_add(struct hb_coverage *c, bool has_interval, int repeats, double coverage)
{
    if (!has_interval) {
        coverage_range(repeats, c->bare == 0, &c->bare_lo, &c->bare_hi);
        c->bare++;
        return;
    }
    coverage_range(repeats, c->intervals == 0, &c->rep_lo, &c->rep_hi);
    if (!(coverage > 0.0 && coverage <= 1.0)) {
        c->unknown++;
    } else if (c->intervals == c->unknown) { /* the first coverage given */
        c->cov_lo = c->cov_hi = coverage;
    } else {
        c->cov_lo = fmin(c->cov_lo, coverage);
        c->cov_hi = fmax(c->cov_hi, coverage);
    }
    c->intervals++;
}

void hb_coverage_add_rec(struct hb_coverage *c, const json_t *rec)
{
    struct hb_interval iv;
    bool has = hb_jsonl_read_interval(rec, &iv) && iv.n >= 2;
    if (!has && !isfinite(iv.value)) return; /* no headline: nothing shown */
    int repeats = (int)fmin(hb_jsonl_read_num(rec, "repeats", 0), 1e9);
    hb_coverage_add(c, has, repeats, has ? iv.coverage : NAN);
}

void hb_coverage_merge(struct hb_coverage *into, const struct hb_coverage *from)
{
    if (from->intervals > from->unknown) {
        bool first = into->intervals == into->unknown;
        into->cov_lo = first ? from->cov_lo : fmin(into->cov_lo, from->cov_lo);
        into->cov_hi = first ? from->cov_hi : fmax(into->cov_hi, from->cov_hi);
    }
    coverage_range(from->rep_lo, into->intervals == 0, &into->rep_lo, &into->rep_hi);
    coverage_range(from->rep_hi, false, &into->rep_lo, &into->rep_hi);
    coverage_range(from->bare_lo, into->bare == 0, &into->bare_lo, &into->bare_hi);
    coverage_range(from->bare_hi, false, &into->bare_lo, &into->bare_hi);
    into->intervals += from->intervals;
    into->unknown += from->unknown;
    into->bare += from->bare;
}

bool hb_coverage_any(const struct hb_coverage *c)
{
    return c->intervals > 0;
}

/* A coverage (0..1) in percent, at most two decimals and none that are 0: 75, 93.75, 87.5. */
static const char *coverage_pct(double coverage, char *buf, size_t len)
{
    snprintf(buf, len, "%.2f", coverage * 100.0);
    char *end = buf + strlen(buf);
    while (end > buf && end[-1] == '0')
        *--end = '\0';
    if (end > buf && end[-1] == '.') end[-1] = '\0';
    return buf;
}

/* "5 repeats", "3-5 repeats", "1 repeat"; "" when no count was given. */
static const char *coverage_repeats(int lo, int hi, char *buf, size_t len)
{
    if (hi <= 0)
        buf[0] = '\0';
    else if (lo == hi)
        snprintf(buf, len, ", %d repeat%s", hi, hi == 1 ? "" : "s");
    else
        snprintf(buf, len, ", %d-%d repeats", lo, hi);
    return buf;
}

const char *hb_coverage_label(const struct hb_coverage *c, char *buf, size_t len)
{
    char lo[16], hi[16], reps[32], cov[40];
    if (c->intervals == 0) {
        snprintf(buf, len, "no interval%s",
                 coverage_repeats(c->bare_lo, c->bare_hi, reps, sizeof(reps)));
        return buf;
    }
    bool known = c->intervals > c->unknown;
    bool range = (known && c->cov_lo != c->cov_hi) || c->rep_lo != c->rep_hi;
    if (!known)
        snprintf(cov, sizeof(cov), "interval%s of unknown coverage", range ? "s" : "");
    else if (c->cov_lo == c->cov_hi)
        snprintf(cov, sizeof(cov), "%s%% interval%s", coverage_pct(c->cov_lo, lo, sizeof(lo)),
                 range ? "s" : "");
    else
        snprintf(cov, sizeof(cov), "%s-%s%% intervals", coverage_pct(c->cov_lo, lo, sizeof(lo)),
                 coverage_pct(c->cov_hi, hi, sizeof(hi)));
    int n =
        snprintf(buf, len, "%s%s", cov, coverage_repeats(c->rep_lo, c->rep_hi, reps, sizeof(reps)));
    if (c->bare && n >= 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, ", %zu without", c->bare);
    return buf;
}
