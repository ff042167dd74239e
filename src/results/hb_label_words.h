/* The AMD 40555 labels of the hops suite's records in words, for the table and the report. */
#ifndef HB_LABEL_WORDS_H
#define HB_LABEL_WORDS_H

#include <stdbool.h>
#include <stddef.h>

/* A 40555 label ("0.0.r.1") in words ("CPU node 0 \u2192 memory node 1, read"); false when label
 * is not one. */
bool hb_label_words(const char *label, char *buf, size_t len);

#endif
