/* Output sinks: JSON Lines (canonical), CSV (same keys, same order), a table for people.
 * Records are flushed one by one into the output file of hb_outfile.h: FILE appears only
 * when the run completes, and a failed or interrupted run keeps its complete records as
 * FILE.partial. Every format lives here: a command describes its records (struct
 * hb_layout) and hands them to the sink, which writes them in the chosen format; the sink
 * knows no command. */
#ifndef HB_SINK_H
#define HB_SINK_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "hb_format.h"

/* How the real numbers at one key are written where the format's default (jansson's text
 * at the layout's digits) is not wanted; a NULL hook keeps the default. */
struct hb_layout_real {
    const char *key;
    void (*csv)(FILE *f, double v);
    void (*json)(FILE *f, double v);
};

/* A record type of a layout: the keys JSONL writes, in order (NULL-ended; NULL = the whole
 * record as it is), whether JSONL leaves it out, whether it is a CSV row. Types a layout
 * does not name are written whole in JSONL and left out of CSV. */
struct hb_layout_type {
    const char *type;
    const char *const *json;
    bool json_skip;
    bool csv_row;
};

/* How one command's records are written. */
struct hb_layout {
    int digits;             /* significant digits of reals in JSON and CSV */
    const char *const *csv; /* CSV columns (record keys), NULL-ended; an interval (KEY ending
                             * "ci95") is two columns, KEY_lo and KEY_hi */
    bool csv_names_first;   /* the names row at open, else before the first row */
    const struct hb_layout_type *types; /* NULL-type-ended */
    const struct hb_layout_real *reals; /* NULL-key-ended, or NULL */
    void (*table_print)(FILE *f, json_t *rec);
    /* Prints what table_print held back, when the sink closes (the records may end without
     * the record that would have printed it: a run stopped midway); NULL: nothing held. */
    void (*table_end)(FILE *f);
    /* Its records come all at once (compare's rows, a million for a fleet): flushed in
     * blocks of HB_SINK_BURST records, not one by one (a record takes microseconds, not the
     * seconds a measurement takes, and a flush is a system call). */
    bool burst;
};
enum { HB_SINK_BURST = 4096 };

struct hb_sink;

/* Open a sink for format f at path ("" or "-" = stdout; check it first with
 * hb_outfile_check), writing records as layout says (the run's: hb_run_layout.h; compare's:
 * hb_compare_layout.h). -errno with a message naming the path when it cannot be written
 * (nothing is created then). A failed or interrupted run keeps its records as PATH.partial. */
int hb_sink_open(enum hb_format f, const char *path, const struct hb_layout *layout,
                 struct hb_sink **out);

/* The same for records read back from files (report -o FILE.txt): a failure leaves nothing
 * at path, since the file can be made again. */
int hb_sink_open_whole(enum hb_format f, const char *path, const struct hb_layout *layout,
                       struct hb_sink **out);

/* Write one record and flush (a burst layout: every HB_SINK_BURST records, and at close).
 * 0 or -errno (disk full...). */
int hb_sink_write(struct hb_sink *s, json_t *rec);

/* Records rendered apart from the sink, on any thread, then put into it in order: a command
 * with many records at once (compare's rows) renders blocks of them in parallel. */
struct hb_sink_block {
    FILE *f; /* what the records are rendered into (a memory stream) */
    char *text;
    size_t len;
};
/* An empty block for s (s writes its CSV names first when they are due): 0 or -ENOMEM. */
int hb_sink_block_open(struct hb_sink *s, struct hb_sink_block *b);
/* rec rendered into b as s would write it; s is only read (any thread). */
void hb_sink_block_write(const struct hb_sink *s, struct hb_sink_block *b, json_t *rec);
/* b's records written to s and flushed, b freed: 0 or -errno as hb_sink_write. */
int hb_sink_block_put(struct hb_sink *s, struct hb_sink_block *b);
/* b freed unwritten. */
void hb_sink_block_free(struct hb_sink_block *b);
/* Close; complete: PATH is written; else the records so far are kept in PATH.partial and
 * hb_error_msg() says so. Returns 0 when PATH is complete, else -errno. */
int hb_sink_close(struct hb_sink *s, bool complete);

#endif
