/* The pointer chase's method (hb_chase.h): the stride and TLB-group rules and their checks. */
#include "hb_chase.h"

#include "hb_error.h"
#include "hb_bytes.h"

#include <errno.h>

int hb_chase_check_stride(const char *text, uint64_t stride)
{
    if (stride < 64 || (stride & (stride - 1))) {
        hb_error_set("invalid --stride '%s': expected a power of two of at least 64 bytes, e.g. "
                     "64, 128, 256 (default), 512, 4K",
                     text);
        return -EINVAL;
    }
    return 0;
}

int hb_chase_check_chains(const char *text, long long chains)
{
    if (chains >= 1 && chains <= HB_CHASE_MAX_CHAINS) return 0;
    hb_error_set("invalid --chains '%s': expected whole numbers from 1 to %d, e.g. 1,2,4,8,16",
                 text, HB_CHASE_MAX_CHAINS);
    return -EINVAL;
}

int hb_chase_check_group(uint64_t group, uint64_t stride)
{
    if (group == HB_CHASE_GROUP_ALL || (group >= stride && group % stride == 0)) return 0;
    char g[32], s[32];
    hb_error_set("invalid --tlb-group %s: expected 'all' or a multiple of the stride (%s), e.g. "
                 "256K (default)",
                 hb_bytes_format(group, g, sizeof(g)), hb_bytes_format(stride, s, sizeof(s)));
    return -EINVAL;
}

int hb_chase_check_fits(uint64_t stride, uint64_t bytes_per_thread, int threads)
{
    if (bytes_per_thread >= stride) return 0;
    char s[32], b[32], need[32];
    hb_error_set("--stride %s is larger than each thread's %s of the buffer; choose a smaller "
                 "--stride or a --size of at least %s",
                 hb_bytes_format(stride, s, sizeof(s)),
                 hb_bytes_format(bytes_per_thread, b, sizeof(b)),
                 hb_bytes_format(stride * (uint64_t)threads, need, sizeof(need)));
    return -EINVAL;
}
