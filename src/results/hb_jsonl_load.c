/* Result files (hb_jsonl_read.h) read in large blocks and parsed in parallel, a batch of lines
 * at a time (OpenMP); each record is then checked and handed to take in file order. */
#include "hb_jsonl_parse.h"
#include "hb_jsonl_read.h"

#include "hb_config.h"
#include "hb_error.h"
#include "hb_version.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

enum {
    /* Bytes read at once (the buffer grows for a longer line): about a batch of measurement
     * records, so that a scan carries little into the next batch's text, and small beside an
     * address-space limit (export of bulky records in 25 MB). */
    HB_JSONL_BLOCK = 1 << 20,
    HB_JSONL_BATCH = 1024, /* lines parsed together: a few MiB of records in memory */
};

/* The calling thread's number in its team (0 outside one). */
static int jsonl_thread_num(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

/* What a reader does with the records other than the run record: NULL take (and no scan)
 * keeps them. */
struct hb_results_filter {
    hb_results_take_fn take;
    void *ctx;
    struct hb_jsonl_want want;
    struct hb_jsonl_want mwant;            /* r->measurement_keys, once a take callback sets them */
    const struct hb_jsonl_load_scan *scan; /* a scan's (want its keys), or NULL */
};

/* The file's bytes: buf[pos, len) not yet cut into lines. */
struct hb_jsonl_src {
    FILE *f;
    char *buf;
    size_t cap, len, pos;
    bool eof;
    int lineno;
};

/* Running out of memory is the machine's limit, not a bad record: exit 3, not 2. */
static int results_oom(const struct hb_results *r, int lineno)
{
    hb_error_set("%s:%d: out of memory after %zu records; give it fewer or smaller files, or "
                 "more memory",
                 r->path, lineno, r->nread);
    return -ENOMEM;
}

/* The longest line a reader takes: a fleet's largest record (a 1000-node matrix) is tens of
 * MiB; a longer line is no record of hopbench (/dev/zero, a binary file), refused before it
 * fills the memory. */
#define HB_JSONL_LINE_MAX ((size_t)256 << 20)

/* Moves the unread bytes to the front and reads more after them, growing the buffer when
 * one line fills it. 0, -EINVAL (a line over HB_JSONL_LINE_MAX, a NUL byte: refused as soon
 * as seen), -ENOMEM, or the read's -errno (hb_error_msg set). */
static int jsonl_fill(struct hb_jsonl_src *s, const struct hb_results *r)
{
    memmove(s->buf, s->buf + s->pos, s->len - s->pos);
    s->len -= s->pos;
    s->pos = 0;
    if (s->len == s->cap && s->cap >= HB_JSONL_LINE_MAX) {
        hb_error_set("%s:%d: a line longer than %zu MiB: not a hopbench JSON Lines record", r->path,
                     s->lineno + 1, HB_JSONL_LINE_MAX >> 20);
        return -EINVAL;
    }
    if (s->len == s->cap) {
        char *grown = s->cap < ((size_t)-1) / 2 ? realloc(s->buf, s->cap * 2) : NULL;
        if (!grown) return results_oom(r, s->lineno + 1);
        s->buf = grown;
        s->cap *= 2;
    }
    errno = 0;
    size_t got = fread(s->buf + s->len, 1, s->cap - s->len, s->f);
    const char *nul = memchr(s->buf + s->len, 0, got);
    if (nul) {
        /* JSON text holds no NUL byte: the line it is on, counted from what is in hand. */
        int line = s->lineno + 1;
        for (const char *c = s->buf; c < nul; c++)
            line += *c == '\n';
        hb_error_set("%s:%d: a NUL byte: not a hopbench JSON Lines record (a binary or truncated "
                     "file?)",
                     r->path, line);
        return -EINVAL;
    }
    s->len += got;
    if (got == 0 && ferror(s->f)) {
        int e = errno ? errno : EIO;
        hb_error_set("%s: cannot read after line %d: %s", r->path, s->lineno, strerror(e));
        return -e;
    }
    s->eof = got == 0;
    return 0;
}

/* The next lines (up to HB_JSONL_BATCH, empty ones passed over) into lines: their count, 0
 * at the end of the file, or a negative errno. */
static int jsonl_next(struct hb_jsonl_src *s, struct hb_jsonl_line *lines,
                      const struct hb_results *r)
{
    int n = 0;
    while (n < HB_JSONL_BATCH) {
        char *start = s->buf + s->pos;
        char *nl = memchr(start, '\n', s->len - s->pos);
        size_t len = nl ? (size_t)(nl - start) : s->len - s->pos;
        if (!nl && !s->eof) {
            if (n > 0) break; /* the lines in hand point into buf: parse them first */
            int rc = jsonl_fill(s, r);
            if (rc) return rc;
            continue;
        }
        if (!nl && len == 0) break; /* the end */
        s->lineno++;
        s->pos += len + (nl ? 1 : 0);
        if (len > 0)
            lines[n++] =
                (struct hb_jsonl_line){.text = start,
                                       .len = len,
                                       .lineno = s->lineno,
                                       .unterminated = !nl,
                                       .bom = len >= 3 && memcmp(start, "\xEF\xBB\xBF", 3) == 0};
    }
    return n;
}

/* The run record: its schema must be one this build reads, its configuration blocks the
 * shapes hopbench writes. */
static int results_run(struct hb_results *r, json_t *rec, int lineno)
{
    json_t *sv = json_object_get(rec, "schema_version");
    if (!json_is_integer(sv)) {
        /* The wrong type is named: it is a damaged file, not one of a newer hopbench. */
        static const char *const kinds[] = {
            [JSON_OBJECT] = "an object", [JSON_ARRAY] = "a list",    [JSON_STRING] = "a string",
            [JSON_INTEGER] = "",         [JSON_REAL] = "a fraction", [JSON_TRUE] = "true",
            [JSON_FALSE] = "false",      [JSON_NULL] = "null"};
        hb_error_set("%s:%d: run record's schema_version is %s: expected a whole number from 1 to "
                     "%d",
                     r->path, lineno, sv ? kinds[json_typeof(sv)] : "missing", HB_SCHEMA_VERSION);
        return -EINVAL;
    }
    json_int_t v = json_integer_value(sv);
    if (v < 1) {
        hb_error_set(
            "%s:%d: run record's schema_version %lld is not valid: expected a whole number "
            "from 1 to %d",
            r->path, lineno, (long long)v, HB_SCHEMA_VERSION);
        return -EINVAL;
    }
    if (v > HB_SCHEMA_VERSION) {
        hb_error_set("%s:%d: run record has schema_version %lld; this hopbench reads "
                     "schema_version up to %d: use a newer hopbench",
                     r->path, lineno, (long long)v, HB_SCHEMA_VERSION);
        return -EINVAL;
    }
    int rc = hb_config_check_run(rec, r->path, lineno);
    if (rc) return rc;
    if (!r->run) {
        r->run = rec;
        r->run_line = lineno;
    } else if (!r->run_line2)
        r->run_line2 = lineno;
    return 0;
}

/* One parsed line, in file order: checked, then kept or handed to take. Takes ln->rec; a
 * record take is done with goes to *spent, for the thread that built it to free. */
static int results_line(struct hb_results *r, struct hb_jsonl_line *ln,
                        const struct hb_results_filter *flt, json_t **spent)
{
    json_t *rec = ln->rec;
    ln->rec = NULL;
    if (ln->viewed && !ln->oom) {
        r->line = ln->lineno;
        r->nread++;
        return flt->scan->take(flt->scan->ctx, ln->slot) ? results_oom(r, ln->lineno) : 0;
    }
    if (ln->oom) {
        json_decref(rec);
        return results_oom(r, ln->lineno);
    }
    if (!rec && ln->unterminated) {
        /* An interrupted writer leaves a partial last line: report everything before it. */
        r->skipped_line = ln->lineno;
        return 0;
    }
    if (!rec && ln->bom) {
        hb_error_set("%s:%d: a byte-order mark (U+FEFF) before the record: save the file as "
                     "UTF-8 without it",
                     r->path, ln->lineno);
        return -EINVAL;
    }
    if (!rec || !json_is_object(rec) || !json_is_string(json_object_get(rec, "type"))) {
        hb_error_set("%s:%d: not a hopbench JSON Lines record (%s); expected one JSON object "
                     "with a \"type\" per line, as written by --format jsonl",
                     r->path, ln->lineno, rec ? "no string \"type\"" : ln->err);
        json_decref(rec);
        return -EINVAL;
    }
    bool run = strcmp(json_string_value(json_object_get(rec, "type")), "run") == 0;
    int rc = run ? results_run(r, rec, ln->lineno) : 0;
    if (rc) {
        json_decref(rec);
        return rc;
    }
    r->line = ln->lineno;
    r->nread++;
    if (flt->take && !run) {
        int keep = flt->take(flt->ctx, rec);
        if (keep < 0) {
            json_decref(rec);
            return results_oom(r, ln->lineno);
        }
        if (keep == 0) {
            *spent = rec;
            return 0;
        }
    }
    if (json_array_append_new(r->records, rec) != 0) return results_oom(r, ln->lineno);
    return 0;
}

/* This process's threads that are runnable now (at least this one): /proc/self/task/N/stat's
 * state. An OpenMP worker that just finished the file before spins a while (GOMP_SPINCOUNT):
 * it is no other work. */
static long jsonl_own_running(void)
{
    DIR *d = opendir("/proc/self/task");
    long n = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char path[64], state = 0;
        snprintf(path, sizeof(path), "/proc/self/task/%.20s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        /* "pid (comm) S ...": comm may hold spaces and parentheses, the state follows the last ')'
         */
        char line[512];
        if (f && fgets(line, sizeof(line), f)) {
            char *close = strrchr(line, ')');
            if (close && close[1] == ' ') state = close[2];
        }
        if (f) fclose(f);
        n += state == 'R';
    }
    if (d) closedir(d);
    return n < 1 ? 1 : n;
}

/* Threads to parse with: OMP_NUM_THREADS when set, else the CPUs that other work leaves idle
 * now, as OMP_DYNAMIC would. A thread that waits for a CPU holds up the whole batch: on a
 * busy 2-CPU machine two threads read a file slower than one. "Now" is the kernel's count of
 * runnable threads (/proc/loadavg's fourth field, the fewest of a few looks), less this
 * process's own: the load average would count the command that ran just before. Under an
 * address-space limit below 1 GiB (ulimit -v) one thread: each other one takes its stack and
 * a malloc arena's 64 MiB reservation, which a small limit cannot give. */
int hb_jsonl_load_threads(void)
{
#ifdef _OPENMP
    int n = omp_get_max_threads();
    if (getenv("OMP_NUM_THREADS") || n <= 1) return n < 1 ? 1 : n;
    struct rlimit as;
    if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY &&
        as.rlim_cur < ((rlim_t)1 << 30))
        return 1;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN), others = LONG_MAX;
    /* The fewest of 5 looks 1 ms apart: one look may catch a kernel thread's moment. */
    for (int look = 0; look < 5; look++) {
        FILE *f = fopen("/proc/loadavg", "r");
        long now = 0;
        if (f && fscanf(f, "%*f %*f %*f %ld/", &now) == 1 && now >= 1) {
            now -= jsonl_own_running();
            if (now < others) others = now;
        }
        if (f) fclose(f);
        if (look < 4) nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    if (others < 0) others = 0;
    if (others != LONG_MAX && cpus > 0 && cpus - others < n) n = (int)(cpus - others);
    return n < 1 ? 1 : n;
#else
    return 1;
#endif
}

