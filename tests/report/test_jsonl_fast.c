/* The fast reader (yyjson, blocks, parallel batches, key lists) and the scan (records shown
 * through views, never built) against a plain jansson parse of each line: every record shape
 * the project writes agrees field by field, and hostile lines (NaN, duplicate keys, deep
 * nesting, huge strings, big integers, NUL, CRLF, a cut last line) get the same verdict and
 * message as before. */
#include "../hb_check.h"
#include "hb_error.h"
#include "hb_jsonl_read.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <unistd.h>

static char tmp_path[64];

static void put_file(const char *text, size_t len)
{
    FILE *f = fopen(tmp_path, "wb");
    HB_EXPECT(f && fwrite(text, 1, len, f) == len && fclose(f) == 0, "cannot write %s", tmp_path);
}

static bool wanted(const char *key, const char *const *keys)
{
    if (!keys || strcmp(key, "type") == 0) return true;
    for (; *keys; keys++)
        if (strcmp(key, *keys) == 0) return true;
    return false;
}

/* got holds exactly the wanted keys of want (all of a run record's), each json_equal. */
static bool same_record(const json_t *got, const json_t *want, const char *const *keys)
{
    bool run = strcmp(hb_jsonl_read_str(want, "type", ""), "run") == 0;
    size_t n = 0;
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)want, key, v)
    {
        if (!run && !wanted(key, keys)) continue;
        n++;
        if (!json_equal(json_object_get(got, key), v)) {
            fprintf(stderr, "key %s differs\n", key);
            return false;
        }
    }
    return json_object_size(got) == n;
}

/* The reader before yyjson, line by line: the records it keeps, or its error for one line. */
struct plain {
    json_t *records;
    int bad_line, skipped_line;
    char why[200];
    bool bom; /* the bad line starts with a byte-order mark: named as such */
};

static void plain_read(const char *text, size_t len, struct plain *p)
{
    *p = (struct plain){json_array(), 0, 0, "", false};
    int lineno = 0;
    for (size_t at = 0; at < len && !p->bad_line;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
        lineno++;
        json_error_t e;
        json_t *rec = n ? json_loadb(text + at, n, JSON_REJECT_DUPLICATES, &e) : NULL;
        at += n + 1;
        if (n == 0) continue;
        if (!rec && !nl) {
            p->skipped_line = lineno;
        } else if (!rec || !json_is_string(json_object_get(rec, "type"))) {
            p->bad_line = lineno;
            p->bom = !rec && n >= 3 && memcmp(text + at - n - 1, "\xEF\xBB\xBF", 3) == 0;
            snprintf(p->why, sizeof(p->why), "(%s)", rec ? "no string \"type\"" : e.text);
        }
        if (rec && !p->bad_line) json_array_append(p->records, rec);
        json_decref(rec);
    }
}

/* A reader's rc for a file against the plain reader's verdict p: for a bad line, the same
 * error (r freed); true when the file reads (rc 0 checked, records for the caller to compare). */
static bool read_as_plain(const char *name, const struct plain *p, int rc, struct hb_results *r)
{
    if (p->bad_line) {
        char want[300];
        if (p->bom)
            snprintf(want, sizeof(want), "%s:%d: a byte-order mark (U+FEFF) before the record",
                     tmp_path, p->bad_line);
        else
            snprintf(want, sizeof(want), "%s:%d: not a hopbench JSON Lines record %s", tmp_path,
                     p->bad_line, p->why);
        if (rc != -EINVAL || !strstr(hb_error_msg(), want))
            fprintf(stderr, "%s: got %d '%s', expected '%s'\n", name, rc, rc ? hb_error_msg() : "",
                    want);
        CHECK(rc == -EINVAL && strstr(hb_error_msg(), want));
        if (rc == 0) hb_jsonl_load_free(r);
        return false;
    }
    if (rc) fprintf(stderr, "%s: %s\n", name, hb_error_msg());
    HB_EXPECT(rc == 0, "%s: read", name);
    CHECK_INT(r->skipped_line, p->skipped_line);
    return true;
}

