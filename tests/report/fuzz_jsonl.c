/* libFuzzer target: the JSON Lines reader behind report and compare, as the report streams
 * it, then the whole report of what it kept, the same input as the table and CSV of
 * report -o NAME.txt / NAME.csv, and as one side of a compare (the scan through views). Any input
 * must give 0 or an error with a message; no crash, no leak, no undefined behaviour. */
#include "hb_compare_side.h"
#include "hb_report.h"

#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

/* The input as a file, for the table path (it reads files by name). */
static void hb_fuzz_tables(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0]) snprintf(path, sizeof(path), "/tmp/hb-fuzz-table-%ld.jsonl", (long)getpid());
    FILE *f = fopen(path, "w");
    if (!f) return;
    size_t put = fwrite(data, 1, size, f);
    if (fclose(f) != 0 || put != size) return;
    const char *inputs[] = {path, NULL};
    hb_report_text(HB_FORMAT_TABLE, "/dev/null", inputs, 1);
    hb_report_text(HB_FORMAT_CSV, "/dev/null", inputs, 1);
    struct hb_strtab str = {0};
    struct hb_cmp_side side = {.str = &str};
    if (hb_compare_side_read(path, &side) == 0) (void)hb_compare_side_index(&side, 1);
    hb_compare_side_free(&side);
    hb_strtab_free(&str);
    unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hb_fuzz_tables(data, size);
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
    hb_report_data_in_free(&r);
    return 0;
}
