/* Command-line options, parsed on every rank (argv is the same everywhere). */
#ifndef HB_OPTIONS_H
#define HB_OPTIONS_H

#include "hb_chase.h"
#include "hb_coll_op.h"
#include "hb_format.h"
#include "hb_placement.h"

#include <hwloc.h>
#include <stdbool.h>
#include <stdint.h>

/* --repeat's largest value. */
#define HB_MAX_REPEATS 1000
#define HB_MAX_THREADS 4096
/* comm's message sizes from 8 B to 2 GiB in x2 steps are 29. */
#define HB_MAX_SIZE_LIST 32
/* bw --policy weighted: nodes of --mem-node's list and --weights (the kernel's MAX_NUMNODES
 * is at most 1024). */
#define HB_MAX_WEIGHTED 1024

/* Special values of hb_options.c2c_home (--home writer|reader); any other is a node. */
#define HB_C2C_HOME_WRITER (-1)
#define HB_C2C_HOME_READER (-2)

struct hb_options {
    char command[16];  /* "" = default suite */
    char kernels[256]; /* comma-separated; "" = the command's default */
    int cpu_node;      /* -1 = the command's default */
    int mem_node;      /* -1 = the command's default */
    bool policy_set;
    enum hb_policy policy; /* bw: bind (default), interleave, firsttouch, weighted */
    /* --mem-node's nodes in the order given (one: mem_node too; a list: --policy weighted's
     * set, mem_node -1) and --weights' weights in the same order, 1..255 each */
    int mem_nodes[HB_MAX_WEIGHTED];
    int nmem_nodes;
    int weights[HB_MAX_WEIGHTED];
    int nweights;
    bool weights_auto;        /* policy --weights auto: the weight search */
    uint64_t given;           /* the options given: bit (id - OPT_KERNEL) of enum hb_opt_id */
    int threads;              /* 0 = every core of the node */
    const char *threads_from; /* where threads came from, as messages name it: "--threads "
                                 or "OMP_NUM_THREADS=" (OpenMP's variable means the same) */
    uint64_t size;            /* 0 = default for the machine; a list's largest */
    uint64_t sizes[HB_MAX_SIZE_LIST]; /* --size's values, ascending (comm's message sizes) */
    int nsizes;                       /* 1 unless --size gave a list; 0: not given */
    double min_time_s;
    double max_time_s; /* balance: longest wait for the pages to converge; --repeat auto:
                          the run's time, when given */
    int reps;
    int repeats;      /* independent repeats of each measurement; auto's most */
    bool repeat_auto; /* --repeat auto[:MAX]: repeat until every figure is clear */
    double noise_pct; /* a figure is noisy past this interval half-width */
    enum hb_format format;
    char output[4096]; /* "" = stdout */
    bool dry_run;
    char topology[4096]; /* "" = this machine */
    uint64_t seed;
    bool quiet;
    bool progress;
    enum hb_pages pages;
    char simd[16]; /* "" = best for this CPU */
    bool allow_misplaced;
    double threshold_pct; /* matrix: same-class spread flag */
    /* matrix: a host this much worse than the fleet's median is flagged */
    double fleet_threshold_pct;
    bool quick;                 /* hops, loaded: the representative subset */
    double tolerance_pct;       /* hops: myth 1 holds while a hop class spreads less */
    double bg_rate_GBps;        /* hops/run: per-thread rate of level very-high; 0 = measured */
    unsigned level_mask;        /* hops: bit i = hb_options_bg_level_names[i] given; 0 = default */
    unsigned subscription_mask; /* hops: bit i = hb_options_subscription_names[i]; 0 = default */
    unsigned op_mask;           /* coll: bit i = hb_coll_op_names[i] given; 0 = every op */
    int root;                   /* coll: the root rank of rooted ops; -1 = each node's in turn */
    bool clean_buffers;         /* coll: the send buffer is not rewritten between iterations */
    int bg; /* comm --bg: hb_options_bg_level_names index - 1 (low = 0); -1 = no load */
    /* loaded, comm --bg: the nodes of --load-nodes in the order given (none = every CPU node
     * taking part) and the list as written, for messages; 4095 characters hold at most 2048
     * numbers. */
    int load_nodes[2048];
    int nload_nodes;
    char load_nodes_text[4096];
    /* cross-node suites: --nodes parsed (OS indexes; NULL = every node, hb_cli_options_free)
     * and as written, for messages */
    hwloc_bitmap_t nodes;
    char nodes_text[4096];
    int mix;            /* loaded: hb_options_mix_names index (read, write, 2:1) */
    char operand[4096]; /* a suite's operand (run: the scenario FILE) */
    bool intensity;     /* policy: the flops-per-byte study instead of the workloads */
    int mode;           /* policy: hb_options_mode_names index (rate, single); -1 = both */
    uint64_t max_size;  /* sweep: largest working set; 0 = 2 GiB */
    uint64_t strides[HB_CHASE_MAX_STRIDES]; /* chase: bytes per visited line, in order */
    int nstrides;                           /* 1 unless --stride gave a list (lat, sweep) */
    int chains[HB_CHASE_MAX_STRIDES];       /* chase: independent chases per thread, in order */
    int nchains;                            /* 1 unless --chains gave a list */
    uint64_t tlb_group;                     /* chase: TLB group bytes or HB_CHASE_GROUP_ALL */
    bool c2c_cores;                         /* c2c: the core x core matrix too */
    int c2c_home;            /* c2c: HB_C2C_HOME_WRITER (default) / _READER, or a node */
    char baseline[4096];     /* check: the run it judges against; "" = none */
    char history[4096];      /* check: the run history's URL; "" = none */
    char export_hwloc[4096]; /* matrix: hwloc XML with the measured matrix; "" = none */
    char tier[32];           /* policy: memory kind of the remote node; "" = the CPU node's */
    /* argv as a shell line that re-runs it (hb_escape_sh_line: quoted where a word needs it,
     * $'\xNN' for bytes that are not UTF-8), any length; hb_cli_options_free frees it. NULL until
     * parsed. */
    char *command_line;
    /* In command_line: the space that ends argv[0]'s word, the arguments after it (NULL when
     * there are none); argv[0] may hold a quoted space, so strchr(command_line, ' ') may not
     * find this one. */
    const char *command_argv0_end;
};

/* Parse argv into o. Returns 0; 1 when --help (-h) was asked for anywhere, whatever else
 * argv holds (o->command: the first operand, "" for none; the caller prints its help);
 * 2 when --version was printed; or -EINVAL with
 * hb_error_msg() naming the offending argument and what is valid. Whatever it returns,
 * hb_cli_options_free(o) releases what it holds. */
int hb_cli_options_parse(int argc, char **argv, struct hb_options *o);
void hb_cli_options_free(struct hb_options *o);

/* Value names of --level (index 0 "idle": no load), --subscription and --mix, NULL-ended. */
extern const char *const hb_options_bg_level_names[];
extern const char *const hb_options_subscription_names[];
extern const char *const hb_options_mix_names[];
extern const char *const hb_options_mode_names[];

/* Names of the commands this build knows ("topo, bw, lat, matrix, ..."), for messages. */
const char *hb_cli_options_commands(void);

#endif
