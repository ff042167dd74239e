/* Report section of the working-set sweep: latency and bandwidth against the working set per
 * thread, byte axes in KiB/MiB/GiB, each cache marked where a thread's part outgrows it. */
#include "hb_report_kit.h"
#include "hb_report_sections.h"

#include "hb_level.h"
#include "hb_report_axis.h"
#include "hb_bytes.h"
#include "hb_default_size.h"

#include <math.h>
#include <string.h>

#define HB_SWEEP_MARKS 8

/* A cache of the run's topology at level with bytes: how many CPUs share it, whether its size
 * is believable and the node's SMT; 0 when the run record does not say. */
static int cache_info(const json_t *run, int level, double bytes, bool *believable, int *smt)
{
    size_t n, k;
    json_t *node, *c;
    json_array_foreach(json_object_get(json_object_get(run, "topology"), "nodes"), n, node)
    {
        json_array_foreach(json_object_get(node, "caches"), k, c)
        {
            if (hb_report_kit_int(c, "level", 0) != level ||
                hb_jsonl_read_num(c, "bytes", 0) != bytes)
                continue;
            *believable = !json_is_false(json_object_get(c, "believable"));
            *smt = hb_report_kit_int(node, "smt", 1);
            return hb_report_kit_int(c, "cpus_each", 1);
        }
    }
    return 0;
}

/* The cache marks of a run at each thread's share, as each record's level takes it
 * (hb_level.c): hwloc's size, or HB_LLC_PER_CORE_MAX per core when no real part has as much,
 * shared by the sweep's threads under it; each at the working set whose footprint fills it (a
 * chase of `stride` keeps 128 bytes of each stride: hb_level_footprint). Appends to the
 * caption what each mark is. */
static int cache_marks(const json_t *run, int threads, uint64_t stride, struct hb_mark *marks,
                       char labels[][96], char levels[][24], FILE *caption)
{
    int n = 0;
    size_t k;
    json_t *c;
    char size[32], raw[32];
    json_array_foreach(json_object_get(run, "caches"), k, c)
    {
        if (n >= HB_SWEEP_MARKS - 1) break;
        int level = hb_report_kit_int(c, "level", 0);
        double bytes = hb_jsonl_read_num(c, "bytes", 0);
        bool believable = true;
        int smt = 1, cpus = cache_info(run, level, bytes, &believable, &smt);
        int cores = cpus / (smt > 0 ? smt : 1);
        double eff = believable ? bytes : (double)HB_LLC_PER_CORE_MAX * (cores > 0 ? cores : 1);
        int sharers = cpus > 0 && cpus < threads ? cpus : threads;
        eff /= sharers > 0 ? sharers : 1;
        snprintf(levels[n], 24, "L%d", level);
        snprintf(labels[n], 96, "L%d %s", level,
                 hb_bytes_format((uint64_t)eff, size, sizeof(size)));
        marks[n] = (struct hb_mark){hb_level_footprint_ws(eff, stride), labels[n], levels[n]};
        fprintf(caption, "%s%s", n ? "; " : "", labels[n]);
        if (!believable)
            fprintf(caption,
                    " (hwloc reports %s, more than any real part has per core: taken "
                    "as %s per core, as each record's level is)",
                    hb_bytes_format((uint64_t)bytes, raw, sizeof(raw)),
                    hb_bytes_format(HB_LLC_PER_CORE_MAX, size, sizeof(size)));
        if (sharers > 1) fprintf(caption, " (shared by %d of the threads)", sharers);
        n++;
    }
    /* A run record without per-level caches names its last-level cache at most. */
    double llc = hb_jsonl_read_num(json_object_get(run, "sizes"), "llc_bytes", 0);
    if (n == 0 && llc > 0) {
        snprintf(labels[n], 96, "LLC %s", hb_bytes_format((uint64_t)llc, size, sizeof(size)));
        marks[n] = (struct hb_mark){hb_level_footprint_ws(llc, stride), labels[n], NULL};
        fprintf(caption, "%s (the last-level cache)", labels[n]);
        n++;
    }
    /* A memory-side cache is marked like a CPU cache: the step after it reaches memory. */
    double msc = hb_jsonl_read_num(json_object_get(run, "sizes"), "memside_cache_bytes", 0);
    if (msc > 0) {
        snprintf(levels[n], 24, "memory-side cache");
        snprintf(labels[n], 96, "memory-side cache %s",
                 hb_bytes_format((uint64_t)msc, size, sizeof(size)));
        marks[n] = (struct hb_mark){hb_level_footprint_ws(msc, stride), labels[n], levels[n]};
        fprintf(caption, "%s%s", n ? "; " : "", labels[n]);
        n++;
    }
    if (n && hb_level_footprint_ws(1.0, stride) > 1.0)
        fprintf(caption,
                "; each at the working set that fills it: a chase of a %llu-byte stride keeps "
                "%d bytes of each stride in the caches",
                (unsigned long long)stride, HB_LEVEL_PAIR_BYTES);
    return n;
}

