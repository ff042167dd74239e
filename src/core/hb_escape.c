/* Escaping for every place a string from a file or argv goes (hb_escape.h): HTML, SVG, CSV,
 * one-line tables and messages, and a shell line that re-runs argv. */
#include "hb_escape.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool is_ctl(unsigned char c)
{
    return c < 0x20 || c == 0x7f;
}

/* The escape for control byte c into buf (at least 5 bytes). */
static void ctl_esc(unsigned char c, char buf[5])
{
    if (c == '\n')
        memcpy(buf, "\\n", 3);
    else if (c == '\r')
        memcpy(buf, "\\r", 3);
    else if (c == '\t')
        memcpy(buf, "\\t", 3);
    else
        snprintf(buf, 5, "\\x%02x", c);
}

/* The bidirectional controls a terminal obeys (U+061C, U+200E-U+200F, U+202A-U+202E,
 * U+2066-U+2069): a name or value holding one could make a line read other than it is
 * (CVE-2021-42574). Their UTF-8 length at s, its code point in *cp; 0 for anything else. */
static size_t bidi_control(const unsigned char *s, unsigned *cp)
{
    if (s[0] == 0xd8 && s[1] == 0x9c) return *cp = 0x061c, 2;
    if (s[0] != 0xe2 || (s[1] != 0x80 && s[1] != 0x81)) return 0;
    unsigned c = 0x2000 + ((unsigned)(s[1] & 0x3f) << 6) + (s[2] & 0x3fu);
    bool bidi =
        (s[2] & 0xc0) == 0x80 && ((c >= 0x200e && c <= 0x200f) || (c >= 0x202a && c <= 0x202e) ||
                                  (c >= 0x2066 && c <= 0x2069));
    return bidi ? (*cp = c, 3) : 0;
}

/* The escape of what starts at s when it needs one (a control byte: \n, \xNN; a bidi
 * control: \u202e) into buf (at least 7 bytes): the bytes it takes, 0 for none. */
static size_t line_esc(const unsigned char *s, char buf[7])
{
    unsigned cp = 0;
    size_t n = bidi_control(s, &cp);
    if (n) {
        snprintf(buf, 7, "\\u%04x", cp);
        return n;
    }
    if (!is_ctl(*s)) return 0;
    ctl_esc(*s, buf);
    return 1;
}

void hb_escape_line(FILE *f, const char *s)
{
    char buf[7];
    while (s && *s) {
        /* The bytes up to the next one to escape at once: every message passes here. */
        size_t n = 0, esc = 0;
        while (s[n] && !(esc = line_esc((const unsigned char *)s + n, buf)))
            n++;
        fwrite(s, 1, n, f);
        s += n;
        if (!*s) break;
        fputs(buf, f);
        s += esc;
    }
}

void hb_escape_line_str(char *dst, size_t len, const char *s)
{
    size_t used = 0;
    char buf[7];
    while (s && *s) {
        size_t take = line_esc((const unsigned char *)s, buf);
        if (!take) buf[0] = *s, buf[1] = '\0', take = 1;
        size_t n = strlen(buf);
        if (used + n >= len) break;
        memcpy(dst + used, buf, n);
        used += n;
        s += take;
    }
    if (len) dst[used] = '\0';
}

void hb_escape_csv(FILE *f, const char *s)
{
    if (!s) return;
    size_t n = strlen(s);
    bool quote = strpbrk(s, ",\"\r\n") != NULL || (n && (s[0] == ' ' || s[n - 1] == ' '));
    if (quote) fputc('"', f);
    char buf[5];
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"')
            fputs("\"\"", f);
        else if (is_ctl(c) && c != '\r' && c != '\n') {
            ctl_esc(c, buf);
            fputs(buf, f);
        } else
            fputc(c, f);
    }
    if (quote) fputc('"', f);
}

void hb_escape_html(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '&')
            fputs("&amp;", f);
        else if (c == '<')
            fputs("&lt;", f);
        else if (c == '>')
            fputs("&gt;", f);
        else if (c == '"')
            fputs("&quot;", f);
        else if (c == '\'')
            fputs("&#39;", f);
        else if (is_ctl(c) && c != '\t' && c != '\n')
            fputs("&#xFFFD;", f);
        else
            fputc(c, f);
    }
}

/* Bytes at s that are one valid UTF-8 character (strict, as jansson checks: no overlong
 * form, no surrogate, nothing past U+10FFFF): how many, 0 when they are not one. */
