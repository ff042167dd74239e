#include "hb_escape.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool hb_is_ctl(unsigned char c)
{
    return c < 0x20 || c == 0x7f;
}

/* The escape for control byte c into buf (at least 5 bytes). */
static void hb_ctl_esc(unsigned char c, char buf[5])
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

void hb_esc_line(FILE *f, const char *s)
{
    char buf[5];
    for (; s && *s; s++) {
        if (!hb_is_ctl((unsigned char)*s)) {
            fputc(*s, f);
            continue;
        }
        hb_ctl_esc((unsigned char)*s, buf);
        fputs(buf, f);
    }
}

void hb_esc_line_str(char *dst, size_t len, const char *s)
{
    size_t used = 0;
    char buf[5];
    for (; s && *s; s++) {
        const char *piece = buf;
        if (hb_is_ctl((unsigned char)*s))
            hb_ctl_esc((unsigned char)*s, buf);
        else
            buf[0] = *s, buf[1] = '\0';
        size_t n = strlen(piece);
        if (used + n >= len) break;
        memcpy(dst + used, piece, n);
        used += n;
    }
    if (len) dst[used] = '\0';
}

void hb_esc_csv(FILE *f, const char *s)
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
        else if (hb_is_ctl(c) && c != '\r' && c != '\n') {
            hb_ctl_esc(c, buf);
            fputs(buf, f);
        } else
            fputc(c, f);
    }
    if (quote) fputc('"', f);
}

void hb_html_esc(FILE *f, const char *s)
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
        else if (hb_is_ctl(c) && c != '\t' && c != '\n')
            fputs("&#xFFFD;", f);
        else
            fputc(c, f);
    }
}

static json_t *hb_json_esc_string(const char *s)
{
    size_t n = strlen(s), len = 4 * n + 1;
    char *buf = malloc(len);
    if (!buf) return NULL;
    hb_esc_line_str(buf, len, s);
    json_t *out = json_string(buf);
    free(buf);
    return out;
}

json_t *hb_json_esc_lines(const json_t *v)
{
    if (json_is_string(v)) return hb_json_esc_string(json_string_value(v));
    if (json_is_array(v)) {
        json_t *out = json_array();
        for (size_t i = 0; out && i < json_array_size(v); i++)
            if (json_array_append_new(out, hb_json_esc_lines(json_array_get(v, i))) != 0) {
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
            if (k) hb_esc_line_str(k, len, key);
            if (!out || !k || json_object_set_new(out, k, hb_json_esc_lines(val)) != 0) {
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
