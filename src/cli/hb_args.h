/* The arguments of the commands that read their own (report, compare, export), one style for
 * all, getopt_long's as for the run's options (hb_cli.c): options from a table, each with a
 * value (`--output FILE`, `--output=FILE`, `-o FILE`), in any place among the operands. */
#ifndef HB_ARGS_H
#define HB_ARGS_H

#include <stdbool.h>

struct hb_arg {
    const char *name; /* long name without "--" */
    char short_name;  /* 0 = none */
    const char **value;
    bool flag; /* takes no value: *value is set to "" when given */
    /* Given more than once, e.g. several files for one side: every value in order, in
     * list[0..*nlist) (room for argc); value unused. NULL: the option is given once at most. */
    const char **list;
    int *nlist;
};

/* argv[0] is the command (`cmd`, for messages). Each option's value goes to its *value, or
 * is appended to its list; the other arguments to operands, in order (room for argc). An
 * option without a list given twice is refused, naming both (never silently last-wins).
 * 0 with *n operands, or -EINVAL with one line naming the offending argument and the usage. */
int hb_args_parse(int argc, char **argv, const char *cmd, const char *usage,
                  const struct hb_arg *opts, const char **operands, int *n);

/* The option getopt_long just refused ('?', or ':' when missing_value): a short option by
 * itself, since inside a cluster (-zzz) optind may still point past the word before it; a
 * long one (and a missing value, which ends its word) by its word. short_buf holds the "-z"
 * returned. */
const char *hb_args_refused(char **argv, bool missing_value, char short_buf[3]);

#endif
