/* The configuration capture: one table of knobs (key, file, reader), read live at the start
 * of a run; a knob that cannot be read, or reads as nothing it could mean, is null with its
 * reason in config_unreadable, never a guess (docs/config.md). */
#include "hb_config.h"

#include "hb_config_knob.h"
#include "hb_error.h"
#include "hb_sysfs.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

/* Knob files are a page or so; /proc/cpuinfo of a large machine is some MiB. */
#define HB_KNOB_CAP (64u << 20)

/* Up to 40 bytes of what a file held, printable ASCII kept, other bytes as \xNN: a reason
 * quotes it and must stay valid text whatever the file held. */
static void hb_knob_quote(const char *s, size_t n, char *out, size_t len)
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
static const char *hb_knob_line_fault(const char *s, size_t n)
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

int hb_knob_line(const char *path, char **line, char **why)
{
    char *s = NULL;
    size_t n = 0;
    int rc = hb_sysfs_read(path, HB_KNOB_CAP, &s, &n);
    if (rc) {
        *why = hb_strf("%s: %s", path, strerror(-rc));
        return -1;
    }
    const char *fault = hb_knob_line_fault(s, n);
    json_t *text = fault ? NULL : json_stringn(s, n - 1);
    if (!fault && !text) fault = "is not UTF-8 text";
    json_decref(text);
    if (fault) {
        char quoted[200];
        hb_knob_quote(s, n, quoted, sizeof(quoted));
        *why = hb_strf("%s %s: \"%s\"", path, fault, quoted);
        free(s);
        return -1;
    }
    s[n - 1] = '\0';
    *line = s;
    return 0;
}

int hb_knob_long(const char *path, long long *v, char **why)
{
    char *line = NULL, *end = NULL;
    if (hb_knob_line(path, &line, why)) return -1;
    errno = 0;
    *v = strtoll(line, &end, 10);
    bool ok = end != line && *end == '\0' && errno == 0 &&
              (line[0] == '-' || (line[0] >= '0' && line[0] <= '9'));
    char quoted[200];
    hb_knob_quote(line, strlen(line), quoted, sizeof(quoted));
    if (!ok) *why = hb_strf("%s holds \"%s\", not an integer", path, quoted);
    free(line);
    return ok ? 0 : -1;
}

static json_t *hb_knob_text(const struct hb_knob *k, const struct hb_topo *t, char **why)
{
    (void)t;
    char *line = NULL;
    if (hb_knob_line(k->path, &line, why)) return NULL;
    json_t *v = json_string(line);
    free(line);
    return v;
}

static json_t *hb_knob_int(const struct hb_knob *k, const struct hb_topo *t, char **why)
{
    (void)t;
    long long v = 0;
    return hb_knob_long(k->path, &v, why) ? NULL : json_integer((json_int_t)v);
}

/* A selection line's word: "always [madvise] never" -> "madvise". */
static json_t *hb_knob_word(const struct hb_knob *k, const struct hb_topo *t, char **why)
{
    (void)t;
    char *line = NULL;
    if (hb_knob_line(k->path, &line, why)) return NULL;
    const char *word = NULL;
    size_t len = 0;
    json_t *v = NULL;
    char quoted[200];
    hb_knob_quote(line, strlen(line), quoted, sizeof(quoted));
    if (hb_sysfs_word(line, &word, &len) == 0)
        v = json_stringn(word, len);
    else
        *why = hb_strf("%s holds \"%s\", not a selection like \"a [b] c\"", k->path, quoted);
    free(line);
    return v;
}

/* The kernel's release and version, as uname(2) gives them. */
static json_t *hb_knob_uname(const struct hb_knob *k, const struct hb_topo *t, char **why)
{
    (void)k;
    (void)t;
    struct utsname u;
    if (uname(&u) != 0) {
        *why = hb_strf("uname: %s", strerror(errno));
        return NULL;
    }
    char *s = hb_strf("%s %s", u.release, u.version);
    json_t *v = s ? json_string(s) : NULL;
    if (s && !v) *why = hb_strf("uname gives text that is not UTF-8");
    free(s);
    return v;
}

