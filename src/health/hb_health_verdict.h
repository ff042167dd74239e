/* One cell's verdict against its reference, by compare's rules (src/compare/hb_compare.c):
 * worse or better only when the rank test over the repeats separates them (p adjusted over
 * the host's cells, Benjamini-Hochberg) and the change passes the threshold; else unclear
 * unless the shift's interval shows the cell no worse than the threshold. A health check asks
 * non-inferiority (compare asks sameness, both bounds): a cell faster than its reference by any
 * amount is no fault of the node, so only the interval's bound on the worse side must lie
 * within the threshold. */
#ifndef HB_HEALTH_VERDICT_H
#define HB_HEALTH_VERDICT_H

#include <stdbool.h>

/* SAME: shown no worse than the threshold (and not separated as better by more). */
enum hb_health_call { HB_HEALTH_SAME, HB_HEALTH_BETTER, HB_HEALTH_WORSE, HB_HEALTH_UNCLEAR };

struct hb_health_verdict {
    double now, now_lo, now_hi; /* the cell's median and interval */
    double ref, ref_lo, ref_hi; /* the reference's */
    double change_pct;          /* now against ref */
    /* The shift of now against ref (Hodges-Lehmann, in %) and its interval's bound on the
     * worse side (NAN until called, or where no interval could be drawn). */
    double shift_pct, worst_pct;
    double p;       /* the rank test's, before the family's adjustment */
    bool decidable; /* the rank test can reach the level at these repeats */
    enum hb_health_call call;
};

/* The figures and the rank test of now against ref (each n values > 0): false when out of
 * memory. */
bool hb_health_verdict_test(const double *now, int n, const double *ref, int nref,
                            struct hb_health_verdict *v);

/* The call, once p is adjusted over the family (p_adjusted), at threshold_pct; higher_better
 * as the unit is. */
void hb_health_verdict_call(struct hb_health_verdict *v, const double *now, int n,
                            const double *ref, int nref, double p_adjusted, double threshold_pct,
                            bool higher_better);

#endif
