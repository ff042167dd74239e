/* The command line as tables: commands, options, exit codes, environment, examples and
 * files. Option parsing, --help, the man page and the bash completion are all generated
 * from them, so none of them can drift from the others. */
#ifndef HB_CLI_DOC_H
#define HB_CLI_DOC_H

#include <stdbool.h>
#include <stdio.h>

/* The help of --format and -o, which compare's own rows share with the run's. */
#define HB_OPT_FORMAT_HELP                                                                         \
    "{values} (default: from -o FILE's name, .jsonl or .json: jsonl, .csv: csv, else table; "      \
    "topo: no csv)"
#define HB_OPT_OUTPUT_HELP "write results to FILE (default stdout)"

/* How bandwidth is counted, said above the kernel list of --help and the man page. */
#define HB_DOC_BYTES_RULE                                                                          \
    "Bytes per element are counted the STREAM way: each array read or written once per pass, "     \
    "GB/s = (read + written) x elements / time. WA is the write-allocate model recorded beside "   \
    "it as bw_GBps_best_wa_model: plain stores to lines not read first fetch them too; NT "        \
    "stores and in-place updates (the mixes) do not."

/* Option ids (getopt_long's return values; -o is 'o'). */
enum hb_opt_id {
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
    OPT_FLEET_THRESHOLD,
    OPT_QUICK,
    OPT_TOLERANCE,
    OPT_BG_RATE,
    OPT_LEVEL,
    OPT_SUBSCRIPTION,
    OPT_LOAD_NODES,
    OPT_NODES,
    OPT_MIX,
    OPT_INTENSITY,
    OPT_MODE,
    OPT_MAX_SIZE,
    OPT_STRIDE,
    OPT_TLB_GROUP,
    OPT_CHAINS,
    OPT_CORES,
    OPT_HOME,
    OPT_EXPORT_HWLOC,
    OPT_TIER,
    OPT_REPEAT,
    OPT_NOISE,
    OPT_WEIGHTS,
    OPT_BG,
    OPT_MAX_TIME,
    OPT_OP,
    OPT_ROOT,
    OPT_CLEAN_BUFFERS,
    OPT_HELP,
    OPT_VERSION,
};

/* A command that is not a suite (the suites are the table of hb_suite.h; --help lists them
 * first). main: it reads its own arguments (report, compare, export), not the options below,
 * and runs without MPI; NULL: main.c runs it after the options (topo). */
struct hb_cmd_doc {
    const char *name;
    const char *args; /* operands after the name, or NULL */
    const char *help;
    int (*main)(int argc, char **argv);
    /* The options it takes (enum hb_opt_id, 0-ended; -o always), besides hb_run_takes when
     * it runs (the suites); NULL when main reads its own arguments. Any other is refused. */
    const int *takes;
    bool runs;
    const int *drops; /* run options a suite does not take (0-ended; NULL: none) */
    /* main: the options it reads (hb_args.h parses exactly these, from its own file),
     * NULL-name-ended. NULL for the others. */
    const struct hb_opt_doc *opts;
    const char *kernels; /* a suite's: what it runs without --kernel, or NULL */
    /* A suite's: the NUMA nodes with memory it needs (0 or 1: any machine), and why. */
    int needs_mem_nodes;
    const char *needs_why;
};

/* The options every suite takes: how long, how often, where the records go, what runs. */
extern const int hb_run_takes[];

/* Whether command c takes option id (-o: always). */
bool hb_cmd_takes(const struct hb_cmd_doc *c, int id);

/* "--cpu-node --mem-node ..." of c's own options (to free); NULL when out of memory. */
char *hb_cmd_takes_list(const struct hb_cmd_doc *c);

/* "--min-time --reps": the run options suite c leaves out (to free); NULL when it leaves none
 * out or memory runs out. */
char *hb_cmd_drops_list(const struct hb_cmd_doc *c);

/* The option's long name, without dashes ("?" when no option has that id). */
const char *hb_opt_name(int id);

/* Why command has no use for option id, for its refusal ("it always runs the pointer
 * chase"); NULL when its option list says enough. */
