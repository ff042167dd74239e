/* Size parsing and formatting: the forms users write, and every way to get it wrong. */
#include "../hb_check.h"
#include "hb_error.h"
#include "hb_bytes.h"

#include <errno.h>

static uint64_t parse_ok(const char *text)
{
    uint64_t v = 0;
    int rc = hb_bytes_parse(text, &v);
    if (rc != 0) fprintf(stderr, "'%s' refused: %s\n", text, hb_error_msg());
    CHECK_INT(rc, 0);
    return v;
}

static void parse_bad(const char *text, int want_rc, const char *msg_part)
{
    uint64_t v = 0;
    CHECK_INT(hb_bytes_parse(text, &v), want_rc);
    CHECK_HAS(hb_error_msg(), msg_part);
}

int main(void)
{
    CHECK_INT(parse_ok("65536"), 65536);
    CHECK_INT(parse_ok("64K"), 65536);
    CHECK_INT(parse_ok("512KiB"), 524288);
    CHECK_INT(parse_ok("64M"), 67108864);
    CHECK_INT(parse_ok("1G"), 1073741824);
    CHECK_INT(parse_ok("1GiB"), 1073741824);
    CHECK_INT(parse_ok("1gib"), 1073741824);
    CHECK_INT(parse_ok("4kB"), 4000);
    CHECK_INT(parse_ok("1GB"), 1000000000);
    CHECK_INT(parse_ok("1.5G"), 1610612736);
    CHECK_INT(parse_ok("100B"), 100);
    CHECK_INT(parse_ok("2T"), 2199023255552ULL);

    parse_bad("0", -EINVAL, "invalid size '0'");
    parse_bad("-5M", -EINVAL, "invalid size '-5M'");
    parse_bad("", -EINVAL, "invalid size ''");
    parse_bad("lots", -EINVAL, "expected a positive size");
    parse_bad("3parsecs", -EINVAL, "unknown unit 'parsecs'");
    parse_bad("0.1", -EINVAL, "at least 1 byte");
    parse_bad("1.5", -EINVAL, "1.5 bytes is not a whole number of bytes");
    parse_bad("1.3K", -EINVAL, "not a whole number of bytes");
    parse_bad(" 1M", -EINVAL, "invalid size ' 1M'");
    parse_bad("+1M", -EINVAL, "invalid size '+1M'");
    parse_bad("0x10", -EINVAL, "invalid size '0x10'");
    parse_bad("1M ", -EINVAL, "unknown unit 'M '");
    CHECK_INT(parse_ok("1.5K"), 1536);
    parse_bad("99999999999T", -ERANGE, "too large");
    /* Each side of 64 bits, exactly: 2^64 - 1 is a size, 2^64 (16 EiB) is not, and no message
     * says a size it refuses is within the limit it names. */
    CHECK_INT(parse_ok("18446744073709551615"), UINT64_MAX);
    CHECK_INT(parse_ok("16777215T"), 16777215ULL << 40);
    static const char *const large[] = {
        "18446744073709551616", "16777216T", "1e30", "1e400", "1e5000", "99999999999999999999999K"};
    for (size_t i = 0; i < sizeof(large) / sizeof(large[0]); i++) {
        char want[160];
        snprintf(want, sizeof(want),
                 "size '%s' is too large: it must be less than 16 EiB (at most "
                 "18446744073709551615 bytes)",
                 large[i]);
        parse_bad(large[i], -ERANGE, want);
    }
    /* Positive but under a byte, however small: never "expected a positive size". */
    parse_bad("1e-400", -EINVAL, "invalid size '1e-400': must be at least 1 byte");
    parse_bad("1e-5000", -EINVAL, "invalid size '1e-5000': must be at least 1 byte");
    parse_bad("0.5", -EINVAL, "invalid size '0.5': must be at least 1 byte");
    parse_bad("0", -EINVAL, "invalid size '0': must be at least 1 byte");
    CHECK_INT(parse_ok("1"), 1);
    CHECK_INT(parse_ok("1e0"), 1);

    /* A product past 64 bits: 8 EiB x 2 is exactly 16 EiB, which is not "more than" it. */
    uint64_t prod = 0;
    CHECK_INT(hb_bytes_mul("size per thread", (uint64_t)1 << 63, 2, &prod), -ERANGE);
    CHECK_STR(hb_error_msg(), "size per thread: 8 EiB x 2 comes to 16 EiB or more, past 64 bits; "
                              "choose a smaller size");
    CHECK_INT(hb_bytes_mul("x", ((uint64_t)1 << 62) - 1, 4, &prod), 0);

    char buf[32];
    CHECK_STR(hb_bytes_format(512, buf, sizeof(buf)), "512 B");
    CHECK_STR(hb_bytes_format(65536, buf, sizeof(buf)), "64 KiB");
    CHECK_STR(hb_bytes_format(1610612736, buf, sizeof(buf)), "1.5 GiB");
    CHECK_STR(hb_bytes_format(1073741824, buf, sizeof(buf)), "1 GiB");
    /* Never rounded to a whole number it is not, nor to an exponent. */
    CHECK_STR(hb_bytes_format(4095, buf, sizeof(buf)), "3.999 KiB");
    CHECK_STR(hb_bytes_format(4097, buf, sizeof(buf)), "4.001 KiB");
    CHECK_STR(hb_bytes_format(1048064, buf, sizeof(buf)), "1023.5 KiB");
    CHECK_STR(hb_bytes_format((uint64_t)1 << 63, buf, sizeof(buf)), "8 EiB");
    CHECK_STR(hb_bytes_format(1234567, buf, sizeof(buf)), "1.18 MiB");
    return hb_check_result();
}
