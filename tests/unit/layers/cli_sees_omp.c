/* src/cli, the top of hb_core, still does not see the OpenMP layer: this does not compile against
 * cli. */
#include "hb_cli_doc.h"
#include "hb_team.h"