/* One sweep figure of a file with its cache marks and the caption that explains them. */
static void sweep_figure(FILE *f, const struct hb_report_in *in, int mi,
                         const struct hb_curve_fig *fig)
{
    struct hb_mark marks[HB_SWEEP_MARKS];
    char labels[HB_SWEEP_MARKS][96], levels[HB_SWEEP_MARKS][24];
    char *caption = NULL;
    size_t clen = 0;
    FILE *cf = open_memstream(&caption, &clen);
    if (!cf) return;
    int threads = in->sweep_threads > 0 ? in->sweep_threads : 1;
    int nm = cache_marks(in->res.run, threads, mi == 0 ? in->sweep_stride : 0, marks, labels,
                         levels, cf);
    if (fclose(cf) != 0) nm = 0;
    fputs("<div class=\"panel\">", f);
    hb_report_kit_caption(f, &in->res,
                          mi == 0 ? "latency vs working set" : "memcpy bandwidth vs working set");
    fputs("<figure>", f);
    hb_report_curves_figure(f, in, &in->sweep[mi], marks, nm, fig);
    fprintf(f, "<figcaption>x: the working set per thread (working set / %d thread%s). ", threads,
            threads == 1 ? "" : "s");
    if (nm) {
        fputs("Dashed lines: where the working set per thread outgrows each cache, so the curve "
              "steps there: ",
              f);
        hb_escape_html(f, caption);
        fputs(".", f);
    } else
        fputs("The run record names no cache sizes, so none is marked.", f);
    fputs("</figcaption></figure></div>\n", f);
    free(caption);
}

void hb_report_sweep(FILE *f, const struct hb_report_in *in, int nin)
{
    int any = 0;
    for (int i = 0; i < nin; i++)
        any |= (in[i].has & HB_RHAS_SWEEP) != 0;
    if (!any) return;
    fputs("<section id=\"sweep\"><h2>Working-set sweep</h2><div class=\"row\">\n", f);
    const struct hb_curve_fig figs[2] = {
        {{false, true, true, "working set per thread", "latency (ns)", "sweep latency"},
         "select(.type == \"measurement\" and .suite == \"sweep\" and has(\"ws_bytes\") and "
         ".metric == \"latency\" and (.lat_ns_median | type) == \"number\")",
         NULL},
        {{false, true, true, "working set per thread", "bandwidth (GB/s)", "sweep bandwidth"},
         "select(.type == \"measurement\" and .suite == \"sweep\" and has(\"ws_bytes\") and "
         ".metric == \"bandwidth\" and (.bw_GBps_best | type) == \"number\")",
         NULL},
    };
    for (int i = 0; i < nin; i++)
        for (int mi = 0; mi < 2; mi++)
            if (in[i].sweep[mi].n) sweep_figure(f, &in[i], mi, &figs[mi]);
    fputs("</div></section>\n", f);
}
