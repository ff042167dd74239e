/* The run's command line: argv parsed against the option table (hb_cli_doc.c) into struct
 * hb_options, every value checked where it is read, and each option checked against what its
 * command takes. */
#include "hb_options.h"

#include "hb_args.h"
#include "hb_cli_doc.h"
#include "hb_option_values.h"
#include "hb_error.h"
#include "hb_escape.h"
#include "hb_launcher.h"
#include "hb_rounds.h"
#include "hb_bytes.h"
#include "hb_suite.h"
#include "hb_version.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "bw, lat, ..., export" from the suite and command tables, for messages; built once (the
 * commands alone when out of memory). */
const char *hb_cli_options_commands(void)
{
    static char *list;
    size_t len = 0;
    struct hb_cmd_doc c;
    if (list) return list;
    for (size_t i = 0; hb_cli_doc_command_at(i, &c); i++)
        len += strlen(c.name) + 2;
    if (!(list = calloc(len + 1, 1))) return "see hopbench --help";
    for (size_t i = 0; hb_cli_doc_command_at(i, &c); i++)
        if (c.name[0]) {
            if (list[0]) strcat(list, ", ");
            strcat(list, c.name);
        }
    return list;
}

/* getopt_long's long and short option tables, built once from the option table; false
 * when out of memory. */
/* An option given a second time: refused, naming both values (a flag: its name alone). */
static int twice(const struct option *longopts, int c, const char *first, const char *second)
{
    const char *name = "?";
    for (const struct option *l = longopts; l->name; l++)
        if (l->val == c) name = l->name;
    if (first && second)
        hb_error_set("--%s given twice ('%s', then '%s'); give it once", name, first, second);
    else
        hb_error_set("--%s given twice; give it once", name);
    return -EINVAL;
}

static bool getopt_tables(const struct option **longopts, const char **shortopts)
{
    static struct option *opts;
    static char *shorts;
    if (!opts) {
        size_t n = 0;
        while (hb_opt_docs[n].name)
            n++;
        opts = calloc(n + 1, sizeof(*opts));
        shorts = calloc(2 * n + 2, 1); /* ":" and at most "x:" per option */
        if (!opts || !shorts) {
            free(opts);
            free(shorts);
            opts = NULL;
            return false;
        }
        char *p = shorts;
        *p++ = ':';
        for (size_t i = 0; i < n; i++) {
            const struct hb_opt_doc *d = &hb_opt_docs[i];
            opts[i] =
                (struct option){d->name, d->arg ? required_argument : no_argument, NULL, d->id};
            if (!d->short_name) continue;
            *p++ = d->short_name;
            if (d->arg) *p++ = ':';
        }
    }
    *longopts = opts;
    *shortopts = shorts;
    return true;
}

/* A suite, or a command that takes these options (topo). */
static bool command_known(const char *name)
{
    if (name[0] && hb_suite_find(name)) return true;
    for (const struct hb_cmd_doc *c = hb_cli_doc_commands; c->name; c++)
        if (!c->main && strcmp(c->name, name) == 0) return true;
    return false;
}

/* The options that only store their value in one field of struct hb_options, by shape: a
 * flag, a string, a bounded integer or number, a size, a name of a list or a set of names. */
enum hb_opt_shape {
    HB_SET_FLAG,
    HB_SET_TEXT,
    HB_SET_INT,
    HB_SET_REAL,
    HB_SET_SIZE,
    HB_SET_NAME,
    HB_SET_NAMES
};

struct hb_opt_field {
    int id;          /* enum hb_opt_id or the short name */
    const char *opt; /* as messages name it */
    enum hb_opt_shape shape;
    size_t offset, len;       /* the field; len: HB_SET_TEXT's buffer */
    double lo, hi;            /* HB_SET_INT, HB_SET_REAL: the valid range */
    const char *what;         /* HB_SET_INT, HB_SET_REAL: what is valid, for messages */
    const char *const *names; /* HB_SET_NAME, HB_SET_NAMES: the values, NULL-ended */
    int first;                /* HB_SET_NAMES: the mask bit of names[0] */
};

