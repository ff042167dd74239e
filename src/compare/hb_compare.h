/* `hopbench compare BASE.jsonl NEW.jsonl`: run-to-run comparison and regression gate. */
#ifndef HB_COMPARE_H
#define HB_COMPARE_H

#include "hb_opt_doc.h"

#include <jansson.h>

/* The least change, in percent, that compare calls worse or better (--threshold's default);
 * history check's --min-change defaults to it too. */
#define HB_COMPARE_THRESHOLD_PCT 5.0

/* argv[0] is "compare". Prints the comparison on stdout, messages on stderr. Returns the exit
 * code: 0 no regression; 1 a record worse (a change over --threshold whose repeats separate);
 * 4 measurements of BASE missing from NEW; 2 bad usage or input (unusable, duplicated or
 * mismatched records, several runs in a file, runs of different machines); 3 environment. */
int hb_compare_main(int argc, char **argv);

/* Its usage line's operands and its options (hb_args.h), as its help lists them. */
extern const char hb_compare_operands[];
extern const struct hb_opt_doc hb_compare_opts[];

/* compare's rows of the file new_path against base, as `compare BASE NEW --format jsonl` makes
 * them with its defaults (--threshold 5, --fdr 0.05): its header, notes, errors, comparison,
 * only and summary records, appended to the JSON array rows. 0, or -errno with compare's
 * message (unreadable files, several runs in one, different machines or builds). The
 * report's comparison section reads them. */
int hb_compare_rows(const char *base, const char *new_path, json_t *rows);

#endif
