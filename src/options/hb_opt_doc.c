/* The option table (hb_opt_doc.h): every option's name, value, completion and help, from
 * which parsing, --help, the man page and the completion are made. Apart from the command
 * table, so that a suite may name an option without reaching the suites' table back. */
#include "hb_opt_doc.h"

#include "hb_options.h"
#include "hb_format.h"
#include "hb_placement.h"

#include <stddef.h>
#include <string.h>

const struct hb_opt_doc hb_opt_docs[] = {
    {"kernel", 0, OPT_KERNEL, "K[,K]", HB_COMPLETE_KERNELS, NULL, "kernels of the kernel list"},
    {"cpu-node", 0, OPT_CPU_NODE, "N", HB_COMPLETE_NONE, NULL,
     "node whose CPUs run the threads (default: first CPU node)"},
    {"mem-node", 0, OPT_MEM_NODE, "N", HB_COMPLETE_NONE, NULL,
     "node that holds the memory (default: the CPU node); bw --policy weighted: the nodes to "
     "interleave over, A,B,...; balance: the node the pages start on (default: the first other "
     "node with memory); coll: every rank's buffers (default: each rank's node)"},
    {"policy", 0, OPT_POLICY, "P", HB_COMPLETE_WORDS, hb_placement_policy_names,
     "{values} (default bind; weighted: MPOL_WEIGHTED_INTERLEAVE over --mem-node's nodes by "
     "--weights, Linux 6.9+; coll: bind or interleave, over each communicator's nodes)"},
    {"weights", 0, OPT_WEIGHTS, "W,W", HB_COMPLETE_NONE, NULL,
     "bw --policy weighted: one weight from 1 to 255 per --mem-node node, set in "
     "/sys/kernel/mm/mempolicy/weighted_interleave/ for the run and put back after it (as "
     "root; otherwise the kernel's current weights are used and the records say weights_set "
     "false); policy: auto, the search over a ladder of ratios for the weights that give the "
     "most bandwidth (default: no search)"},
    {"threads", 0, OPT_THREADS, "N", HB_COMPLETE_NONE, NULL,
     "threads (default: every core of the node)"},
    {"size", 0, OPT_SIZE, "S", HB_COMPLETE_NONE, NULL,
     "working set, e.g. 64M, 1GiB (default: 4x last-level cache, capped; the run record says "
     "where the size came from); comm, coll: the largest message (default 4 MiB, coll 1 MiB), "
     "or a list of message sizes, e.g. 8,1K,64K"},
    {"pages", 0, OPT_PAGES, "P", HB_COMPLETE_WORDS, hb_placement_pages_names,
     "{values} (huge: hugetlbfs 2 MiB pages; default 4k)"},
    {"min-time", 0, OPT_MIN_TIME, "SEC", HB_COMPLETE_NONE, NULL,
     "least time per sample (default 0.05)"},
    {"reps", 0, OPT_REPS, "N", HB_COMPLETE_NONE, NULL,
     "kept samples per repeat of a measurement (default 3)"},
    {"repeat", 0, OPT_REPEAT, "N|auto[:MAX]", HB_COMPLETE_NONE, NULL,
     "independent repeats of every measurement, each on fresh memory (new allocation, first "
     "touch, pages verified, new chase permutation), taken in turn with the other experiments; "
     "a figure is the median of its repeats with its interval (default 5; compare needs 4 or "
     "more); auto: round after round, each not yet clear experiment again, until every figure's "
     "interval half-width is within --noise, from 6 to MAX rounds (default 30) or --max-time"},
    {"noise", 0, OPT_NOISE, "PCT", HB_COMPLETE_NONE, NULL,
     "a figure is noisy when its interval's half-width exceeds PCT of it (default 5)"},
    {"format", 0, OPT_FORMAT, "F", HB_COMPLETE_WORDS, hb_format_names, HB_OPT_FORMAT_HELP},
    {"output", 'o', 'o', "FILE", HB_COMPLETE_FILE, NULL, HB_OPT_OUTPUT_HELP},
    {"dry-run", 0, OPT_DRY_RUN, NULL, HB_COMPLETE_NONE, NULL,
     "print the plan as JSON Lines (whatever --format says), run nothing"},
    {"topology", 0, OPT_TOPOLOGY, "FILE", HB_COMPLETE_FILE, NULL,
     "plan for an hwloc XML topology (only topo and --dry-run; default this machine's)"},
    {"seed", 0, OPT_SEED, "N", HB_COMPLETE_NONE, NULL,
     "seed for random permutations, 0 to 2^63-1 (default 1)"},
    {"simd", 0, OPT_SIMD, "PATH", HB_COMPLETE_SIMD, NULL,
     "{values} (default auto: the best path this CPU runs)"},
    {"allow-misplaced", 0, OPT_ALLOW_MISPLACED, NULL, HB_COMPLETE_NONE, NULL,
     "report pages off target instead of failing"},
    {"threshold", 0, OPT_THRESHOLD, "PCT", HB_COMPLETE_NONE, NULL,
     "matrix: flag same-class pairs differing more, and target ratios differing more from the "
     "firmware's HMAT; policy --intensity: placement stops mattering where it costs less "
     "(default 5); check: the least change it calls worse (default 10)"},
    {"fleet-threshold", 0, OPT_FLEET_THRESHOLD, "PCT", HB_COMPLETE_NONE, NULL,
     "matrix: flag hosts worse than the fleet's median by more; comm: host pairs worse than "
     "the better half's median (default 35)"},
    {"export-hwloc", 0, OPT_EXPORT_HWLOC, "F", HB_COMPLETE_FILE, NULL,
     "also write hwloc XML F with the measured matrix (one file per host: F.HOST.xml when there "
     "are several; default none)"},
    {"tier", 0, OPT_TIER, "KIND", HB_COMPLETE_NONE, NULL,
     "remote = the farthest node of memory kind KIND (hwloc subtype: DRAM, HBM, "
     "CXL-DRAM...; default the CPU node's own kind and tier)"},
    {"quick", 0, OPT_QUICK, NULL, HB_COMPLETE_NONE, NULL,
     "a representative subset (minutes, not the full study)"},
    {"tolerance", 0, OPT_TOLERANCE, "PCT", HB_COMPLETE_NONE, NULL,
     "myth 1 holds while a hop class spreads less (default 5)"},
    {"bg-rate", 0, OPT_BG_RATE, "GBPS", HB_COMPLETE_NONE, NULL,
     "per background thread at level very-high; low/medium/high are 1/8, 1/4, 1/2 of it "
     "(default: those shares of each thread's own measured unpaced rate, very-high unpaced)"},
    {"level", 0, OPT_LEVEL, "L[,L]", HB_COMPLETE_WORDS, hb_options_bg_level_names + 1,
     "{values} (default all)"},
    {"subscription", 0, OPT_SUBSCRIPTION, "S[,S]", HB_COMPLETE_WORDS, hb_options_subscription_names,
     "{values}: background threads per node, 1, all but one or every core (default "
     "all)"},
    {"load-nodes", 0, OPT_LOAD_NODES, "N[,N]", HB_COMPLETE_NONE, NULL,
     "nodes that run load threads (default every CPU node; comm --bg: those a rank sits on)"},
    {"bg", 0, OPT_BG, "LEVEL", HB_COMPLETE_WORDS, hb_options_bg_level_names + 1,
     "also run each experiment under the hops suite's background read load at LEVEL "
     "({values}) on --load-nodes, idle and loaded in turn (default: idle only)"},
    {"op", 0, OPT_OP, "OP[,OP]", HB_COMPLETE_WORDS, hb_coll_op_names,
     "coll: the collectives to time, {values} (default all)"},
    {"root", 0, OPT_ROOT, "R", HB_COMPLETE_NONE, NULL,
     "coll: the rank that is the root of reduce and bcast (default: the first rank of each "
     "node in turn)"},
    {"clean-buffers", 0, OPT_CLEAN_BUFFERS, NULL, HB_COMPLETE_NONE, NULL,
     "coll: reuse the send buffer unchanged between iterations, as OSU does (default: "
     "rewritten before each)"},
    {"baseline", 0, OPT_BASELINE, "FILE", HB_COMPLETE_FILE, NULL,
     "check: judge each cell against FILE, an earlier check or any run with these cells "
     "(JSON Lines) of this machine (default: the history, else the run's peers)"},
    {"history", 0, OPT_HISTORY, "URL", HB_COMPLETE_NONE, NULL,
     "check: judge each cell against this host's last healthy points in the run history at URL "
     "(a SQLite file or postgresql://..., as hopbench history add writes it)"},
    {"nodes", 0, OPT_NODES, "LIST", HB_COMPLETE_NONE, NULL,
     "only these NUMA nodes (OS indexes and ranges, e.g. 0-3,8; default every node)"},
    {"mix", 0, OPT_MIX, "M", HB_COMPLETE_WORDS, hb_options_mix_names, "{values} (default read)"},
    {"mode", 0, OPT_MODE, "M", HB_COMPLETE_WORDS, hb_options_mode_names,
     "{values}: a task on every CPU node, or one task (default both)"},
    {"intensity", 0, OPT_INTENSITY, NULL, HB_COMPLETE_NONE, NULL,
     "flops per byte 1/8..64 under local, remote and interleave, and the knee where "
     "placement stops mattering"},
    {"stride", 0, OPT_STRIDE, "B[,B]", HB_COMPLETE_NONE, NULL,
     "latency: one line visited per B bytes, a power of two >= 64 (default 256: no two visited "
     "lines share a 128-byte pair); a list sweeps strides in lat and sweep (64 shows the "
     "prefetchers at work)"},
    {"tlb-group", 0, OPT_TLB_GROUP, "B|all", HB_COMPLETE_NONE, NULL,
     "latency: lines are shuffled within groups of B bytes visited in random order (default "
     "256K, 64 pages of 4 KiB); all = one shuffle over the whole buffer, page walks included"},
    {"chains", 0, OPT_CHAINS, "N[,N]", HB_COMPLETE_NONE, NULL,
     "latency: N independent chases interleaved in each thread, 1 to 64 (default 1); a list "
     "measures each count: the misses a core keeps in flight (memory-level parallelism)"},
    {"max-size", 0, OPT_MAX_SIZE, "S", HB_COMPLETE_NONE, NULL,
     "largest working set (default 2G; at most 1/4 of the memory node's free memory)"},
    {"max-time", 0, OPT_MAX_TIME, "SEC", HB_COMPLETE_NONE, NULL,
     "balance: longest wait for automatic NUMA balancing to bring the pages to the CPU node "
     "(default 60); with --repeat auto: no round starts that would end past it; check: the time "
     "its repeats fill, up to 50 (default: 10 repeats, fewer where they would take over 45 s); "
     "from 2 to 3600 seconds"},
    {"cores", 0, OPT_CORES, NULL, HB_COMPLETE_NONE, NULL,
     "also the core x core latency matrix (cores^2 pairs)"},
    {"home", 0, OPT_HOME, "H", HB_COMPLETE_NONE, NULL,
     "node of the shared line: writer | reader | N (default writer)"},
    {"quiet", 0, OPT_QUIET, NULL, HB_COMPLETE_NONE, NULL, "no progress or notes on stderr"},
    {"progress", 0, OPT_PROGRESS, NULL, HB_COMPLETE_NONE, NULL,
     "progress on stderr even when it is not a terminal"},
    {"help", 'h', OPT_HELP, NULL, HB_COMPLETE_NONE, NULL,
     "the command's usage, options and examples (no command: the overview)"},
    {"version", 0, OPT_VERSION, NULL, HB_COMPLETE_NONE, NULL, "version and git commit"},
    {NULL, 0, 0, NULL, HB_COMPLETE_NONE, NULL, NULL},
};

const char *hb_opt_doc_name(int id)
{
    for (const struct hb_opt_doc *o = hb_opt_docs; o->name; o++)
        if (o->id == id) return o->name;
    return "?";
}

/* Why a command has no use for an option, where the option's name suggests it might: the
 * refusal says so. id 0: any option the command does not take. */
static const struct {
    const char *command;
    int id;
    const char *why;
} why_not[] = {
    {"lat", OPT_KERNEL, "it always runs the pointer chase"},
    {"lat", OPT_THREADS, "one thread chases (--chains N: N chains at once from it)"},
    {"c2c", OPT_SIZE, "it ping-pongs single cache lines"},
    {"bw", OPT_INTENSITY, "the compute-intensity study is policy --intensity"},
    {"topo", 0, "it measures nothing, it shows the machine"},
};

const char *hb_opt_doc_why_not(const char *command, int id)
{
    for (size_t i = 0; i < sizeof(why_not) / sizeof(why_not[0]); i++)
        if (strcmp(why_not[i].command, command) == 0 && (why_not[i].id == id || why_not[i].id == 0))
            return why_not[i].why;
    return NULL;
}