/* The first CPU's "FIELD : value" of /proc/cpuinfo (k->arg the field). */
static json_t *hb_knob_cpuinfo(const struct hb_knob *k, const struct hb_topo *t, char **why)
{
    (void)t;
    char *s = NULL;
    size_t n = 0, flen = strlen(k->arg);
    int rc = hb_sysfs_read(k->path, HB_KNOB_CAP, &s, &n);
    if (rc) {
        *why = hb_strf("%s: %s", k->path, strerror(-rc));
        return NULL;
    }
    json_t *v = NULL;
    for (char *line = s; line && !v && !*why; line = strchr(line, '\n'), line += line != NULL) {
        size_t len = strcspn(line, "\n"), blanks = strspn(line + flen, " \t");
        if (len <= flen + blanks || strncmp(line, k->arg, flen) != 0 || line[flen + blanks] != ':')
            continue;
        const char *val = line + flen + blanks + 1;
        val += strspn(val, " \t");
        v = json_stringn(val, (size_t)(line + len - val));
        if (v && json_string_length(v)) break;
        json_decref(v);
        v = NULL;
        *why = hb_strf("%s: its '%s' line holds no text (or not UTF-8)", k->path, k->arg);
    }
    if (!v && !*why) *why = hb_strf("%s has no '%s' line", k->path, k->arg);
    free(s);
    return v;
}

static const struct hb_knob hb_knobs[] = {
    {"kernel", NULL, NULL, hb_knob_uname},
    {"cmdline", "/proc/cmdline", NULL, hb_knob_text},
    {"thp_enabled", "/sys/kernel/mm/transparent_hugepage/enabled", NULL, hb_knob_word},
    {"thp_defrag", "/sys/kernel/mm/transparent_hugepage/defrag", NULL, hb_knob_word},
    {"numa_balancing", "/proc/sys/kernel/numa_balancing", NULL, hb_knob_int},
    {"zone_reclaim_mode", "/proc/sys/vm/zone_reclaim_mode", NULL, hb_knob_int},
    {"governor", "/sys/devices/system/cpu/cpu", "/cpufreq/scaling_governor", hb_knob_governor},
    {"boost", "/sys/devices/system/cpu/cpufreq/boost",
     "/sys/devices/system/cpu/intel_pstate/no_turbo", hb_knob_boost},
    {"smt", "/sys/devices/system/cpu/smt/control", NULL, hb_knob_text},
    {"hugepages", "/sys/devices/system/node/node", "/hugepages", hb_knob_hugepages},
    {"microcode", "/proc/cpuinfo", "microcode", hb_knob_cpuinfo},
    {"cpu_model", "/proc/cpuinfo", "model name", hb_knob_cpuinfo},
    {"memory_speed", "/sys/firmware/dmi/entries", NULL, hb_knob_memory_speed},
    {"mitigations", "/sys/devices/system/cpu/vulnerabilities", NULL, hb_knob_mitigations},
    {"cpuidle_driver", "/sys/devices/system/cpu/cpuidle/current_driver", NULL, hb_knob_text},
    {"max_cstate", "/sys/module/intel_idle/parameters/max_cstate", NULL, hb_knob_int},
    {"dirty_ratio", "/proc/sys/vm/dirty_ratio", NULL, hb_knob_int},
    {"dirty_background_ratio", "/proc/sys/vm/dirty_background_ratio", NULL, hb_knob_int},
    {"nodes_per_package", NULL, NULL, hb_knob_nps},
};

json_t *hb_config_read(const struct hb_topo *t)
{
    json_t *cfg = json_object(), *unreadable = json_object();
    bool oom = !cfg || !unreadable;
    for (size_t i = 0; !oom && i < sizeof(hb_knobs) / sizeof(hb_knobs[0]); i++) {
        char *why = NULL;
        json_t *v = hb_knobs[i].read(&hb_knobs[i], t, &why);
        oom = !v && !why;
        if (!v && why)
            oom = json_object_set_new(unreadable, hb_knobs[i].key, json_string(why)) != 0;
        if (!oom) oom = json_object_set_new(cfg, hb_knobs[i].key, v ? v : json_null()) != 0;
        free(why);
    }
    if (oom) {
        json_decref(cfg);
        json_decref(unreadable);
        return NULL;
    }
    return json_pack("{s:o, s:o}", "config", cfg, "config_unreadable", unreadable);
}
