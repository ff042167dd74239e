/* The plan's time model (hb_estimate.h) and comm's schedule (hb_msg_schedule.h): the schedule
 * to the millisecond for a short and a long iteration, and the model's invariants over
 * repeats, sizes, a suite's own model and a chase's capped sweep. */
#include "../hb_check.h"
#include "hb_estimate.h"
#include "hb_msg_schedule.h"

#include <math.h>
#include <string.h>

/* A plan of one experiment of one foreground task: `bytes` over `threads` of `kernel`
 * (chase_stride > 0: a latency task). */
static void one_task(struct hb_plan *p, const char *kernel, uint64_t bytes, int threads,
                     uint64_t chase_stride)
{
    struct hb_experiment e = {.reps = 3, .min_time_s = 0.05};
    snprintf(e.name, sizeof(e.name), "%s", kernel);
    struct hb_task *t = hb_plan_experiment_task(&e);
    HB_EXPECT(t != NULL, "out of memory");
    t->role = HB_ROLE_FG;
    t->threads = threads;
    t->bytes = bytes;
    t->mem_node = -1;
    t->chase_stride = chase_stride;
    snprintf(t->kernel, sizeof(t->kernel), "%s", kernel);
    HB_EXPECT(hb_plan_add(p, &e) == 0, "plan_add");
}

static double rate(const void *ctx, const char *kernel)
{
    (void)ctx;
    return strcmp(kernel, "read") == 0 ? 10e9 : 0.0;
}

static double own(const void *ctx, const struct hb_experiment *e, int *records)
{
    (void)ctx;
    (void)e;
    *records = 3;
    return 2.0;
}

static double seconds(const struct hb_plan *p, int repeats, const struct hb_estimate_model *m,
                      int *measurements)
{
    struct hb_estimate est;
    HB_EXPECT(hb_estimate_plan(p, repeats, m, &est) == 0, "estimate");
    double s = est.seconds;
    if (measurements) *measurements = est.measurements;
    hb_estimate_free(&est);
    return s;
}

int main(void)
{
    /* 1 ms iterations at 50 ms: warm-up 1+2+4+8+16 (31 ms; 16 ms >= 1/8 of 50 ms), a pilot of
     * 16 ms, 3 samples of 50 iterations. */
    HB_EXPECT(fabs(hb_msg_schedule_s(1e-3, 3, 0.05) - 0.197) < 1e-9, "1 ms: %g",
              hb_msg_schedule_s(1e-3, 3, 0.05));
    /* 30 ms iterations (a 4 MiB window): the warm-up's 31 and the pilot's 16 dominate; each
     * sample is 2 iterations. */
    HB_EXPECT(fabs(hb_msg_schedule_s(30e-3, 3, 0.05) - (47 * 0.03 + 3 * 0.06)) < 1e-9, "30 ms");
    /* Tiny iterations: about (reps + 3/8..3/4) x --min-time. */
    double tiny = hb_msg_schedule_s(1e-7, 3, 0.05);
    HB_EXPECT(tiny > 3.3 * 0.05 && tiny < 3.8 * 0.05, "tiny: %g", tiny);

    const struct hb_estimate_model model = {NULL, rate, NULL};
    struct hb_plan p = {0}, big = {0};
    one_task(&p, "read", (uint64_t)256 << 20, 2, 0);
    one_task(&big, "read", (uint64_t)1 << 30, 2, 0);
    /* Every repeat costs the same: 10 repeats add what 5 more do. */
    double s1 = seconds(&p, 1, &model, NULL), s5 = seconds(&p, 5, &model, NULL),
           s10 = seconds(&p, 10, &model, NULL);
    HB_EXPECT(fabs((s10 - s5) - (s5 - s1) * 5.0 / 4.0) < 1e-9, "repeats: %g %g %g", s1, s5, s10);
    /* A bigger working set costs more; a kernel without a rate uses the model's slower one. */
    HB_EXPECT(seconds(&big, 5, &model, NULL) > s5, "size");
    HB_EXPECT(seconds(&p, 5, NULL, NULL) > s5, "no rate");
    /* A suite's own model: its seconds and its records. */
    const struct hb_estimate_model mine = {own, rate, NULL};
    int records = 0;
    double o5 = seconds(&p, 5, &mine, &records), o1 = seconds(&p, 1, &mine, NULL);
    HB_EXPECT(records == 3, "records %d", records);
    HB_EXPECT(o5 - o1 > 4 * 2.0 && o5 - o1 < 4 * 2.2, "own: %g", o5 - o1);
    int fg = 0;
    seconds(&p, 5, &model, &fg);
    HB_EXPECT(fg == 1, "one record a foreground task: %d", fg);
    hb_plan_free(&p);
    hb_plan_free(&big);

    /* A chase's sweep stops at HB_LATENCY_SWEEP_LOADS: 1 GiB and 4 GiB differ by their
     * init (faulting in, linking the ring) alone, which is linear in the size. */
    struct hb_plan c1 = {0}, c4 = {0}, c16 = {0};
    one_task(&c1, "chase", (uint64_t)1 << 30, 1, 256);
    one_task(&c4, "chase", (uint64_t)4 << 30, 1, 256);
    one_task(&c16, "chase", (uint64_t)16 << 30, 1, 256);
    double a = seconds(&c1, 1, &model, NULL), b = seconds(&c4, 1, &model, NULL),
           c = seconds(&c16, 1, &model, NULL);
    HB_EXPECT(fabs((c - b) - 4.0 * (b - a)) < 1e-6, "chase: %g %g %g", a, b, c);
    hb_plan_free(&c1);
    hb_plan_free(&c4);
    hb_plan_free(&c16);
    return hb_check_result();
}