/* text read by the fast reader with keys: the plain reader's verdict and records. */
static void check_same(const char *name, const char *text, size_t len, const char *const *keys)
{
    struct plain p;
    struct hb_results r;
    put_file(text, len);
    plain_read(text, len, &p);
    int rc = hb_jsonl_load_read_keys(tmp_path, keys, NULL, NULL, &r);
    if (read_as_plain(name, &p, rc, &r)) {
        CHECK_INT(json_array_size(r.records), json_array_size(p.records));
        for (size_t i = 0; i < json_array_size(p.records); i++)
            if (!same_record(json_array_get(r.records, i), json_array_get(p.records, i), keys)) {
                fprintf(stderr, "%s: record %zu differs\n", name, i);
                hb_check_failures++;
            }
        hb_jsonl_load_free(&r);
    }
    json_decref(p.records);
}

/* A scan's record as the test rebuilds it from the view: each key's type, and its value
 * where a view gives one (strings, numbers and whether they are integers, lists of numbers). */
static const char *const scan_default[] = {"value", "ci95", "host", "experiment", "samples_s",
                                           "o",     "n",    "text", "deep",       NULL};
static const char *const *scan_keys;

static json_t *view_value(const struct hb_view *v, int k)
{
    long long i;
    switch (hb_jsonl_view_type(v, k)) {
    case HB_VIEW_NULL:
        return json_null();
    case HB_VIEW_BOOL:
        return json_string("(bool)");
    case HB_VIEW_NUMBER:
        return hb_jsonl_view_integer(v, k, &i) ? json_integer(i)
                                               : json_real(hb_jsonl_view_num(v, k, 0));
    case HB_VIEW_STRING:
        return json_string(hb_jsonl_view_str(v, k, NULL));
    case HB_VIEW_ARRAY: {
        size_t n = hb_jsonl_view_len(v, k);
        double *x = malloc((n ? n : 1) * sizeof(*x));
        json_t *a = json_array();
        HB_EXPECT(x && a && hb_jsonl_view_numbers(v, k, x) == n, "memory");
        for (size_t j = 0; j < n; j++)
            json_array_append_new(a, isnan(x[j]) ? json_string("(not a number)") : json_real(x[j]));
        free(x);
        return a;
    }
    case HB_VIEW_OBJECT:
        return json_string("(object)");
    default:
        return NULL;
    }
}

/* The same of a plain parse's value: what the view must have shown. */
static json_t *plain_value(const json_t *v)
{
    size_t j;
    json_t *x, *a;
    switch (json_typeof(v)) {
    case JSON_TRUE:
    case JSON_FALSE:
        return json_string("(bool)");
    case JSON_REAL:
        return json_real(json_real_value(v));
    case JSON_ARRAY:
        a = json_array();
        json_array_foreach(v, j, x) json_array_append_new(
            a, json_is_number(x) ? json_real(json_number_value(x)) : json_string("(not a number)"));
        return a;
    case JSON_OBJECT:
        return json_string("(object)");
    default:
        return json_deep_copy(v);
    }
}

static int scan_prepare(void *ctx, const struct hb_view *v, void *slot)
{
    (void)ctx;
    json_t *rec = json_object();
    HB_EXPECT(rec, "memory");
    for (int k = 0; scan_keys[k]; k++) {
        json_t *x = view_value(v, k);
        if (x) json_object_set_new(rec, scan_keys[k], x);
    }
    /* the arena's memory stays until take: a string kept there must come back intact */
    char *kept = hb_jsonl_view_alloc(v, 32);
    HB_EXPECT(kept, "memory");
    snprintf(kept, 32, "%s", "kept until take");
    *(json_t **)slot = rec;
    ((char **)slot)[1] = kept;
    return 0;
}

struct scan_got {
    json_t *records;
};

static int scan_take(void *ctx, void *slot)
{
    struct scan_got *g = ctx;
    CHECK_STR(((char **)slot)[1], "kept until take");
    json_array_append_new(g->records, *(json_t **)slot);
    return 0;
}

/* text scanned with keys (NULL: scan_default): the plain reader's verdict, its run record
 * whole, and every other record's keys as the view shows them, in file order. */
