#include "hb_options.h"

#include "hb_error.h"
#include "hb_size.h"
#include "hb_version.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const hb_commands[] = {"topo", "bw", "lat", "matrix", NULL};

const char *hb_options_commands(void) { return "topo, bw, lat, matrix, report, compare"; }

enum {
    OPT_KERNEL = 256,
    OPT_CPU_NODE,
    OPT_MEM_NODE,
    OPT_POLICY,
    OPT_THREADS,
    OPT_SIZE,
    OPT_MIN_TIME,
    OPT_REPS,
    OPT_FORMAT,
    OPT_DRY_RUN,
    OPT_TOPOLOGY,
    OPT_SEED,
    OPT_QUIET,
    OPT_PROGRESS,
    OPT_PAGES,
    OPT_SIMD,
    OPT_ALLOW_MISPLACED,
    OPT_THRESHOLD,
    OPT_HELP,
    OPT_VERSION,
};

static const struct option hb_long_options[] = {
    {"kernel", required_argument, NULL, OPT_KERNEL},
    {"cpu-node", required_argument, NULL, OPT_CPU_NODE},
    {"mem-node", required_argument, NULL, OPT_MEM_NODE},
    {"policy", required_argument, NULL, OPT_POLICY},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"size", required_argument, NULL, OPT_SIZE},
    {"min-time", required_argument, NULL, OPT_MIN_TIME},
    {"reps", required_argument, NULL, OPT_REPS},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"output", required_argument, NULL, 'o'},
    {"dry-run", no_argument, NULL, OPT_DRY_RUN},
    {"topology", required_argument, NULL, OPT_TOPOLOGY},
    {"seed", required_argument, NULL, OPT_SEED},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"progress", no_argument, NULL, OPT_PROGRESS},
    {"pages", required_argument, NULL, OPT_PAGES},
    {"simd", required_argument, NULL, OPT_SIMD},
    {"allow-misplaced", no_argument, NULL, OPT_ALLOW_MISPLACED},
    {"threshold", required_argument, NULL, OPT_THRESHOLD},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

static void hb_usage(void)
{
    printf("usage: hopbench [COMMAND] [OPTIONS]\n"
           "       mpirun -np <nodes> --map-by numa --bind-to numa hopbench [COMMAND] ...\n\n"
           "commands:\n"
           "  (none)   quick default suite: topology, latency, bandwidth of every kernel\n"
           "  topo     nodes, CPUs, memory, distances, hop classes and the launch lines\n"
           "  bw       bandwidth of --kernel on --cpu-node to --mem-node or --policy\n"
           "  lat      idle pointer-chase latency from --cpu-node to --mem-node\n"
           "  matrix   latency and bandwidth for every CPU node x memory node\n"
           "  report   RESULTS.jsonl... -o report.html\n"
           "  compare  BASE.jsonl NEW.jsonl\n\n"
           "options:\n"
           "  --kernel K[,K]     kernels (see below)\n"
           "  --cpu-node N       node whose CPUs run the threads (default: first CPU node)\n"
           "  --mem-node N       node that holds the memory (default: the CPU node)\n"
           "  --policy P         bind | interleave | firsttouch (default bind)\n"
           "  --threads N        threads (default: every core of the node)\n"
           "  --size S           working set, e.g. 64M, 1GiB (default: 4x last-level cache,\n"
           "                     capped; the run record says where the size came from)\n"
           "  --pages P          4k | thp | huge (hugetlbfs 2 MiB)\n"
           "  --min-time SEC     least time per sample (default 0.1)\n"
           "  --reps N           kept samples per measurement (default 5)\n"
           "  --format F         table | csv | jsonl (default table)\n"
           "  -o, --output FILE  write results to FILE (default stdout)\n"
           "  --dry-run          print the plan as JSON Lines, run nothing\n"
           "  --topology FILE    plan for an hwloc XML topology (only topo and --dry-run)\n"
           "  --seed N           seed for random permutations (default 1)\n"
           "  --simd PATH        auto | avx512 | avx2 | sse2 | c\n"
           "  --allow-misplaced  report pages off target instead of failing\n"
           "  --threshold PCT    matrix: flag same-class pairs differing more (default 5)\n"
           "  --quiet            no progress or notes on stderr\n"
           "  --progress         progress on stderr even when it is not a terminal\n"
           "  --help, --version\n\n"
           "kernels:\n");
}

static int hb_parse_int(const char *opt, const char *text, long lo, long hi, const char *what,
                        int *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi) {
        hb_err_set("invalid %s '%s': expected %s", opt, text, what);
        return -EINVAL;
    }
    *out = (int)v;
    return 0;
}

static int hb_parse_double(const char *opt, const char *text, double lo, double hi,
                           const char *what, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !(v >= lo && v <= hi)) {
        hb_err_set("invalid %s '%s': expected %s", opt, text, what);
        return -EINVAL;
    }
    *out = v;
    return 0;
}

static int hb_copy_arg(const char *opt, const char *text, char *dst, size_t len)
{
    if (strlen(text) >= len || !*text) {
        hb_err_set("invalid %s '%s': expected a non-empty value of at most %zu characters", opt,
                   text, len - 1);
        return -EINVAL;
    }
    snprintf(dst, len, "%s", text);
    return 0;
}

static int hb_parse_enum(const char *opt, const char *text, const char *const *names, int *out)
{
    char valid[256] = "";
    for (int i = 0; names[i]; i++) {
        if (strcmp(text, names[i]) == 0) {
            *out = i;
            return 0;
        }
        size_t l = strlen(valid);
        snprintf(valid + l, sizeof(valid) - l, "%s%s", i ? ", " : "", names[i]);
    }
    hb_err_set("invalid %s '%s': valid values are %s", opt, text, valid);
    return -EINVAL;
}

