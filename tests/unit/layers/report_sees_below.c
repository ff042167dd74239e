/* The control for the folders of src/: the report sees every folder below it (table,
 * compare, results, options, io, core), so the failures above are the layers. */
#include "hb_compare.h"
#include "hb_error.h"
#include "hb_options.h"
#include "hb_record.h"
#include "hb_report_kit.h"
#include "hb_sink.h"
#include "hb_table.h"