static void check_scan(const char *name, const char *text, size_t len, const char *const *keys)
{
    struct plain p;
    struct hb_results r;
    struct scan_got g = {json_array()};
    scan_keys = keys ? keys : scan_default;
    const struct hb_jsonl_load_scan scan = {scan_keys, 2 * sizeof(void *), scan_prepare, scan_take,
                                            &g};
    put_file(text, len);
    plain_read(text, len, &p);
    int rc = hb_jsonl_load_scan(tmp_path, &scan, &r);
    char scan_name[128];
    snprintf(scan_name, sizeof(scan_name), "scan %s", name);
    if (read_as_plain(scan_name, &p, rc, &r)) {
        size_t runs = 0, others = 0, i;
        json_t *want;
        json_array_foreach(p.records, i, want)
        {
            if (strcmp(hb_jsonl_read_str(want, "type", ""), "run") == 0) {
                CHECK(json_equal(json_array_get(r.records, runs++), want));
                continue;
            }
            json_t *got = json_array_get(g.records, others++), *expect = json_object();
            for (int k = 0; scan_keys[k]; k++) {
                json_t *v = json_object_get(want, scan_keys[k]);
                if (v) json_object_set_new(expect, scan_keys[k], plain_value(v));
            }
            if (!json_equal(got, expect)) {
                char *a = json_dumps(got, 0), *b = json_dumps(expect, 0);
                fprintf(stderr, "scan %s: record %zu shows %s, expected %s\n", name, i, a, b);
                free(a);
                free(b);
                hb_check_failures++;
            }
            json_decref(expect);
        }
        CHECK_INT(json_array_size(r.records), runs);
        CHECK_INT(json_array_size(g.records), others);
        hb_jsonl_load_free(&r);
    }
    json_decref(g.records);
    json_decref(p.records);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    HB_EXPECT(f, "cannot open %s", path);
    char *buf = NULL;
    size_t cap = 0;
    FILE *m = open_memstream(&buf, &cap);
    int c;
    while ((c = getc(f)) != EOF)
        putc(c, m);
    fclose(f);
    fclose(m);
    *len = cap;
    return buf;
}

/* Each fixture, whole and with a key list; and the shapes file holds what it should. */
static void check_fixtures(const char *dir)
{
    static const char *const files[] = {"shapes.jsonl", "multinode.jsonl", "base.jsonl",
                                        "new.jsonl", "truncated.jsonl"};
    static const char *const keys[] = {"value", "ci95", "host", "rows", "absent", NULL};
    static const char *const none[] = {NULL};
    for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
        char p[4096];
        size_t len;
        snprintf(p, sizeof(p), "%s/%s", dir, files[i]);
        char *text = slurp(p, &len);
        check_same(files[i], text, len, NULL);
        check_same(files[i], text, len, keys);
        check_same(files[i], text, len, none);
        check_scan(files[i], text, len, NULL);
        check_scan(files[i], text, len, keys);
        check_scan(files[i], text, len, none);
        if (i == 0)
            for (const char *const *t =
                     (const char *const[]){"run", "measurement", "summary", "note", "matrix",
                                           "comm_matrix", "plan_summary", "peak", "throughput",
                                           "gain", "cell", "knee", "c2c_lock", "experiment",
                                           "topology", "pair", NULL};
                 *t; t++) {
                char want[64];
                snprintf(want, sizeof(want), "{\"type\":\"%s\"", *t);
                if (!strstr(text, want)) fprintf(stderr, "shapes.jsonl: no %s record\n", *t);
                CHECK(strstr(text, want));
            }
        free(text);
    }
}

/* {"type":"note","deep": depth brackets} */
static char *deep_line(int depth)
{
    size_t n = 64 + 2 * (size_t)depth;
    char *s = malloc(n);
    HB_EXPECT(s, "memory");
    int at = snprintf(s, n, "{\"type\":\"note\",\"deep\":");
    for (int i = 0; i < depth; i++)
        s[at++] = '[';
    for (int i = 0; i < depth; i++)
        s[at++] = ']';
    snprintf(s + at, n - (size_t)at, "}\n");
    return s;
}

/* Lines of big strings: across the 1 MiB read blocks, and ones longer than a block (9 MiB: the
 * buffer grown four times; the short count, hb_check_short, 3 MiB: twice). */
