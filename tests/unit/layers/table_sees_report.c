/* The table format (src/table) does not reach into the report: this does not compile against table.
 */
#include "hb_table.h"
#include "hb_report_kit.h"
