/* JSON text exactly as jansson writes it (compact, reals at a precision), written straight to
 * a stream: no string made per value. The sinks write a million rows this way. */
#ifndef HB_JSON_TEXT_H
#define HB_JSON_TEXT_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* Room for any real's text and its NUL. */
#define HB_JSON_REAL_MAX 40

/* A finite real as json_dumps writes it at JSON_REAL_PRECISION(digits) (0: 17): "%.*g",
 * then ".0" when that looks like an integer, the exponent without '+' or leading zeros.
 * Returns its length. */
size_t hb_json_text_real_text(char buf[HB_JSON_REAL_MAX], double v, int digits);

/* v as json_dumpf(v, f, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(digits)) writes
 * it. A write error shows in f's error flag. */
void hb_json_text_put(FILE *f, const json_t *v, int digits);

#endif
