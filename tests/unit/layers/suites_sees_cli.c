/* Suites name options by the ids of src/options, not the command table of src/cli: this does not
 * compile against suites. */
#include "hb_suite.h"
#include "hb_cli_doc.h"
