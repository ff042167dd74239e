/* The change-point engine (hb_changepoint.h) on planted histories (history_plant.h): a step
 * found on its night (+-0), a slow creep reported as creep, a THP change named by its knob,
 * hopbench's own commit change said, flat series at this VM's measured noise raising no more
 * false change points than the FDR allows, and the same input giving the same answer. */
#include "../hb_check.h"
#include "hb_changepoint.h"
#include "hb_error.h"
#include "history_plant.h"

#include <errno.h>

/* The relative spread (sd of the logs) of the repeat values of real default-suite runs
 * (hopbench --repeat 5) on the 2-core development VM, the median over their figures: 15.6%
 * at load 2.6 (one run, 17 figures; one-thread figures 3-8%, two-thread 16-33%), 43.6% at
 * load 9-15 while other builds and benchmarks ran (the 9 quiet runs of
 * tests/bench/history-real.sh, 153 figures). */
static const double vm_noise[] = {0.156, 0.436};

static void show(const struct hb_history_series *s, const struct hb_changepoint *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "  %s %s: at %zu%s %+.2f%% p %.3g adj %.3g worse %d knobs %zu\n",
                s[c[i].series].host, s[c[i].series].metric, c[i].at, c[i].creep ? " creep" : "",
                c[i].change_pct, c[i].p, c[i].p_adjusted, c[i].worse, c[i].n_knobs);
}

/* (a) a host's remote read drops 8% on night 40 of 90 with 3% noise; hopbench was rebuilt
 * that night too. */
static void step(void)
{
    double level[90];
    const char *commits[90];
    for (int i = 0; i < 90; i++)
        level[i] = i < 39 ? 10.0 : 9.2, commits[i] = i < 39 ? "aaa1" : "bbb2";
    struct hb_history_series s =
        plant("n07", "bw read cpu1 mem0", "bandwidth", 1, level, 90, 5, 0.03, 41, NULL, commits);
    struct hb_changepoint_params p = hb_changepoint_defaults();
    struct hb_changepoint *c, *again;
    size_t n, n2, tested;
    CHECK_INT(hb_changepoint_find(&s, 1, &p, &c, &n, &tested), 0);
    show(&s, c, n);
    HB_EXPECT(n == 1, "%zu change points, want 1", n);
    CHECK_INT(c[0].at, 39); /* night 40 */
    CHECK(!c[0].creep && c[0].worse && c[0].version_changed && !c[0].recent);
    CHECK_WITHIN(c[0].change_pct, -8.0, 1.5);
    CHECK(c[0].before.lo <= 10.0 && c[0].before.hi >= 10.0);
    CHECK(c[0].after.lo <= 9.2 && c[0].after.hi >= 9.2);
    CHECK(c[0].p < 1e-6 && c[0].p_adjusted >= c[0].p && c[0].p_adjusted < 0.05);
    CHECK_INT(c[0].before_to, 39);
    CHECK_INT(c[0].after_from, 39);
    CHECK_INT(c[0].n_knobs, 0);
    CHECK(tested >= 1);
    /* the same input, the same answer */
    CHECK_INT(hb_changepoint_find(&s, 1, &p, &again, &n2, NULL), 0);
    CHECK_INT(n2, n);
    CHECK(n2 == n && again[0].at == c[0].at && again[0].p == c[0].p &&
          again[0].change_pct == c[0].change_pct);
    hb_changepoint_free(again, n2);
    hb_changepoint_free(c, n);
    plant_free(&s);
}

/* (b) latency creeps +5% over the last 30 of 90 nights (2% noise): no night steps by much,
 * the latest level against the best earlier segment does, and is reported as creep at a
 * --min-change of 3% (below the creep's 5%, which the latest five nights' median only nears).
 * With the seed varied over 1-50 it is reported for 37 at 2% noise, 12 at 3%. */
static void creep(void)
{
    double level[90];
    for (int i = 0; i < 90; i++)
        level[i] = 80.0 * (i < 60 ? 1.0 : 1.0 + 0.05 * (i - 59) / 30.0);
    struct hb_history_series s =
        plant("n03", "lat cpu0 mem0", "latency", 0, level, 90, 5, 0.02, 7, NULL, NULL);
    struct hb_changepoint_params p = hb_changepoint_defaults();
    p.min_change = 3.0;
    struct hb_changepoint *c;
    size_t n;
    CHECK_INT(hb_changepoint_find(&s, 1, &p, &c, &n, NULL), 0);
    show(&s, c, n);
    size_t creeps = 0;
    for (size_t i = 0; i < n; i++) {
        if (!c[i].creep) continue;
        creeps++;
        CHECK(c[i].worse && c[i].change_pct > 3.0 && c[i].change_pct < 6.0);
        CHECK(c[i].at >= 80 && c[i].after_to == 90 && c[i].before_from == 0);
        CHECK(c[i].before_to >= 60 && c[i].before_to <= 80);
        CHECK(c[i].p_adjusted < 0.05);
    }
    CHECK_INT(creeps, 1);
    hb_changepoint_free(c, n);
    plant_free(&s);
}