#define HB_OPT_AT(m) .offset = offsetof(struct hb_options, m)
#define HB_OPT_TEXT(m) HB_OPT_AT(m), .len = sizeof(((struct hb_options *)0)->m)
#define HB_OPT_RANGE(l, h, w) .lo = (l), .hi = (h), .what = (w)
#define HB_OPT_PERCENT HB_OPT_RANGE(0.0, 1000.0, "a percentage from 0 to 1000")

static const struct hb_opt_field opt_fields[] = {
    {OPT_DRY_RUN, "--dry-run", HB_SET_FLAG, HB_OPT_AT(dry_run)},
    {OPT_QUIET, "--quiet", HB_SET_FLAG, HB_OPT_AT(quiet)},
    {OPT_PROGRESS, "--progress", HB_SET_FLAG, HB_OPT_AT(progress)},
    {OPT_ALLOW_MISPLACED, "--allow-misplaced", HB_SET_FLAG, HB_OPT_AT(allow_misplaced)},
    {OPT_QUICK, "--quick", HB_SET_FLAG, HB_OPT_AT(quick)},
    {OPT_INTENSITY, "--intensity", HB_SET_FLAG, HB_OPT_AT(intensity)},
    {OPT_CORES, "--cores", HB_SET_FLAG, HB_OPT_AT(c2c_cores)},
    {OPT_CLEAN_BUFFERS, "--clean-buffers", HB_SET_FLAG, HB_OPT_AT(clean_buffers)},
    {'o', "--output", HB_SET_TEXT, HB_OPT_TEXT(output)},
    {OPT_TOPOLOGY, "--topology", HB_SET_TEXT, HB_OPT_TEXT(topology)},
    {OPT_SIMD, "--simd", HB_SET_TEXT, HB_OPT_TEXT(simd)},
    {OPT_EXPORT_HWLOC, "--export-hwloc", HB_SET_TEXT, HB_OPT_TEXT(export_hwloc)},
    {OPT_TIER, "--tier", HB_SET_TEXT, HB_OPT_TEXT(tier)},
    {OPT_BASELINE, "--baseline", HB_SET_TEXT, HB_OPT_TEXT(baseline)},
    {OPT_HISTORY, "--history", HB_SET_TEXT, HB_OPT_TEXT(history)},
    {OPT_CPU_NODE, "--cpu-node", HB_SET_INT, HB_OPT_AT(cpu_node),
     HB_OPT_RANGE(0, INT_MAX, "a node number (see hopbench topo)")},
    {OPT_ROOT, "--root", HB_SET_INT, HB_OPT_AT(root),
     HB_OPT_RANGE(0, INT_MAX, "a rank number from 0 to the launch's ranks - 1")},
    {OPT_THREADS, "--threads", HB_SET_INT, HB_OPT_AT(threads),
     HB_OPT_RANGE(1, HB_MAX_THREADS, "a thread count from 1 to 4096")},
    {OPT_REPS, "--reps", HB_SET_INT, HB_OPT_AT(reps),
     HB_OPT_RANGE(1, 1000, "a repetition count from 1 to 1000")},
    {OPT_MIN_TIME, "--min-time", HB_SET_REAL, HB_OPT_AT(min_time_s),
     HB_OPT_RANGE(0.0, 3600.0, "seconds between 0 and 3600")},
    {OPT_MAX_TIME, "--max-time", HB_SET_REAL, HB_OPT_AT(max_time_s),
     HB_OPT_RANGE(2.0, 3600.0, "seconds from 2 to 3600")},
    {OPT_THRESHOLD, "--threshold", HB_SET_REAL, HB_OPT_AT(threshold_pct), HB_OPT_PERCENT},
    {OPT_FLEET_THRESHOLD, "--fleet-threshold", HB_SET_REAL, HB_OPT_AT(fleet_threshold_pct),
     HB_OPT_PERCENT},
    {OPT_TOLERANCE, "--tolerance", HB_SET_REAL, HB_OPT_AT(tolerance_pct), HB_OPT_PERCENT},
    {OPT_MAX_SIZE, "--max-size", HB_SET_SIZE, HB_OPT_AT(max_size)},
    {OPT_FORMAT, "--format", HB_SET_NAME, HB_OPT_AT(format), .names = hb_format_names},
    {OPT_PAGES, "--pages", HB_SET_NAME, HB_OPT_AT(pages), .names = hb_placement_pages_names},
    {OPT_MIX, "--mix", HB_SET_NAME, HB_OPT_AT(mix), .names = hb_options_mix_names},
    {OPT_MODE, "--mode", HB_SET_NAME, HB_OPT_AT(mode), .names = hb_options_mode_names},
    /* --level's names start after "idle" (no load), which is not a value to give. */
    {OPT_LEVEL, "--level", HB_SET_NAMES, HB_OPT_AT(level_mask),
     .names = hb_options_bg_level_names + 1, .first = 1},
    {OPT_SUBSCRIPTION, "--subscription", HB_SET_NAMES, HB_OPT_AT(subscription_mask),
     .names = hb_options_subscription_names},
    /* --bg names one level of load; idle is its absence. */
    {OPT_BG, "--bg", HB_SET_NAME, HB_OPT_AT(bg), .names = hb_options_bg_level_names + 1},
    {OPT_OP, "--op", HB_SET_NAMES, HB_OPT_AT(op_mask), .names = hb_coll_op_names},
};

