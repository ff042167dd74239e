/* The knobs that take more than one file: the governor of every CPU, boost, huge pages per
 * node, the CPU vulnerabilities' mitigations, the DIMMs' speed (SMBIOS type 17), and the
 * NPS/SNC mode the topology shows (hb_config.c's table names them). */
#include "hb_config_knob.h"

#include "hb_error.h"
#include "hb_strf.h"
#include "hb_sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Add cpu to the set of CPUs that have value, sets[] as long as values' entries. */
static int knob_group(json_t *values, hwloc_bitmap_t **sets, const char *value, unsigned cpu)
{
    size_t n = json_object_size(values);
    json_t *at = json_object_get(values, value);
    size_t i = at ? (size_t)json_integer_value(at) : n;
    if (!at) {
        hwloc_bitmap_t *more = realloc(*sets, (n + 1) * sizeof(*more));
        if (!more) return -1;
        *sets = more;
        if (!(more[n] = hwloc_bitmap_alloc())) return -1;
        if (json_object_set_new(values, value, json_integer((json_int_t)n))) {
            hwloc_bitmap_free(more[n]);
            return -1;
        }
    }
    return hwloc_bitmap_set((*sets)[i], cpu);
}

/* [{"value": v, "cpus": "0-3"}, ...]: each distinct value with its CPUs, in order of the
 * first CPU that has it. */
static json_t *knob_groups(json_t *values, hwloc_bitmap_t *sets)
{
    json_t *out = json_array();
    const char *value;
    json_t *at;
    json_object_foreach(values, value, at)
    {
        char *list = NULL;
        if (hwloc_bitmap_list_asprintf(&list, sets[json_integer_value(at)]) < 0) list = NULL;
        if (!out || !list ||
            json_array_append_new(out, json_pack("{s:s, s:s}", "value", value, "cpus", list))) {
            json_decref(out);
            out = NULL;
        }
        free(list);
    }
    return out;
}

json_t *hb_config_sys_knob_governor(const struct hb_knob *k, const struct hb_topo *t, char **why)
{
    json_t *values = json_object(), *out = NULL;
    hwloc_bitmap_t *sets = NULL;
    int bad = !values;
    hwloc_obj_t pu = NULL;
    while (!bad && !*why && (pu = hwloc_get_next_obj_by_type(t->hw, HWLOC_OBJ_PU, pu))) {
        char *path = hb_strf("%s%u%s", k->path, pu->os_index, k->arg), *line = NULL;
        bad = !path;
        if (path && hb_config_knob_line(path, &line, why) == 0)
            bad = knob_group(values, &sets, line, pu->os_index) != 0;
        free(line);
        free(path);
    }
    if (!bad && !*why) out = knob_groups(values, sets);
    for (size_t i = 0; sets && i < json_object_size(values); i++)
        hwloc_bitmap_free(sets[i]);
    free(sets);
    json_decref(values);
    return out;
}

/* cpufreq's boost (1: on), or where it is absent intel_pstate's no_turbo inverted (k->arg). */
json_t *hb_config_sys_knob_boost(const struct hb_knob *k, const struct hb_topo *t, char **why)
{
    (void)t;
    long long v = 0;
    const char *from = k->path;
    int rc = hb_config_knob_long(from, &v, why);
    if (rc && access(k->path, F_OK) != 0 && errno == ENOENT) {
        char *first = *why;
        *why = NULL;
        from = k->arg;
        rc = hb_config_knob_long(from, &v, why);
        if (rc && first && *why) {
            char *both = hb_strf("%s; %s", first, *why);
            free(*why);
            *why = both;
        }
        free(first);
    }
    if (rc) return NULL;
    if (v != 0 && v != 1) {
        *why = hb_strf("%s holds %lld, neither 0 nor 1", from, v);
        return NULL;
    }
    return json_integer(from == k->path ? v : !v);
}

/* The entries of dir whose names start with prefix, sorted; -1 with *why when it cannot be
 * read. */
static int knob_scan(const char *dir, const char *prefix, struct dirent ***names, char **why)
{
    *names = NULL;
    int n = scandir(dir, names, NULL, alphasort);
    if (n < 0) {
        *why = hb_strf("%s: %s", dir, strerror(errno));
        return -1;
    }
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (strncmp((*names)[i]->d_name, prefix, strlen(prefix)) == 0 &&
            strcmp((*names)[i]->d_name, ".") && strcmp((*names)[i]->d_name, ".."))
            (*names)[kept++] = (*names)[i];
        else
            free((*names)[i]);
    return kept;
}

