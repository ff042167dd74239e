/* How compare's rows are written (hb_compare_layout.c). */
#ifndef HB_COMPARE_LAYOUT_H
#define HB_COMPARE_LAYOUT_H

#include "hb_sink.h"

extern const struct hb_layout hb_compare_layout;

#endif
