/* The control: the top sees every public header, so the failures above are the layers. */
#include "hb_exec.h"
#include "hb_kernel.h"
#include "hb_record.h"
#include "hb_team.h"
#include "hb_version.h"
#include "hb_world.h"
