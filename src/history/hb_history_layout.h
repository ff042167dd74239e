/* How `history check` writes its rows (hb_history_layout.c): a header for people, a row per
 * change point, a summary; table, CSV or JSON Lines through the sinks of hb_output.h. */
#ifndef HB_HISTORY_LAYOUT_H
#define HB_HISTORY_LAYOUT_H

#include "hb_sink.h"

extern const struct hb_layout hb_history_layout;

#endif
