/* The command-line tables (see hb_cli_doc.h): edit here and --help, the man page and the
 * shell completion follow. */
#include "hb_cli_doc.h"

#include "hb_compare.h"
#include "hb_export.h"
#include "hb_options.h"
#include "hb_output.h"
#include "hb_placement.h"
#include "hb_report.h"
#include "hb_suite.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const int hb_run_takes[] = {
    OPT_MIN_TIME,        OPT_REPS,    OPT_REPEAT, OPT_NOISE,    OPT_FORMAT, OPT_DRY_RUN,
    OPT_TOPOLOGY,        OPT_SEED,    OPT_QUIET,  OPT_PROGRESS, OPT_SIMD,   OPT_HELP,
    OPT_ALLOW_MISPLACED, OPT_VERSION, 0};
static const int hb_topo_takes[] = {OPT_TOPOLOGY, OPT_FORMAT, OPT_QUIET, OPT_HELP, OPT_VERSION, 0};

const struct hb_cmd_doc hb_cmd_docs[] = {
    {"topo", NULL,
     "nodes with their packages, cores, SMT and CPU caches, memory, distances, hop classes and "
     "the launch lines",
     NULL, hb_topo_takes, false},
    {"report", "RESULTS.jsonl... -o report.html",
     "one self-contained HTML report with figures and tables of the records", hb_report_main, NULL,
     false},
    {"compare", "BASE.jsonl NEW.jsonl",
     "regression gate: worse, better, same, noise or undetermined per record, decided on the "
     "runs' independent repeats (Mann-Whitney U) and --threshold; exit 1 when worse, 4 when "
     "measurements of BASE are missing from NEW, 2 for unusable, mismatched or duplicated "
     "records or runs of different machines (--allow-different-machines); the configuration "
     "knobs in which the runs differ come first (docs/config.md)",
     hb_compare_main, NULL, false},
    {"export", "RESULTS.jsonl -o FILE.xml [--topology FILE.xml] [--host NAME]",
     "the machine's topology with the measured matrix as hwloc distances and memory "
     "attributes (one host of a fleet's results: --host)",
     hb_export_main, NULL, false},
    {NULL, NULL, NULL, NULL, NULL, false},
};

const struct hb_cmd_doc *hb_cmd_own_args(const char *name)
{
    for (const struct hb_cmd_doc *c = hb_cmd_docs; c->name; c++)
        if (c->main && strcmp(c->name, name) == 0) return c;
    return NULL;
}

bool hb_command_at(size_t i, struct hb_cmd_doc *out)
{
    size_t nsuites = 0;
    while (hb_suites[nsuites])
        nsuites++;
    if (i < nsuites) {
        const struct hb_suite *st = hb_suites[i];
        *out = (struct hb_cmd_doc){st->name, st->args, st->help, NULL, st->takes, true};
        return true;
    }
    *out = hb_cmd_docs[i - nsuites];
    return out->name != NULL;
}

static bool hb_in(const int *ids, int id)
{
    for (; ids && *ids; ids++)
        if (*ids == id) return true;
    return false;
}

bool hb_cmd_takes(const struct hb_cmd_doc *c, int id)
{
    return id == 'o' || hb_in(c->takes, id) || (c->runs && hb_in(hb_run_takes, id));
}

const char *hb_opt_name(int id)
{
    for (const struct hb_opt_doc *o = hb_opt_docs; o->name; o++)
        if (o->id == id) return o->name;
    return "?";
}

char *hb_cmd_takes_list(const struct hb_cmd_doc *c)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return NULL;
    /* In the option table's order, as --help lists them; help and version go unsaid. */
    const char *sep = "";
    for (const struct hb_opt_doc *o = hb_opt_docs; o->name; o++)
        if (hb_in(c->takes, o->id) && o->id != OPT_HELP && o->id != OPT_VERSION) {
            fprintf(f, "%s--%s", sep, o->name);
            sep = " ";
        }
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

bool hb_command_find(const char *name, struct hb_cmd_doc *out)
{
    for (size_t i = 0; hb_command_at(i, out); i++)
        if (strcmp(out->name, name) == 0) return true;
    return false;
}

