/* A stored number's text read back (hb_history_number.h). Where its digits fit a double
 * exactly (at most 15) and so does its power of ten (10^0 .. 10^22), one multiply or divide
 * of the two, correctly rounded as every IEEE operation is, is the double strtod gives
 * (Clinger 1990); any other text goes to strtod. */
#include "hb_history_number.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

/* The exact powers of ten a double holds. */
static const double exact_pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
enum { MAX_DIGITS = 15, MAX_POW10 = 22, MAX_EXP_DIGITS = 4 };

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

double hb_history_number_read(const char *s, char **end)
{
    const char *c = s;
    bool neg = *c == '-';
    if (neg) c++;
    uint64_t m = 0;
    int digits = 0, exp10 = 0, seen = 0;
    for (; is_digit(*c); c++, seen++)
        if (m || *c != '0') m = m * 10 + (uint64_t)(*c - '0'), digits++;
    if (*c == '.')
        for (c++; is_digit(*c); c++, seen++, exp10--)
            if (m || *c != '0') m = m * 10 + (uint64_t)(*c - '0'), digits++;
    if (seen == 0 || digits > MAX_DIGITS || *c == 'x' || *c == 'X') return strtod(s, end);
    if (*c == 'e' || *c == 'E') {
        const char *e = c + 1;
        bool eneg = *e == '-';
        if (*e == '-' || *e == '+') e++;
        int x = 0, n = 0;
        for (; is_digit(*e) && n < MAX_EXP_DIGITS; e++, n++)
            x = x * 10 + (*e - '0');
        if (n == 0 || is_digit(*e)) return strtod(s, end);
        exp10 += eneg ? -x : x;
        c = e;
    }
    if (exp10 < -MAX_POW10 || exp10 > MAX_POW10) return strtod(s, end);
    double v = (double)m;
    v = exp10 < 0 ? v / exact_pow10[-exp10] : v * exact_pow10[exp10];
    *end = (char *)c;
    return neg ? -v : v;
}
