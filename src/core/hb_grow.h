/* Room in a growing array: the one doubling the project's lists use. */
#ifndef HB_GROW_H
#define HB_GROW_H

#include <stddef.h>

/* Room for element n of *v (elements of `size` bytes, *cap of them): *v doubled (from 8) when
 * n does not fit. 0, or -ENOMEM with *v and *cap as they were. */
int hb_grow(void **v, size_t *cap, size_t n, size_t size);

#endif
