/* The project's one test harness. CHECK* print the file, line, expression and (for the typed
 * ones) both values, count the failure and go on, so one run shows every broken expectation;
 * a test's main returns hb_check_result(). HB_EXPECT* are for checks after which going on
 * makes no sense: they print a formatted reason and exit 1. */
#ifndef HB_CHECK_H
#define HB_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int hb_check_failures;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
            hb_check_failures++;                                                                   \
        }                                                                                          \
    } while (0)

#define CHECK_INT(got, want)                                                                       \
    do {                                                                                           \
        long long g_ = (long long)(got), w_ = (long long)(want);                                   \
        if (g_ != w_) {                                                                            \
            fprintf(stderr, "%s:%d: %s is %lld, expected %lld\n", __FILE__, __LINE__, #got, g_,    \
                    w_);                                                                           \
            hb_check_failures++;                                                                   \
        }                                                                                          \
    } while (0)

/* |got - want| <= tol, both values printed when not. */
#define CHECK_WITHIN(got, want, tol)                                                               \
    do {                                                                                           \
        double g_ = (got), w_ = (want);                                                            \
        if (!(g_ - w_ <= (tol) && w_ - g_ <= (tol))) {                                             \
            fprintf(stderr, "%s:%d: %s is %.9g, expected %.9g\n", __FILE__, __LINE__, #got, g_,    \
                    w_);                                                                           \
            hb_check_failures++;                                                                   \
        }                                                                                          \
    } while (0)

#define CHECK_STR(got, want)                                                                       \
    do {                                                                                           \
        const char *g_ = (got), *w_ = (want);                                                      \
        if (!g_ || strcmp(g_, w_) != 0) {                                                          \
            fprintf(stderr, "%s:%d: %s is '%s', expected '%s'\n", __FILE__, __LINE__, #got,        \
                    g_ ? g_ : "(null)", w_);                                                       \
            hb_check_failures++;                                                                   \
        }                                                                                          \
    } while (0)

#define CHECK_HAS(text, part)                                                                      \
    do {                                                                                           \
        const char *g_ = (text), *w_ = (part);                                                     \
        if (!g_ || !strstr(g_, w_)) {                                                              \
            fprintf(stderr, "%s:%d: %s is '%s', expected it to contain '%s'\n", __FILE__,          \
                    __LINE__, #text, g_ ? g_ : "(null)", w_);                                      \
            hb_check_failures++;                                                                   \
        }                                                                                          \
    } while (0)

#define CHECK_LACKS(text, part)                                                                    \
    do {                                                                                           \
        const char *g_ = (text), *w_ = (part);                                                     \
        if (!g_ || strstr(g_, w_)) {                                                               \
            fprintf(stderr, "%s:%d: %s is '%s', expected it not to contain '%s'\n", __FILE__,      \
                    __LINE__, #text, g_ ? g_ : "(null)", w_);                                      \
            hb_check_failures++;                                                                   \
        }                                                                                          \
    } while (0)

static inline int hb_check_result(void)
{
    if (hb_check_failures) fprintf(stderr, "%d check(s) failed\n", hb_check_failures);
    return hb_check_failures ? 1 : 0;
}

/* Whether loops over thousands of generated inputs take their short count (HB_TEST_SHORT=1):
 * arm.cross sets it for its unit tests under qemu-user, 20 to 40 times slower, where the
 * native build has run every input. Each such test says what its short count keeps. */
static inline int hb_check_short(void)
{
    const char *s = getenv("HB_TEST_SHORT");
    return s && strcmp(s, "1") == 0;
}

#define HB_EXPECT(cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: failed: %s: ", __FILE__, __LINE__, #cond);                     \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

#define HB_EXPECT_CONTAINS(text, part)                                                             \
    HB_EXPECT(strstr((text), (part)) != NULL, "'%s' does not contain '%s'", (text), (part))

#endif
