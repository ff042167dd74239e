/* Core (src/) must not see the MPI layer: this does not compile against hb_core. */
#include "hb_world.h"