/* HB_SET_NAME stores an index through an int: the enum fields it fills must be int-sized. */
_Static_assert(sizeof(enum hb_format) == sizeof(int) && sizeof(enum hb_pages) == sizeof(int),
               "enum option fields hold an int");

/* Store arg in the field of a table option. */
static int option_store(struct hb_options *o, const struct hb_opt_field *f, const char *arg)
{
    char *at = (char *)o + f->offset;
    switch (f->shape) {
    case HB_SET_FLAG:
        *(bool *)at = true;
        return 0;
    case HB_SET_TEXT:
        return hb_option_values_copy_arg(f->opt, arg, at, f->len);
    case HB_SET_INT:
        return hb_option_values_parse_int(f->opt, arg, (long)f->lo, (long)f->hi, f->what,
                                          (int *)at);
    case HB_SET_REAL:
        return hb_option_values_parse_double(f->opt, arg, f->lo, f->hi, f->what, (double *)at);
    case HB_SET_SIZE:
        return hb_bytes_parse(arg, (uint64_t *)at);
    case HB_SET_NAME:
        return hb_option_values_parse_enum(f->opt, arg, f->names, (int *)at);
    case HB_SET_NAMES:
        return hb_option_values_parse_list(f->opt, arg, f->names, f->first, (unsigned *)at);
    }
    return -EINVAL;
}