static size_t utf8_char(const unsigned char *s)
{
    if (s[0] < 0x80) return 1;
    size_t n = s[0] >= 0xc2 && s[0] <= 0xdf   ? 2
               : s[0] >= 0xe0 && s[0] <= 0xef ? 3
               : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4
                                              : 0;
    unsigned char lo = 0x80, hi = 0xbf; /* the second byte's range */
    if (s[0] == 0xe0) lo = 0xa0;        /* overlong */
    if (s[0] == 0xed) hi = 0x9f;        /* surrogates */
    if (s[0] == 0xf0) lo = 0x90;        /* overlong */
    if (s[0] == 0xf4) hi = 0x8f;        /* past U+10FFFF */
    if (n == 0 || s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xbf) return 0;
    return n;
}

/* A word only $'...' can write: a control character (C0, DEL, C1 as U+0080-U+009F) or bytes
 * that are not UTF-8. */
static bool sh_needs_bytes(const unsigned char *s)
{
    while (*s) {
        size_t n = utf8_char(s);
        if (n == 0 || is_ctl(*s) || (s[0] == 0xc2 && s[1] < 0xa0)) return true;
        s += n;
    }
    return false;
}

void hb_escape_sh_word(FILE *f, const char *s, bool first)
{
    static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789-_./:=@%+,";
    /* As the command word these would be syntax, not a command. */
    static const char *const reserved[] = {"case",   "coproc", "do",   "done",     "elif",  "else",
                                           "esac",   "fi",     "for",  "function", "if",    "in",
                                           "select", "then",   "time", "until",    "while", NULL};
    bool keyword = false;
    for (int i = 0; first && reserved[i]; i++)
        keyword |= strcmp(s, reserved[i]) == 0;
    const unsigned char *u = (const unsigned char *)s;
    if (*s && strspn(s, plain) == strlen(s) && !(first && (strchr(s, '=') || keyword))) {
        fputs(s, f);
        return;
    }
    if (!sh_needs_bytes(u)) {
        fputc('\'', f);
        for (; *s; s++)
            fputs(*s == '\'' ? "'\\''" : (char[]){*s, '\0'}, f);
        fputc('\'', f);
        return;
    }
    fputs("$'", f);
    while (*u) {
        size_t n = utf8_char(u);
        if (n == 0 || is_ctl(*u) || (u[0] == 0xc2 && u[1] < 0xa0)) {
            /* A C1 control is two bytes; anything else here is one byte. */
            size_t k = n == 2 ? 2 : 1;
            for (size_t i = 0; i < k; i++)
                fprintf(f, "\\x%02x", u[i]);
            u += k;
            continue;
        }
        if (*u == '\\' || *u == '\'') fputc('\\', f);
        fwrite(u, 1, n, f);
        u += n;
    }
    fputc('\'', f);
}

char *hb_escape_sh_line(int argc, char *const *argv, const char **args)
{
    char *text = NULL;
    size_t len = 0, argv0 = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return NULL;
    for (int i = 0; i < argc; i++) {
        if (i) fputc(' ', f);
        hb_escape_sh_word(f, argv[i], i == 0);
        if (i == 0 && fflush(f) == 0) argv0 = len;
    }
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    if (args) *args = argc > 1 ? text + argv0 : NULL;
    return text;
}

static json_t *json_esc_string(const char *s)
{
    size_t n = strlen(s), len = 4 * n + 1;
    char *buf = malloc(len);
    if (!buf) return NULL;
    hb_escape_line_str(buf, len, s);
    json_t *out = json_string(buf);
    free(buf);
    return out;
}

json_t *hb_escape_json_lines(const json_t *v)
{
    if (json_is_string(v)) return json_esc_string(json_string_value(v));
    if (json_is_array(v)) {
        json_t *out = json_array();
        for (size_t i = 0; out && i < json_array_size(v); i++)
            if (json_array_append_new(out, hb_escape_json_lines(json_array_get(v, i))) != 0) {
                json_decref(out);
                return NULL;
            }
        return out;
    }
    if (json_is_object(v)) {
        json_t *out = json_object();
        const char *key;
        json_t *val;
        json_object_foreach((json_t *)v, key, val)
        {
            size_t len = 4 * strlen(key) + 1;
            char *k = malloc(len);
            if (k) hb_escape_line_str(k, len, key);
            if (!out || !k || json_object_set_new(out, k, hb_escape_json_lines(val)) != 0) {
                free(k);
                json_decref(out);
                return NULL;
            }
            free(k);
        }
        return out;
    }
    return json_deep_copy(v);
}
