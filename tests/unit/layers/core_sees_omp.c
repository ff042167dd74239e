/* Core (src/) must not see the OpenMP layer: this does not compile against hb_core. */
#include "hb_team.h"
