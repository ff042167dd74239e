/* The result-file reader: good file, truncated last line, newer schema, not JSON Lines. */
#include "../hb_check.h"
#include "hb_error.h"
#include "hb_jsonl_read.h"

#include <errno.h>

int main(int argc, char **argv)
{
    HB_EXPECT(argc == 2, "usage: test_jsonl_read FIXTURE_DIR");
    char p[4096];
    struct hb_results r;
    snprintf(p, sizeof(p), "%s/multinode.jsonl", argv[1]);
    HB_EXPECT(hb_jsonl_load_read_take(p, NULL, NULL, &r) == 0, "%s", hb_error_msg());
    HB_EXPECT(json_array_size(r.records) == 27, "records=%zu", json_array_size(r.records));
    HB_EXPECT(r.run && r.skipped_line == 0, "run record found, nothing skipped");
    HB_EXPECT(hb_jsonl_read_num(json_array_get(r.records, 3), "pct_of_local_read", -1) == 100.0,
              "fourth record is the local read at 100%%");
    hb_jsonl_load_free(&r);

    snprintf(p, sizeof(p), "%s/truncated.jsonl", argv[1]);
    HB_EXPECT(hb_jsonl_load_read_take(p, NULL, NULL, &r) == 0, "%s", hb_error_msg());
    HB_EXPECT(r.skipped_line == 4, "skipped line %d, want 4", r.skipped_line);
    HB_EXPECT(json_array_size(r.records) == 3, "records=%zu", json_array_size(r.records));
    hb_jsonl_load_free(&r);

    snprintf(p, sizeof(p), "%s/newer.jsonl", argv[1]);
    HB_EXPECT(hb_jsonl_load_read_take(p, NULL, NULL, &r) == -EINVAL,
              "newer schema must be refused");
    HB_EXPECT_CONTAINS(hb_error_msg(), "newer.jsonl:1: run record has schema_version 99");

    snprintf(p, sizeof(p), "%s/notjson.jsonl", argv[1]);
    HB_EXPECT(hb_jsonl_load_read_take(p, NULL, NULL, &r) == -EINVAL,
              "non-JSON line must be refused");
    HB_EXPECT_CONTAINS(hb_error_msg(), "notjson.jsonl:3: not a hopbench JSON Lines record");

    snprintf(p, sizeof(p), "%s/absent.jsonl", argv[1]);
    HB_EXPECT(hb_jsonl_load_read_take(p, NULL, NULL, &r) == -ENOENT, "missing file");
    return 0;
}
