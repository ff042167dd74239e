/* The run history (src/history) is below the report that draws it: this does not compile against
 * history. */
#include "hb_history.h"
#include "hb_report.h"
