/* What hb_error_print writes: the message set, or, when a path set none, what the errno means,
 * never "hopbench: " alone (issue 23: an error from the system with an empty message). */
#include "../hb_check.h"
#include "hb_error.h"

#include <errno.h>
#include <unistd.h>

/* hb_error_print(neg) as standard error would show it. */
static char *printed(int neg)
{
    FILE *f = tmpfile();
    if (!f) exit(1);
    fflush(stderr);
    int saved = dup(2);
    if (saved < 0 || dup2(fileno(f), 2) < 0) exit(1);
    hb_error_print(neg);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    static char buf[512];
    rewind(f);
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

int main(void)
{
    hb_error_set("x.jsonl: cannot open: %s", "Permission denied");
    CHECK_STR(printed(-EACCES), "hopbench: x.jsonl: cannot open: Permission denied\n");
    hb_error_clear();
    CHECK_STR(printed(-ENOENT),
              "hopbench: No such file or directory (no more detail was recorded: please report "
              "it)\n");
    CHECK_STR(printed(-HB_EUSAGE),
              "hopbench: bad usage or input (no more detail was recorded: please report it)\n");
    CHECK_STR(printed(-HB_EENV), "hopbench: the environment cannot do what was asked (no more "
                                 "detail was recorded: please report it)\n");
    CHECK_INT(hb_error_exit_code(-ENAMETOOLONG), HB_EXIT_USAGE);
    CHECK_INT(hb_error_exit_code(-HB_EPLACEMENT), HB_EXIT_FAILED);
    CHECK_INT(hb_error_exit_code(-ENOMEM), HB_EXIT_ENV);
    return hb_check_result();
}
