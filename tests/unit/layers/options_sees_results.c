/* The option vocabulary (src/options) knows no records: this does not compile against options. */
#include "hb_options.h"
#include "hb_record.h"