/* Line slot i on its thread: the record it held the batch before freed, its new line
 * parsed. */
static void jsonl_slot(struct hb_jsonl_line *lines, json_t **spent, int i,
                       const struct hb_results_filter *flt, struct hb_jsonl_thread *th)
{
    json_decref(spent[i]);
    spent[i] = NULL;
    hb_jsonl_yy_parse_line(&lines[i], &flt->want, th, NULL);
}

/* Parsed lines handed on in file order; after an error the rest are freed. spent: where the
 * records take is done with go (NULL: a scan's, which has none). */
static int jsonl_hand_on(struct hb_results *r, struct hb_jsonl_line *lines, json_t **spent, int n,
                         const struct hb_results_filter *flt)
{
    json_t *none = NULL;
    int rc = 0;
    for (int i = 0; i < n; i++) {
        json_t **to = spent ? &spent[i] : &none;
        if (rc == 0)
            rc = results_line(r, &lines[i], flt, to);
        else
            json_decref(lines[i].rec);
        if (!spent) json_decref(none), none = NULL;
    }
    return rc;
}

/* Parses n lines on threads, then hands them on in order; after an error the rest are
 * freed. spent[i]: the record of line slot i that take was done with in the batch before,
 * freed by the thread that parses slot i, the one that built it (a fixed schedule): records
 * freed where they were allocated keep malloc on its fast path, and the frees off the
 * sequential hand-on. */
