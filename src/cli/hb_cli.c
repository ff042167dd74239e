#include "hb_options.h"

#include "hb_cli_doc.h"
#include "hb_error.h"
#include "hb_nodeset.h"
#include "hb_size.h"
#include "hb_suite.h"
#include "hb_version.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "bw, lat, ..., export" from the suite and command tables, for messages; built once (the
 * commands alone when out of memory). */
const char *hb_options_commands(void)
{
    static char *list;
    size_t len = 0;
    struct hb_cmd_doc c;
    if (list) return list;
    for (size_t i = 0; hb_command_at(i, &c); i++)
        len += strlen(c.name) + 2;
    if (!(list = calloc(len + 1, 1))) return "see hopbench --help";
    for (size_t i = 0; hb_command_at(i, &c); i++)
        if (c.name[0]) {
            if (list[0]) strcat(list, ", ");
            strcat(list, c.name);
        }
    return list;
}

/* getopt_long's long and short option tables, built once from the option table; false
 * when out of memory. */
static bool hb_getopt_tables(const struct option **longopts, const char **shortopts)
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
static bool hb_command_known(const char *name)
{
    if (name[0] && hb_suite_find(name)) return true;
    for (const struct hb_cmd_doc *c = hb_cmd_docs; c->name; c++)
        if (!c->main && strcmp(c->name, name) == 0) return true;
    return false;
}

/* strtol and strtod skip leading blanks and take '+', hex, "inf": a number starts with a
 * digit (or '-' and a digit where negatives are in range). */
static bool hb_starts_number(const char *text, bool negative_ok)
{
    if (negative_ok && *text == '-') text++;
    return isdigit((unsigned char)*text) || (*text == '.' && isdigit((unsigned char)text[1]));
}

