/* libFuzzer target: the JSON Lines reader behind report and compare, then every report
 * section on what it read. Any input must give 0 or an error with a message; no crash, no
 * leak, no undefined behaviour. */
#include "hb_jsonl_read.h"
#include "hb_report.h"

#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in) return 0;
    struct hb_results r;
    int rc = hb_results_readf(in, "fuzz.jsonl", &r);
    fclose(in);
    if (rc != 0) return 0;
    FILE *out = fopen("/dev/null", "w");
    if (out) {
        hb_report_machine(out, &r, 1);
        hb_report_matrices(out, &r, 1, 0);
        hb_report_hops(out, &r, 1);
        hb_report_verdicts(out, &r, 1);
        hb_report_loaded(out, &r, 1);
        hb_report_sweep(out, &r, 1);
        hb_report_policy(out, &r, 1);
        hb_report_matrices(out, &r, 1, 1);
        hb_report_fleet(out, &r, 1);
        fclose(out);
    }
    hb_results_free(&r);
    return 0;
}
