/* libFuzzer target: the JSON Lines reader behind report and compare, as the report streams
 * it, then the whole report of what it kept. Any input must give 0 or an error with a
 * message; no crash, no leak, no undefined behaviour. */
#include "hb_report.h"

#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in) return 0;
    struct hb_report_in r;
    int rc = hb_report_read(in, "fuzz.jsonl", &r);
    fclose(in);
    if (rc != 0) return 0;
    FILE *out = fopen("/dev/null", "w");
    if (out) {
        hb_report_write(out, &r, 1);
        fclose(out);
    }
    hb_report_in_free(&r);
    return 0;
}
