/* Scenario files for `hopbench run FILE`: one experiment per block, in 40555's labels.
 *
 *     # comment
 *     experiment crossfire-0-1
 *     fg 0.0.w.1
 *     fg 1.0.w.0 size=64M
 *     bg 2.*.r.2 level=high
 *
 * A task line is `fg` or `bg`, a label node.thread.access.memnode (thread `*` = every CPU
 * of the node not taken by an earlier line of the experiment; access r, w or rw = kernels
 * read, write, copy) and optional key=value words: kernel=NAME, size=SIZE (working set of
 * the task, per thread for `*`), level=low|medium|high|very-high (bg), rate=GBPS (bg, per
 * thread; 0 = unpaced). Parsing knows no topology: nodes are checked when the plan is made.
 *
 * Rules, each refused (exit 2) with one line "FILE:LINE:COL: ..." naming the value and what
 * would be valid:
 * - Each experiment has a NAME of its own: it is the identity of its records, and a second
 *   one would merge two experiments' results. The repeat is refused at its name, naming the
 *   line that first defined it ("t.scn:6:12: experiment a is already defined at line 1").
 * - The access is what the task does and what its records' label says. Without kernel= it
 *   chooses the kernel (r read, w write, rw copy); with kernel= it must be that kernel's own
 *   access (r: read, chase, intensity; w: write, write-nt; rw: the kernels that read and
 *   write, copy, triad, memcpy, gups...), so `fg 0.0.w.1 kernel=read` is refused at the w:
 *   "expected access r for kernel=read, which only reads, got 'w'".
 * - size= is per thread (a `*` line's task has it times its threads). A size is refused by
 *   the parser as --size is (at the value: "size '1e400' is too large: it must be less than
 *   16 EiB"); when the plan refuses it (too small for the kernel or its threads' slices, one
 *   --stride per thread, the node's free memory: exit 3, 16 EiB once times the threads), the
 *   message starts with the line and the value that set it, "t.scn:3:17: size=1000", or
 *   "t.scn:3:4: --size 1000" / "the default size of 64 MiB" for a line without size=, and
 *   gives the sizes that would work per thread. */
#ifndef HB_SCENARIO_H
#define HB_SCENARIO_H

#include "hb_plan.h"

#include <stddef.h>
#include <stdint.h>

struct hb_scn_task {
    bool bg;
    int node, thread; /* thread -1 = `*` */
    char access[4];
    int mem_node;
    char kernel[24];    /* "" = from access */
    uint64_t size;      /* 0 = the default */
    int level;          /* hb_options_bg_level_names index, 0 = none given */
    double rate;        /* GB/s per thread, < 0 = none given */
    int line, col;      /* of the label, for messages */
    int access_col;     /* of the access letters */
    int size_col;       /* of the size= value (0: none given) */
    char size_text[64]; /* the size as written, for messages: "64M" */
};

struct hb_scn_exp {
    char name[HB_NAME_LEN];
    int line;
    int ntasks, task_cap;
    struct hb_scn_task *tasks; /* as many lines as the file gives */
};

struct hb_scenario {
    char file[256];
    int n, cap;
    struct hb_scn_exp *exps;
    int *names, names_cap; /* the experiments by name (index + 1, 0 = free), for repeats */
};

/* Parse `len` bytes of text (need not end in NUL). Returns 0, -EINVAL with
 * "FILE:LINE:COL: expected ..., got '...'" in hb_error_msg(), or -ENOMEM. `file` names the
 * text in messages. Free with hb_run_scenario_free() whatever it returns. */
int hb_run_scenario_parse(const char *file, const char *text, size_t len, struct hb_scenario *out);

/* Read and parse a file: as hb_run_scenario_parse, plus -ENOENT/-EACCES/-EISDIR... naming it. */
int hb_run_scenario_load(const char *path, struct hb_scenario *out);

void hb_run_scenario_free(struct hb_scenario *s);

#endif
