/* Significance of a change between two sets of samples (compare's regression gate). */
#ifndef HB_SIGNIF_H
#define HB_SIGNIF_H

/* Welch's two-sample t-test, two-sided: p-value that a and b have the same mean, without
 * assuming equal variances. Needs na >= 2 and nb >= 2; otherwise returns 1.0 (no evidence).
 * When both variances are zero: 0.0 if the means differ, else 1.0. Also stores t and the
 * Welch-Satterthwaite degrees of freedom when t / df are not NULL. */
double hb_signif_welch(const double *a, int na, const double *b, int nb, double *t, double *df);

/* Two-sided tail probability of Student's t distribution: P(|T| >= |t|) with df degrees of
 * freedom (df > 0). */
double hb_signif_t_tail(double t, double df);

#endif