const char *hb_opt_why_not(const char *command, int id);

/* The command named `name` ("" = the default suite): true and *out, or false. */
bool hb_command_find(const char *name, struct hb_cmd_doc *out);

/* How the shell completes an option's value: no help, file names, the kernels, the option's
 * words, the SIMD paths (hb_doc_kernels). */
enum hb_complete {
    HB_COMPLETE_NONE,
    HB_COMPLETE_FILE,
    HB_COMPLETE_KERNELS,
    HB_COMPLETE_WORDS,
    HB_COMPLETE_SIMD
};

struct hb_opt_doc {
    const char *name; /* long name without "--" */
    char short_name;  /* 0 = none */
    int id;           /* enum hb_opt_id or the short name */
    const char *arg;  /* value placeholder, NULL = takes no value */
    enum hb_complete complete;
    /* HB_COMPLETE_WORDS: the values, the very NULL-ended table the parser reads */
    const char *const *words;
    /* For options with words or SIMD paths, "{values}" marks where "a | b | c" goes. */
    const char *help;
};

/* A term and its explanation: exit codes, environment variables, files (whose terms are
 * relative to the data directory, e.g. /usr/share). */
struct hb_term_doc {
    const char *term;
    const char *help;
};

/* An example line and what it does, under the command it shows ("" the default suite):
 * `hopbench help COMMAND` shows that command's, the man page all of them. */
struct hb_example_doc {
    const char *command;
    const char *line;
    const char *help;
};

/* Tables, each ended by an entry whose first field is NULL. */
extern const struct hb_cmd_doc hb_cmd_docs[];

/* The command of argv[1] that reads its own arguments, or NULL. */
const struct hb_cmd_doc *hb_cmd_own_args(const char *name);

/* The i-th command (from 0) in --help's order: the suites of hb_suite.h's table, the default
 * suite ("") first, then hb_cmd_docs. false past the last. */
bool hb_command_at(size_t i, struct hb_cmd_doc *out);
extern const struct hb_opt_doc hb_opt_docs[];
extern const struct hb_term_doc hb_exit_docs[];
extern const struct hb_term_doc hb_env_docs[];
extern const struct hb_example_doc hb_example_docs[];
extern const struct hb_term_doc hb_file_docs[];

/* What the documents need from omp/: the kernel table and the SIMD paths. */
struct hb_doc_kernels {
    void (*help)(FILE *f);   /* one line per kernel, as --help shows it */
    const char *names;       /* comma-separated */
    const char *const *simd; /* --simd's values, "auto" first, NULL-ended */
};

/* Where the installed files are, as help names them: the configured data and documentation
 * directories (hb_version.h's HB_DATADIR, HB_DOCDIR). A help text's "{datadir}" and
 * "{docdir}" are replaced by them. */
struct hb_doc_dirs {
    const char *data, *doc;
};

/* --help and `hopbench help`: the overview (commands, run options, kernels, exit codes,
 * files); the man page hopbench(1); a bash completion script. The overview says when the
 * files are not in dirs (a binary run from its build tree). */
void hb_doc_help(FILE *f, const struct hb_doc_kernels *k, const struct hb_doc_dirs *dirs);
/* `hopbench COMMAND --help` (-h) and `hopbench help COMMAND`: c's usage line, its help, the
 * options it takes (exactly those its parser takes) with their defaults, and its examples. */
void hb_doc_command_help(FILE *f, const struct hb_doc_kernels *k, const struct hb_cmd_doc *c,
                         const struct hb_doc_dirs *dirs);
void hb_doc_man(FILE *f, const struct hb_doc_kernels *k, const struct hb_doc_dirs *dirs);
void hb_doc_bash(FILE *f, const struct hb_doc_kernels *k);
/* docs/suites.md's part about a command ("default": the default suite; "run-options": the
 * options every suite takes): its help line and its options as a Markdown list. -1 when no
 * command has that name. */
int hb_doc_markdown(FILE *f, const struct hb_doc_kernels *k, const char *command);

#endif
