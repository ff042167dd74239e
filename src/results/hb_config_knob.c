/* Reading one knob's file (hb_config_knob.h): a single line of UTF-8 text or an integer,
 * and a reason naming the path and what is wrong when it is neither. */
#include "hb_config_knob.h"

#include "hb_error.h"
#include "hb_strf.h"
#include "hb_sysfs.h"

#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hb_config_knob_quote(const char *s, size_t n, char *out, size_t len)
{
    size_t o = 0;
    for (size_t i = 0; i < n && i < 40 && o + 5 < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= ' ' && c < 0x7f && c != '\\')
            out[o++] = (char)c;
        else
            o += (size_t)snprintf(out + o, len - o, "\\x%02x", c);
    }
    if (n > 40 && o + 4 < len) o += (size_t)snprintf(out + o, len - o, "...");
    out[o] = '\0';
}

/* What is wrong with a one-line file's content, NULL when nothing is. */
static const char *knob_line_fault(const char *s, size_t n)
{
    if (n == 0) return "is empty";
    if (s[n - 1] != '\n') return "has no end of line (truncated?)";
    if (n == 1) return "is an empty line";
    for (size_t i = 0; i + 1 < n; i++) {
        if (s[i] == '\n') return "holds more than one line";
        if ((unsigned char)s[i] < ' ' && s[i] != '\t') return "holds a control or NUL byte";
    }
    return NULL;
}

int hb_config_knob_line(const char *path, char **line, char **why)
{
    char *s = NULL;
    size_t n = 0;
    int rc = hb_sysfs_read(path, HB_KNOB_CAP, &s, &n);
    if (rc) {
        *why = hb_strf("%s: %s", path, hb_sysfs_error(rc));
        return -1;
    }
    const char *fault = knob_line_fault(s, n);
    json_t *text = fault ? NULL : json_stringn(s, n - 1);
    if (!fault && !text) fault = "is not UTF-8 text";
    json_decref(text);
    if (fault) {
        char quoted[200];
        hb_config_knob_quote(s, n, quoted, sizeof(quoted));
        *why = hb_strf("%s %s: \"%s\"", path, fault, quoted);
        free(s);
        return -1;
    }
    s[n - 1] = '\0';
    *line = s;
    return 0;
}

int hb_config_knob_long(const char *path, long long *v, char **why)
{
    char *line = NULL, *end = NULL;
    if (hb_config_knob_line(path, &line, why)) return -1;
    errno = 0;
    *v = strtoll(line, &end, 10);
    bool ok = end != line && *end == '\0' && errno == 0 &&
              (line[0] == '-' || (line[0] >= '0' && line[0] <= '9'));
    char quoted[200];
    hb_config_knob_quote(line, strlen(line), quoted, sizeof(quoted));
    if (!ok) *why = hb_strf("%s holds \"%s\", not an integer", path, quoted);
    free(line);
    return ok ? 0 : -1;
}
