/* Byte sizes as users write them (hb_bytes.h): parsing, overflow-checked products, printing. */
#include "hb_bytes.h"

#include "hb_error.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct hb_unit {
    const char *suffix;
    double factor;
};

/* Longest suffixes first so "KiB" is not read as "K" + junk. */
static const struct hb_unit units[] = {
    {"kib", 1024.0}, {"mib", 1048576.0}, {"gib", 1073741824.0}, {"tib", 1099511627776.0},
    {"kb", 1e3},     {"mb", 1e6},        {"gb", 1e9},           {"tb", 1e12},
    {"k", 1024.0},   {"m", 1048576.0},   {"g", 1073741824.0},   {"t", 1099511627776.0},
    {"b", 1.0},      {"", 1.0},
};

#define HB_SIZE_FORMS "a positive size such as 65536, 64K, 512KiB, 64M, 1G, 1GiB, 4kB, 1GB"

/* 2^64: the first byte count 64 bits cannot hold. */
#define HB_SIZE_LIMIT 18446744073709551616.0L

static int size_too_large(const char *text)
{
    hb_error_set("size '%s' is too large: it must be less than 16 EiB (at most %llu bytes)", text,
                 (unsigned long long)UINT64_MAX);
    return -ERANGE;
}

/* A number of plain digits, exact (a long double may not hold 20 digits everywhere): 0 and
 * *out, or -ERANGE past 64 bits. end: where the digits stop. */
static int size_digits(const char *p, const char **end, uint64_t *out)
{
    uint64_t v = 0;
    int rc = 0;
    for (; isdigit((unsigned char)*p); p++)
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *p - '0', &v))
            rc = -ERANGE;
    *end = p;
    *out = v;
    return rc;
}

int hb_bytes_parse(const char *text, uint64_t *out)
{
    if (!text || !*text) {
        hb_error_set("invalid size '': expected %s", HB_SIZE_FORMS);
        return -EINVAL;
    }
    const char *p = text;
    /* strtold would skip blanks and read signs, hex and "inf": only decimal digits start. */
    if (!(isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1])))) {
        hb_error_set("invalid size '%s': expected %s", text, HB_SIZE_FORMS);
        return -EINVAL;
    }
    errno = 0;
    char *end = NULL;
    long double value = strtold(p, &end);
    if (end == p || strspn(p, "0123456789.eE+-") < (size_t)(end - p)) {
        hb_error_set("invalid size '%s': expected %s", text, HB_SIZE_FORMS);
        return -EINVAL;
    }
    /* Out of range either way is still a number: past the largest long double it is too
     * large, below the smallest too small, whatever the unit. */
    bool huge = errno == ERANGE && value > 1.0L, tiny = errno == ERANGE && !huge;
    const struct hb_unit *unit = NULL;
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]) && !unit; i++)
        if (strcasecmp(end, units[i].suffix) == 0) unit = &units[i];
    if (!unit) {
        hb_error_set("invalid size '%s': unknown unit '%s'; expected %s", text, end, HB_SIZE_FORMS);
        return -EINVAL;
    }
    uint64_t whole = 0, bytes = 0;
    const char *digits_end = p;
    int whole_rc = size_digits(p, &digits_end, &whole);
    if (digits_end == end) { /* plain digits: counted exactly */
        if (whole_rc || __builtin_mul_overflow(whole, (uint64_t)unit->factor, &bytes))
            return size_too_large(text);
    } else {
        long double v = value * (long double)unit->factor;
        if (huge || v >= HB_SIZE_LIMIT) return size_too_large(text);
        if (!tiny && v >= 1.0L && v != floorl(v)) {
            hb_error_set("invalid size '%s': %.17Lg bytes is not a whole number of bytes (%s)",
                         text, v, HB_SIZE_FORMS);
            return -EINVAL;
        }
        bytes = tiny || v < 1.0L ? 0 : (uint64_t)v;
    }
    if (bytes == 0) {
        hb_error_set("invalid size '%s': must be at least 1 byte (%s)", text, HB_SIZE_FORMS);
        return -EINVAL;
    }
    *out = bytes;
    return 0;
}

int hb_bytes_mul(const char *what, uint64_t per, uint64_t count, uint64_t *out)
{
    if (__builtin_mul_overflow(per, count, out)) {
        char a[32];
        /* The product is 2^64 or more: 8 EiB x 2 is exactly 16 EiB, not more. */
        hb_error_set("%s: %s x %llu comes to 16 EiB or more, past 64 bits; choose a smaller size",
                     what, hb_bytes_format(per, a, sizeof(a)), (unsigned long long)count);
        return -ERANGE;
    }
    return 0;
}

char *hb_bytes_format(uint64_t bytes, char *buf, size_t len)
{
    static const char *const names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    long double v = (long double)bytes;
    int u = 0;
    while (v >= 1024.0L && u < 6) {
        v /= 1024.0L;
        u++;
    }
    if (u == 0 || v == floorl(v)) {
        snprintf(buf, len, "%.0Lf %s", v, names[u]);
        return buf;
    }
    /* Three digits, or as many more as it takes not to look whole (4095 B is "3.999 KiB", not
     * "4 KiB", which a message comparing it with 4 KiB would contradict) nor to need an
     * exponent (1023.5 KiB is not "1.02e+03 KiB"). */
    for (int digits = 3; digits <= 21; digits++) {
        snprintf(buf, len, "%.*Lg %s", digits, v, names[u]);
        if (strchr(buf, '.') && !strchr(buf, 'e')) break;
    }
    return buf;
}
