#include "hb_size.h"

#include "hb_error.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct hb_unit {
    const char *suffix;
    double factor;
};

/* Longest suffixes first so "KiB" is not read as "K" + junk. */
static const struct hb_unit hb_units[] = {
    {"kib", 1024.0}, {"mib", 1048576.0}, {"gib", 1073741824.0}, {"tib", 1099511627776.0},
    {"kb", 1e3},     {"mb", 1e6},        {"gb", 1e9},           {"tb", 1e12},
    {"k", 1024.0},   {"m", 1048576.0},   {"g", 1073741824.0},   {"t", 1099511627776.0},
    {"b", 1.0},      {"", 1.0},
};

#define HB_SIZE_FORMS "a positive size such as 65536, 64K, 512KiB, 64M, 1G, 1GiB, 4kB, 1GB"

int hb_size_parse(const char *text, uint64_t *out)
{
    if (!text || !*text) {
        hb_err_set("invalid size '': expected %s", HB_SIZE_FORMS);
        return -EINVAL;
    }
    const char *p = text;
    /* strtod would skip blanks and read signs, hex and "inf": only decimal digits start. */
    if (!(isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1])))) {
        hb_err_set("invalid size '%s': expected %s", text, HB_SIZE_FORMS);
        return -EINVAL;
    }
    errno = 0;
    char *end = NULL;
    double value = strtod(p, &end);
    if (end == p || errno == ERANGE || !isfinite(value) ||
        strspn(p, "0123456789.eE+-") < (size_t)(end - p)) {
        hb_err_set("invalid size '%s': expected %s", text, HB_SIZE_FORMS);
        return errno == ERANGE ? -ERANGE : -EINVAL;
    }
    for (size_t i = 0; i < sizeof(hb_units) / sizeof(hb_units[0]); i++) {
        if (strcasecmp(end, hb_units[i].suffix) != 0) continue;
        double bytes = value * hb_units[i].factor;
        if (bytes >= 18446744073709551616.0) {
            hb_err_set("size '%s' is too large: at most 16 EiB", text);
            return -ERANGE;
        }
        if (bytes < 1.0) {
            hb_err_set("invalid size '%s': must be at least 1 byte (%s)", text, HB_SIZE_FORMS);
            return -EINVAL;
        }
        if (bytes != floor(bytes)) {
            hb_err_set("invalid size '%s': %.17g bytes is not a whole number of bytes (%s)", text,
                       bytes, HB_SIZE_FORMS);
            return -EINVAL;
        }
        *out = (uint64_t)bytes;
        return 0;
    }
    hb_err_set("invalid size '%s': unknown unit '%s'; expected %s", text, end, HB_SIZE_FORMS);
    return -EINVAL;
}

int hb_size_mul(const char *what, uint64_t per, uint64_t count, uint64_t *out)
{
    if (__builtin_mul_overflow(per, count, out)) {
        char a[32];
        hb_err_set("%s: %s x %llu is more than 16 EiB; choose a smaller size", what,
                   hb_size_format(per, a, sizeof(a)), (unsigned long long)count);
        return -ERANGE;
    }
    return 0;
}

char *hb_size_format(uint64_t bytes, char *buf, size_t len)
{
    static const char *const names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024.0 && u < 5) {
        v /= 1024.0;
        u++;
    }
    if (u == 0 || v == floor(v))
        snprintf(buf, len, "%.0f %s", v, names[u]);
    else
        snprintf(buf, len, "%.3g %s", v, names[u]);
    return buf;
}