static int jsonl_batch(struct hb_results *r, struct hb_jsonl_line *lines, json_t **spent, int n,
                       const struct hb_results_filter *flt, struct hb_jsonl_thread *ths,
                       int threads)
{
    /* One thread starts no team: libgomp allocates one per parallel region, and that
     * aligned allocation made malloc sweep the records just freed, every batch. */
    if (threads == 1)
        for (int i = 0; i < n; i++)
            jsonl_slot(lines, spent, i, flt, &ths[0]);
#ifdef _OPENMP
    else
#pragma omp parallel for num_threads(threads) schedule(static, 64)
        for (int i = 0; i < n; i++)
            jsonl_slot(lines, spent, i, flt, &ths[omp_get_thread_num()]);
#endif
    return jsonl_hand_on(r, lines, spent, n, flt);
}

/* A scan's batch: its own text, lines and slots, so that one batch can be parsed while the
 * next is read and the one before handed on. */
struct hb_jsonl_scan_batch {
    struct hb_jsonl_src src;
    struct hb_jsonl_line *lines;
    char *slots;
    int n;
};

/* Batch `to` read after `from`: the bytes `from` left uncut (a part line), then the file up to
 * its block, cut into lines with their slots. 0, or a negative errno. */
static int jsonl_scan_fill(struct hb_jsonl_scan_batch *to, struct hb_jsonl_scan_batch *from,
                           const struct hb_results_filter *flt, struct hb_results *r)
{
    struct hb_jsonl_src *t = &to->src, *f = &from->src;
    size_t carry = f->len - f->pos;
    while (t->cap < carry) { /* `from` grew for a long line */
        char *grown = t->cap < ((size_t)-1) / 2 ? realloc(t->buf, t->cap * 2) : NULL;
        if (!grown) return results_oom(r, f->lineno + 1);
        t->buf = grown;
        t->cap *= 2;
    }
    memcpy(t->buf, f->buf + f->pos, carry);
    f->pos = f->len;
    t->len = carry;
    t->pos = 0;
    t->eof = f->eof;
    t->lineno = f->lineno;
    /* Short lines leave much uncut: read more only when less than half a block is left, so
     * what is carried never grows from batch to batch. */
    int rc = t->eof || carry >= HB_JSONL_BLOCK / 2 ? 0 : jsonl_fill(t, r);
    to->n = rc ? 0 : jsonl_next(t, to->lines, r);
    for (int i = 0; i < to->n; i++)
        to->lines[i].slot = to->slots + (size_t)i * flt->scan->slot;
    return rc ? rc : to->n < 0 ? to->n : 0;
}

