/* Multiple-testing adjustment (hb_family.h): Benjamini-Hochberg step-up and Holm step-down
 * over the p-values of one family, for families of a few flags to a fleet's millions. */
#include "hb_family.h"

#include <math.h>
#include <stdlib.h>

struct member {
    double p;
    size_t at;
};

static int member_cmp(const void *a, const void *b)
{
    double x = ((const struct member *)a)->p, y = ((const struct member *)b)->p;
    size_t i = ((const struct member *)a)->at, j = ((const struct member *)b)->at;
    return x < y ? -1 : x > y ? 1 : (i > j) - (i < j);
}

long hb_family_adjust(const double *p, size_t n, enum hb_family_rule rule, double *adj)
{
    struct member *m = malloc(sizeof(*m) * (n ? n : 1));
    if (!m) return -1;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(p[i])) m[k++] = (struct member){p[i] < 0.0 ? 0.0 : p[i], i};
    qsort(m, k, sizeof(*m), member_cmp);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(p[i])) adj[i] = NAN;
    if (rule == HB_FAMILY_FDR) {
        /* Step up from the largest: adj(i) = min over j >= i of p(j) * k / j. */
        double run = 1.0;
        for (size_t j = k; j-- > 0;) {
            double a = m[j].p * (double)k / (double)(j + 1);
            run = a < run ? a : run;
            adj[m[j].at] = run;
        }
    } else {
        /* Step down from the smallest: adj(i) = max over j <= i of p(j) * (k - j + 1). */
        double run = 0.0;
        for (size_t j = 0; j < k; j++) {
            double a = m[j].p * (double)(k - j);
            run = a > run ? a : run;
            adj[m[j].at] = run < 1.0 ? run : 1.0;
        }
    }
    free(m);
    return (long)k;
}

const char *hb_family_rule_name(enum hb_family_rule rule)
{
    return rule == HB_FAMILY_FDR ? "BH FDR" : "Holm FWER";
}
