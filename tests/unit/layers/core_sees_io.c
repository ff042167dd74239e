/* src/core must not see src/io (escaping lives in core now): this does not compile against core. */
#include "hb_error.h"
#include "hb_sink.h"
