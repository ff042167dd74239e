/* Which help a command line asks for, printed from the tables (hb_doc_print.c):
 * `hopbench help [COMMAND]`, `hopbench COMMAND --help`. */
#ifndef HB_HELP_H
#define HB_HELP_H

#include "hb_cli_doc.h"

/* The help of command name ("default": the default suite's; NULL or "": the overview) on
 * stdout: 0, or -EINVAL with one line naming it and the valid commands. */
int hb_help_for(const char *name, const struct hb_doc_kernels *k, const struct hb_doc_dirs *dirs);

/* `hopbench help [COMMAND]` (argv[0] is "help"): as hb_help_for, or -EINVAL for a second
 * operand. */
int hb_help_main(int argc, char **argv, const struct hb_doc_kernels *k,
                 const struct hb_doc_dirs *dirs);

#endif