/* The options whose value needs more than storing: checks across values, typed lists. */
static int option_apply(struct hb_options *o, int c, const char *arg)
{
    for (size_t i = 0; i < sizeof(opt_fields) / sizeof(opt_fields[0]); i++)
        if (opt_fields[i].id == c) return option_store(o, &opt_fields[i], arg);
    int v = 0, rc = 0;
    switch (c) {
    case OPT_KERNEL:
        if ((rc = hb_option_values_check_items("--kernel", arg)) ||
            (rc = hb_option_values_check_unique("--kernel", arg)))
            return rc;
        return hb_option_values_copy_arg("--kernel", arg, o->kernels, sizeof(o->kernels));
    case OPT_POLICY:
        rc = hb_option_values_parse_enum("--policy", arg, hb_placement_policy_names, &v);
        o->policy = (enum hb_policy)v;
        o->policy_set = true;
        return rc;
    case OPT_MEM_NODE:
        return hb_option_values_parse_mem_nodes(arg, o);
    case OPT_WEIGHTS:
        return hb_option_values_parse_weights(arg, o);
    case OPT_SEED:
        return hb_option_values_parse_seed(arg, &o->seed);
    case OPT_BG_RATE:
        /* Below 1 MB/s per thread a paced load is no load: refused, not run as "high". */
        return hb_option_values_parse_double(
            "--bg-rate", arg, 0.001, 1000.0,
            "GB/s per thread, from 0.001 to 1000 (leave it out to pace from "
            "the measured rate)",
            &o->bg_rate_GBps);
    case OPT_NOISE:
        return hb_option_values_parse_positive(
            "--noise", arg, 1000.0, "a percentage above 0 and up to 1000", &o->noise_pct);
    case OPT_LOAD_NODES:
        if ((rc = hb_option_values_parse_int_list(
                 "--load-nodes", arg, o->load_nodes,
                 (int)(sizeof(o->load_nodes) / sizeof(o->load_nodes[0])), &o->nload_nodes)))
            return rc;
        return hb_option_values_copy_arg("--load-nodes", arg, o->load_nodes_text,
                                         sizeof(o->load_nodes_text));
    case OPT_NODES:
        return hb_option_values_parse_nodes(arg, o);
    case OPT_SIZE:
        return hb_option_values_parse_sizes(arg, o);
    case OPT_STRIDE:
        return hb_option_values_parse_strides(arg, o);
    case OPT_TLB_GROUP:
        return hb_option_values_parse_tlb_group(arg, &o->tlb_group);
    case OPT_CHAINS:
        return hb_option_values_parse_chains(arg, o);
    case OPT_HOME:
        return hb_option_values_parse_home(arg, &o->c2c_home);
    case OPT_REPEAT:
        return hb_option_values_parse_repeat(arg, HB_ROUNDS_AUTO_MAX, HB_MAX_REPEATS, &o->repeats,
                                             &o->repeat_auto);
    default:
        return -EINVAL;
    }
}

/* Every option's value when it is not given. */
static void options_defaults(struct hb_options *o)
{
    memset(o, 0, sizeof(*o));
    o->cpu_node = -1;
    o->mem_node = -1;
    o->min_time_s = 0.05;
    o->max_time_s = 60.0;
    o->format = HB_FORMAT_COUNT; /* from -o's name unless --format is given */
    o->reps = 3;
    o->repeats = 5;
    o->noise_pct = 5.0;
    o->seed = 1;
    o->threshold_pct = 5.0;
    o->fleet_threshold_pct = 35.0;
    o->tolerance_pct = 5.0;
    o->bg_rate_GBps = 0.0; /* levels from each thread's measured rate */
    o->bg = -1;
    o->root = -1;
    o->c2c_home = HB_C2C_HOME_WRITER;
    o->mode = -1;
    o->strides[0] = HB_CHASE_STRIDE_DEFAULT;
    o->nstrides = 1;
    o->chains[0] = 1;
    o->nchains = 1;
    o->tlb_group = HB_CHASE_GROUP_DEFAULT;
}

/* Each stride fits the TLB group, the default one included. */
static int check_strides(const struct hb_options *o, bool tlb_group_set)
{
    for (int i = 0; i < o->nstrides; i++) {
        if (!tlb_group_set && o->strides[i] > o->tlb_group) {
            char s[32];
            hb_error_set("--stride %s is larger than the default --tlb-group (256 KiB): give "
                         "--tlb-group all or a multiple of the stride",
                         hb_bytes_format(o->strides[i], s, sizeof(s)));
            return -EINVAL;
        }
        if (hb_chase_check_group(o->tlb_group, o->strides[i])) return -EINVAL;
    }
    return 0;
}