const struct hb_opt_doc hb_opt_docs[] = {
    {"kernel", 0, OPT_KERNEL, "K[,K]", HB_COMPLETE_KERNELS, NULL, "kernels (see the kernel list)"},
    {"cpu-node", 0, OPT_CPU_NODE, "N", HB_COMPLETE_NONE, NULL,
     "node whose CPUs run the threads (default: first CPU node)"},
    {"mem-node", 0, OPT_MEM_NODE, "N", HB_COMPLETE_NONE, NULL,
     "node that holds the memory (default: the CPU node)"},
    {"policy", 0, OPT_POLICY, "P", HB_COMPLETE_WORDS, hb_policy_names, "{values} (default bind)"},
    {"threads", 0, OPT_THREADS, "N", HB_COMPLETE_NONE, NULL,
     "threads (default: every core of the node)"},
    {"size", 0, OPT_SIZE, "S", HB_COMPLETE_NONE, NULL,
     "working set, e.g. 64M, 1GiB (default: 4x last-level cache, capped; the run record says "
     "where the size came from)"},
    {"pages", 0, OPT_PAGES, "P", HB_COMPLETE_WORDS, hb_pages_names,
     "{values} (huge: hugetlbfs 2 MiB pages; default 4k)"},
    {"min-time", 0, OPT_MIN_TIME, "SEC", HB_COMPLETE_NONE, NULL,
     "least time per sample (default 0.05)"},
    {"reps", 0, OPT_REPS, "N", HB_COMPLETE_NONE, NULL,
     "kept samples per repeat of a measurement (default 3)"},
    {"repeat", 0, OPT_REPEAT, "N", HB_COMPLETE_NONE, NULL,
     "independent repeats of every measurement, each on fresh memory (new allocation, first "
     "touch, pages verified, new chase permutation), taken in turn with the other experiments; "
     "a figure is the median of its repeats with a 95% interval (default 5)"},
    {"noise", 0, OPT_NOISE, "PCT", HB_COMPLETE_NONE, NULL,
     "a figure is noisy when its interval's half-width exceeds PCT of it (default 5)"},
    {"format", 0, OPT_FORMAT, "F", HB_COMPLETE_WORDS, hb_format_names,
     "{values} (default: from -o FILE's name, .jsonl or .json: jsonl, .csv: csv, else table)"},
    {"output", 'o', 'o', "FILE", HB_COMPLETE_FILE, NULL, "write results to FILE (default stdout)"},
    {"dry-run", 0, OPT_DRY_RUN, NULL, HB_COMPLETE_NONE, NULL,
     "print the plan as JSON Lines, run nothing"},
    {"topology", 0, OPT_TOPOLOGY, "FILE", HB_COMPLETE_FILE, NULL,
     "plan for an hwloc XML topology (only topo and --dry-run)"},
    {"seed", 0, OPT_SEED, "N", HB_COMPLETE_NONE, NULL, "seed for random permutations (default 1)"},
    {"simd", 0, OPT_SIMD, "PATH", HB_COMPLETE_SIMD, NULL,
     "{values} (default auto: the best path this CPU runs)"},
    {"allow-misplaced", 0, OPT_ALLOW_MISPLACED, NULL, HB_COMPLETE_NONE, NULL,
     "report pages off target instead of failing"},
    {"threshold", 0, OPT_THRESHOLD, "PCT", HB_COMPLETE_NONE, NULL,
     "matrix: flag same-class pairs differing more, and target ratios differing more from the "
     "firmware's HMAT (default 5)"},
    {"fleet-threshold", 0, OPT_FLEET_THRESHOLD, "PCT", HB_COMPLETE_NONE, NULL,
     "matrix: flag hosts worse than the fleet's median by more; comm: host pairs worse than "
     "the better half's median (default 35)"},
    {"export-hwloc", 0, OPT_EXPORT_HWLOC, "F", HB_COMPLETE_FILE, NULL,
     "matrix: also write hwloc XML F with the measured matrix (one file per host: F.HOST.xml "
     "when there are several)"},
    {"tier", 0, OPT_TIER, "KIND", HB_COMPLETE_NONE, NULL,
     "policy: remote = the farthest node of memory kind KIND (hwloc subtype: DRAM, HBM, "
     "CXL-DRAM...; default the CPU node's own kind and tier)"},
    {"quick", 0, OPT_QUICK, NULL, HB_COMPLETE_NONE, NULL,
     "hops, loaded: a representative subset (minutes, not the full study)"},
    {"tolerance", 0, OPT_TOLERANCE, "PCT", HB_COMPLETE_NONE, NULL,
     "hops: myth 1 holds while a hop class spreads less (default 5)"},
    {"bg-rate", 0, OPT_BG_RATE, "GBPS", HB_COMPLETE_NONE, NULL,
     "per background thread at level very-high; low/medium/high are 1/8, 1/4, 1/2 of it "
     "(default: those shares of each thread's own measured unpaced rate, very-high unpaced)"},
    {"level", 0, OPT_LEVEL, "L[,L]", HB_COMPLETE_WORDS, hb_bg_level_names + 1,
     "hops: {values} (default all)"},
    {"subscription", 0, OPT_SUBSCRIPTION, "S[,S]", HB_COMPLETE_WORDS, hb_subscription_names,
     "hops: {values}: background threads per node, 1, all but one or every core (default "
     "all)"},
    {"load-nodes", 0, OPT_LOAD_NODES, "N[,N]", HB_COMPLETE_NONE, NULL,
     "loaded: nodes that run load threads (default every CPU node)"},
    {"nodes", 0, OPT_NODES, "LIST", HB_COMPLETE_NONE, NULL,
     "matrix, hops, loaded, policy, peak, sweep, c2c, comm: only these NUMA nodes (OS indexes "
     "and ranges, e.g. 0-3,8; default every node)"},
    {"mix", 0, OPT_MIX, "M", HB_COMPLETE_WORDS, hb_mix_names, "loaded: {values} (default read)"},
    {"mode", 0, OPT_MODE, "M", HB_COMPLETE_WORDS, hb_mode_names,
     "policy: {values}: a task on every CPU node, or one task (default both)"},
    {"intensity", 0, OPT_INTENSITY, NULL, HB_COMPLETE_NONE, NULL,
     "policy: flops per byte 1/8..64 under local, remote and interleave, and the knee where "
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
     "sweep: largest working set (default 2G; at most 1/4 of the memory node's free memory)"},
    {"cores", 0, OPT_CORES, NULL, HB_COMPLETE_NONE, NULL,
     "c2c: also the core x core latency matrix (cores^2 pairs)"},
    {"home", 0, OPT_HOME, "H", HB_COMPLETE_NONE, NULL,
     "c2c: node of the shared line: writer | reader | N (default writer)"},
    {"quiet", 0, OPT_QUIET, NULL, HB_COMPLETE_NONE, NULL, "no progress or notes on stderr"},
    {"progress", 0, OPT_PROGRESS, NULL, HB_COMPLETE_NONE, NULL,
     "progress on stderr even when it is not a terminal"},
    {"help", 0, OPT_HELP, NULL, HB_COMPLETE_NONE, NULL, "this text"},
    {"version", 0, OPT_VERSION, NULL, HB_COMPLETE_NONE, NULL, "version and git commit"},
    {NULL, 0, 0, NULL, HB_COMPLETE_NONE, NULL, NULL},
};

