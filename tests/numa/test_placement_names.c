/* Policy and page-size names, and parsing the page size a user types: pure, no memory. */
#include "../hb_check.h"
#include "hb_error.h"
#include "hb_option_values.h"
#include "hb_placement.h"

#include <errno.h>

int main(void)
{
    int p = HB_PAGES_HUGE;
    CHECK_STR(hb_placement_policy_name(HB_POLICY_BIND), "bind");
    CHECK_STR(hb_placement_policy_name(HB_POLICY_INTERLEAVE), "interleave");
    CHECK_STR(hb_placement_policy_name(HB_POLICY_FIRSTTOUCH), "firsttouch");
    CHECK_STR(hb_placement_policy_name(HB_POLICY_WEIGHTED), "weighted");
    CHECK(hb_placement_policy_names[HB_POLICY_WEIGHTED + 1] == NULL);
    CHECK_STR(hb_placement_pages_name(HB_PAGES_4K), "4k");
    CHECK_STR(hb_placement_pages_name(HB_PAGES_THP), "thp");
    CHECK_STR(hb_placement_pages_name(HB_PAGES_HUGE), "huge");
    CHECK(hb_placement_pages_names[HB_PAGES_HUGE + 1] == NULL);
    CHECK_STR(hb_placement_pages_name((enum hb_pages)(HB_PAGES_HUGE + 1)), "unknown");

    /* Every name parses back to its value, as --pages reads it. */
    for (int k = HB_PAGES_4K; k <= HB_PAGES_HUGE; k++) {
        CHECK_INT(hb_option_values_parse_enum("--pages", hb_placement_pages_name((enum hb_pages)k),
                                              hb_placement_pages_names, &p),
                  0);
        CHECK_INT(p, k);
    }
    p = HB_PAGES_THP;
    CHECK_INT(hb_option_values_parse_enum("--pages", "2M", hb_placement_pages_names, &p), -EINVAL);
    CHECK_STR(hb_error_msg(), "invalid --pages '2M': valid values are 4k, thp, huge");
    CHECK_INT(p, HB_PAGES_THP);
    CHECK_INT(hb_option_values_parse_enum("--pages", "4K", hb_placement_pages_names, &p), -EINVAL);
    CHECK_INT(hb_option_values_parse_enum("--pages", "", hb_placement_pages_names, &p), -EINVAL);
    CHECK_STR(hb_error_msg(), "invalid --pages '': valid values are 4k, thp, huge");
    return hb_check_result();
}