/* The command, the suite's operand (run FILE) and nothing else after the options. */
static int read_operands(int argc, char **argv, struct hb_options *o)
{
    /* GNU getopt moved the operands to the end: the first is the command. */
    if (optind < argc) {
        if (!command_known(argv[optind])) {
            /* help and the commands that read files parse their own options, after them. */
            if (hb_cli_doc_own_args(argv[optind]) || strcmp(argv[optind], "help") == 0)
                hb_error_set("'%s' comes first, before its options: hopbench %s ...", argv[optind],
                             argv[optind]);
            else
                hb_error_set("unknown command '%s': valid commands are %s", argv[optind],
                             hb_cli_options_commands());
            return -EINVAL;
        }
        snprintf(o->command, sizeof(o->command), "%s", argv[optind++]);
    }
    const struct hb_suite *suite = hb_suite_find(o->command);
    if (suite && suite->args) {
        char what[64];
        snprintf(what, sizeof(what), "%s %s", suite->name, suite->args);
        if (optind >= argc) {
            hb_error_set("%s needs %s", suite->name, suite->args_need);
            return -EINVAL;
        }
        int rc = hb_option_values_copy_arg(what, argv[optind++], o->operand, sizeof(o->operand));
        if (rc) return rc;
    }
    if (optind < argc) {
        hb_error_set("unexpected argument '%s'; see hopbench --help", argv[optind]);
        return -EINVAL;
    }
    return 0;
}

void hb_cli_options_free(struct hb_options *o)
{
    hwloc_bitmap_free(o->nodes);
    o->nodes = NULL;
    free(o->command_line);
    o->command_line = NULL;
    o->command_argv0_end = NULL;
}

_Static_assert(OPT_VERSION - OPT_KERNEL < 64, "struct hb_options.given holds every option");

/* Every option given is one the command takes (hb_cli_doc.h): nothing is silently ignored. */
static int check_takes(const struct hb_options *o)
{
    struct hb_cmd_doc c;
    if (!hb_cli_doc_command_find(o->command, &c)) return 0;
    for (const struct hb_opt_doc *d = hb_opt_docs; d->name; d++) {
        if (d->id < OPT_KERNEL || !(o->given & ((uint64_t)1 << (d->id - OPT_KERNEL))) ||
            hb_cli_doc_takes(&c, d->id))
            continue;
        char *own = hb_cli_doc_takes_list(&c);
        const char *who = c.name[0] ? c.name : "the default suite";
        const char *why = hb_opt_doc_why_not(c.name, d->id);
        struct hb_cmd_doc dropped = {.takes = c.drops};
        char *drops = hb_cli_doc_drops_list(&c);
        const char *help = c.name[0] ? c.name : "default";
        if (drops && hb_cli_doc_takes(&dropped, d->id))
            hb_error_set("%s takes no --%s: it takes the run options except %s, which mean nothing "
                         "to it (see hopbench help %s)",
                         who, d->name, drops, help);
        else if (c.runs)
            hb_error_set("%s takes no --%s%s%s; its own options are %s, besides the run options "
                         "(see hopbench help %s)",
                         who, d->name, why ? ": " : "", why ? why : "", own && *own ? own : "none",
                         help);
        else
            hb_error_set("%s takes no --%s%s%s; it takes %s and -o", who, d->name, why ? ": " : "",
                         why ? why : "", own ? own : "");
        free(drops);
        free(own);
        return -EINVAL;
    }
    return 0;
}

/* Whether option id was given. */
static bool option_given(const struct hb_options *o, int id)
{
    return (o->given >> (id - OPT_KERNEL)) & 1;
}

/* --policy weighted, --mem-node's list and --weights go together. A command without
 * --mem-node (peak) says itself what it makes of the policy. */
