#include "hb_error.h"

#include "hb_escape.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

static _Thread_local char hb_err_buf[1024];

void hb_err_set(const char *fmt, ...)
{
    char raw[sizeof(hb_err_buf)];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof(raw), fmt, ap);
    va_end(ap);
    /* Values quoted from files and arguments may hold any byte: the message stays one line. */
    hb_esc_line_str(hb_err_buf, sizeof(hb_err_buf), raw);
}

const char *hb_err_msg(void)
{
    return hb_err_buf;
}

void hb_err_clear(void)
{
    hb_err_buf[0] = '\0';
}

int hb_err_exit_code(int neg_errno)
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
