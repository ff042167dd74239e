/* Room in a growing array (hb_grow.h). */
#include "hb_grow.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

int hb_grow(void **v, size_t *cap, size_t n, size_t size)
{
    if (n < *cap) return 0;
    size_t c = *cap ? *cap * 2 : 8;
    void *p = c < SIZE_MAX / size ? realloc(*v, c * size) : NULL;
    if (!p) return -ENOMEM;
    *v = p;
    *cap = c;
    return 0;
}
