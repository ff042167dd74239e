/* The one kernel table every driver shares (docs/design.md#kernels), default first, and what is
 * derived from it: lookup, bandwidth and load accounting, help text, the list of names. Per-element
 * figures follow likwid-bench's .ptt headers and STREAM: write-allocate traffic is not
 * counted. */
#include "hb_error.h"
#include "hb_kernel.h"
#include "hb_kernel_impl.h"
#include "hb_kernel_work.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

const struct hb_kernel hb_kernel_registry[] = {
    {
        .name = "read",
        .desc = "sum of a: loads only (likwid load)",
        .kind = HB_KIND_BANDWIDTH,
        .streams = 1,
        .bytes_read = 8,
        .bytes_written = 0,
        .flops = 1,
        .nt = false,
        .access = "r",
        .model_bps = 14e9,
        .init = hb_kernel_stream_init,
        .run = hb_kernel_stream_read_run,
        .check = hb_kernel_stream_read_check,
    },
    {
        .name = "write",
        .desc = "a[i] = s: stores only (likwid store)",
        .kind = HB_KIND_BANDWIDTH,
        .streams = 1,
        .bytes_read = 0,
        .bytes_written = 8,
        .flops = 0,
        .nt = false,
        .access = "w",
        .model_bps = 16e9,
        .init = hb_kernel_stream_init,
        .run = hb_kernel_stream_write_run,
        .check = hb_kernel_stream_write_check,
    },
    {
        .name = "write-nt",
        .desc = "a[i] = s with non-temporal stores (likwid store_mem)",
        .kind = HB_KIND_BANDWIDTH,
        .streams = 1,
        .bytes_read = 0,
        .bytes_written = 8,
        .flops = 0,
        .nt = true,
        .access = "w",
        .model_bps = 19e9,
        .init = hb_kernel_stream_init,
        .run = hb_kernel_stream_write_nt_run,
        .check = hb_kernel_stream_write_nt_check,
    },
    {
        .name = "copy",
        .desc = "a[i] = b[i] (likwid copy)",
        .kind = HB_KIND_BANDWIDTH,
        .streams = 2,
        .bytes_read = 8,
        .bytes_written = 8,
        .flops = 0,
        .nt = false,
        .access = "rw",
        .model_bps = 18e9,
        .init = hb_kernel_stream_init,
        .run = hb_kernel_stream_copy_run,
        .check = hb_kernel_stream_copy_check,
    },
    {
        .name = "copy-nt",
        .desc = "a[i] = b[i] with non-temporal stores (likwid copy_mem)",
        .kind = HB_KIND_BANDWIDTH,
        .streams = 2,
        .bytes_read = 8,
        .bytes_written = 8,
        .flops = 0,
        .nt = true,
        .access = "rw",
        .model_bps = 20e9,
        .init = hb_kernel_stream_init,
        .run = hb_kernel_stream_copy_nt_run,
        .check = hb_kernel_stream_copy_nt_check,
    },
    {
        .name = "triad",
        .desc = "a[i] = b[i] + s * c[i] (STREAM triad, likwid stream)",
        .kind = HB_KIND_BANDWIDTH,
        .streams = 3,
        .bytes_read = 16,
        .bytes_written = 8,
        .flops = 2,
        .nt = false,
        .access = "rw",
        .model_bps = 15e9,
        .init = hb_kernel_stream_init,
        .run = hb_kernel_stream_triad_run,
        .check = hb_kernel_stream_triad_check,
    },
    {
        .name = "triad-nt",
        .desc = "a[i] = b[i] + s * c[i] with non-temporal stores (likwid stream_mem)",
        .kind = HB_KIND_BANDWIDTH,
        .streams = 3,
        .bytes_read = 16,
        .bytes_written = 8,
        .flops = 2,
        .nt = true,
        .access = "rw",
        .model_bps = 17e9,
        .init = hb_kernel_stream_init,
        .run = hb_kernel_stream_triad_nt_run,
        .check = hb_kernel_stream_triad_nt_check,
    },
    {
        .name = "memcpy",
        .desc = "libc memcpy of b into a",
        .kind = HB_KIND_BANDWIDTH,
        .streams = 2,
        .bytes_read = 8,
        .bytes_written = 8,
        .flops = 0,
        .nt = false,
        .access = "rw",
        .model_bps = 11e9,
        .init = hb_kernel_stream_init,
        .run = hb_kernel_memcpy_run,
        .check = hb_kernel_memcpy_check,
    },
    {
        /* One dependent load per stride (default 256 bytes): a latency kernel, so only its
         * loads are counted (hb_kernel_registry_loads), never bytes per second. */
        .name = "chase",
        .desc = "dependent loads, one random line per --stride, shuffled within --tlb-group",
        .kind = HB_KIND_LATENCY,
        .streams = 1,
        .bytes_read = 8,
        .bytes_written = 0,
        .flops = 0,
        .nt = false,
        .access = "r",
        .fits = hb_kernel_chase_fits,
        .init = hb_kernel_chase_init,
        .run = hb_kernel_chase_run,
        .check = hb_kernel_chase_check,
    },
    /* MLC's read:write mixes (all reads is `read`); bytes counted the STREAM way. */
    {
        .name = "mix3:1",
        .desc = "a[i] += b[i] + c[i]: 3 reads per write, in place (MLC 3:1; likwid triad)",
        .kind = HB_KIND_BANDWIDTH,
        .streams = 3,
        .bytes_read = 24,
        .bytes_written = 8,
        .flops = 2,
        .nt = false,
        .dst_read = true,
        .access = "rw",
        .model_bps = 11e9,
        .init = hb_kernel_stream_init,
        .run = hb_kernel_stream_mix31_run,
        .check = hb_kernel_stream_mix31_check,
    },
    {
        .name = "mix3:1-nt",
        .desc = "a[i] = b[i] + c[i] + d[i] with non-temporal stores: 3 reads per write "
                "(likwid triad_mem)",
        .kind = HB_KIND_BANDWIDTH,
        .streams = 4,
        .bytes_read = 24,
        .bytes_written = 8,
        .flops = 2,
        .nt = true,
        .dst_read = false,
        .access = "rw",
        .model_bps = 11e9,
        .init = hb_kernel_stream_init,
        .run = hb_kernel_stream_mix31_nt_run,
        .check = hb_kernel_stream_mix31_nt_check,
    },
    {
        .name = "mix2:1",
        .desc = "a[i] += s * b[i]: 2 reads per write, in place (MLC 2:1; likwid daxpy)",
        .kind = HB_KIND_BANDWIDTH,
        .streams = 2,
        .bytes_read = 16,
        .bytes_written = 8,
        .flops = 2,
        .nt = false,
        .dst_read = true,
        .access = "rw",
        .model_bps = 10e9,
        .init = hb_kernel_stream_init,
        .run = hb_kernel_stream_mix21_run,
        .check = hb_kernel_stream_mix21_check,
    },
    {
        .name = "mix2:1-nt",
        .desc = "a[i] = b[i] + s * c[i] with non-temporal stores: 2 reads per write "
                "(likwid stream_mem)",
        .kind = HB_KIND_BANDWIDTH,
        .streams = 3,
        .bytes_read = 16,
        .bytes_written = 8,
        .flops = 2,
        .nt = true,
        .dst_read = false,
        .access = "rw",
        .model_bps = 10e9,
        .init = hb_kernel_stream_init,
        .run = hb_kernel_stream_mix21_nt_run,
        .check = hb_kernel_stream_mix21_nt_check,
    },
    {
        .name = "mix1:1",
        .desc = "a[i] += s: 1 read per write, in place (MLC 1:1; likwid update)",
        .kind = HB_KIND_BANDWIDTH,
        .streams = 1,
        .bytes_read = 8,
        .bytes_written = 8,
        .flops = 1,
        .nt = false,
        .dst_read = true,
        .access = "rw",
        .model_bps = 9e9,
        .init = hb_kernel_stream_init,
        .run = hb_kernel_stream_mix11_run,
        .check = hb_kernel_stream_mix11_check,
    },
    {
        .name = "mix1:1-nt",
        .desc = "a[i] = b[i] + s with non-temporal stores: 1 read per write (likwid copy_mem)",
        .kind = HB_KIND_BANDWIDTH,
        .streams = 2,
        .bytes_read = 8,
        .bytes_written = 8,
        .flops = 1,
        .nt = true,
        .dst_read = false,
        .access = "rw",
        .model_bps = 9e9,
        .init = hb_kernel_stream_init,
        .run = hb_kernel_stream_mix11_nt_run,
        .check = hb_kernel_stream_mix11_nt_check,
    },
    /* The workloads of the policy study: irregular, stencil, compute-bound, tunable. */
    {
        .name = "gups",
        .desc = "random read-modify-write updates of a table (HPCC RandomAccess-like)",
        .kind = HB_KIND_BANDWIDTH,
        .streams = 1,
        .bytes_read = 8,
        .bytes_written = 8,
        .flops = 0,
        .nt = false,
        .dst_read = true,
        .access = "rw",
        .model_bps = 0.38e9,
        .init = hb_kernel_gups_init,
        .run = hb_kernel_gups_run,
        .check = hb_kernel_gups_check,
    },
    {
        .name = "blur3",
        .desc = "3x3 binomial blur stencil of b into a, rows of 512",
        .kind = HB_KIND_BANDWIDTH,
        .streams = 2,
        .bytes_read = 8,
        .bytes_written = 8,
        .flops = 13,
        .nt = false,
        .access = "rw",
        .model_bps = 5.4e9,
        .init = hb_kernel_blur3_init,
        .run = hb_kernel_blur3_run,
        .check = hb_kernel_blur3_check,
    },
    {
        /* Per element of each array: one product's row of 128 FMAs per result element. */
        .name = "dgemm",
        .desc = "batched 128x128 products a = b x c, register-blocked (compute-bound)",
        .kind = HB_KIND_BANDWIDTH,
        .streams = 3,
        .bytes_read = 16,
        .bytes_written = 8,
        .flops = 2 * HB_DGEMM_N,
        .nt = false,
        .access = "rw",
        .model_bps = 1.8e9,
        .fits = hb_kernel_dgemm_fits,
        .init = hb_kernel_dgemm_init,
        .run = hb_kernel_dgemm_run,
        .check = hb_kernel_dgemm_check,
    },
    {
        .name = "fir",
        .desc = "64-tap FIR filter of b into a (compute-bound)",
        .kind = HB_KIND_BANDWIDTH,
        .streams = 2,
        .bytes_read = 8,
        .bytes_written = 8,
        .flops = 2 * HB_FIR_TAPS,
        .nt = false,
        .access = "rw",
        .model_bps = 2e9,
        .init = hb_kernel_fir_init,
        .run = hb_kernel_fir_run,
        .check = hb_kernel_fir_check,
    },
    {
        /* flops scale with the task's param: 8 x param per element (hb_kernel_intensity_flops). */
        .name = "intensity",
        .desc = "read with 8 x param flops per element (param = flops per byte loaded)",
        .kind = HB_KIND_BANDWIDTH,
        .streams = 1,
        .bytes_read = 8,
        .bytes_written = 0,
        .flops = 8,
        .nt = false,
        .access = "r",
        .model_bps = 14e9,
        .init = hb_kernel_intensity_init,
        .run = hb_kernel_intensity_run,
        .check = hb_kernel_intensity_check,
    },
    {.name = NULL},
};

