/* Multiple-testing adjustment against the published example of Benjamini and Hochberg (1995,
 * JRSS B 57:289, section 4: 15 p-values of a clinical trial), whose step-up rejects four
 * hypotheses at 0.05 where Holm's step-down rejects three. The adjusted values are those of
 * R's p.adjust(p, "BH") and p.adjust(p, "holm"). */
#include "../hb_check.h"
#include "hb_family.h"

#include <math.h>

static const double bh_paper[15] = {0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344,
                                    0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.0000};
static const double want_bh[15] = {0.0015,   0.003,    0.0095,   0.035625, 0.0603,
                                   0.063857, 0.063857, 0.0645,   0.0765,   0.486,
                                   0.581182, 0.714875, 0.753231, 0.813214, 1.0};
static const double want_holm[15] = {0.0015, 0.0056, 0.0247, 0.114, 0.2211, 0.278, 0.278, 0.278,
                                     0.3213, 1.0,    1.0,    1.0,   1.0,    1.0,   1.0};

static int below(const double *adj, int n, double level)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += adj[i] < level;
    return k;
}

int main(void)
{
    double adj[16];
    CHECK_INT(hb_family_adjust(bh_paper, 15, HB_FAMILY_FDR, adj), 15);
    for (int i = 0; i < 15; i++)
        CHECK_WITHIN(adj[i], want_bh[i], 1e-6);
    CHECK_INT(below(adj, 15, 0.05), 4);
    CHECK_INT(hb_family_adjust(bh_paper, 15, HB_FAMILY_FWER, adj), 15);
    for (int i = 0; i < 15; i++)
        CHECK_WITHIN(adj[i], want_holm[i], 1e-6);
    CHECK_INT(below(adj, 15, 0.05), 3);

    /* Order does not matter, and a NaN is no member of the family: reversed with a NaN in the
     * middle, each value keeps its adjustment and the family stays 15. */
    double rev[16];
    for (int i = 0; i < 15; i++)
        rev[i < 7 ? i : i + 1] = bh_paper[14 - i];
    rev[7] = NAN;
    CHECK_INT(hb_family_adjust(rev, 16, HB_FAMILY_FDR, adj), 15);
    CHECK(isnan(adj[7]));
    for (int i = 0; i < 15; i++)
        CHECK_WITHIN(adj[i < 7 ? i : i + 1], want_bh[14 - i], 1e-6);

    /* In place, a family of one is its own p, and an empty family is fine. */
    double one = 0.03;
    CHECK_INT(hb_family_adjust(&one, 1, HB_FAMILY_FWER, &one), 1);
    CHECK_WITHIN(one, 0.03, 1e-15);
    CHECK_INT(hb_family_adjust(NULL, 0, HB_FAMILY_FDR, NULL), 0);

    /* Invariants over many families: adjusted >= raw, <= 1, order kept, Holm >= BH. */
    unsigned seed = 12345;
    for (int fam = 0; fam < 200; fam++) {
        double p[40], bh[40], holm[40];
        int n = 1 + fam % 40;
        for (int i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            p[i] = (double)(seed >> 8) / (double)(1u << 24);
        }
        hb_family_adjust(p, (size_t)n, HB_FAMILY_FDR, bh);
        hb_family_adjust(p, (size_t)n, HB_FAMILY_FWER, holm);
        for (int i = 0; i < n; i++) {
            CHECK(bh[i] >= p[i] - 1e-15 && bh[i] <= 1.0);
            CHECK(holm[i] >= bh[i] - 1e-15);
            for (int j = 0; j < n; j++)
                if (p[i] < p[j]) CHECK(bh[i] <= bh[j] && holm[i] <= holm[j]);
        }
    }
    CHECK_STR(hb_family_rule_name(HB_FAMILY_FDR), "BH FDR");
    return hb_check_result();
}
