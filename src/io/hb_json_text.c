/* jansson's JSON text without jansson's per-value strings (hb_json_text.h). A real takes the
 * shortest decimal that reads back as it (yyjson's writer): when that has no more digits than
 * the precision asks, it is what "%.*g" gives too (the exact binary value lies within half
 * an ulp of it, far from any rounding boundary at 15 digits or fewer, when it is a normal
 * number), laid out as %g does;
 * otherwise snprintf decides. */
#include "hb_json_text.h"

#include <yyjson.h>

#include <math.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

/* jansson's changes to printf's text (strconv.c): a real never reads as an integer, and the
 * exponent has no '+' and no leading zeros. */
static size_t json_real_fix(char *buf, size_t len)
{
    if (!strchr(buf, '.') && !strchr(buf, 'e')) {
        memcpy(buf + len, ".0", 3);
        len += 2;
    }
    char *e = strchr(buf, 'e');
    if (e) {
        char *start = e + 1 + (e[1] == '-'), *end = e + 1;
        while (*end == '+' || *end == '-' || (*end == '0' && end[1]))
            end++;
        if (end > start) {
            memmove(start, end, (size_t)(buf + len + 1 - end));
            len -= (size_t)(end - start);
        }
    }
    return len;
}

/* The shortest decimal of v as its significant digits (no leading or trailing zeros) and the
 * power of ten of the first: false when v is zero. */
static bool json_shortest(double v, char *digits, int *ndigits, int *exp10, bool *neg)
{
    yyjson_mut_val x;
    char text[HB_JSON_REAL_MAX];
    yyjson_mut_set_real(&x, v);
    char *end = yyjson_mut_write_number(&x, text);
    if (!end) return false;
    *end = 0;
    int n = 0, before = 0, e = 0; /* before: digits before the point, less zeros after it */
    bool point = false;
    const char *p = text;
    *neg = *p == '-';
    p += *neg;
    for (; *p && *p != 'e' && *p != 'E'; p++) {
        if (*p == '.')
            point = true;
        else if (*p != '0' || n > 0)
            digits[n++] = *p, before += !point;
        else if (point)
            before--; /* a zero between the point and the first digit */
    }
    if (*p) e = atoi(p + 1);
    while (n > 0 && digits[n - 1] == '0')
        n--;
    *ndigits = n;
    *exp10 = before - 1 + e;
    return n > 0;
}

/* The digits d[0..n) (first at 10^x) rounded to prec as "%.*g" rounds the exact value: false
 * when their tail beyond prec lies too near a half for the shortest decimal to tell (it is
 * within half an ulp of the value, at most 1.2e-16 * 10^prec units of the last digit kept). */
static bool json_round(char *d, int *n, int *x, int prec)
{
    double tail = 0.0, guard = 1.2e-16;
    for (int i = *n - 1; i >= prec; i--)
        tail = (tail + (d[i] - '0')) / 10.0;
    for (int i = 0; i < prec; i++)
        guard *= 10.0;
    if (fabs(tail - 0.5) <= guard) return false;
    *n = prec;
    if (tail > 0.5) {
        int i = prec - 1;
        for (; i >= 0 && d[i] == '9'; i--)
            d[i] = '0';
        if (i >= 0) {
            d[i]++;
        } else { /* 999.9 -> 1000 */
            d[0] = '1';
            *n = 1;
            (*x)++;
        }
    }
    while (*n > 0 && d[*n - 1] == '0')
        (*n)--;
    return true;
}