const struct hb_term_doc hb_exit_docs[] = {
    {"0", "success"},
    {"1", "a measurement failed validation or placement (pages or threads off target)"},
    {"2", "bad usage or input: the message names the value and what would be valid"},
    {"3", "environment: binding impossible, wrong rank layout, out of memory, unwritable output"},
    {"4", "compare: measurements of BASE are missing from NEW (a crashed or empty run)"},
    {NULL, NULL},
};

const struct hb_term_doc hb_env_docs[] = {
    {"OMP_PLACES, OMP_PROC_BIND",
     "thread placement; when unset hopbench sets cores/close and says so in the run record; "
     "OMP_PROC_BIND=false (unbound threads) is refused"},
    {"OMP_NUM_THREADS", "threads per task when --threads is not given (means --threads)"},
    {"OMPI_COMM_WORLD_SIZE, SLURM_PROCID, PMIX_RANK, PMI_RANK",
     "set by mpirun, srun or hydra; without them hopbench runs alone and starts no MPI; with "
     "several ranks, report, compare, export, c2c, --dry-run and topo -o refuse (topo: one "
     "rank per host)"},
    {"HWLOC_XMLFILE, HWLOC_SYNTHETIC, HWLOC_FSROOT",
     "another machine's topology: topo and --dry-run only, unless HWLOC_THISSYSTEM=1 says it "
     "is this machine"},
    {"HOPBENCH_HOST", "tests only: makes ranks on one machine act as separate hosts"},
    {NULL, NULL},
};

const struct hb_term_doc hb_example_docs[] = {
    {"hopbench", "the quick default suite on this machine, as a table"},
    {"hopbench topo", "the nodes and the mpirun/srun lines for one rank per node"},
    {"mpirun -np 2 --map-by numa --bind-to numa hopbench matrix -o m.jsonl",
     "the node x node matrix on a two-node machine, as JSON Lines"},
    {"hopbench bw --kernel triad --cpu-node 0 --mem-node 1 --size 1G",
     "one bandwidth figure from node 0's CPUs to node 1's memory"},
    {"hopbench report m.jsonl -o report.html", "the HTML report of a result file"},
    {"hopbench compare base.jsonl new.jsonl", "exit 1 when new.jsonl is significantly worse"},
    {NULL, NULL},
};

const struct hb_term_doc hb_file_docs[] = {
    {"hopbench/hopbench-mpirun.sh",
     "runs hopbench with one MPI rank per NUMA node (the line hopbench topo prints)"},
    {"hopbench/run-local.sh",
     "runs a study, writes results/<timestamp>/results.jsonl, its table and report.html"},
    {"hopbench/slurm/*.sbatch", "Slurm jobs: one host, or the fleet matrix on many"},
    {"hopbench/studies/", "example studies for the launchers"},
    {"hopbench/scenarios/", "example scenario files for hopbench run FILE"},
    {NULL, NULL},
};
