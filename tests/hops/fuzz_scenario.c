/* libFuzzer target: the scenario parser must return 0 or an error with a message for any
 * bytes, and never read or write out of bounds (AddressSanitizer). */
#include "hb_error.h"
#include "hb_run_scenario.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct hb_scenario s;
    int rc = hb_run_scenario_parse("fuzz.scn", (const char *)data, size, &s);
    if (rc != 0 && hb_error_msg()[0] == '\0') abort();
    hb_run_scenario_free(&s);
    return 0;
}
