/* The sinks' JSON text (hb_json_text.h) against jansson's own, byte for byte: reals of every
 * magnitude and digit count at every precision, and records with every kind of value and the
 * strings jansson escapes. */
#include "../hb_check.h"
#include "hb_json_text.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t seed = 88172645463325252ULL;
static uint64_t next(void)
{
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
}

/* v through hb_json_text_put and through json_dumps at the precision: the same text. */
static void same(const json_t *v, int digits)
{
    char *want = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(digits));
    char *got = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&got, &len);
    HB_EXPECT(want && m, "memory");
    hb_json_text_put(m, v, digits);
    fclose(m);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "digits %d: got %s, jansson %s\n", digits, got, want);
    CHECK(strcmp(got, want) == 0);
    free(got);
    free(want);
}

/* A real of few decimal digits (as figures are), or any bit pattern, or a power of ten's
 * neighbour: the cases where the shortest text and %g could part. */
static double some_real(void)
{
    uint64_t r = next();
    switch (r % 4) {
    case 0: { /* k / 10^m: few digits */
        double k = (double)(next() % 2000000) - 1000000;
        return k / pow(10.0, (double)(next() % 30) - 10);
    }
    case 1: { /* any finite double */
        uint64_t bits = next();
        double d;
        memcpy(&d, &bits, sizeof(d));
        return isfinite(d) ? d : 1.5;
    }
    case 2: /* around powers of ten, where %g changes style */
        return pow(10.0, (double)(next() % 40) - 20) * (1.0 + ((double)(next() % 3) - 1) * 1e-12);
    default: /* halves and thirds: ties and long expansions */
        return (double)(next() % 100000) / ((next() % 2) ? 8.0 : 3.0);
    }
}

int main(void)
{
    static const int precisions[] = {0, 1, 2, 3, 6, 10, 14, 15, 16, 17};
    static const double fixed[] = {
        0.0,      -0.0,      1.0,  -1.0,  90.6504, 1e-5,
        1e-4,     0.0001234, 1e15, 1e16,  1e21,    123456.5,
        999999.5, 9.999995,  0.1,  2.675, 5e-324,  1.7976931348623157e308,
        100.0,    1234567.0};
    for (size_t p = 0; p < sizeof(precisions) / sizeof(*precisions); p++) {
        for (size_t i = 0; i < sizeof(fixed) / sizeof(*fixed); i++) {
            json_t *x = json_real(fixed[i]);
            same(x, precisions[p]);
            json_decref(x);
        }
        for (int i = 0; i < 20000; i++) {
            json_t *x = json_real(some_real());
            same(x, precisions[p]);
            json_decref(x);
        }
    }
    /* A record with every kind of value, nested, and strings to escape. */
    json_t *rec = json_pack(
        "{s:s, s:s, s:I, s:I, s:b, s:b, s:n, s:[f, f, [], {}], s:{s:{s:[i, s]}}, s:s}", "type",
        "comparison", "text", "quote \" backslash \\ slash / tab \t nl \n cr \r bs \b ff \f bel \a",
        "min", (json_int_t)INT64_MIN, "max", (json_int_t)INT64_MAX, "yes", 1, "no", 0, "none",
        "ci95", 90.306, 1e-7, "deep", "a", "b", 1, "\x1f \x7f", "utf8", "é ü → 😀");
    HB_EXPECT(rec, "memory");
    json_object_set_new(rec, "key \"with\"\nescapes", json_real(3.25));
    for (size_t p = 0; p < sizeof(precisions) / sizeof(*precisions); p++)
        same(rec, precisions[p]);
    json_decref(rec);
    return hb_check_result();
}