/* A scan's batches in a pipeline: while the threads parse batch k (a dynamic schedule), one of
 * them first hands batch k - 1 on in order and reads batch k + 1, then joins them; the
 * batches take turns with two sets of text, lines, slots and arenas. */
static int jsonl_scan_all(FILE *f, const struct hb_results_filter *flt, struct hb_jsonl_thread *ths,
                          int threads, struct hb_results *r)
{
    struct hb_jsonl_scan_batch b[2];
    int rc = 0, cur = 0, handed = 0;
    for (int i = 0; i < 2; i++) {
        b[i] = (struct hb_jsonl_scan_batch){.src = {.f = f, .cap = HB_JSONL_BLOCK}};
        b[i].src.buf = malloc(HB_JSONL_BLOCK);
        b[i].lines = malloc(HB_JSONL_BATCH * sizeof(*b[i].lines));
        b[i].slots = malloc(HB_JSONL_BATCH * flt->scan->slot);
        if (!b[i].src.buf || !b[i].lines || !b[i].slots) rc = results_oom(r, 0);
    }
    if (rc == 0) rc = jsonl_scan_fill(&b[0], &b[1], flt, r);
    bool pending = false; /* b[1 - cur] is parsed, not yet handed on */
    while (rc == 0 && b[cur].n > 0) {
        struct hb_jsonl_scan_batch *now = &b[cur], *other = &b[1 - cur];
        int filled = 0;
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
#endif
        {
            struct hb_jsonl_thread *th = &ths[jsonl_thread_num()];
            th->arena = &th->arenas[cur];
            hb_arena_reset(th->arena);
#ifdef _OPENMP
#pragma omp single nowait
#endif
            {
                if (pending) handed = jsonl_hand_on(r, other->lines, NULL, other->n, flt);
                if (handed == 0) filled = jsonl_scan_fill(other, now, flt, r);
            }
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 16) nowait
#endif
            for (int i = 0; i < now->n; i++)
                hb_jsonl_yy_parse_line(&now->lines[i], &flt->want, &ths[jsonl_thread_num()],
                                       flt->scan);
        }
        rc = handed ? handed : filled;
        pending = true;
        cur = 1 - cur;
    }
    /* the last batch parsed; after an error, the batches parsed and not handed on freed */
    if (rc == 0 && pending)
        rc = jsonl_hand_on(r, b[1 - cur].lines, NULL, b[1 - cur].n, flt);
    else
        for (int i = 0; pending && i < b[1 - cur].n; i++)
            json_decref(b[1 - cur].lines[i].rec);
    for (int i = 0; i < 2; i++) {
        free(b[i].lines);
        free(b[i].slots);
        free(b[i].src.buf);
    }
    return rc;
}