size_t hb_json_text_real_text(char buf[HB_JSON_REAL_MAX], double v, int digits)
{
    int prec = digits > 0 ? digits : 17;
    char d[HB_JSON_REAL_MAX];
    int n = 0, x = 0;
    bool neg = false;
    /* A subnormal's ulp is not small against its digits: snprintf decides there too. */
    if (prec > 15 || !isnormal(v) || !json_shortest(v, d, &n, &x, &neg) ||
        (n > prec && !json_round(d, &n, &x, prec))) {
        int len = snprintf(buf, HB_JSON_REAL_MAX - 3, "%.*g", prec, v);
        return json_real_fix(buf, len > 0 ? (size_t)len : 0);
    }
    size_t at = 0;
    if (neg) buf[at++] = '-';
    if (x < -4 || x >= prec) { /* %g's exponent style, as jansson trims it: d.ddde-5 */
        buf[at++] = d[0];
        if (n > 1) buf[at++] = '.';
        for (int i = 1; i < n; i++)
            buf[at++] = d[i];
        buf[at++] = 'e';
        if (x < 0) buf[at++] = '-';
        int e = x < 0 ? -x : x, div = e >= 100 ? 100 : e >= 10 ? 10 : 1;
        for (; div > 0; div /= 10)
            buf[at++] = (char)('0' + e / div % 10);
    } else if (x >= 0) { /* ddd.ddd, zeros up to the point; jansson's ".0" when none follow */
        for (int i = 0; i <= x || i < n; i++) {
            if (i == x + 1) buf[at++] = '.';
            buf[at++] = i < n ? d[i] : '0';
        }
        if (n <= x + 1) buf[at++] = '.', buf[at++] = '0';
    } else { /* 0.000ddd */
        buf[at++] = '0';
        buf[at++] = '.';
        for (int i = -1; i > x; i--)
            buf[at++] = '0';
        for (int i = 0; i < n; i++)
            buf[at++] = d[i];
    }
    buf[at] = 0;
    return at;
}

/* A string as jansson's dump_string writes it without flags: \" \\ \b \f \n \r \t, other
 * control bytes as \u00XX; everything else as it is. */
static void json_put_string(FILE *f, const char *s, size_t len)
{
    putc('"', f);
    size_t run = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        fwrite(s + run, 1, i - run, f);
        run = i + 1;
        const char *esc = c == '"'    ? "\\\""
                          : c == '\\' ? "\\\\"
                          : c == '\b' ? "\\b"
                          : c == '\f' ? "\\f"
                          : c == '\n' ? "\\n"
                          : c == '\r' ? "\\r"
                          : c == '\t' ? "\\t"
                                      : NULL;
        if (esc)
            fputs(esc, f);
        else
            fprintf(f, "\\u%04X", c);
    }
    fwrite(s + run, 1, len - run, f);
    putc('"', f);
}

void hb_json_text_put(FILE *f, const json_t *v, int digits)
{
    char buf[HB_JSON_REAL_MAX];
    size_t i;
    const char *key;
    json_t *x;
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        putc('{', f);
        i = 0;
        json_object_foreach((json_t *)v, key, x)
        {
            if (i++) putc(',', f);
            json_put_string(f, key, strlen(key));
            putc(':', f);
            hb_json_text_put(f, x, digits);
        }
        putc('}', f);
        break;
    case JSON_ARRAY:
        putc('[', f);
        json_array_foreach(v, i, x)
        {
            if (i) putc(',', f);
            hb_json_text_put(f, x, digits);
        }
        putc(']', f);
        break;
    case JSON_STRING:
        json_put_string(f, json_string_value(v), json_string_length(v));
        break;
    case JSON_INTEGER: { /* what "%lld" writes, without printf */
        json_int_t n = json_integer_value(v);
        unsigned long long u = n < 0 ? 0ULL - (unsigned long long)n : (unsigned long long)n;
        char *at = buf + sizeof(buf);
        do
            *--at = (char)('0' + u % 10);
        while (u /= 10);
        if (n < 0) *--at = '-';
        fwrite(at, 1, (size_t)(buf + sizeof(buf) - at), f);
        break;
    }
    case JSON_REAL:
        fwrite(buf, 1, hb_json_text_real_text(buf, json_real_value(v), digits), f);
        break;
    case JSON_TRUE:
        fputs("true", f);
        break;
    case JSON_FALSE:
        fputs("false", f);
        break;
    default:
        fputs("null", f);
    }
}
