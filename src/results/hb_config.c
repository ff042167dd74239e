/* The configuration capture: one table of knobs (key, file, reader), read live at the start
 * of a run; a knob that cannot be read, or reads as nothing it could mean, is null with its
 * reason in config_unreadable, never a guess (docs/config.md). */
#include "hb_config.h"

#include "hb_config_knob.h"
#include "hb_error.h"
#include "hb_strf.h"
#include "hb_sysfs.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

static json_t *knob_text(const struct hb_knob *k, const struct hb_topo *t, char **why)
{
    (void)t;
    char *line = NULL;
    if (hb_config_knob_line(k->path, &line, why)) return NULL;
    json_t *v = json_string(line);
    free(line);
    return v;
}

static json_t *knob_int(const struct hb_knob *k, const struct hb_topo *t, char **why)
{
    (void)t;
    long long v = 0;
    return hb_config_knob_long(k->path, &v, why) ? NULL : json_integer((json_int_t)v);
}

/* A selection line's word: "always [madvise] never" -> "madvise". */
static json_t *knob_word(const struct hb_knob *k, const struct hb_topo *t, char **why)
{
    (void)t;
    char *line = NULL;
    if (hb_config_knob_line(k->path, &line, why)) return NULL;
    const char *word = NULL;
    size_t len = 0;
    json_t *v = NULL;
    char quoted[200];
    hb_config_knob_quote(line, strlen(line), quoted, sizeof(quoted));
    if (hb_sysfs_word(line, &word, &len) == 0)
        v = json_stringn(word, len);
    else
        *why = hb_strf("%s holds \"%s\", not a selection like \"a [b] c\"", k->path, quoted);
    free(line);
    return v;
}

/* The kernel's release and version, as uname(2) gives them. */
static json_t *knob_uname(const struct hb_knob *k, const struct hb_topo *t, char **why)
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
static json_t *knob_cpuinfo(const struct hb_knob *k, const struct hb_topo *t, char **why)
{
    (void)t;
    char *s = NULL;
    size_t n = 0, flen = strlen(k->arg);
    int rc = hb_sysfs_read(k->path, HB_KNOB_CAP, &s, &n);
    if (rc) {
        *why = hb_strf("%s: %s", k->path, hb_sysfs_error(rc));
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

static const struct hb_knob knob_table[] = {
    {"kernel", NULL, NULL, knob_uname},
    {"cmdline", "/proc/cmdline", NULL, knob_text},
    {"thp_enabled", "/sys/kernel/mm/transparent_hugepage/enabled", NULL, knob_word},
    {"thp_defrag", "/sys/kernel/mm/transparent_hugepage/defrag", NULL, knob_word},
    {"numa_balancing", "/proc/sys/kernel/numa_balancing", NULL, knob_int},
    {"zone_reclaim_mode", "/proc/sys/vm/zone_reclaim_mode", NULL, knob_int},
    {"governor", "/sys/devices/system/cpu/cpu", "/cpufreq/scaling_governor",
     hb_config_sys_knob_governor},
    {"boost", "/sys/devices/system/cpu/cpufreq/boost",
     "/sys/devices/system/cpu/intel_pstate/no_turbo", hb_config_sys_knob_boost},
    {"smt", "/sys/devices/system/cpu/smt/control", NULL, knob_text},
    {"hugepages", "/sys/devices/system/node/node", "/hugepages", hb_config_sys_knob_hugepages},
    {"microcode", "/proc/cpuinfo", "microcode", knob_cpuinfo},
    {"cpu_model", "/proc/cpuinfo", "model name", knob_cpuinfo},
    {"memory_speed", "/sys/firmware/dmi/entries", NULL, hb_config_sys_knob_memory_speed},
    {"mitigations", "/sys/devices/system/cpu/vulnerabilities", NULL,
     hb_config_sys_knob_mitigations},
    {"cpuidle_driver", "/sys/devices/system/cpu/cpuidle/current_driver", NULL, knob_text},
    {"max_cstate", "/sys/module/intel_idle/parameters/max_cstate", NULL, knob_int},
    {"acpi_max_cstate", "/sys/module/processor/parameters/max_cstate", NULL, knob_int},
    {"dirty_ratio", "/proc/sys/vm/dirty_ratio", NULL, knob_int},
    {"dirty_background_ratio", "/proc/sys/vm/dirty_background_ratio", NULL, knob_int},
    {"nodes_per_package", NULL, NULL, hb_config_sys_knob_nps},
};

json_t *hb_config_read(const struct hb_topo *t)
{
    json_t *cfg = json_object(), *unreadable = json_object();
    bool oom = !cfg || !unreadable;
    for (size_t i = 0; !oom && i < sizeof(knob_table) / sizeof(knob_table[0]); i++) {
        char *why = NULL;
        json_t *v = knob_table[i].read(&knob_table[i], t, &why);
        oom = !v && !why;
        if (!v && why)
            oom = json_object_set_new(unreadable, knob_table[i].key, json_string(why)) != 0;
        if (!oom) oom = json_object_set_new(cfg, knob_table[i].key, v ? v : json_null()) != 0;
        free(why);
    }
    if (oom) {
        json_decref(cfg);
        json_decref(unreadable);
        return NULL;
    }
    return json_pack("{s:o, s:o}", "config", cfg, "config_unreadable", unreadable);
}
