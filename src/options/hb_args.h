/* The arguments of the commands that read their own (report, compare, export), one style for
 * all, getopt_long's as for the run's options (hb_cli.c): options from a table, each with a
 * value (`--output FILE`, `--output=FILE`, `-o FILE`), in any place among the operands. */
#ifndef HB_ARGS_H
#define HB_ARGS_H

#include "hb_opt_doc.h"

#include <stdbool.h>

/* Where the value of one option of the command's table (hb_cli_doc.c) goes, by its name. */
struct hb_arg {
    const char *name;   /* long name without "--" */
    const char **value; /* set to "" when the option takes no value */
    /* Given more than once, e.g. several files for one side: every value in order, in
     * list[0..*nlist) (room for argc); value unused. NULL: the option is given once at most. */
    const char **list;
    int *nlist;
};

/* argv[0] is the command: `operands` what its usage line says besides the options
 * ("BASE.jsonl NEW.jsonl"), `opts` its option rows (NULL-name-ended, defined in the command's
 * own file and listed by its help: exactly those are read), each with its place in `places`
 * (NULL-name-ended). Each option's value goes to its *value, or is appended to its list; the
 * other arguments to `out`, in order (room for argc). An option without a list given twice is
 * refused, naming both (never silently last-wins). 0 with *n operands, or -EINVAL with one
 * line naming the offending argument and the usage. */
int hb_args_parse(int argc, char **argv, const char *operands, const struct hb_opt_doc *opts,
                  const struct hb_arg *places, const char **out, int *n);

/* "usage: hopbench CMD OPERANDS [OPTIONS]" (to free), as its help prints it; NULL when out of
 * memory. CMD "" is the default suite. */
char *hb_args_usage_line(const char *cmd, const char *operands);

/* The usage line and "(see hopbench CMD --help)", for messages: from a buffer that lives
 * until the next call. */
const char *hb_args_usage(const char *cmd, const char *operands);

/* The option getopt_long just refused ('?', or ':' when missing_value): a short option by
 * itself, since inside a cluster (-zzz) optind may still point past the word before it; a
 * long one (and a missing value, which ends its word) by its word. short_buf holds the "-z"
 * returned. */
const char *hb_args_refused(char **argv, bool missing_value, char short_buf[3]);

#endif
