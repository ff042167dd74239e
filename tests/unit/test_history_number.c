/* The history's reader of stored numbers (hb_history_number.h) against strtod: the same
 * double and the same end for the texts the store holds (%.15g, Python's shortest repr,
 * negative, tiny, huge) and for those it must leave to strtod (17 digits, hex, inf, blanks,
 * a bare exponent). */
#include "../hb_check.h"
#include "hb_history_number.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* hb_history_number_read(text) is strtod(text), bit for bit, and ends where strtod does. */
static int same(const char *text)
{
    char *e1, *e2;
    double a = hb_history_number_read(text, &e1), b = strtod(text, &e2);
    if (memcmp(&a, &b, sizeof(a)) == 0 && e1 == e2) return 1;
    fprintf(stderr, "'%s': %.17g (end +%td), strtod %.17g (end +%td)\n", text, a, e1 - text, b,
            e2 - text);
    return 0;
}

int main(void)
{
    static const char *const texts[] = {"0",
                                        "-0",
                                        "1",
                                        "10.2345678901234",
                                        "1.5 1.25",
                                        "0.1",
                                        "0.3",
                                        "-2.5e-3",
                                        "1e22",
                                        "1e23",
                                        "1e-22",
                                        "1e-23",
                                        "123456789012345",
                                        "1234567890123456",
                                        "9007199254740993",
                                        "0.000123456789012345",
                                        "1.2345678901234567e-300",
                                        "4.9e-324",
                                        "1.7976931348623157e308",
                                        "12.",
                                        ".5",
                                        "-.5",
                                        "1e",
                                        "1e+",
                                        "1e+5x",
                                        "1E5",
                                        "0x1p3",
                                        "inf",
                                        "-nan",
                                        " 1.5",
                                        "+1.5",
                                        "00000000000000000000012.5",
                                        "1e00005",
                                        "1e-0005",
                                        "3.14159265358979"};
    int ok = 1;
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
        ok &= same(texts[i]);
    /* Random values as the scale benchmark's SQL writes them (%.15g) and as Python's repr does
     * (%.17g where needed): 200000 of each, over many magnitudes. */
    uint64_t r = 88172645463325252ull;
    char buf[64];
    for (int i = 0; i < 200000 && ok; i++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        double v = (double)(r >> 11) / 9007199254740992.0 * 1e4;
        v = i % 3 == 0 ? v * 1e-9 : i % 3 == 1 ? v : v * 1e12;
        snprintf(buf, sizeof(buf), i % 2 ? "%.15g" : "%.17g", i % 5 ? v : -v);
        ok &= same(buf);
    }
    CHECK(ok);
    return hb_check_result();
}