static int hb_parse_int(const char *opt, const char *text, long lo, long hi, const char *what,
                        int *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || !hb_starts_number(text, lo < 0) || end == text || *end || v < lo || v > hi) {
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
    if (errno || !hb_starts_number(text, lo < 0) || strpbrk(text, "xXpP") || end == text || *end ||
        !(v >= lo && v <= hi)) {
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

/* A comma-separated list has no empty item (strtok would skip it silently). */
static int hb_check_items(const char *opt, const char *text)
{
    if (!*text || text[0] == ',' || text[strlen(text) - 1] == ',' || strstr(text, ",,")) {
        hb_err_set("invalid %s '%s': expected a comma-separated list without empty items", opt,
                   text);
        return -EINVAL;
    }
    return 0;
}

/* Every comma-separated item of text is one of names: *mask gets bit `first + index` of each. */
static int hb_parse_list(const char *opt, const char *text, const char *const *names, int first,
                         unsigned *mask)
{
    int rc = hb_check_items(opt, text);
    if (rc) return rc;
    char *list = strdup(text), *save = NULL;
    if (!list) {
        hb_err_set("out of memory reading %s", opt);
        return -ENOMEM;
    }
    int v = 0;
    *mask = 0;
    for (char *w = strtok_r(list, ",", &save); w && rc == 0; w = strtok_r(NULL, ",", &save))
        if ((rc = hb_parse_enum(opt, w, names, &v)) == 0) *mask |= 1u << (first + v);
    free(list);
    return rc;
}

static int hb_parse_int_list(const char *opt, const char *text, int *out, int cap, int *n)
{
    const char *p = text;
    for (*n = 0;; (*n)++) {
        char *end = NULL;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (errno || end == p || v < 0 || v > INT_MAX || !isdigit((unsigned char)*p) ||
            (*end != ',' && *end != '\0')) {
            hb_err_set("invalid %s '%s': expected comma-separated node numbers, e.g. 1,2", opt,
                       text);
            return -EINVAL;
        }
        /* Past cap only for a list too long to keep, which the caller then refuses. */
        if (*n < cap) out[*n] = (int)v;
        if (*end == '\0') {
            (*n)++;
            return 0;
        }
        p = end + 1;
    }
}

/* --stride 256 or 64,128,256: each a power of two of at least 64 bytes, any size form. */
static int hb_parse_strides(const char *text, struct hb_options *o)
{
    char list[256], *save = NULL;
    if (hb_copy_arg("--stride", text, list, sizeof(list))) return -EINVAL;
    o->nstrides = 0;
    for (char *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        if (o->nstrides == HB_CHASE_MAX_STRIDES) {
            hb_err_set("invalid --stride '%s': at most %d strides in one list", text,
                       HB_CHASE_MAX_STRIDES);
            return -EINVAL;
        }
        uint64_t v = 0;
        if (hb_size_parse(w, &v) != 0) v = 0;
        if (hb_chase_check_stride(w, v)) return -EINVAL;
        o->strides[o->nstrides++] = v;
    }
    if (o->nstrides == 0 || text[strlen(text) - 1] == ',' || strstr(text, ",,")) {
        hb_err_set("invalid --stride '%s': expected a comma-separated list without empty items",
                   text);
        return -EINVAL;
    }
    return 0;
}

static int hb_parse_tlb_group(const char *text, uint64_t *out)
{
    if (strcmp(text, "all") == 0) {
        *out = HB_CHASE_GROUP_ALL;
        return 0;
    }
    if (hb_size_parse(text, out) == 0) return 0;
    hb_err_set("invalid --tlb-group '%s': expected 'all' or a size that is a multiple of the "
               "stride, e.g. 256K (default)",
               text);
    return -EINVAL;
}

/* The command line as the run record and the launch-line hints repeat it: whole, or refused
 * (-EINVAL with a message), never cut. */
static int hb_join_argv(int argc, char **argv, char *dst, size_t len)
{
    size_t used = 0;
    dst[0] = '\0';
    for (int i = 0; i < argc; i++) {
        int n = snprintf(dst + used, len - used, "%s%s", i ? " " : "", argv[i]);
        if (n < 0 || (size_t)n >= len - used) {
            hb_err_set("the command line is longer than %zu characters; give shorter paths or "
                       "node lists",
                       len - 1);
            dst[0] = '\0';
            return -EINVAL;
        }
        used += (size_t)n;
    }
    return 0;
}

static int hb_option_apply(struct hb_options *o, int c, const char *arg)
{
    static const char *const policies[] = {"bind", "interleave", "firsttouch", NULL};
    int v = 0, rc = 0;
    switch (c) {
    case OPT_KERNEL:
        if ((rc = hb_check_items("--kernel", arg))) return rc;
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
        return hb_parse_int("--threads", arg, 1, 4096, "a thread count of at least 1", &o->threads);
    case OPT_SIZE:
        return hb_size_parse(arg, &o->size);
    case OPT_MIN_TIME:
        return hb_parse_double("--min-time", arg, 0.0, 3600.0, "seconds between 0 and 3600",
                               &o->min_time_s);
    case OPT_REPS:
        return hb_parse_int("--reps", arg, 1, 1000, "a repetition count from 1 to 1000", &o->reps);
    case OPT_FORMAT:
        rc = hb_parse_enum("--format", arg, hb_format_names, &v);
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
        unsigned long long s = strtoull(arg, &end, 10);
        if (errno || !hb_starts_number(arg, false) || end == arg || *end) {
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
    case OPT_FLEET_THRESHOLD:
        return hb_parse_double("--fleet-threshold", arg, 0.0, 1000.0, "a percentage from 0 to 1000",
                               &o->fleet_threshold_pct);
    case OPT_QUICK:
        o->quick = true;
        return 0;
    case OPT_TOLERANCE:
        return hb_parse_double("--tolerance", arg, 0.0, 1000.0, "a percentage from 0 to 1000",
                               &o->tolerance_pct);
    case OPT_BG_RATE:
        if ((rc = hb_parse_double("--bg-rate", arg, 0.0, 1000.0,
                                  "GB/s per thread, above 0 and up to 1000", &o->bg_rate_GBps)) ==
                0 &&
            o->bg_rate_GBps <= 0.0) {
            hb_err_set("invalid --bg-rate '%s': expected GB/s per thread, above 0 and up to 1000 "
                       "(leave it out to pace from the measured rate)",
                       arg);
            rc = -EINVAL;
        }
        return rc;
    case OPT_LEVEL:
        return hb_parse_list("--level", arg, hb_bg_level_names + 1, 1, &o->level_mask);
    case OPT_SUBSCRIPTION:
        return hb_parse_list("--subscription", arg, hb_subscription_names, 0,
                             &o->subscription_mask);
    case OPT_LOAD_NODES:
        if ((rc = hb_parse_int_list("--load-nodes", arg, o->load_nodes,
                                    (int)(sizeof(o->load_nodes) / sizeof(o->load_nodes[0])),
                                    &o->nload_nodes)))
            return rc;
        return hb_copy_arg("--load-nodes", arg, o->load_nodes_text, sizeof(o->load_nodes_text));
    case OPT_NODES: {
        /* The syntax now; whether the nodes exist once the topology is loaded. */
        hwloc_bitmap_t set = hwloc_bitmap_alloc();
        rc = set ? hb_nodeset_parse("--nodes", arg, set) : -ENOMEM;
        hwloc_bitmap_free(set);
        if (rc) return rc;
        return hb_copy_arg("--nodes", arg, o->nodes, sizeof(o->nodes));
    }
    case OPT_MIX:
        return hb_parse_enum("--mix", arg, hb_mix_names, &o->mix);
    case OPT_INTENSITY:
        o->intensity = true;
        return 0;
    case OPT_MAX_SIZE:
        return hb_size_parse(arg, &o->max_size);
    case OPT_STRIDE:
        return hb_parse_strides(arg, o);
    case OPT_TLB_GROUP:
        return hb_parse_tlb_group(arg, &o->tlb_group);
    case OPT_CORES:
        o->c2c_cores = true;
        return 0;
    case OPT_HOME:
        if (strcmp(arg, "writer") == 0 || strcmp(arg, "reader") == 0) {
            o->c2c_home = arg[0] == 'w' ? HB_C2C_HOME_WRITER : HB_C2C_HOME_READER;
            return 0;
        }
        return hb_parse_int("--home", arg, 0, INT_MAX,
                            "writer, reader or a node number with memory (see hopbench topo)",
                            &o->c2c_home);
    case OPT_EXPORT_HWLOC:
        return hb_copy_arg("--export-hwloc", arg, o->export_hwloc, sizeof(o->export_hwloc));
    case OPT_TIER:
        return hb_copy_arg("--tier", arg, o->tier, sizeof(o->tier));
    case OPT_MODE:
        return hb_parse_enum("--mode", arg, hb_mode_names, &o->mode);
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
    o->fleet_threshold_pct = 35.0;
    o->tolerance_pct = 5.0;
    o->bg_rate_GBps = 0.0; /* levels from each thread's measured rate */
    o->c2c_home = HB_C2C_HOME_WRITER;
    o->mode = -1;
    o->strides[0] = HB_CHASE_STRIDE_DEFAULT;
    o->nstrides = 1;
    o->tlb_group = HB_CHASE_GROUP_DEFAULT;
    int jrc = hb_join_argv(argc, argv, o->command_line, sizeof(o->command_line));
    if (jrc) return jrc;

    const struct option *longopts;
    const char *shortopts;
    if (!hb_getopt_tables(&longopts, &shortopts)) {
        hb_err_set("out of memory for the option table");
        return -ENOMEM;
    }
    optind = 1;
    opterr = 0;
    bool tlb_group_set = false;
    for (;;) {
        int c = getopt_long(argc, argv, shortopts, longopts, NULL);
        if (c == -1) break;
        /* After a bad option optind is just past it, wherever getopt has moved it. */
        const char *word = argv[optind > 0 ? optind - 1 : 0];
        if (c == '?') {
            hb_err_set("unknown option '%s'; see hopbench --help", word);
            return -EINVAL;
        }
        if (c == ':') {
            hb_err_set("option '%s' needs a value; see hopbench --help", word);
            return -EINVAL;
        }
        if (c == OPT_HELP) return 1;
        if (c == OPT_VERSION) {
            printf("hopbench %s (git %s)\n", HB_VERSION, HB_GIT_SHA);
            return 2;
        }
        tlb_group_set |= c == OPT_TLB_GROUP;
        int rc = hb_option_apply(o, c, optarg);
        if (rc) return rc == -ERANGE ? -EINVAL : rc;
    }
    for (int i = 0; i < o->nstrides; i++) {
        if (!tlb_group_set && o->strides[i] > o->tlb_group) {
            char s[32];
            hb_err_set("--stride %s is larger than the default --tlb-group (256 KiB): give "
                       "--tlb-group all or a multiple of the stride",
                       hb_size_format(o->strides[i], s, sizeof(s)));
            return -EINVAL;
        }
        if (hb_chase_check_group(o->tlb_group, o->strides[i])) return -EINVAL;
    }
    /* GNU getopt moved the operands to the end: the first is the command. */
    if (optind < argc) {
        if (!hb_command_known(argv[optind])) {
            hb_err_set("unknown command '%s': valid commands are %s", argv[optind],
                       hb_options_commands());
            return -EINVAL;
        }
        snprintf(o->command, sizeof(o->command), "%s", argv[optind++]);
    }
    const struct hb_suite *suite = hb_suite_find(o->command);
    if (suite && suite->args) {
        char what[64];
        snprintf(what, sizeof(what), "%s %s", suite->name, suite->args);
        if (optind >= argc) {
            hb_err_set("%s needs %s", suite->name, suite->args_need);
            return -EINVAL;
        }
        int rc = hb_copy_arg(what, argv[optind++], o->operand, sizeof(o->operand));
        if (rc) return rc;
    }
    if (optind < argc) {
        hb_err_set("unexpected argument '%s'; see hopbench --help", argv[optind]);
        return -EINVAL;
    }
    if (o->export_hwloc[0] && strcmp(o->command, "matrix") != 0) {
        hb_err_set("--export-hwloc needs the measured matrix: hopbench matrix --export-hwloc %s "
                   "(or hopbench export RESULTS.jsonl -o %s)",
                   o->export_hwloc, o->export_hwloc);
        return -EINVAL;
    }
    if (o->tier[0] && strcmp(o->command, "policy") != 0) {
        hb_err_set("--tier '%s' chooses policy's remote node: hopbench policy --tier %s", o->tier,
                   o->tier);
        return -EINVAL;
    }
    return 0;
}
