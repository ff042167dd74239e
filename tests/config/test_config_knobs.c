/* The knobs read from more than one file, on made-up files: the DIMMs' speed from SMBIOS type
 * 17 entries (configured speed, else rated, the extended fields, empty slots, entries that are
 * not memory devices), boost from cpufreq or intel_pstate's no_turbo, and the NPS/SNC rule on
 * topology fixtures. Usage: test_unit_config_knobs TOPO_DIR (tests/topo). */
#include "../hb_check.h"
#include "hb_config_knob.h"
#include "hb_error.h"
#include "hb_strf.h"

#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

static char work[] = "/tmp/hb-test-knobs-XXXXXX";

/* The knob's value as JSON text ("null" when null) is want, its reason holds why_has. */
static void check_knob(const struct hb_knob *k, const struct hb_topo *t, const char *want,
                       const char *why_has)
{
    char *why = NULL;
    json_t *v = k->read(k, t, &why);
    char *got = v ? json_dumps(v, JSON_ENCODE_ANY) : strdup("null");
    CHECK(v ? why == NULL : why != NULL); /* null exactly when there is a reason */
    CHECK_STR(got, want);
    if (why_has) CHECK_HAS(why, why_has);
    json_decref(v);
    free(got);
    free(why);
}

static void put(unsigned char *s, int at, uint32_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        s[at + i] = (unsigned char)(v >> (8 * i));
}

/* DIR/NAME/raw: an SMBIOS structure of type (17: memory device) and length len, then the
 * empty string set; the fields a DIMM's speed is read from, where len holds them. */
static void dimm(const char *dir, const char *name, int type, int len, unsigned size,
                 unsigned speed, unsigned conf, uint32_t ext_speed, uint32_t ext_conf)
{
    unsigned char s[0x5C + 2] = {0};
    s[0] = (unsigned char)type;
    s[1] = (unsigned char)len;
    if (len >= 0x17) {
        put(s, 0x0C, size, 2);
        put(s, 0x15, speed, 2);
    }
    if (len >= 0x22) put(s, 0x20, conf, 2);
    if (len >= 0x5C) {
        put(s, 0x54, ext_speed, 4);
        put(s, 0x58, ext_conf, 4);
    }
    char *path = hb_strf("%s/%s", dir, name);
    CHECK(mkdir(path, 0755) == 0);
    char *raw = hb_strf("%s/raw", path);
    FILE *f = fopen(raw, "wb");
    CHECK(f && fwrite(s, 1, (size_t)len + 2, f) == (size_t)len + 2);
    if (f) fclose(f);
    free(raw);
    free(path);
}

/* The entries folder DIR (made here) read as memory_speed: the value, or null and its reason. */
static void check_speed(const char *dir, const char *want, const char *why_has)
{
    struct hb_knob k = {"memory_speed", dir, NULL, hb_config_sys_knob_memory_speed};
    check_knob(&k, NULL, want, why_has);
}

static void check_memory_speed(void)
{
    char *dirs[6];
    for (int i = 0; i < 6; i++) {
        dirs[i] = hb_strf("%s/%c", work, "abcdef"[i]);
        CHECK(mkdir(dirs[i], 0755) == 0);
    }
    const char *a = dirs[0], *b = dirs[1], *c = dirs[2], *d = dirs[3], *e = dirs[4];
    /* Configured 2933 of a 3200 DIMM; an SMBIOS 2.3 DIMM (no configured field): 3200; an
     * empty slot; a type 16 entry and a "170-" one, neither read. */
    dimm(a, "17-0", 17, 0x28, 0x4000, 3200, 2933, 0, 0);
    dimm(a, "17-1", 17, 0x1B, 0x4000, 3200, 0, 0, 0);
    dimm(a, "17-2", 17, 0x28, 0, 0, 0, 0, 0);
    dimm(a, "16-0", 16, 0x17, 1, 1, 0, 0, 0);
    dimm(a, "170-0", 170, 0x17, 1, 1, 0, 0, 0);
    check_speed(a, "\"2933 MT/s, 3200 MT/s\"", NULL);
    /* 0xFFFF: the speed is in the extended fields (SMBIOS 3.3); the same speed twice: once. */
    dimm(b, "17-0", 17, 0x5C, 0x7FFF, 0xFFFF, 0xFFFF, 8000, 7200);
    dimm(b, "17-1", 17, 0x5C, 0x7FFF, 0xFFFF, 0xFFFF, 8000, 7200);
    check_speed(b, "\"7200 MT/s\"", NULL);
    /* Empty slots only, then a type 17 entry that is something else or cut short: null. */
    dimm(c, "17-0", 17, 0x28, 0, 0, 0, 0, 0);
    check_speed(c, "null", "no installed memory device gives its speed");
    dimm(d, "17-0", 4, 0x28, 0x4000, 3200, 3200, 0, 0);
    check_speed(d, "null", "d/17-0/raw is not a whole SMBIOS memory device (type 17)");
    dimm(e, "17-0", 17, 0x10, 0x4000, 3200, 3200, 0, 0);
    check_speed(e, "null", "e/17-0/raw is not a whole SMBIOS memory device (type 17)");
    /* No entries folder (no DMI, as in most VMs), an empty one: null. */
    char *none = hb_strf("%s/none", work);
    check_speed(none, "null", "none: No such file or directory");
    check_speed(dirs[5], "null", "f: no installed memory device gives its speed");
    free(none);
    for (int i = 0; i < 6; i++)
        free(dirs[i]);
}

