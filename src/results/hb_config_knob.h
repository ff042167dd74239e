/* The knob table's readers (private to hb_config*.c; the line readers in hb_config_knob.c): each
 * returns the knob's value (a new reference), or NULL with *why, a new string saying why it is null
 * (NULL too: out of memory). */
#ifndef HB_CONFIG_KNOB_H
#define HB_CONFIG_KNOB_H

#include "hb_topo.h"

#include <jansson.h>
#include <stddef.h>

struct hb_knob {
    const char *key;
    const char *path; /* the file read; per CPU or node: the part before its number */
    const char *arg;  /* per CPU or node: the part after; else a field name, a second path */
    json_t *(*read)(const struct hb_knob *k, const struct hb_topo *t, char **why);
};

/* Knob files are a page or so; /proc/cpuinfo of a large machine is some MiB. */
#define HB_KNOB_CAP (64u << 20)

/* Up to 40 bytes of what a file held into out (len bytes), printable ASCII kept, other bytes
 * as \xNN: a reason quotes it and must stay valid text whatever the file held. */
void hb_config_knob_quote(const char *s, size_t n, char *out, size_t len);

/* The one line of path, its newline cut, into *line (free it): 0, or -1 with *why (path and
 * strerror; empty, several lines, no newline (truncated), NUL or control bytes, not UTF-8). */
int hb_config_knob_line(const char *path, char **line, char **why);

/* An integer line of path, or -1 with *why. */
int hb_config_knob_long(const char *path, long long *v, char **why);

json_t *hb_config_sys_knob_governor(const struct hb_knob *k, const struct hb_topo *t, char **why);
json_t *hb_config_sys_knob_boost(const struct hb_knob *k, const struct hb_topo *t, char **why);
json_t *hb_config_sys_knob_hugepages(const struct hb_knob *k, const struct hb_topo *t, char **why);
json_t *hb_config_sys_knob_mitigations(const struct hb_knob *k, const struct hb_topo *t,
                                       char **why);
json_t *hb_config_sys_knob_memory_speed(const struct hb_knob *k, const struct hb_topo *t,
                                        char **why);
json_t *hb_config_sys_knob_nps(const struct hb_knob *k, const struct hb_topo *t, char **why);

#endif
