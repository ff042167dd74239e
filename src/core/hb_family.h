/* Many conclusions drawn from one run or one comparison: the p-values of a family adjusted so
 * that false alarms stay controlled across all of them, not row by row. Pure arithmetic. */
#ifndef HB_FAMILY_H
#define HB_FAMILY_H

#include <stddef.h>

/* Benjamini-Hochberg controls the false discovery rate (the expected share of false flags
 * among those raised); Holm controls the family-wise error rate (the chance of any false
 * flag at all), stricter, for gates that must not cry wolf once. */
enum hb_family_rule { HB_FAMILY_FDR, HB_FAMILY_FWER };

/* The default level of either rule. */
#define HB_FAMILY_LEVEL 0.05

/* adj[i]: p[i] adjusted over the family of the finite p (a NaN p is no member, its adj NaN):
 * flag member i when adj[i] < level. adj may be p. Returns the family's size, or -1 when out
 * of memory (adj untouched). */
long hb_family_adjust(const double *p, size_t n, enum hb_family_rule rule, double *adj);

/* The rule's name as the records and tables give it ("BH FDR", "Holm FWER"). */
const char *hb_family_rule_name(enum hb_family_rule rule);

#endif