static void write_file(const char *name, const char *text)
{
    char *path = hb_strf("%s/%s", work, name);
    FILE *f = fopen(path, "w");
    CHECK(f && fputs(text, f) >= 0);
    if (f) fclose(f);
    free(path);
}

/* boost read from BOOST, else NO_TURBO inverted (files in work, "" for one that is absent). */
static void check_boost(const char *boost, const char *no_turbo, const char *want,
                        const char *why_has)
{
    char *bp = hb_strf("%s/boost", work), *np = hb_strf("%s/no_turbo", work);
    unlink(bp);
    unlink(np);
    if (*boost) write_file("boost", boost);
    if (*no_turbo) write_file("no_turbo", no_turbo);
    struct hb_knob k = {"boost", bp, np, hb_config_sys_knob_boost};
    check_knob(&k, NULL, want, why_has);
    free(bp);
    free(np);
}

/* nodes_per_package of an hwloc XML (DIR/FILE): the value, or null and its reason. */
static void check_nps(const char *dir, const char *file, const char *want, const char *why_has)
{
    char *path = hb_strf("%s/%s", dir, file);
    struct hb_topo *t = NULL;
    CHECK_INT(hb_topo_load(path, &t), 0);
    struct hb_knob k = {"nodes_per_package", NULL, NULL, hb_config_sys_knob_nps};
    if (t)
        check_knob(&k, t, want, why_has);
    else
        fprintf(stderr, "%s: %s\n", path, hb_error_msg());
    free(path);
    hb_topo_load_free(t);
}

int main(int argc, char **argv)
{
    HB_EXPECT(argc == 2, "usage: %s TOPO_DIR\n", argv[0]);
    HB_EXPECT(mkdtemp(work), "mkdtemp %s failed\n", work);
    check_memory_speed();
    check_boost("1\n", "", "1", NULL);
    check_boost("0\n", "1\n", "0", NULL); /* cpufreq's boost first, when it is there */
    check_boost("", "1\n", "0", NULL);    /* intel_pstate: no_turbo 1 is boost off */
    check_boost("", "0\n", "1", NULL);
    check_boost("", "2\n", "null", "no_turbo holds 2, neither 0 nor 1");
    check_boost("", "", "null", "boost: No such file or directory; ");
    check_boost("on\n", "0\n", "null", "boost holds \"on\", not an integer");
    /* One node per package (NPS1/SNC off), two (SNC2), four (a 4-node package); memory-only
     * nodes (CXL) not counted; packages that disagree, a topology without packages: null. */
    const char *fx = hb_strf("%s/fixtures", argv[1]), *corpus = hb_strf("%s/corpus", argv[1]);
    check_nps(fx, "4n-quartet.xml", "1", NULL);
    check_nps(fx, "2s-4n-snc.xml", "2", NULL);
    check_nps(fx, "3n-snc-cxl.xml", "2", NULL);
    check_nps(fx, "4n-memonly-cxl.xml", "1", NULL);
    check_nps(fx, "64c16m-hi-numbers.xml", "4", NULL);
    check_nps(corpus, "16amd64-8n2c-cpusets.xml", "null",
              "packages have different numbers of NUMA nodes with CPUs (1 on package 1, 0 on the "
              "first)");
    check_nps(corpus, "8intel64-fakeKNL-A2A-hybrid.rootattachednumas.xml", "null",
              "hwloc finds no package");
    free((char *)fx);
    free((char *)corpus);
    char *rm = hb_strf("rm -rf '%s'", work);
    CHECK_INT(system(rm), 0);
    free(rm);
    return hb_check_result();
}
