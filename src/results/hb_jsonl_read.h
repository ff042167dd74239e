/* Reading hopbench result files (JSON Lines) back for report and compare. */
#ifndef HB_JSONL_READ_H
#define HB_JSONL_READ_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* One result file: the records kept, in file order, and the run record when there is one. */
struct hb_results {
    char path[4096];
    json_t *records;  /* array of objects, each with a string "type" */
    json_t *run;      /* borrowed from records; NULL when the file has no run record */
    size_t nread;     /* records read, kept or not */
    int skipped_line; /* line number of a truncated last line that was skipped, or 0 */
    int line;         /* the line of the record being handed to take */
    int run_line;     /* the line of the run record, or 0 */
    int run_line2;    /* the line of a second run record (several runs in one file), or 0 */
    /* A take callback may set this (a NULL-terminated list, "type" always kept) when it
     * needs fewer keys of the measurement records still to come, e.g. once a report knows
     * its file is a fleet: it holds from the next batch of lines (records already parsed
     * may carry more keys). Other records keep the reader's keys. */
    const char *const *measurement_keys;
};

/* What a streaming reader does with each record but the run record (always kept): returns 1
 * to keep it in records, 0 when it took what it needs from it (it is freed), -ENOMEM when
 * memory ran out. Memory then follows what the caller keeps, not the file. */
typedef int (*hb_results_take_fn)(void *ctx, const json_t *rec);

/* Read path into r, each record handed to take(ctx, rec) as it is read (take NULL: every
 * record kept). A last line without its newline that does not parse is skipped and
 * r->skipped_line names it (the caller warns). Returns 0; -ENOENT / -EACCES when the file
 * cannot be opened; -EINVAL when a line is not a JSON object with a string "type", or the run
 * record's schema_version is newer than this build reads; -ENOMEM when memory ran out (exit
 * 3: "out of memory"); hb_error_msg() then names the file and line. On error r holds nothing
 * to free. */
int hb_jsonl_load_read_take(const char *path, hb_results_take_fn take, void *ctx,
                            struct hb_results *r);

/* The same from an open stream (not closed here); path names it in messages. */
int hb_jsonl_load_readf(FILE *f, const char *path, hb_results_take_fn take, void *ctx,
                        struct hb_results *r);

/* The same, each record but the run record holding only the top-level keys a caller reads:
 * keys is a NULL-terminated list ("type" is always kept; keys NULL: every key). Lines are
 * checked whole all the same. The fewer keys, the faster: building jansson values is most
 * of the reading time. f NULL: open path. */
int hb_jsonl_load_readf_keys(FILE *f, const char *path, const char *const *keys,
                             hb_results_take_fn take, void *ctx, struct hb_results *r);
int hb_jsonl_load_read_keys(const char *path, const char *const *keys, hb_results_take_fn take,
                            void *ctx, struct hb_results *r);

/* A scan: the records read without building any (compare reads a few figures of each of a
 * million records). Each record but the run record is shown on the thread that parsed it
 * to prepare, through a view of the keys the scan names, and what prepare made of it is
 * handed to take in file order. The run record is built and kept as by the other readers
 * (r->run, the only one of r->records); lines are checked whole as they are (the same
 * file:line errors). */
struct hb_view;
struct hb_jsonl_load_scan {
    const char *const *keys; /* the top-level keys prepare reads, named by index; NULL-ended */
    size_t slot;             /* bytes prepare may fill for each record */
    /* Any parsing thread, any order: 0, or -ENOMEM. */
    int (*prepare)(void *ctx, const struct hb_view *rec, void *slot);
    /* In file order, r->line the record's line: 0, or -ENOMEM. */
    int (*take)(void *ctx, void *slot);
    void *ctx;
};
int hb_jsonl_load_scan(const char *path, const struct hb_jsonl_load_scan *scan,
                       struct hb_results *r);

/* What a view holds at a key (by index in the scan's keys). */
enum hb_jsonl_view_type {
    HB_VIEW_ABSENT,
    HB_VIEW_NULL,
    HB_VIEW_BOOL,
    HB_VIEW_NUMBER,
    HB_VIEW_STRING,
    HB_VIEW_ARRAY,
    HB_VIEW_OBJECT
};
enum hb_jsonl_view_type hb_jsonl_view_type(const struct hb_view *v, int key);
/* The string at key (no NUL inside), or def. */
const char *hb_jsonl_view_str(const struct hb_view *v, int key, const char *def);
/* The number at key, or def. */
double hb_jsonl_view_num(const struct hb_view *v, int key, double def);
/* Whether the number at key is an integer (as written: no fraction, no exponent), and *out. */
bool hb_jsonl_view_integer(const struct hb_view *v, int key, long long *out);
/* The length of the list at key (0 when it is none). */
size_t hb_jsonl_view_len(const struct hb_view *v, int key);
/* The items of the list at key into out (room for hb_jsonl_view_len of them), NAN for one that is
 * not a number (JSON has no NaN): how many. */
size_t hb_jsonl_view_numbers(const struct hb_view *v, int key, double *out);
/* n bytes (aligned for any type) that live until the record's take has returned: where
 * prepare puts what its slot points to. NULL when out of memory. */
void *hb_jsonl_view_alloc(const struct hb_view *v, size_t n);

void hb_jsonl_load_free(struct hb_results *r);

/* The threads a reader parses with now: OMP_NUM_THREADS when set, else the CPUs other work
 * leaves idle (at least 1). Work as parallel as reading (compare's rows) takes as many. */
int hb_jsonl_load_threads(void);

/* Convenience getters on a record: the number at key, or def when absent or not a number. */
double hb_jsonl_read_num(const json_t *rec, const char *key, double def);
/* The string at key, or def. */
const char *hb_jsonl_read_str(const json_t *rec, const char *key, const char *def);

/* The key of a measurement record's headline value: "value" (the median over independent
 * repeats) when the record has one; in files from before repeats, a latency record's median
 * ns per load ("lat_ns_median"), any other's best GB/s ("bw_GBps_best"). */
const char *hb_jsonl_read_headline_key(const json_t *rec);

/* A measurement's headline and its uncertainty over repeats (value, ci95, repeats): true
 * when the record has a finite value and an interval [lo, hi] around it; false for files
 * from before repeats, or a record without them (then *iv holds the headline alone, n 0). */
struct hb_interval;
bool hb_jsonl_read_interval(const json_t *rec, struct hb_interval *iv);

/* How two measurements' headlines stand against their noise: their 95% intervals do not
 * overlap (a difference), overlap (inconclusive), or one has none (one repeat, an old file:
 * the noise is unknown). The one rule every conclusion (matrix flags, HMAT comparisons, myth
 * verdicts, fleet outliers, policy gains) goes by before it raises anything. */
enum hb_separation { HB_SEPARATE, HB_OVERLAP, HB_NO_INTERVAL };
enum hb_separation hb_jsonl_read_separation(const json_t *a, const json_t *b);
/* The word a conclusion writes for it: "clear", "inconclusive" or "unknown noise". */
const char *hb_jsonl_read_separation_name(enum hb_separation s);

/* A measurement's figure with its interval, {"value": v, "ci95": [low, high] or null}, for
 * the records that conclude from it (new reference; null for NULL). */
json_t *hb_jsonl_read_figure(const json_t *rec);

#endif
