/* The output formats' names and the file names that say one (hb_format.h). */
#include "hb_format.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>

const char *const hb_format_names[HB_FORMAT_COUNT + 1] = {
    [HB_FORMAT_TABLE] = "table", [HB_FORMAT_CSV] = "csv", [HB_FORMAT_JSONL] = "jsonl"};
/* The file names that say a format; anything else is a table for people. */
static const struct {
    const char *suffix;
    enum hb_format format;
} format_suffixes[] = {
    {".jsonl", HB_FORMAT_JSONL}, {".json", HB_FORMAT_JSONL}, {".csv", HB_FORMAT_CSV}};

bool hb_format_of_name(const char *path, enum hb_format *f)
{
    size_t n = path ? strlen(path) : 0;
    for (size_t i = 0; i < sizeof(format_suffixes) / sizeof(format_suffixes[0]); i++) {
        size_t k = strlen(format_suffixes[i].suffix);
        if (n > k && strcasecmp(path + n - k, format_suffixes[i].suffix) == 0) {
            *f = format_suffixes[i].format;
            return true;
        }
    }
    return false;
}