static int check_weighted(const struct hb_options *o)
{
    bool weighted = o->policy_set && o->policy == HB_POLICY_WEIGHTED;
    struct hb_cmd_doc c;
    const char *why = NULL;
    bool known = hb_cli_doc_command_find(o->command, &c),
         search = known && !hb_cli_doc_takes(&c, OPT_POLICY);
    if (o->weights_auto != search && option_given(o, OPT_WEIGHTS))
        why = search ? "policy --weights takes auto (the weight search over a ladder of ratios); "
                       "fixed weights are bw --policy weighted's"
                     : "--weights auto is policy's weight search; bw --policy weighted takes one "
                       "weight from 1 to 255 per --mem-node node";
    else if (option_given(o, OPT_WEIGHTS) && !weighted && !search)
        why = "--weights needs --policy weighted (they are MPOL_WEIGHTED_INTERLEAVE's per-node "
              "weights): add it or drop --weights";
    else if (o->nmem_nodes > 1 && !weighted && !o->weights_auto)
        hb_error_set("--mem-node names %d nodes: a list is for --policy weighted only; give one "
                     "node",
                     o->nmem_nodes);
    else if (!weighted || !known || !hb_cli_doc_takes(&c, OPT_MEM_NODE))
        return 0;
    else if (o->nmem_nodes < 1)
        why = "--policy weighted needs --mem-node A,B,... (the nodes to interleave over)";
    else if (!option_given(o, OPT_WEIGHTS))
        why = "--policy weighted needs --weights W,W,... (one weight from 1 to 255 per "
              "--mem-node node)";
    else if (o->nweights != o->nmem_nodes)
        hb_error_set("--weights gives %d weight%s for the %d nodes of --mem-node: give one weight "
                     "from 1 to 255 per node, in --mem-node's order",
                     o->nweights, o->nweights == 1 ? "" : "s", o->nmem_nodes);
    else
        return 0;
    if (why) hb_error_set("%s", why);
    return -EINVAL;
}

/* OMP_NUM_THREADS (its outer level) means what --threads means; --threads wins. */
static int threads_from_env(struct hb_options *o)
{
    const char *v = getenv("OMP_NUM_THREADS");
    o->threads_from = "--threads ";
    if (o->threads || !v) return 0;
    char *end = NULL;
    errno = 0;
    long n = strtol(v, &end, 10);
    /* Not a count at all: the OpenMP settings' check says what the runtime takes. */
    if (end == v || n < 1 || (*end && *end != ',')) return 0;
    if (errno || n > HB_MAX_THREADS) {
        hb_error_set("OMP_NUM_THREADS='%s' is taken as --threads: use a thread count from 1 to %d, "
                     "or unset it",
                     v, HB_MAX_THREADS);
        return -EINVAL;
    }
    o->threads = (int)n;
    o->threads_from = "OMP_NUM_THREADS=";
    return 0;
}

/* -o FILE's name chooses the format when --format is not given (defaults leave it at
 * HB_FORMAT_COUNT); a --format that contradicts the name wins, with a warning. A dry run
 * writes JSON Lines whatever is asked (it says so); topo has no CSV (its record nests). */
static int format_from_output(struct hb_options *o)
{
    enum hb_format named = HB_FORMAT_TABLE;
    bool says = hb_format_of_name(o->output, &named), given = o->format != HB_FORMAT_COUNT;
    if (!given) o->format = named;
    if (o->format == HB_FORMAT_CSV && strcmp(o->command, "topo") == 0) {
        if (given)
            hb_error_set("topo writes no CSV (its record nests nodes, caches and distances): "
                         "use --format table or jsonl");
        else
            hb_error_set("topo writes no CSV (its record nests nodes, caches and distances), "
                         "which -o '%s' asks for by its name: name it .jsonl or .txt, or give "
                         "--format table or jsonl",
                         o->output);
        return -EINVAL;
    }
    if (!hb_launcher_is_first()) return 0;
    if (o->dry_run && given && o->format != HB_FORMAT_JSONL)
        fprintf(stderr,
                "hopbench: warning: --dry-run writes the plan as JSON Lines, whatever --format "
                "says (%s)\n",
                hb_format_names[o->format]);
    else if (o->dry_run && !given && says && named != HB_FORMAT_JSONL)
        fprintf(stderr,
                "hopbench: warning: --dry-run writes the plan as JSON Lines into '%s', whose "
                "name says %s\n",
                o->output, hb_format_names[named]);
    else if (given && says && o->format != named)
        fprintf(stderr, "hopbench: warning: --format %s writes %s into '%s', whose name says %s\n",
                hb_format_names[o->format], hb_format_names[o->format], o->output,
                hb_format_names[named]);
    return 0;
}

