/* `hopbench help [COMMAND]` and each command's --help: the overview or the command's own
 * help, an unknown command refused in one line. */
#include "hb_help.h"

#include "hb_error.h"
#include "hb_options.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int hb_help_for(const char *name, const struct hb_doc_kernels *k, const struct hb_doc_dirs *dirs)
{
    if (!name || !name[0]) {
        hb_doc_print_help(stdout, k, dirs);
        return 0;
    }
    struct hb_cmd_doc c;
    if (!hb_cli_doc_command_find(strcmp(name, "default") == 0 ? "" : name, &c)) {
        hb_error_set("no command '%s': valid commands are default (the default suite), %s", name,
                     hb_cli_options_commands());
        return -EINVAL;
    }
    hb_doc_print_command_help(stdout, k, &c, dirs);
    return 0;
}

int hb_help_main(int argc, char **argv, const struct hb_doc_kernels *k,
                 const struct hb_doc_dirs *dirs)
{
    if (argc > 2) {
        hb_error_set("help takes one command, not also '%s': hopbench help [COMMAND]", argv[2]);
        return -EINVAL;
    }
    return hb_help_for(argc == 2 ? argv[1] : NULL, k, dirs);
}
