/* The configuration's pure parts: a sysfs selection line's word, small files read whole (and
 * refused past their cap), a knob's value as words, and the knobs two configurations differ
 * in (objects walked into; a part on one side only differs, a knob only one side's hopbench
 * read does not). */
#include "../hb_check.h"
#include "hb_config.h"
#include "hb_sysfs.h"

#include <errno.h>
#include <unistd.h>

static void check_word(const char *line, const char *want)
{
    const char *w = NULL;
    size_t n = 0;
    int rc = hb_sysfs_word(line, &w, &n);
    if (!want) {
        CHECK_INT(rc, -EINVAL);
        return;
    }
    CHECK_INT(rc, 0);
    char got[64] = "";
    if (rc == 0) snprintf(got, sizeof(got), "%.*s", (int)n, w);
    CHECK_STR(got, want);
}

static void check_read(void)
{
    char path[] = "/tmp/hb-test-sysfs-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    char big[3000];
    memset(big, 'x', sizeof(big));
    CHECK_INT(write(fd, big, sizeof(big)), (long long)sizeof(big));
    close(fd);
    char *text = NULL;
    size_t len = 0;
    CHECK_INT(hb_sysfs_read(path, 4096, &text, &len), 0);
    CHECK_INT(len, 3000);
    CHECK_INT(text ? (long long)strlen(text) : -1, 3000);
    free(text);
    CHECK_INT(hb_sysfs_read(path, 2999, &text, &len), -EFBIG);
    CHECK_INT(hb_sysfs_read(path, 3000, &text, &len), 0);
    free(text);
    unlink(path);
    CHECK_INT(hb_sysfs_read(path, 4096, &text, &len), -ENOENT);
}

/* Each differing knob as "key base -> new" lines. */
static int collect(const char *key, const json_t *base, const json_t *new_, void *ctx)
{
    char *b = hb_config_diff_words(base), *n = hb_config_diff_words(new_);
    size_t used = strlen(ctx);
    snprintf((char *)ctx + used, 512 - used, "%s %s -> %s\n", key, b, n);
    free(b);
    free(n);
    return 0;
}

static void check_diff(void)
{
    json_t *a = json_loads(
        "{\"thp_enabled\": \"madvise\", \"boost\": 1, \"governor\": "
        "[{\"value\": \"performance\", \"cpus\": \"0-3\"}], \"hugepages\": "
        "{\"node0\": {\"2048kB\": {\"free\": 0, \"total\": 0}}}, \"smt\": \"on\", \"gone\": 1}",
        0, NULL);
    json_t *b = json_loads(
        "{\"thp_enabled\": \"never\", \"boost\": 1, \"governor\": "
        "[{\"value\": \"performance\", \"cpus\": \"0-1\"}, {\"value\": "
        "\"powersave\", \"cpus\": \"2-3\"}], \"hugepages\": {\"node0\": "
        "{\"2048kB\": {\"free\": 300, \"total\": 512}}, \"node1\": "
        "{\"2048kB\": {\"free\": 0, \"total\": 0}}}, \"smt\": null, \"acpi_max_cstate\": 8}",
        0, NULL);
    char out[512] = "";
    CHECK_INT(hb_config_diff(a, b, collect, out), 0);
    CHECK_STR(out, "thp_enabled madvise -> never\n"
                   "governor performance -> performance on 0-1, powersave on 2-3\n"
                   "hugepages.node0.2048kB.total 0 -> 512\n"
                   "hugepages.node1 absent -> 2048kB: [free: 0, total: 0]\n"
                   "smt on -> unreadable\n");
    out[0] = '\0';
    CHECK_INT(hb_config_diff(a, a, collect, out), 0);
    CHECK_STR(out, "");
    /* Free huge pages are state, not configuration: they never make two runs differ. */
    json_t *c = json_deep_copy(a);
    json_object_set_new(
        json_object_get(json_object_get(json_object_get(c, "hugepages"), "node0"), "2048kB"),
        "free", json_integer(7));
    CHECK_INT(hb_config_diff(a, c, collect, out), 0);
    CHECK_STR(out, "");
    json_decref(c);
    json_decref(a);
    json_decref(b);
}

int main(void)
{
    check_word("always [madvise] never\n", "madvise");
    check_word("[always] madvise never", "always");
    check_word("always defer defer+madvise [madvise] never", "madvise");
    check_word("always madvise never", NULL);
    check_word("[always] [madvise] never", NULL);
    check_word("always [] never", NULL);
    check_word("always [madv", NULL);
    check_word("always [mad vise] never", NULL);
    check_word("a] [b", NULL);
    check_read();
    check_diff();
    return hb_check_result();
}
