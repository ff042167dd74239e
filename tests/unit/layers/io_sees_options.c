/* src/io, the sink, reads no options: this does not compile against io. */
#include "hb_sink.h"
#include "hb_options.h"
