/* How much one set of repeats moved against another, and how sure that is: the
 * Hodges-Lehmann shift with its distribution-free interval, on the log scale (a ratio), and
 * what a given spread lets a rank test detect. Pure arithmetic, the basis of compare's
 * equivalence test ("same" only when shown) and of its noise floor. */
#ifndef HB_SHIFT_H
#define HB_SHIFT_H

#include <stdbool.h>

struct hb_shift {
    double ratio;    /* exp(the median of log b_j - log a_i): b's size relative to a's */
    double lo, hi;   /* the interval of that ratio */
    double coverage; /* its exact coverage (normal approximation above 20 values) */
};

/* The shift of b against a (all values > 0) with the widest interval [D(k), D(nm+1-k)] of
 * the sorted pairwise log differences D whose coverage 1 - 2 P(U < k) is at least level;
 * when even k = 1 (every difference) covers less, that widest interval with the coverage it
 * has. Returns false when a side is empty, a value is not positive or memory runs out. */
bool hb_shift_log(const double *a, int na, const double *b, int nb, double level,
                  struct hb_shift *out);

/* The spread of repeats as a relative figure: the standard deviation of their logs (about
 * the coefficient of variation), pooled over the sides given (nb 0: a alone). NAN with
 * fewer than 2 values on every side. */
double hb_shift_spread(const double *a, int na, const double *b, int nb);

/* The standard normal quantile (0 < q < 1). */
double hb_shift_z(double q);

/* The smallest change, in percent, that a two-sided rank test at level alpha detects with
 * the given power between na and nb repeats of relative spread sigma (the t-test's formula
 * over the rank test's efficiency 3/pi). Infinite when the exact test can never reach
 * alpha at these repeats. */
double hb_shift_detectable_pct(double sigma, int na, int nb, double alpha, double power);

/* The fewest repeats per side at which hb_shift_detectable_pct reaches change_pct; 0 when
 * none up to 10000 does (sigma not finite, change 0). */
int hb_shift_repeats_to_detect(double sigma, double change_pct, double alpha, double power);

/* The fewest repeats per side whose interval (at level) around a shift of change_pct stays
 * inside +-threshold_pct, so the figures can be shown the same; 0 when none up to 10000
 * does (the change itself at or beyond the threshold). */
int hb_shift_repeats_to_show_same(double sigma, double change_pct, double threshold_pct,
                                  double level);

#endif
