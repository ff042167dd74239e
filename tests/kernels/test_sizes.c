/* The plan check's message for a size that does not lay out, against every size around it:
 * whatever it says works does (the nearest size below, the nearest above, every size from
 * the one it names), nothing between them does, and "too small" only when nothing smaller
 * works. Slices start on 4 KiB pages, so the sizes that work are not one range once a task
 * has 3 threads or a kernel needs a least slice (chase: one stride; dgemm: one product). */
#include "../hb_check.h"
#include "hb_chase.h"
#include "hb_error.h"
#include "hb_plan.h"
#include "hb_team.h"
#include "hb_topo.h"

#include <stdbool.h>

static struct hb_topo *topo;

/* 0, or the plan check's error with its message in msg. */
static int check(const char *kernel, int threads, uint64_t bytes, uint64_t stride, char *msg,
                 size_t len)
{
    struct hb_experiment e = {.reps = 1};
    snprintf(e.name, sizeof(e.name), "sizes");
    struct hb_task *t = hb_plan_experiment_task(&e);
    HB_EXPECT(t != NULL, "out of memory");
    t->cpu_node = topo->nodes[0].os_index;
    t->threads = threads;
    snprintf(t->kernel, sizeof(t->kernel), "%s", kernel);
    t->policy = HB_POLICY_BIND;
    t->mem_node = topo->nodes[0].os_index;
    t->bytes = bytes;
    t->chase_stride = stride;
    t->chase_group_bytes = stride ? HB_CHASE_GROUP_ALL : 0;
    snprintf(t->label, sizeof(t->label), "0.0.r.0");
    struct hb_plan plan = {.n = 1, .cap = 1, .exps = &e};
    hb_error_clear();
    int rc = hb_team_tasks_plan_check(topo, &plan);
    snprintf(msg, len, "%s", hb_error_msg());
    hb_plan_experiment_clear(&e);
    return rc;
}