static void knob_scan_free(struct dirent **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* One node's {"2048kB": {"free": f, "total": n}, ...}, NULL with *why. */
static json_t *knob_node_pages(const char *dir, char **why)
{
    struct dirent **names;
    int n = knob_scan(dir, "hugepages-", &names, why);
    json_t *out = n < 0 ? NULL : json_object();
    for (int i = 0; out && i < n; i++) {
        const char *size = names[i]->d_name + strlen("hugepages-");
        long long nfree = 0, total = 0;
        char *fpath = hb_strf("%s/%s/free_hugepages", dir, names[i]->d_name);
        char *npath = hb_strf("%s/%s/nr_hugepages", dir, names[i]->d_name);
        int rc = fpath && npath ? hb_config_knob_long(fpath, &nfree, why) : -1;
        if (rc == 0) rc = hb_config_knob_long(npath, &total, why);
        free(fpath);
        free(npath);
        if (rc || json_object_set_new(out, size,
                                      json_pack("{s:I, s:I}", "free", nfree, "total", total))) {
            json_decref(out);
            out = NULL;
        }
    }
    if (n >= 0) knob_scan_free(names, n);
    return out;
}

json_t *hb_config_sys_knob_hugepages(const struct hb_knob *k, const struct hb_topo *t, char **why)
{
    json_t *out = json_object();
    for (int i = 0; out && i < t->nnodes; i++) {
        char *dir = hb_strf("%s%d%s", k->path, t->nodes[i].os_index, k->arg), name[32];
        snprintf(name, sizeof(name), "node%d", t->nodes[i].os_index);
        json_t *node = dir ? knob_node_pages(dir, why) : NULL;
        free(dir);
        if (!node || json_object_set_new(out, name, node)) {
            json_decref(out);
            out = NULL;
        }
    }
    return out;
}

/* {"spectre_v2": "Mitigation: ...", ...}: each file of the vulnerabilities folder. */
json_t *hb_config_sys_knob_mitigations(const struct hb_knob *k, const struct hb_topo *t, char **why)
{
    (void)t;
    struct dirent **names;
    int n = knob_scan(k->path, "", &names, why);
    json_t *out = n < 0 ? NULL : json_object();
    for (int i = 0; out && i < n; i++) {
        char *path = hb_strf("%s/%s", k->path, names[i]->d_name), *line = NULL;
        int rc = path ? hb_config_knob_line(path, &line, why) : -1;
        free(path);
        if (rc || json_object_set_new(out, names[i]->d_name, json_string(line))) {
            json_decref(out);
            out = NULL;
        }
        free(line);
    }
    if (n >= 0) knob_scan_free(names, n);
    return out;
}

static unsigned le(const unsigned char *p, int bytes)
{
    unsigned v = 0;
    for (int i = bytes - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* An SMBIOS memory device's speed in MT/s (its configured speed, else its rated one; the
 * extended fields when the word says 0xFFFF); 0 when it has no module or says none; -1 when
 * the structure is not a memory device (type 17) or too short. */
static long knob_dimm_speed(const unsigned char *s, size_t n)
{
    if (n < 0x17 || s[0] != 17 || s[1] > n || s[1] < 0x17) return -1;
    unsigned size = le(s + 0x0C, 2), len = s[1];
    if (size == 0) return 0;
    long speed = le(s + 0x15, 2), conf = len >= 0x22 ? le(s + 0x20, 2) : 0;
    if (speed == 0xFFFF) speed = len >= 0x58 ? le(s + 0x54, 4) : 0;
    if (conf == 0xFFFF) conf = len >= 0x5C ? le(s + 0x58, 4) : 0;
    return conf ? conf : speed;
}

static int knob_cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* "3200 MT/s" (distinct speeds of the installed DIMMs, ascending, joined by ", "). */
static json_t *knob_speeds_text(long *speeds, int n)
{
    qsort(speeds, (size_t)n, sizeof(*speeds), knob_cmp_long);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    for (int i = 0; f && i < n; i++)
        if (i == 0 || speeds[i] != speeds[i - 1])
            fprintf(f, "%s%ld MT/s", i ? ", " : "", speeds[i]);
    json_t *v = f && fclose(f) == 0 ? json_string(text) : NULL;
    free(text);
    return v;
}

json_t *hb_config_sys_knob_memory_speed(const struct hb_knob *k, const struct hb_topo *t,
                                        char **why)
{
    (void)t;
    struct dirent **names;
    int n = knob_scan(k->path, "17-", &names, why), ns = 0;
    long *speeds = n > 0 ? calloc((size_t)n, sizeof(*speeds)) : NULL;
    for (int i = 0; i < n && speeds && !*why; i++) {
        char *path = hb_strf("%s/%s/raw", k->path, names[i]->d_name), *raw = NULL;
        size_t len = 0;
        if (!path) break;
        int rc = hb_sysfs_read(path, 1 << 16, &raw, &len);
        long v = rc ? 0 : knob_dimm_speed((const unsigned char *)raw, len);
        if (rc) *why = hb_strf("%s: %s", path, hb_sysfs_error(rc));
        if (v < 0) *why = hb_strf("%s is not a whole SMBIOS memory device (type 17)", path);
        if (v > 0) speeds[ns++] = v;
        free(raw);
        free(path);
    }
    if (n >= 0) knob_scan_free(names, n);
    if (n >= 0 && !*why && ns == 0)
        *why = hb_strf("%s: no installed memory device gives its speed", k->path);
    json_t *v = *why || (n > 0 && !speeds) ? NULL : knob_speeds_text(speeds, ns);
    free(speeds);
    return v;
}

/* The NPS (AMD) / SNC (Intel) mode as the topology shows it: NUMA nodes with CPUs per
 * package, the same on every package (memory-only nodes, CXL or HBM, not counted). */
json_t *hb_config_sys_knob_nps(const struct hb_knob *k, const struct hb_topo *t, char **why)
{
    (void)k;
    int npkg = hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_PACKAGE), first = -1;
    if (npkg <= 0) {
        *why = hb_strf("hwloc finds no package in this machine's topology");
        return NULL;
    }
    for (int p = 0; p < npkg; p++) {
        hwloc_obj_t pkg = hwloc_get_obj_by_type(t->hw, HWLOC_OBJ_PACKAGE, (unsigned)p);
        int count = 0;
        for (int i = 0; i < t->nnodes; i++)
            count += t->nodes[i].has_cpus &&
                     hwloc_bitmap_intersects(t->nodes[i].obj->cpuset, pkg->cpuset);
        if (first < 0) first = count;
        if (count != first) {
            *why = hb_strf("packages have different numbers of NUMA nodes with CPUs (%d "
                           "on package %u, %d on the first)",
                           count, pkg->os_index, first);
            return NULL;
        }
    }
    return json_integer(first);
}