static void check_big(void)
{
    const size_t sizes[] = {1u << 20, (hb_check_short() ? 3u : 9u) << 20, 100};
    size_t cap = 0;
    for (size_t i = 0; i < 3; i++)
        cap += sizes[i] + 64;
    char *text = malloc(cap);
    HB_EXPECT(text, "memory");
    size_t len = 0;
    for (size_t i = 0; i < 3; i++) {
        len += (size_t)sprintf(text + len, "{\"type\":\"note\",\"text\":\"");
        memset(text + len, 'a' + (int)i, sizes[i]);
        len += sizes[i];
        len += (size_t)sprintf(text + len, "\",\"n\":%zu}\n", i);
    }
    static const char *const keys[] = {"n", NULL};
    check_same("big strings", text, len, NULL);
    check_same("big strings, no text", text, len, keys);
    check_scan("big strings", text, len, NULL);
    check_scan("big strings, no text", text, len, keys);
    free(text);
}

/* Many short lines: batches of lines (1024) follow one another in file order: 20000 lines,
 * the short count (hb_check_short) 4000. */
static void check_many(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    const int lines = hb_check_short() ? 4000 : 20000;
    for (int i = 0; i < lines; i++)
        fprintf(m, "{\"type\":\"measurement\",\"experiment\":\"e%d\",\"value\":%d.5}\n%s", i, i,
                i % 7 ? "" : "\n");
    fclose(m);
    static const char *const keys[] = {"experiment", NULL};
    check_same("many", text, len, NULL);
    check_same("many, experiment", text, len, keys);
    check_scan("many", text, len, keys);
    free(text);
}

/* A take callback narrowing the measurement keys on the first measurement it meets, and
 * keeping every record. */
static const char *const narrow_keys[] = {"host", "value", NULL};
static int narrow_take(void *ctx, const json_t *rec)
{
    struct hb_results *r = ctx;
    if (strcmp(hb_jsonl_read_str(rec, "type", ""), "measurement") == 0)
        r->measurement_keys = narrow_keys;
    return 1;
}

/* Measurement keys narrowed in the middle of a file (as a report does once its file is a
 * fleet): the later measurement records hold those keys alone, every other record is whole,
 * and none holds anything but what the plain parse gives. */
static void check_narrowed(const char *dir)
{
    char p[4096];
    size_t len, all = 0;
    snprintf(p, sizeof(p), "%s/shapes.jsonl", dir);
    char *one = slurp(p, &len), *text = NULL;
    FILE *m = open_memstream(&text, &all);
    for (int i = 0; i < 8; i++) /* past one batch of lines */
        fwrite(one, 1, len, m);
    fclose(m);
    free(one);
    put_file(text, all);
    struct plain pl;
    plain_read(text, all, &pl);
    struct hb_results r;
    HB_EXPECT(hb_jsonl_load_readf_keys(NULL, tmp_path, NULL, narrow_take, &r, &r) == 0, "%s",
              hb_error_msg());
    CHECK_INT(json_array_size(r.records), json_array_size(pl.records));
    int narrowed = 0, last = -1;
    for (size_t i = 0; i < json_array_size(pl.records); i++) {
        const json_t *want = json_array_get(pl.records, i), *got = json_array_get(r.records, i);
        bool meas = strcmp(hb_jsonl_read_str(want, "type", ""), "measurement") == 0;
        bool whole = same_record(got, want, NULL);
        bool cut = meas && same_record(got, want, narrow_keys);
        if (!whole && !cut) fprintf(stderr, "narrowed: record %zu differs\n", i);
        CHECK(whole || cut);
        narrowed += cut && !whole;
        if (meas) last = cut && !whole;
    }
    CHECK(narrowed > 0);
    CHECK_INT(last, 1);
    hb_jsonl_load_free(&r);
    json_decref(pl.records);
    free(text);
}

