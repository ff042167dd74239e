/* Plain C path of the streaming kernels: any architecture. C has no non-temporal store, so
 * the NT kernels store normally on this path. */
#define HB_PATH c
#define HB_T
#define HB_V double
#define HB_W 1
#define HB_ZERO() 0.0
#define HB_SET1(v) (v)
#define HB_LOAD(p) (*(p))
#define HB_LOADU(p) (*(p))
#define HB_STORE(p, x) (*(p) = (x))
#define HB_STREAM(p, x) (*(p) = (x))
#define HB_ADD(x, y) ((x) + (y))
#define HB_MUL(x, y) ((x) * (y))
#define HB_SUM(x) (x)
#define HB_FENCE() ((void)0)
#include "hb_stream_template.h"
