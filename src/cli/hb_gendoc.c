/* hb_gendoc man|bash DATADIR: prints hopbench(1) or the bash completion from the same tables
 * as --help; run at build time so the installed documents match the binary. */
#include "hb_cli_doc.h"
#include "hb_kernel.h"
#include "hb_simd.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    struct hb_doc_kernels k = {hb_kernel_help, hb_kernel_names(), hb_simd_choices};
    if (argc == 3 && strcmp(argv[1], "man") == 0)
        hb_doc_man(stdout, &k, argv[2]);
    else if (argc == 3 && strcmp(argv[1], "bash") == 0)
        hb_doc_bash(stdout, &k);
    else {
        fprintf(stderr, "usage: hb_gendoc man|bash DATADIR\n");
        return 2;
    }
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 3;
}
