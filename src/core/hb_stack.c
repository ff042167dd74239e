/* The stack limit check (hb_stack.h): refused in one line below what a run needs. */
#include "hb_stack.h"

#include "hb_error.h"

#include <sys/resource.h>

/* A 64 KiB stack crashes hopbench's start-up in the C library (strtold) now and then; from
 * 80 KiB up every try runs. Twice that leaves room for longer environments. */
#define HB_MIN_STACK ((rlim_t)128 << 10)

int hb_stack_check(void)
{
    struct rlimit st;
    if (getrlimit(RLIMIT_STACK, &st) != 0 || st.rlim_cur == RLIM_INFINITY ||
        st.rlim_cur >= HB_MIN_STACK)
        return 0;
    hb_error_set("stack limited to %llu KiB (ulimit -s %llu): hopbench needs at least %llu KiB; "
                 "raise it with ulimit -s %llu",
                 (unsigned long long)(st.rlim_cur >> 10), (unsigned long long)(st.rlim_cur >> 10),
                 (unsigned long long)(HB_MIN_STACK >> 10),
                 (unsigned long long)(HB_MIN_STACK >> 10));
    return -HB_EENV;
}
