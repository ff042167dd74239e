/* hb_gendoc man DATADIR DOCDIR | bash | md COMMAND | kernels | commands | columns: prints
 * hopbench(1), the bash completion, a command's part of docs/suites.md, the kernel table, the
 * commands' names or the measurement record's keys from the same tables as --help; run at build
 * time so the installed documents match the binary, and by tests/doc-links/generated.py so docs/
 * does too. */
#include "hb_cli_doc.h"
#include "hb_kernel.h"
#include "hb_record.h"
#include "hb_simd.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    struct hb_doc_kernels k = {hb_kernel_registry_help, hb_kernel_registry_names(),
                               hb_simd_choices};
    if (argc == 4 && strcmp(argv[1], "man") == 0) {
        struct hb_doc_dirs dirs = {argv[2], argv[3]};
        hb_doc_print_man(stdout, &k, &dirs);
    } else if (argc == 2 && strcmp(argv[1], "bash") == 0)
        hb_doc_print_bash(stdout, &k);
    else if (argc == 3 && strcmp(argv[1], "md") == 0) {
        if (hb_doc_print_markdown(stdout, &k, argv[2]) != 0) {
            fprintf(stderr, "hb_gendoc: md %s: no such command (see hopbench --help)\n", argv[2]);
            return 2;
        }
    } else if (argc == 2 && strcmp(argv[1], "kernels") == 0) {
        printf("```\n");
        hb_kernel_registry_help(stdout);
        printf("```\n");
    } else if (argc == 2 && strcmp(argv[1], "commands") == 0) {
        struct hb_cmd_doc c;
        for (size_t i = 0; hb_cli_doc_command_at(i, &c); i++)
            printf("%s\n", c.name[0] ? c.name : "default");
    } else if (argc == 2 && strcmp(argv[1], "columns") == 0) {
        for (const char *const *c = hb_record_columns; *c; c++)
            printf("%s`%s`", c == hb_record_columns ? "" : ", ", *c);
        printf("\n");
    } else {
        fprintf(stderr,
                "usage: hb_gendoc man DATADIR DOCDIR | bash | md COMMAND | kernels | commands | "
                "columns\n");
        return 2;
    }
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 3;
}