int hb_cli_options_parse(int argc, char **argv, struct hb_options *o)
{
    options_defaults(o);
    /* The command line as the run record and the launch-line hints repeat it: whole, quoted
     * so a shell re-runs the same argv, and valid UTF-8 so JSON keeps it. */
    o->command_line = hb_escape_sh_line(argc, argv, &o->command_argv0_end);
    if (!o->command_line) {
        hb_error_set("out of memory holding the command line (%d arguments)", argc);
        return -ENOMEM;
    }

    const struct option *longopts;
    const char *shortopts;
    if (!getopt_tables(&longopts, &shortopts)) {
        hb_error_set("out of memory for the option table");
        return -ENOMEM;
    }
    opterr = 0;
    /* --help (-h) anywhere before "--" wins over any other option, bad ones too: the
     * command's help, the command being the first operand (GNU getopt moves them last, so it
     * reads a copy: the parse below must see argv as given). optind 0 starts getopt afresh. */
    char **copy = calloc((size_t)argc + 1, sizeof(*copy));
    if (!copy) {
        hb_error_set("out of memory holding the command line (%d arguments)", argc);
        return -ENOMEM;
    }
    memcpy(copy, argv, (size_t)argc * sizeof(*copy));
    bool help = false;
    optind = 0;
    for (int c; (c = getopt_long(argc, copy, shortopts, longopts, NULL)) != -1;)
        help |= c == OPT_HELP || c == 'h';
    const char *command = help && optind < argc ? copy[optind] : "";
    int rc = 0;
    if (command[0] && !command_known(command)) {
        hb_error_set("unknown command '%s': valid commands are %s", command,
                     hb_cli_options_commands());
        rc = -EINVAL;
    }
    snprintf(o->command, sizeof(o->command), "%s", command);
    free(copy);
    if (help || rc) return rc ? rc : 1;
    optind = 0;
    bool tlb_group_set = false;
    /* Each option's value as given, to refuse a second one (never silently last-wins). */
    const char *given_as[OPT_VERSION + 1] = {0};
    bool given_flag[OPT_VERSION + 1] = {0};
    for (;;) {
        int c = getopt_long(argc, argv, shortopts, longopts, NULL);
        if (c == -1) break;
        if (c == '?' || c == ':') {
            char shortname[3];
            hb_error_set(c == '?' ? "unknown option '%s'; see hopbench --help"
                                  : "option '%s' needs a value; see hopbench --help",
                         hb_args_refused(argv, c == ':', shortname));
            return -EINVAL;
        }
        if (c == OPT_VERSION) {
            printf("hopbench %s (git %s)\n", HB_VERSION, HB_GIT_SHA);
            return 2;
        }
        tlb_group_set |= c == OPT_TLB_GROUP;
        if (c >= 0 && c <= OPT_VERSION && given_flag[c])
            return twice(longopts, c, given_as[c], optarg);
        if (c >= 0 && c <= OPT_VERSION) given_flag[c] = true, given_as[c] = optarg;
        if (c >= OPT_KERNEL) o->given |= (uint64_t)1 << (c - OPT_KERNEL);
        rc = option_apply(o, c, optarg);
        if (rc) return rc == -ERANGE ? -EINVAL : rc;
    }
    rc = check_strides(o, tlb_group_set);
    if (rc || (rc = read_operands(argc, argv, o))) return rc;
    if ((rc = threads_from_env(o))) return rc;
    if ((rc = check_takes(o)) || (rc = format_from_output(o))) return rc;
    return check_weighted(o);
}
