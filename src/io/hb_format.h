/* The output formats (--format, -o FILE's name): their names and which a file name says. */
#ifndef HB_FORMAT_H
#define HB_FORMAT_H

#include <stdbool.h>

/* The output formats. A new one is a value here, its name and its writer in hb_sink.c;
 * --format (run and compare), help, man page and completion follow. */
enum hb_format { HB_FORMAT_TABLE, HB_FORMAT_CSV, HB_FORMAT_JSONL, HB_FORMAT_COUNT };
/* Their names, in enum hb_format's order, NULL-ended. */
extern const char *const hb_format_names[];
/* The format a file name says (.jsonl and .json: JSON Lines, .csv: CSV, any case): true and
 * *f, or false when the name says none. */
bool hb_format_of_name(const char *path, enum hb_format *f);

#endif
