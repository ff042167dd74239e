/* Policy and page-size names, and parsing the page size a user types: pure, no memory. */
#include "../hb_check.h"
#include "hb_error.h"
#include "hb_placement.h"

#include <errno.h>

int main(void)
{
    enum hb_pages p = HB_PAGES_HUGE;
    CHECK_STR(hb_policy_name(HB_POLICY_BIND), "bind");
    CHECK_STR(hb_policy_name(HB_POLICY_INTERLEAVE), "interleave");
    CHECK_STR(hb_policy_name(HB_POLICY_FIRSTTOUCH), "firsttouch");
    CHECK_STR(hb_pages_name(HB_PAGES_4K), "4k");
    CHECK_STR(hb_pages_name(HB_PAGES_THP), "thp");
    CHECK_STR(hb_pages_name(HB_PAGES_HUGE), "huge");

    /* Every name parses back to its value. */
    for (int k = HB_PAGES_4K; k <= HB_PAGES_HUGE; k++) {
        CHECK_INT(hb_pages_parse(hb_pages_name((enum hb_pages)k), &p), 0);
        CHECK_INT(p, k);
    }
    p = HB_PAGES_THP;
    CHECK_INT(hb_pages_parse("2M", &p), -EINVAL);
    CHECK_STR(hb_err_msg(), "unknown page size '2M'; valid: 4k, thp, huge");
    CHECK_INT(p, HB_PAGES_THP);
    CHECK_INT(hb_pages_parse("4K", &p), -EINVAL);
    CHECK_INT(hb_pages_parse("", &p), -EINVAL);
    CHECK_STR(hb_err_msg(), "unknown page size ''; valid: 4k, thp, huge");
    return hb_check_result();
}