static void hb_join_argv(int argc, char **argv, char *dst, size_t len)
{
    size_t used = 0;
    dst[0] = '\0';
    for (int i = 0; i < argc && used < len; i++) {
        int n = snprintf(dst + used, len - used, "%s%s", i ? " " : "", argv[i]);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

static int hb_option_apply(struct hb_options *o, int c, const char *arg)
{
    static const char *const policies[] = {"bind", "interleave", "firsttouch", NULL};
    static const char *const formats[] = {"table", "csv", "jsonl", NULL};
    int v = 0, rc = 0;
    switch (c) {
    case OPT_KERNEL:
        return hb_copy_arg("--kernel", arg, o->kernels, sizeof(o->kernels));
    case OPT_CPU_NODE:
        return hb_parse_int("--cpu-node", arg, 0, INT_MAX, "a node number (see hopbench topo)",
                            &o->cpu_node);
    case OPT_MEM_NODE:
        return hb_parse_int("--mem-node", arg, 0, INT_MAX, "a node number (see hopbench topo)",
                            &o->mem_node);
    case OPT_POLICY:
        rc = hb_parse_enum("--policy", arg, policies, &v);
        o->policy = (enum hb_policy)v;
        o->policy_set = true;
        return rc;
    case OPT_THREADS:
        return hb_parse_int("--threads", arg, 1, 4096, "a thread count of at least 1",
                            &o->threads);
    case OPT_SIZE:
        return hb_size_parse(arg, &o->size);
    case OPT_MIN_TIME:
        return hb_parse_double("--min-time", arg, 0.0, 3600.0, "seconds between 0 and 3600",
                               &o->min_time_s);
    case OPT_REPS:
        return hb_parse_int("--reps", arg, 1, 1000, "a repetition count from 1 to 1000",
                            &o->reps);
    case OPT_FORMAT:
        rc = hb_parse_enum("--format", arg, formats, &v);
        o->format = (enum hb_format)v;
        return rc;
    case 'o':
        return hb_copy_arg("--output", arg, o->output, sizeof(o->output));
    case OPT_DRY_RUN:
        o->dry_run = true;
        return 0;
    case OPT_TOPOLOGY:
        return hb_copy_arg("--topology", arg, o->topology, sizeof(o->topology));
    case OPT_SEED: {
        char *end = NULL;
        errno = 0;
        unsigned long long s = strtoull(arg, &end, 0);
        if (errno || end == arg || *end || *arg == '-') {
            hb_err_set("invalid --seed '%s': expected a non-negative integer", arg);
            return -EINVAL;
        }
        o->seed = s;
        return 0;
    }
    case OPT_QUIET:
        o->quiet = true;
        return 0;
    case OPT_PROGRESS:
        o->progress = true;
        return 0;
    case OPT_PAGES:
        return hb_pages_parse(arg, &o->pages);
    case OPT_SIMD:
        return hb_copy_arg("--simd", arg, o->simd, sizeof(o->simd));
    case OPT_ALLOW_MISPLACED:
        o->allow_misplaced = true;
        return 0;
    case OPT_THRESHOLD:
        return hb_parse_double("--threshold", arg, 0.0, 1000.0, "a percentage from 0 to 1000",
                               &o->threshold_pct);
    default:
        return -EINVAL;
    }
}

int hb_options_parse(int argc, char **argv, struct hb_options *o)
{
    memset(o, 0, sizeof(*o));
    o->cpu_node = -1;
    o->mem_node = -1;
    o->min_time_s = 0.1;
    o->reps = 5;
    o->seed = 1;
    o->threshold_pct = 5.0;
    hb_join_argv(argc, argv, o->command_line, sizeof(o->command_line));

    int first = 1;
    if (argc > 1 && argv[1][0] != '-') {
        int known = 0;
        for (int i = 0; hb_commands[i]; i++)
            known |= strcmp(argv[1], hb_commands[i]) == 0;
        if (!known) {
            hb_err_set("unknown command '%s': valid commands are %s", argv[1],
                       hb_options_commands());
            return -EINVAL;
        }
        snprintf(o->command, sizeof(o->command), "%s", argv[1]);
        first = 2;
    }
    int sub_argc = argc - first + 1;
    char **sub_argv = argv + first - 1;
    optind = 1;
    opterr = 0;
    for (;;) {
        int prev = optind;
        int c = getopt_long(sub_argc, sub_argv, ":o:", hb_long_options, NULL);
        if (c == -1)
            break;
        const char *word = sub_argv[prev < sub_argc ? prev : sub_argc - 1];
        if (c == '?') {
            hb_err_set("unknown option '%s'; see hopbench --help", word);
            return -EINVAL;
        }
        if (c == ':') {
            hb_err_set("option '%s' needs a value; see hopbench --help", word);
            return -EINVAL;
        }
        if (c == OPT_HELP) {
            hb_usage();
            return 1;
        }
        if (c == OPT_VERSION) {
            printf("hopbench %s (git %s)\n", HB_VERSION, HB_GIT_SHA);
            return 2;
        }
        int rc = hb_option_apply(o, c, optarg);
        if (rc)
            return rc == -ERANGE ? -EINVAL : rc;
    }
    if (optind < sub_argc) {
        hb_err_set("unexpected argument '%s'%s; see hopbench --help", sub_argv[optind],
                   o->command[0] ? "" : " (commands come first)");
        return -EINVAL;
    }
    return 0;
}
