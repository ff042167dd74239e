/* Records (src/results) do not know how they are printed: this does not compile against results. */
#include "hb_record.h"
#include "hb_table.h"
