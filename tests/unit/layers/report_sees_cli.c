/* The report does not know the command table that calls it: this does not compile against report.
 */
#include "hb_report.h"
#include "hb_cli_doc.h"
