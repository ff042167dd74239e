/* check's verdict (src/health) sits above suites and history and beside report: this does not
 * compile against health. */
#include "hb_health.h"
#include "hb_report.h"
