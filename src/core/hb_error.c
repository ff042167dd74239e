/* The one error message of a call chain and the exit code of each error (hb_error.h). */
#include "hb_error.h"

#include "hb_escape.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Grown to fit: a message may list every node or CPU of a large machine. */
static _Thread_local char *err_buf;
/* When memory ran out, as much of the message as fits here: better than the last one. */
static _Thread_local char err_oom[512];

void hb_error_set(const char *fmt, ...)
{
    char *raw = NULL, *line = NULL;
    size_t len = 0;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&raw, fmt, ap);
    va_end(ap);
    /* Values quoted from files and arguments may hold any byte: the message stays one line. */
    FILE *f = n >= 0 ? open_memstream(&line, &len) : NULL;
    if (f) {
        hb_escape_line(f, raw);
        if (fclose(f) != 0) {
            free(line);
            line = NULL;
        }
    }
    free(raw);
    free(err_buf);
    err_buf = line;
    err_oom[0] = '\0';
    if (!line) {
        va_start(ap, fmt);
        vsnprintf(err_oom, sizeof(err_oom), fmt, ap);
        va_end(ap);
    }
}

const char *hb_error_msg(void)
{
    return err_buf ? err_buf : err_oom;
}

void hb_error_clear(void)
{
    free(err_buf);
    err_buf = NULL;
    err_oom[0] = '\0';
}

void hb_error_print(int neg_errno)
{
    static const char *const own[] = {
        "a result check failed", "pages or threads were not where they were asked to be",
        "bad usage or input", "the environment cannot do what was asked"};
    if (hb_error_msg()[0]) {
        fprintf(stderr, "hopbench: %s\n", hb_error_msg());
        return;
    }
    /* A path that set no message still says what failed, never "hopbench: " alone. */
    int e = -neg_errno;
    fprintf(stderr, "hopbench: %s (no more detail was recorded: please report it)\n",
            e >= HB_EVALIDATE && e <= HB_EENV ? own[e - HB_EVALIDATE] : strerror(e));
}

int hb_error_exit_code(int neg_errno)
{
    switch (-neg_errno) {
    case 0:
        return HB_EXIT_OK;
    case EINVAL:
    case ERANGE:
    case ENOENT:
    case EACCES:
    case EISDIR:
    case ENOTDIR:
    case EROFS:
    case ENAMETOOLONG:
    case HB_EUSAGE:
        return HB_EXIT_USAGE;
    case HB_EVALIDATE:
    case HB_EPLACEMENT:
        return HB_EXIT_FAILED;
    default:
        return HB_EXIT_ENV;
    }
}