/* The measurement keys a take callback narrowed to, for the lines not yet parsed. */
static int jsonl_narrow(struct hb_results_filter *flt, struct hb_results *r)
{
    hb_jsonl_accept_want_free(&flt->mwant);
    if (hb_jsonl_accept_want_init(&flt->mwant, r->measurement_keys) != 0)
        return results_oom(r, r->line);
    flt->want.measurement = &flt->mwant;
    return 0;
}

static int results_load(FILE *f, const char *path, struct hb_results_filter *flt,
                        struct hb_results *r)
{
    memset(r, 0, sizeof(*r));
    snprintf(r->path, sizeof(r->path), "%s", path);
    hb_jsonl_yy_alloc_funcs();
    struct hb_jsonl_src s = {.f = f, .cap = HB_JSONL_BLOCK};
    struct hb_jsonl_line *lines = malloc(HB_JSONL_BATCH * sizeof(*lines));
    json_t **spent = calloc(HB_JSONL_BATCH, sizeof(*spent));
    s.buf = malloc(s.cap);
    r->records = json_array();
    int n = 0, rc = r->records && s.buf && lines && spent ? 0 : results_oom(r, 0);
    int threads = hb_jsonl_load_threads(), made = 0;
    /* each thread's, for every batch */
    struct hb_jsonl_thread *ths = calloc((size_t)threads, sizeof(*ths));
    while (ths && made < threads && hb_jsonl_yy_thread_init(&ths[made], flt->want.n) == 0)
        made++;
    if (rc == 0 && made < threads) rc = results_oom(r, 0);
    if (rc == 0 && flt->scan) rc = jsonl_scan_all(f, flt, ths, threads, r);
    while (rc == 0 && !flt->scan && (n = jsonl_next(&s, lines, r)) > 0) {
        rc = jsonl_batch(r, lines, spent, n, flt, ths, threads);
        if (rc == 0 && r->measurement_keys != flt->mwant.keys) rc = jsonl_narrow(flt, r);
    }
    if (rc == 0 && n < 0) rc = n;
    for (int t = 0; t < made; t++)
        hb_jsonl_yy_thread_free(&ths[t]);
    free(ths);
    for (int i = 0; spent && i < HB_JSONL_BATCH; i++)
        json_decref(spent[i]);
    free(spent);
    free(lines);
    free(s.buf);
    if (rc == 0 && r->nread == 0) {
        hb_error_set("%s: no records; expected hopbench JSON Lines (--format jsonl)", path);
        rc = -EINVAL;
    }
    if (rc) hb_jsonl_load_free(r);
    return rc;
}

