/* Error context and exit codes shared by every layer.
 *
 * Functions in src/ return 0 or a negative errno and leave a one-line message with
 * hb_error_set(); only main.c and the MPI layer turn it into an exit. */
#ifndef HB_ERROR_H
#define HB_ERROR_H

/* Exit codes (docs/design.md#errors-and-exit-codes). */
enum hb_exit {
    HB_EXIT_OK = 0,
    HB_EXIT_FAILED = 1,  /* a measurement failed validation or placement */
    HB_EXIT_USAGE = 2,   /* bad usage or input */
    HB_EXIT_ENV = 3,     /* environment: binding impossible, rank layout, out of memory */
    HB_EXIT_MISSING = 4, /* compare: measurements of BASE missing from NEW */
    HB_EXIT_UNCLEAR = 5, /* compare: none worse, but some row could not be decided */
};

/* Errno values with a hopbench meaning, so a caller can map an error to its exit code. */
#define HB_EVALIDATE 1001  /* a kernel's result check failed -> exit 1 */
#define HB_EPLACEMENT 1002 /* pages or threads not where they were asked to be -> exit 1 */
#define HB_EUSAGE 1003     /* bad input that has no better errno -> exit 2 */
#define HB_EENV 1004       /* the environment cannot do what was asked -> exit 3 */

/* Record the message for the current error (printf format, one line, no trailing
 * newline; control bytes in it are escaped as \n, \xNN). Thread-local: each thread keeps
 * its own. Returns nothing. */
void hb_error_set(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The message last set in this thread, or "" when none. Never NULL. */
const char *hb_error_msg(void);

/* Prints "hopbench: MESSAGE" to standard error: the message set, or when none was, what
 * neg_errno means (a path that sets none still never prints an empty line). */
void hb_error_print(int neg_errno);

/* Forget the current message, its memory given back (a thread of one's own that set one
 * calls it before it ends: the message is the thread's). */
void hb_error_clear(void);

/* Exit code for a negative errno returned by a hopbench function:
 * EINVAL, ERANGE, ENOENT, EACCES, EISDIR, ENOTDIR, EROFS, ENAMETOOLONG, HB_EUSAGE -> 2;
 * HB_EVALIDATE, HB_EPLACEMENT -> 1; everything else -> 3. 0 -> 0. */
int hb_error_exit_code(int neg_errno);

#endif
