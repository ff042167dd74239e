/* compare and the table are side by side, neither sees the other: this does not compile against
 * compare. */
#include "hb_compare.h"
#include "hb_table.h"
