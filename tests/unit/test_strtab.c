/* Interned strings: dense ids in order of first appearance, one id per distinct string
 * across table growth, lookups that never add, strings that are prefixes of one another. */
#include "../hb_check.h"
#include "hb_strtab.h"

int main(void)
{
    struct hb_strtab t = {0};
    char s[32];
    /* Enough strings to grow the slots and the buffer several times. */
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < 5000; i++) {
            int n = snprintf(s, sizeof(s), "cell %d", i);
            CHECK_INT(hb_strtab_add(&t, s, (size_t)n), i);
        }
    CHECK_INT(t.n, 5000);
    CHECK_STR(hb_strtab_get(&t, 4321), "cell 4321");
    CHECK_INT(hb_strtab_find(&t, "cell 4999", 9), 4999);
    CHECK_INT(hb_strtab_find(&t, "cell 5000", 9), HB_STRTAB_NONE);
    CHECK_INT(t.n, 5000);
    /* A prefix, the empty string and a slice of a longer buffer are strings of their own. */
    uint32_t cell = hb_strtab_add(&t, "cell", 4), empty = hb_strtab_add(&t, "", 0);
    CHECK_INT(cell, 5000);
    CHECK_INT(empty, 5001);
    CHECK_INT(hb_strtab_add(&t, "cell 12 and more", 7), 12);
    CHECK_STR(hb_strtab_get(&t, empty), "");
    hb_strtab_free(&t);
    CHECK_INT(t.n, 0);
    return hb_check_result();
}
