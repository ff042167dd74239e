/* Whether two sets of independent repeats differ: the Mann-Whitney U (Wilcoxon rank-sum)
 * test, compare's regression gate. Distribution-free: repeats of a benchmark are skewed and
 * have outliers, so a rank test suits them where a t-test does not. */
#ifndef HB_SIGNIF_H
#define HB_SIGNIF_H

/* Two-sided p-value that a and b come from one distribution. Exact (every assignment of the
 * pooled ranks, ties as mid-ranks) while na + nb <= HB_SIGNIF_EXACT_MAX; above, the normal
 * approximation with the tie correction and a continuity correction. 1.0 when a side is
 * empty. *u (may be NULL) receives U of a: the pairs (a_i, b_j) with a_i > b_j, ties half. */
#define HB_SIGNIF_EXACT_MAX 20
double hb_signif_mwu(const double *a, int na, const double *b, int nb, double *u);

/* The normal approximation's z of U of a (tie and continuity corrected): positive when a's
 * values rank above b's, 0 when a side is empty or nothing differs, NAN when out of memory.
 * For callers that scale the variance themselves (history's repeats, clustered in runs). */
double hb_signif_mwu_z(const double *a, int na, const double *b, int nb);

/* The same z from U of a and the tie term sum(t^3 - t) over the pooled values' tie groups,
 * for a caller that ranked them itself (history ranks a window's repeats once for all the
 * splits it tests there); 0 when nothing differs. */
double hb_signif_mwu_z_of(double ua, int na, int nb, double ties);

/* The smallest two-sided p the exact test can give for na and nb repeats without ties:
 * 2 / C(na + nb, na) (complete separation). */
double hb_signif_mwu_min_p(int na, int nb);

/* P(U <= u) for sides of na and nb values without ties, under the null: exact up to
 * HB_SIGNIF_EXACT_MAX values in all, the normal approximation above. */
double hb_signif_mwu_cdf(int na, int nb, double u);

/* The fewest repeats per side (both sides equal) whose smallest p is at most alpha. */
int hb_signif_mwu_repeats_for(double alpha);

#endif