/* Sized from the table, so a longer table never cuts the list short. */
static char *kernel_names_buf;
static pthread_once_t kernel_names_once = PTHREAD_ONCE_INIT;

static void kernel_names_build(void)
{
    size_t len = 1;
    for (const struct hb_kernel *k = hb_kernel_registry; k->name; k++)
        len += strlen(k->name) + 2;
    kernel_names_buf = calloc(len, 1);
    if (kernel_names_buf == NULL) return;
    for (const struct hb_kernel *k = hb_kernel_registry; k->name; k++) {
        if (k != hb_kernel_registry) strcat(kernel_names_buf, ", ");
        strcat(kernel_names_buf, k->name);
    }
}

const char *hb_kernel_registry_names(void)
{
    pthread_once(&kernel_names_once, kernel_names_build);
    return kernel_names_buf ? kernel_names_buf : "(out of memory listing the kernels)";
}

const struct hb_kernel *hb_kernel_registry_find(const char *name)
{
    for (const struct hb_kernel *k = hb_kernel_registry; name && k->name; k++)
        if (strcmp(k->name, name) == 0) return k;
    hb_error_set("unknown kernel '%s'; valid kernels: %s", name ? name : "",
                 hb_kernel_registry_names());
    return NULL;
}

int hb_kernel_registry_check_list(const char *list)
{
    char *copy = strdup(list), *save = NULL;
    if (!copy) {
        hb_error_set("out of memory checking --kernel %s", list);
        return -ENOMEM;
    }
    int rc = 0;
    for (char *k = strtok_r(copy, ",", &save); k && rc == 0; k = strtok_r(NULL, ",", &save))
        if (!hb_kernel_registry_find(k)) rc = -EINVAL;
    free(copy);
    return rc;
}