/* (c) THP set to never on night 60: latency +12%, the knob named. */
static void thp(void)
{
    double level[90];
    const char *configs[90];
    for (int i = 0; i < 90; i++) {
        level[i] = i < 59 ? 95.0 : 95.0 * 1.12;
        configs[i] = i < 59 ? "{\"governor\": \"performance\", \"thp_enabled\": \"always\"}"
                            : "{\"governor\": \"performance\", \"thp_enabled\": \"never\"}";
    }
    struct hb_history_series s =
        plant("n11", "lat cpu0 mem1", "latency", 0, level, 90, 5, 0.03, 60, configs, NULL);
    struct hb_changepoint_params p = hb_changepoint_defaults();
    struct hb_changepoint *c;
    size_t n;
    CHECK_INT(hb_changepoint_find(&s, 1, &p, &c, &n, NULL), 0);
    show(&s, c, n);
    HB_EXPECT(n == 1, "%zu change points, want 1", n);
    CHECK_INT(c[0].at, 59);
    CHECK(c[0].worse && !c[0].version_changed);
    CHECK_INT(c[0].n_knobs, 1);
    if (c[0].n_knobs == 1) CHECK_STR(c[0].knobs[0], "thp_enabled");
    hb_changepoint_free(c, n);

    /* a config that is not an object: one line naming the series */
    configs[59] = "[1, 2]";
    struct hb_history_series bad =
        plant("n11", "lat cpu0 mem1", "latency", 0, level, 90, 5, 0.03, 60, configs, NULL);
    CHECK_INT(hb_changepoint_find(&bad, 1, &p, &c, &n, NULL), -EINVAL);
    CHECK_HAS(hb_error_msg(), "n11 lat cpu0 mem1 latency");
    CHECK_HAS(hb_error_msg(), "not a JSON object");
    plant_free(&bad);
    plant_free(&s);
}

/* (d) 200 flat series of 90 nights at the VM's noise, quiet and loaded. Every hypothesis is
 * null, so BH at q = 0.05 bounds the chance of any change point at all by 0.05: more than one
 * is a fault. Also without --min-change, the test's p alone. */
static void flat(void)
{
    enum { SERIES = 200, NIGHTS = 90 };
    static struct hb_history_series s[SERIES];
    double level[NIGHTS];
    for (int i = 0; i < NIGHTS; i++)
        level[i] = 12.0;
    for (size_t v = 0; v < sizeof(vm_noise) / sizeof(vm_noise[0]); v++) {
        for (int k = 0; k < SERIES; k++)
            s[k] = plant("flat", "bw", "bandwidth", k % 2, level, NIGHTS, 5, vm_noise[v],
                         1000 + (uint64_t)k, NULL, NULL);
        struct hb_changepoint_params p = hb_changepoint_defaults();
        struct hb_changepoint *c;
        size_t n, tested;
        for (int pass = 0; pass < 2; pass++) {
            p.min_change = pass ? 0.0 : p.min_change;
            CHECK_INT(hb_changepoint_find(s, SERIES, &p, &c, &n, &tested), 0);
            show(s, c, n);
            fprintf(stderr, "flat at %.1f%% noise, min-change %g: %zu change points, family %zu\n",
                    vm_noise[v] * 100, p.min_change, n, tested);
            CHECK(n <= 1);
            CHECK(tested >= SERIES);
            hb_changepoint_free(c, n);
        }
        for (int k = 0; k < SERIES; k++)
            plant_free(&s[k]);
    }
}

/* Bad params: one line naming the value and what is valid. */
static void params(void)
{
    struct hb_changepoint_params p = hb_changepoint_defaults();
    CHECK_INT(p.window, 50);
    CHECK_WITHIN(p.min_change, 5.0, 0.0);
    struct hb_changepoint *c;
    size_t n;
    p.window = 3;
    CHECK_INT(hb_changepoint_find(NULL, 0, &p, &c, &n, NULL), -EINVAL);
    CHECK_HAS(hb_error_msg(), "--window 3");
    p = hb_changepoint_defaults();
    p.fdr = 0.9;
    CHECK_INT(hb_changepoint_find(NULL, 0, &p, &c, &n, NULL), -EINVAL);
    CHECK_HAS(hb_error_msg(), "--fdr 0.9");
}

int main(void)
{
    step();
    creep();
    thp();
    flat();
    params();
    return hb_check_result();
}
