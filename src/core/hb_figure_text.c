/* Figures and their intervals as text (hb_figure_text.h): one rounding rule for everything
 * people read, so one figure printed in two places reads the same. */
#include "hb_figure_text.h"

#include <math.h>
#include <stdio.h>

/* From here up a figure is written in e-notation, its ends too. */
#define HB_FIGURE_BIG 1e6

int hb_figure_text_decimals(double v)
{
    if (!isfinite(v) || v == 0.0) return 2;
    int d = HB_FIGURE_DIGITS - 1 - (int)floor(log10(fabs(v)));
    return d < 0 ? 0 : d > 9 ? 9 : d;
}

/* One number at v's rounding: d decimals, or e-notation for a big v. */
static int figure_put(char *buf, size_t len, double x, double v)
{
    if (!isfinite(x)) return snprintf(buf, len, "n/a");
    if (fabs(v) >= HB_FIGURE_BIG) return snprintf(buf, len, "%.*e", HB_FIGURE_DIGITS - 1, x);
    return snprintf(buf, len, "%.*f", hb_figure_text_decimals(v), x);
}

const char *hb_figure_text(double v, char *buf, size_t len)
{
    figure_put(buf, len, v, v);
    return buf;
}

const char *hb_figure_text_interval_text(double v, double lo, double hi, char *buf, size_t len)
{
    int n = figure_put(buf, len, v, v);
    if (!isfinite(v) || !isfinite(lo) || !isfinite(hi) || n < 0 || (size_t)n >= len) return buf;
    char a[HB_FIGURE_LEN], b[HB_FIGURE_LEN];
    figure_put(a, sizeof(a), lo, v);
    figure_put(b, sizeof(b), hi, v);
    snprintf(buf + n, len - (size_t)n, " [%s, %s]", a, b);
    return buf;
}
