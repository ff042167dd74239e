/* A repeat value's text as the history stores it, read back fast: a check of a fleet's year
 * reads 90 M of them, and strtod's general path was a fifth of its time. */
#ifndef HB_HISTORY_NUMBER_H
#define HB_HISTORY_NUMBER_H

/* strtod(s, end) for decimal text, the same double (Clinger's fast path where the text has
 * at most 15 significant digits and a small exponent, strtod itself otherwise). */
double hb_history_number_read(const char *s, char **end);

#endif
