/* `hopbench report RESULTS.jsonl... -o report.html`: one self-contained HTML file (inline
 * SVG and CSS, no scripts, nothing fetched) with a section per kind of record found. */
#ifndef HB_REPORT_H
#define HB_REPORT_H

#include "hb_opt_doc.h"
#include "hb_format.h"
#include "hb_report_data.h"

#include <stdio.h>

/* argv[0] is "report". Returns the exit code: 0 written, 2 bad usage or input (nothing
 * written), 3 the output could not be written or memory ran out. */
int hb_report_main(int argc, char **argv);

/* Its usage line's operands and its options (hb_args.h), as its help lists them. */
extern const char hb_report_operands[];
extern const struct hb_opt_doc hb_report_opts[];

/* report -o FILE.txt or FILE.csv: the records of the inputs, each file's run record first, in
 * format f (table or CSV) as a run prints them. 0, or -errno with a message; nothing is left
 * at out on failure. */
int hb_report_text(enum hb_format f, const char *out, const char *const *inputs, int nin);

/* The whole report of the files read (hb_report_read). 0, or -EIO when f failed. */
int hb_report_write(FILE *f, const struct hb_report_in *in, int nin);

/* Read path (or the open stream f when not NULL) into in, keeping what the sections draw.
 * Returns as hb_jsonl_load_read_take; on error in holds nothing to free. */
int hb_report_read(FILE *f, const char *path, struct hb_report_in *in);

#endif