/* The number after `key` in msg, 0 when key is not there. */
static uint64_t after(const char *msg, const char *key)
{
    const char *p = strstr(msg, key);
    return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

/* Sizes 1..top of a kernel with `streams` arrays and a thread count: every `step`th refused
 * one's message against the truth. A size's elements per array are whole groups of 8, so
 * sizes in one group of 64 x streams bytes lay out alike: the truth is checked once a group. */
static void sweep(const char *kernel, int streams, int threads, uint64_t stride, uint64_t top,
                  uint64_t step)
{
    char msg[1024];
    uint64_t group = 64 * (uint64_t)streams, ngroups = top / group + 2;
    bool *okg = calloc(ngroups, sizeof(*okg));
    HB_EXPECT(okg != NULL, "out of memory");
    for (uint64_t g = 0; g < ngroups; g++)
        okg[g] = g > 0 && check(kernel, threads, g * group, stride, msg, sizeof(msg)) == 0;
#define OK(s) okg[(s) / group]
    HB_EXPECT(OK(top) && OK(top + 1), "%s x%d: %" PRIu64 " bytes do not lay out", kernel, threads,
              top);
    uint64_t f = top / group * group; /* where every size up to top works */
    while (f >= group && OK(f - 1))
        f -= group;
    int refused = 0;
    for (uint64_t s = 1; s <= top; s += step) {
        int rc = check(kernel, threads, s, stride, msg, sizeof(msg));
        HB_EXPECT((rc == 0) == OK(s), "%s x%d size %" PRIu64 ": not as its group: %s", kernel,
                  threads, s, msg);
        if (rc == 0) continue;
        refused++;
        CHECK_INT(rc, -22);
        char head[96];
        snprintf(head, sizeof(head), "size %" PRIu64 " %s ", s, s == 1 ? "byte" : "bytes");
        HB_EXPECT(strncmp(msg, head, strlen(head)) == 0, "%s", msg);
        /* The nearest below: works, nothing between it and s does. */
        uint64_t below = after(msg, "the nearest sizes that work are ");
        if (!below && strstr(msg, " works, as does every size from "))
            below = strtoull(strrchr(msg, ';') + 2, NULL, 10);
        uint64_t g = s / group, b = 0;
        while (g > 0 && !okg[--g])
            ;
        if (okg[g]) b = (g + 1) * group - 1; /* the last size of the group below that works */
        HB_EXPECT(below == b, "%s x%d size %" PRIu64 ": below %" PRIu64 ", true %" PRIu64 ": %s",
                  kernel, threads, s, below, b, msg);
        HB_EXPECT((strstr(msg, " is too small for ") != NULL) == (b == 0), "%s", msg);
        /* The nearest above. */
        uint64_t a = (s / group + 1) * group;
        while (!OK(a))
            a += group;
        uint64_t from = after(msg, "every size from ");
        uint64_t above = after(msg, "it needs at least ");
        if (!above && below) {
            char key[64];
            snprintf(key, sizeof(key), "are %" PRIu64 " and ", below);
            above = after(msg, key);
        }
        if (!above) above = from;
        HB_EXPECT(above == a, "%s x%d size %" PRIu64 ": above %" PRIu64 ", true %" PRIu64 ": %s",
                  kernel, threads, s, above, a, msg);
        /* Every size from `from` works and the one before it does not. */
        if (!from) from = above; /* "it needs at least N": N is where it all works */
        HB_EXPECT(from == f,
                  "%s x%d size %" PRIu64 ": every size from %" PRIu64 ", true %" PRIu64 ": %s",
                  kernel, threads, s, from, f, msg);
    }
#undef OK
    HB_EXPECT(refused > 0, "%s x%d: nothing refused", kernel, threads);
    free(okg);
}

int main(void)
{
    char path[512], msg[1024];
    snprintf(path, sizeof(path), "%s/1n-single.xml", HB_FIXTURES); /* 8 CPUs on one node */
    CHECK_INT(hb_topo_load(path, &topo), 0);
    if (!topo) return 1;

    /* The examples the messages are written for. */
    check("read", 2, 4097, 0, msg, sizeof(msg));
    CHECK_STR(msg, "size 4097 bytes is too small for 2 threads of kernel read: each thread's "
                   "slice of an array starts on a 4 KiB page, which leaves the last thread no "
                   "data; it needs at least 4160 bytes");
    CHECK_INT(check("read", 2, 4160, 0, msg, sizeof(msg)), 0);
    CHECK_INT(check("read", 2, 4159, 0, msg, sizeof(msg)), -22);
    check("read", 3, 12352, 0, msg, sizeof(msg));
    CHECK_STR(msg, "size 12352 bytes cannot be laid out for 3 threads of kernel read: each "
                   "thread's slice of an array starts on a 4 KiB page, which leaves the last "
                   "thread no data; 12351 bytes works, as does every size from 16448 bytes");
    check("read", 1, 63, 0, msg, sizeof(msg));
    CHECK_STR(msg, "size 63 bytes is too small for kernel read: its array needs a whole 64-byte "
                   "line; it needs at least 64 bytes");
    check("chase", 2, 10240, 4096, msg, sizeof(msg));
    CHECK_STR(msg, "size 10240 bytes cannot be laid out for 2 threads of kernel chase: kernel "
                   "chase needs at least one stride of 4096 bytes per thread, but the slice "
                   "holds 2048 bytes; 8255 bytes works, as does every size from 12288 bytes");

    /* Every size up to where all work, for the shapes that make gaps: 2 to 8 threads, the
     * short count (hb_check_short) 2 and 8. */
    sweep("read", 1, 1, 0, 200, 1);
    sweep("copy", 2, 1, 0, 400, 1);
    for (int t = 2; t <= 8; t += hb_check_short() ? 6 : 1) {
        uint64_t t1 = (uint64_t)(t - 1) * (uint64_t)(t - 1);
        sweep("read", 1, t, 0, 4096 * t1 + 4096, 23);
        sweep("triad", 3, t, 0, 12288 * t1 + 12288, 37);
        sweep("chase", 1, t, 4096, (uint64_t)4096 * (uint64_t)(t + 1) * (uint64_t)(t + 1), 29);
    }
    sweep("dgemm", 3, 2, 0, (uint64_t)3 * 8 * 16384 * 4, 1009);
    hb_topo_load_free(topo);
    return hb_check_result();
}