int main(int argc, char **argv)
{
    HB_EXPECT(argc == 2, "usage: test_jsonl_fast FIXTURE_DIR");
    snprintf(tmp_path, sizeof(tmp_path), "/tmp/hb_jsonl_fast.%d.jsonl", (int)getpid());
    check_fixtures(argv[1]);
    check_narrowed(argv[1]);
    static const char *const keys[] = {"value", "o", NULL};
    static const char *const cases[] = {
        "{\"type\":\"measurement\",\"zzz_unknown\":{\"a\":[1,{\"b\":null}]},\"value\":1.5}\n",
        "{\"type\":\"measurement\",\"value\":NaN}\n",
        "{\"type\":\"measurement\",\"value\":Infinity}\n",
        "{\"type\":\"measurement\",\"value\":-Infinity}\n",
        "{\"type\":\"measurement\",\"value\":1,\"value\":2}\n",
        "{\"type\":\"measurement\",\"x\":1,\"x\":2}\n",
        "{\"type\":\"measurement\",\"type\":\"note\"}\n",
        "{\"type\":\"measurement\",\"o\":{\"b\":1,\"b\":2}}\n",
        "{\"type\":\"run\",\"schema_version\":1,\"o\":{\"b\":1,\"b\":2}}\n",
        "{\"type\":\"note\",\"text\":\"x\"}\r\n{\"type\":\"note\"}\r\n",
        "{\"type\":\"note\"}\n{\"type\":\"note\",\"te",
        "{\"type\":\"note\"}\n{\"type\":\"note\"}",
        "{\"type\":\"note\"}\n\n\n{\"type\":\"note\",}\n",
        "{\"type\":\"m\",\"value\":9223372036854775807,\"o\":-9223372036854775808}\n",
        "{\"type\":\"m\",\"value\":9223372036854775808}\n",
        "{\"type\":\"m\",\"value\":18446744073709551616}\n",
        "{\"type\":\"m\",\"value\":-9223372036854775809}\n",
        "{\"type\":\"m\",\"value\":1e400}\n",
        "{\"type\":\"m\",\"value\":1e-400,\"o\":[-0,-0.0,0.1,1E5,2.5e-3,123456789.123456789]}\n",
        "{\"type\":\"m\",\"value\":\"a\\u0000b\"}\n",
        "{\"type\":\"m\",\"a\\u0000b\":1}\n",
        "{\"type\":\"m\",\"value\":\"\\ud800\"}\n",
        "{\"type\":\"m\",\"value\":\"\\ud83d\\ude00 \\u00e9 \\\" \\\\ \\/ \\n\"}\n",
        "{\"type\":\"m\",\"value\":\"\xff\"}\n",
        "{\"type\":\"m\",\"value\":\"\xed\xa0\x80\"}\n",
        "{\"type\":\"m\",\"value\":\"\xc0\xaf\"}\n",
        "{\"type\":\"m\",\"value\":01}\n",
        "[1,2]\n",
        "{\"type\":1}\n",
        "{\"value\":1}\n",
        "{\"type\":\"note\"} x\n",
        "\xef\xbb\xbf{\"type\":\"note\"}\n",
        "{\"type\":\"note\"}\n\r\n",
        "{\"type\":\"note\",\"value\":1,}\n",
        "{\"type\":\"note\"/* c */}\n",
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        char name[32];
        snprintf(name, sizeof(name), "case %zu", i);
        check_same(name, cases[i], strlen(cases[i]), NULL);
        check_same(name, cases[i], strlen(cases[i]), keys);
        check_scan(name, cases[i], strlen(cases[i]), NULL);
        check_scan(name, cases[i], strlen(cases[i]), keys);
    }
    /* jansson counts every value to its limit of 2048: either side of it, wanted or not */
    static const int depths[] = {2046, 2047, 2048, 3000};
    for (size_t i = 0; i < sizeof(depths) / sizeof(*depths); i++) {
        char *s = deep_line(depths[i]);
        check_same("deep", s, strlen(s), NULL);
        check_same("deep, not read", s, strlen(s), keys);
        check_scan("deep", s, strlen(s), NULL);
        check_scan("deep, not read", s, strlen(s), keys);
        free(s);
    }
    char *s = deep_line(3000);
    put_file(s, strlen(s));
    free(s);
    struct hb_results r;
    CHECK(hb_jsonl_load_read_take(tmp_path, NULL, NULL, &r) == -EINVAL);
    CHECK_HAS(hb_error_msg(), ":1: not a hopbench JSON Lines record (maximum parsing depth");
    check_big();
    check_many();
    unlink(tmp_path);
    return hb_check_result();
}