static int results_open(const char *path, struct hb_results_filter *flt, struct hb_results *r)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        int e = errno;
        memset(r, 0, sizeof(*r));
        hb_error_set("%s: cannot open: %s", path, strerror(e));
        return -(e == EACCES ? EACCES : ENOENT);
    }
    int rc = results_load(f, path, flt, r);
    fclose(f);
    return rc;
}

/* Read with the filter's take or scan, and keys (NULL: all). */
static int results_filtered(FILE *f, const char *path, const char *const *keys,
                            struct hb_results_filter *flt, struct hb_results *r)
{
    if (hb_jsonl_accept_want_init(&flt->want, keys) != 0) {
        memset(r, 0, sizeof(*r));
        snprintf(r->path, sizeof(r->path), "%s", path);
        return results_oom(r, 0);
    }
    int rc = f ? results_load(f, path, flt, r) : results_open(path, flt, r);
    hb_jsonl_accept_want_free(&flt->want);
    hb_jsonl_accept_want_free(&flt->mwant);
    return rc;
}

int hb_jsonl_load_readf_keys(FILE *f, const char *path, const char *const *keys,
                             hb_results_take_fn take, void *ctx, struct hb_results *r)
{
    struct hb_results_filter flt = {.take = take, .ctx = ctx};
    return results_filtered(f, path, keys, &flt, r);
}

int hb_jsonl_load_scan(const char *path, const struct hb_jsonl_load_scan *scan,
                       struct hb_results *r)
{
    struct hb_results_filter flt = {.scan = scan};
    return results_filtered(NULL, path, scan->keys, &flt, r);
}

int hb_jsonl_load_read_keys(const char *path, const char *const *keys, hb_results_take_fn take,
                            void *ctx, struct hb_results *r)
{
    return hb_jsonl_load_readf_keys(NULL, path, keys, take, ctx, r);
}

int hb_jsonl_load_read_take(const char *path, hb_results_take_fn take, void *ctx,
                            struct hb_results *r)
{
    return hb_jsonl_load_readf_keys(NULL, path, NULL, take, ctx, r);
}

int hb_jsonl_load_readf(FILE *f, const char *path, hb_results_take_fn take, void *ctx,
                        struct hb_results *r)
{
    return hb_jsonl_load_readf_keys(f, path, NULL, take, ctx, r);
}

void hb_jsonl_load_free(struct hb_results *r)
{
    json_decref(r->records);
    r->records = NULL;
    r->run = NULL;
}
