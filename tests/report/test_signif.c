/* The Mann-Whitney U test: exact probabilities, published critical values, ties, and the
 * normal approximation against the exact distribution. */
#include "../hb_check.h"
#include "hb_signif.h"

#include <math.h>
#include <stdio.h>

/* Samples of n1 and n2 values without ties whose U (pairs a_i > b_j) is exactly u. */
static void samples_with_u(int n1, int n2, int u, double *a, double *b)
{
    /* Start completely separated (every a below every b: U = 0), then raise a's values one
     * pair at a time past b's, largest a first. */
    for (int i = 0; i < n1; i++)
        a[i] = i;
    for (int j = 0; j < n2; j++)
        b[j] = 1000 + j;
    for (int i = n1 - 1; u > 0 && i >= 0; i--) {
        int pass = u < n2 ? u : n2;
        a[i] = 1000 + pass - 0.5; /* above b[0..pass) */
        u -= pass;
    }
}

/* The exact two-sided p by brute force: every way to give na of the pooled values' ranks
 * to the first side, counted when its rank sum lies as far from the mean as a's or farther
 * (values distinct: ranks 1..n by value). */
static double brute_p(const double *a, int na, const double *b, int nb)
{
    int n = na + nb;
    double v[40], ra = 0.0;
    for (int i = 0; i < n; i++)
        v[i] = i < na ? a[i] : b[i - na];
    int rank[40];
    for (int i = 0; i < n; i++) {
        rank[i] = 1;
        for (int j = 0; j < n; j++)
            rank[i] += v[j] < v[i];
        if (i < na) ra += rank[i];
    }
    double mean = na * (n + 1) / 2.0, hits = 0, all = 0;
    for (unsigned m = 0; m < 1u << n; m++) {
        if (__builtin_popcount(m) != na) continue;
        double s = 0;
        for (int i = 0; i < n; i++)
            if (m >> i & 1) s += rank[i];
        all++;
        hits += fabs(s - mean) >= fabs(ra - mean) - 1e-9;
    }
    return hits / all;
}

/* Without ties the p comes from the rank sums' counted distribution: for every size up to 14
 * pooled values and scattered samples, the same p as counting every assignment. */
static void check_counted(void)
{
    unsigned seed = 12345;
    double a[20], b[20];
    for (int na = 1; na <= 7; na++)
        for (int nb = 1; na + nb <= 14; nb++)
            for (int trial = 0; trial < 6; trial++) {
                for (int i = 0; i < na + nb; i++) {
                    seed = seed * 1103515245u + 12345u;
                    /* distinct values: a random order of 0..n-1 plus a side's shift */
                    double x = (seed >> 8) % 1000 + i * 1e-3;
                    if (i < na)
                        a[i] = x;
                    else
                        b[i - na] = x + trial * 100;
                }
                double got = hb_signif_mwu(a, na, b, nb, NULL), want = brute_p(a, na, b, nb);
                if (fabs(got - want) > 1e-12)
                    fprintf(stderr, "na %d nb %d trial %d: p %.17g, brute force %.17g\n", na, nb,
                            trial, got, want);
                CHECK_WITHIN(got, want, 1e-12);
            }
}

int main(void)
{
    check_counted();
    double a[40], b[40], u = -1;
    /* 3 against 3, separated: U = 0, two-sided p = 2 / C(6,3) = 0.1. */
    const double x3[] = {1, 2, 3}, y3[] = {4, 5, 6};
    CHECK_WITHIN(hb_signif_mwu(x3, 3, y3, 3, &u), 0.1, 1e-12);
    CHECK_WITHIN(u, 0, 0);
    CHECK_WITHIN(hb_signif_mwu(y3, 3, x3, 3, &u), 0.1, 1e-12);
    CHECK_WITHIN(u, 9, 0);
    CHECK_WITHIN(hb_signif_mwu_min_p(3, 3), 0.1, 1e-12);
    CHECK_WITHIN(hb_signif_mwu_min_p(5, 5), 2.0 / 252.0, 1e-12);
    CHECK_INT(hb_signif_mwu_repeats_for(0.05), 4);
    CHECK_INT(hb_signif_mwu_repeats_for(0.01), 5);

    /* Published two-tailed critical values of U at alpha 0.05 (n1 = n2): significant at the
     * critical value, not one above it. */
    const int n[] = {4, 5, 6, 7, 8, 10}, crit[] = {0, 2, 5, 8, 13, 23};
    for (int k = 0; k < 6; k++) {
        samples_with_u(n[k], n[k], crit[k], a, b);
        double p = hb_signif_mwu(a, n[k], b, n[k], &u);
        CHECK_WITHIN(u, crit[k], 0);
        CHECK(p <= 0.05);
        samples_with_u(n[k], n[k], crit[k] + 1, a, b);
        p = hb_signif_mwu(a, n[k], b, n[k], &u);
        CHECK_WITHIN(u, crit[k] + 1, 0);
        CHECK(p > 0.05);
    }
    /* 5 against 5 with U = 2: 2 * 4 / 252 (U = 0, 1 and 2 come about 1, 1 and 2 ways). */
    samples_with_u(5, 5, 2, a, b);
    CHECK_WITHIN(hb_signif_mwu(a, 5, b, 5, NULL), 8.0 / 252.0, 1e-12);

    /* Identical samples: no evidence at all. Ties across the sides count half. */
    const double same[] = {7, 7, 7, 7, 7};
    CHECK_WITHIN(hb_signif_mwu(same, 5, same, 5, &u), 1.0, 1e-12);
    CHECK_WITHIN(u, 12.5, 0);
    /* {1,2,2} against {2,3,3}: each 2 of a ties the 2 of b (half a pair each): U = 1. */
    const double t1[] = {1, 2, 2}, t2[] = {2, 3, 3};
    hb_signif_mwu(t1, 3, t2, 3, &u);
    CHECK_WITHIN(u, 1.0, 0);

    /* Normal approximation (n1 + n2 > 20) near the exact value for moderate n: 11 against
     * 11 at U = 30, the published critical value (exact two-sided p 0.0473; the
     * approximation gives 0.0488), and significant at alpha 0.05 as the tables say. */
    samples_with_u(11, 11, 30, a, b);
    double p_approx = hb_signif_mwu(a, 11, b, 11, &u);
    CHECK_WITHIN(u, 30, 0);
    CHECK_WITHIN(p_approx, 0.0473, 0.003);
    CHECK(p_approx <= 0.05);
    /* 10 against 10 (exact) and the same shift at 20 against 20 (approximate): more repeats,
     * smaller p for the same separation. */
    samples_with_u(10, 10, 23, a, b);
    double p10 = hb_signif_mwu(a, 10, b, 10, NULL);
    samples_with_u(20, 20, 92, a, b);
    CHECK(hb_signif_mwu(a, 20, b, 20, NULL) < p10);
    CHECK_WITHIN(hb_signif_mwu(a, 0, b, 3, NULL), 1.0, 0);
    return hb_check_result();
}
