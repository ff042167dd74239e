/* Welch's t-test and the Student t tail against reference values (R: 2*pt(-|t|, df)). */
#include "../hb_check.h"
#include "hb_signif.h"

#include <math.h>

int main(void)
{
    HB_EXPECT(fabs(hb_signif_t_tail(2.0, 10.0) - 0.07338803) < 1e-6, "p=%g",
              hb_signif_t_tail(2.0, 10.0));
    HB_EXPECT(fabs(hb_signif_t_tail(0.0, 5.0) - 1.0) < 1e-12, "t=0 must give p=1");
    HB_EXPECT(fabs(hb_signif_t_tail(-3.5, 3.0) - 0.03949) < 1e-4, "p=%g",
              hb_signif_t_tail(-3.5, 3.0));
    /* R: t.test(c(1,2,3,4,5), c(2,4,6,8,10)) -> t = -1.8974, df = 5.8824, p = 0.1075 */
    const double a[] = {1, 2, 3, 4, 5}, b[] = {2, 4, 6, 8, 10};
    double t = 0, df = 0, p = hb_signif_welch(a, 5, b, 5, &t, &df);
    HB_EXPECT(fabs(t - 1.8974) < 1e-3, "t=%g (b minus a)", t);
    HB_EXPECT(fabs(df - 5.8824) < 1e-3, "df=%g", df);
    HB_EXPECT(fabs(p - 0.1075) < 1e-3, "p=%g", p);
    HB_EXPECT(hb_signif_welch(a, 1, b, 5, NULL, NULL) == 1.0, "one sample: no evidence");
    const double c[] = {3, 3, 3}, d[] = {4, 4, 4};
    HB_EXPECT(hb_signif_welch(c, 3, d, 3, NULL, NULL) == 0.0, "constant, different means");
    HB_EXPECT(hb_signif_welch(c, 3, c, 3, NULL, NULL) == 1.0, "constant, same means");
    return 0;
}