int hb_kernel_registry_count(void)
{
    int n = 0;
    while (hb_kernel_registry[n].name)
        n++;
    return n;
}

double hb_kernel_registry_bytes(const struct hb_kernel *k, uint64_t elements, uint64_t sweeps)
{
    return (k->bytes_read + k->bytes_written) * (double)elements * (double)sweeps;
}

double hb_kernel_registry_bytes_wa_model(const struct hb_kernel *k, uint64_t elements,
                                         uint64_t sweeps)
{
    double allocate = k->nt || k->dst_read ? 0.0 : k->bytes_written;
    return (k->bytes_read + k->bytes_written + allocate) * (double)elements * (double)sweeps;
}

double hb_kernel_registry_loads(const struct hb_kernel *k, uint64_t elements, uint64_t sweeps,
                                uint64_t stride)
{
    if (k->kind != HB_KIND_LATENCY) return 0.0;
    uint64_t lines = elements * 8 / (stride ? stride : HB_CHASE_STRIDE_DEFAULT);
    uint64_t per_sweep = lines < HB_LATENCY_SWEEP_LOADS ? lines : HB_LATENCY_SWEEP_LOADS;
    return (double)per_sweep * (double)sweeps;
}

void hb_kernel_registry_help(FILE *f)
{
    for (const struct hb_kernel *k = hb_kernel_registry; k->name; k++)
        fprintf(f,
                "  %-9s %d stream%s  %2g B read  %2g B written  %2g B WA  %g flop/elem  %-2s  "
                "%s%s\n",
                k->name, k->streams, k->streams == 1 ? " " : "s", k->bytes_read, k->bytes_written,
                hb_kernel_registry_bytes_wa_model(k, 1, 1), k->flops, k->nt ? "NT" : "", k->desc,
                k == hb_kernel_registry ? " [default]" : "");
}
