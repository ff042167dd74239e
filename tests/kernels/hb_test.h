/* A tiny assertion kit for the kernel unit tests: a failed check prints where and why and
 * exits 1, so CTest sees the failure. */
#ifndef HB_TEST_H
#define HB_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
