/* The options as a table: their ids, names, values, completion and help. The parser, --help,
 * the man page and the completion all read it (src/cli), and every command names the options
 * it takes by these ids. */
#ifndef HB_OPT_DOC_H
#define HB_OPT_DOC_H

/* The help of --format and -o, which compare's own rows share with the run's. */
#define HB_OPT_FORMAT_HELP                                                                         \
    "{values} (default: from -o FILE's name, .jsonl or .json: jsonl, .csv: csv, else table; "      \
    "topo: no csv)"
#define HB_OPT_OUTPUT_HELP "write results to FILE (default stdout)"

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
    OPT_BASELINE,
    OPT_HISTORY,
    OPT_HELP,
    OPT_VERSION,
};

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

/* The table, ended by an entry whose name is NULL. */
extern const struct hb_opt_doc hb_opt_docs[];

/* The option's long name, without dashes ("?" when no option has that id). */
const char *hb_opt_doc_name(int id);

/* Why command has no use for option id, for its refusal ("it always runs the pointer
 * chase"); NULL when its option list says enough. */
const char *hb_opt_doc_why_not(const char *command, int id);

#endif
