/* export and compare are side by side: this does not compile against export. */
#include "hb_export.h"
#include "hb_compare.h"
