/* Inside the result-file reader (hb_jsonl_read.h): one line parsed into a jansson record, by
 * yyjson where it can vouch for jansson's verdict, by jansson itself where it cannot. */
#ifndef HB_JSONL_PARSE_H
#define HB_JSONL_PARSE_H

#include "hb_arena.h"
#include "hb_jsonl_read.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* The top-level keys a caller reads: every record keeps "type", a run record every key. */
struct hb_jsonl_want {
    const char *const *keys; /* NULL: every key */
    size_t *lens;            /* strlen of each key */
    int n;
    /* The keys by hash (hb_jsonl_accept_key_hash, open addressing): index + 1, 0 for none. A
     * record's 80 keys are each looked up once, not compared with every wanted key. */
    int *slots;
    size_t nslots;
    /* Measurement records' own keys, when a caller narrowed them (NULL: as the others). */
    const struct hb_jsonl_want *measurement;
};

/* One line of a file and what became of it. */
struct hb_jsonl_line {
    const char *text;
    size_t len;
    int lineno;
    bool unterminated; /* the file's last line, without its newline */
    bool bom;          /* it starts with a UTF-8 byte-order mark */
    bool oom;          /* memory ran out parsing it */
    json_t *rec;       /* the parsed value (any JSON value), or NULL with err */
    void *slot;        /* a scan's: where its prepare puts what it made of the record */
    bool viewed;       /* a scan's prepare took the record (no rec then) */
    char err[JSON_ERROR_TEXT_LENGTH];
};

/* What one parsing thread keeps for a whole file: its yyjson allocator (void * so that
 * callers need not see yyjson), and for a scan the arenas its prepare allocates from (one for
 * the batch being handed on, one for the batch being parsed: `arena`, emptied as it starts)
 * and room for a record's values by key. */
struct hb_jsonl_thread {
    void *alc;
    struct hb_arena arenas[2];
    struct hb_arena *arena;
    void **vals;
};

/* A key's hash: its length and three letters (hopbench's keys differ there). */
size_t hb_jsonl_accept_key_hash(const char *s, size_t n);

/* Makes want from a NULL-terminated list (keys NULL: every key). 0, or -ENOMEM. */
int hb_jsonl_accept_want_init(struct hb_jsonl_want *want, const char *const *keys);
void hb_jsonl_accept_want_free(struct hb_jsonl_want *want);

/* Parses ln->text into ln->rec (or err, or oom) on thread th; with a scan (NULL: none) a
 * record other than the run record is instead shown to scan->prepare (ln->viewed), its
 * view holding want's keys. Thread-safe; jansson's allocator must be hb_jsonl_yy_alloc_funcs'. */
void hb_jsonl_yy_parse_line(struct hb_jsonl_line *ln, const struct hb_jsonl_want *want,
                            struct hb_jsonl_thread *th, const struct hb_jsonl_load_scan *scan);

/* A thread's state for a file whose scan reads nkeys keys (0: no scan). 0, or -ENOMEM. */
int hb_jsonl_yy_thread_init(struct hb_jsonl_thread *th, int nkeys);
void hb_jsonl_yy_thread_free(struct hb_jsonl_thread *th);

/* Sets jansson's allocator to one that tells a failed allocation from a bad token. */
void hb_jsonl_yy_alloc_funcs(void);

#endif
