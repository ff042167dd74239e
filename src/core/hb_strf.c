/* A formatted new string, for reasons and paths (hb_strf.h). */
#include "hb_strf.h"

#include <stdarg.h>
#include <stdio.h>

char *hb_strf(const char *fmt, ...)
{
    char *s = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    return n < 0 ? NULL : s;
}
