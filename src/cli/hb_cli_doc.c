/* The command-line tables (see hb_cli_doc.h): edit here and --help, the man page and the
 * shell completion follow. */
#include "hb_cli_doc.h"

#include "hb_compare.h"
#include "hb_export.h"
#include "hb_history.h"
#include "hb_report_route.h"
#include "hb_options.h"
#include "hb_format.h"
#include "hb_placement.h"
#include "hb_report.h"
#include "hb_suite.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const int hb_cli_doc_run_takes[] = {
    OPT_MIN_TIME, OPT_REPS, OPT_REPEAT, OPT_MAX_TIME, OPT_NOISE, OPT_FORMAT, OPT_DRY_RUN,
    OPT_TOPOLOGY, OPT_SEED, OPT_QUIET,  OPT_PROGRESS, OPT_SIMD,  OPT_HELP,   OPT_ALLOW_MISPLACED,
    OPT_VERSION,  0};
static const int topo_takes[] = {OPT_TOPOLOGY, OPT_FORMAT, OPT_QUIET, OPT_HELP, OPT_VERSION, 0};

const struct hb_cmd_doc hb_cli_doc_commands[] = {
    {"topo", NULL,
     "nodes with their packages, cores, SMT and CPU caches, memory, distances, hop classes and "
     "the launch lines",
     NULL, topo_takes, false, NULL, NULL, NULL, 0, NULL},
    {"report", hb_report_operands,
     "one self-contained HTML report with figures and tables of the records; -o NAME.txt or "
     "NAME.csv: the records as the table or CSV a run prints; --history DB: the run history's "
     "time plots with their change points and configuration changes, and a cell's fleet heatmap "
     "of host x night (--cell)",
     hb_report_route_main, NULL, false, NULL, hb_report_opts, NULL, 0, NULL},
    {"compare", hb_compare_operands,
     "regression gate: worse, better, same, unclear or undetermined per record, decided on the "
     "runs' independent repeats: worse or better when the rank test (Mann-Whitney U) separates "
     "them after the family's control over all rows (--fdr, --fwer) and the change passes "
     "--threshold; same only when the change's interval lies inside +-threshold; else unclear, "
     "with the repeats that would decide it. Exit 1 when worse, 5 when none is worse but some "
     "row is unclear or undetermined, 4 when measurements of BASE are missing from NEW, 2 for "
     "unusable, mismatched or duplicated records or runs of different machines; the "
     "configuration knobs in which the runs differ come first ({docdir}/docs/config.md)",
     hb_compare_main, NULL, false, NULL, hb_compare_opts, NULL, 0, NULL},
    {"export", hb_export_operands,
     "the machine's topology with the measured matrix as hwloc distances and memory "
     "attributes (one host of a fleet's results: --host)",
     hb_export_main, NULL, false, NULL, hb_export_opts, NULL, 0, NULL},
    {"history", hb_history_operands,
     "every run kept in a database ({docdir}/docs/history.md): add stores result files (SQLite, "
     "or PostgreSQL for a fleet; the same run twice is stored once); check finds the change "
     "points of each series (host x compare's identity x metric) by E-divisive means over the "
     "repeats, with the configuration knobs and hopbench versions that changed there, the "
     "false discovery rate controlled over all series, and each host's configuration changes "
     "as rows of their own, exit 1 when a worse one falls in the last --recent runs; export writes "
     "the series as InfluxDB line protocol or CSV, or the "
     "change points as Grafana annotations",
     hb_history_main, NULL, false, NULL, hb_history_opts, NULL, 0, NULL},
    {NULL, NULL, NULL, NULL, NULL, false, NULL, NULL, NULL, 0, NULL},
};

const struct hb_cmd_doc *hb_cli_doc_own_args(const char *name)
{
    for (const struct hb_cmd_doc *c = hb_cli_doc_commands; c->name; c++)
        if (c->main && strcmp(c->name, name) == 0) return c;
    return NULL;
}

bool hb_cli_doc_command_at(size_t i, struct hb_cmd_doc *out)
{
    size_t nsuites = 0;
    while (hb_suites[nsuites])
        nsuites++;
    if (i < nsuites) {
        const struct hb_suite *st = hb_suites[i];
        *out =
            (struct hb_cmd_doc){st->name,     st->args,  st->help, NULL,        st->takes,
                                true,         st->drops, NULL,     st->kernels, st->needs_mem_nodes,
                                st->needs_why};
        return true;
    }
    *out = hb_cli_doc_commands[i - nsuites];
    return out->name != NULL;
}

static bool id_in(const int *ids, int id)
{
    for (; ids && *ids; ids++)
        if (*ids == id) return true;
    return false;
}

bool hb_cli_doc_takes(const struct hb_cmd_doc *c, int id)
{
    return id == 'o' || id_in(c->takes, id) ||
           (c->runs && id_in(hb_cli_doc_run_takes, id) && !id_in(c->drops, id));
}

char *hb_cli_doc_drops_list(const struct hb_cmd_doc *c)
{
    struct hb_cmd_doc dropped = {.takes = c->drops};
    return c->drops ? hb_cli_doc_takes_list(&dropped) : NULL;
}

char *hb_cli_doc_takes_list(const struct hb_cmd_doc *c)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return NULL;
    /* In the option table's order, as --help lists them; help and version go unsaid. */
    const char *sep = "";
    for (const struct hb_opt_doc *o = hb_opt_docs; o->name; o++)
        if (id_in(c->takes, o->id) && o->id != OPT_HELP && o->id != OPT_VERSION) {
            fprintf(f, "%s--%s", sep, o->name);
            sep = " ";
        }
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

bool hb_cli_doc_command_find(const char *name, struct hb_cmd_doc *out)
{
    for (size_t i = 0; hb_cli_doc_command_at(i, out); i++)
        if (strcmp(out->name, name) == 0) return true;
    return false;
}

const struct hb_term_doc hb_cli_doc_exits[] = {
    {"0", "success"},
    {"1", "a measurement failed validation or placement (pages or threads off target); "
          "history check: a worse change point in the last --recent runs"},
    {"2", "bad usage or input: the message names the value and what would be valid"},
    {"3", "environment: binding impossible, wrong rank layout, out of memory, unwritable output"},
    {"4", "compare: measurements of BASE are missing from NEW (a crashed or empty run)"},
    {"5", "compare: nothing worse, but some record is unclear or undetermined: its repeats "
          "cannot yet tell (rerun with more repeats, or --repeat auto)"},
    {NULL, NULL},
};

const struct hb_term_doc hb_cli_doc_env[] = {
    {"OMP_PLACES, OMP_PROC_BIND",
     "thread placement; when unset hopbench sets cores/close and says so in the run record; "
     "OMP_PROC_BIND=false (unbound threads) is refused, and places wider than a core "
     "(numa_domains, sockets) fail the measurement"},
    {"OMP_NUM_THREADS", "threads per task when --threads is not given (means --threads)"},
    {"OMPI_COMM_WORLD_SIZE, SLURM_PROCID, PMIX_RANK, PMI_RANK",
     "set by mpirun, srun or hydra; without them hopbench runs alone and starts no MPI; with "
     "several ranks, report, compare, export, c2c, --dry-run and topo -o refuse (topo: one "
     "rank per host)"},
    {"HWLOC_XMLFILE, HWLOC_SYNTHETIC, HWLOC_FSROOT",
     "another machine's topology: topo and --dry-run only, unless HWLOC_THISSYSTEM=1 says it "
     "is this machine"},
    {"HOPBENCH_RANK_CPUS",
     "CPU lists separated by ':' (0-7:8-15): each rank binds itself to the list of its rank on "
     "its host before anything starts (the line topo prints where CPU nodes are neither all "
     "nodes nor packages: mpirun --bind-to none -x HOPBENCH_RANK_CPUS=...)"},
    {"HOPBENCH_HISTORY",
     "history: the database when --db is not given (an SQLite file or a postgresql:// URL); "
     "run-local.sh and the Slurm jobs add each finished run to it"},
    {"HOPBENCH_HOST", "tests only: makes ranks on one machine act as separate hosts"},
    {"TMPDIR",
     "where rank 0 keeps the records that wait for their last --repeat, and the part of each "
     "record a suite's derived records read (unlinked files; default /tmp)"},
    {"HOPBENCH_DEBUG_HELD",
     "tests only: a file where rank 0 writes the most measurement records it held in memory "
     "at once"},
    {"HOPBENCH_DEBUG_KEEP",
     "tests only: 1 makes rank 0 keep whole records beside the part of them a suite's derived "
     "records read, and stop with status 3 when that part gives other derived records"},
    {NULL, NULL},
};

/* One or more a command, every command: `hopbench help COMMAND` shows its own. */
const struct hb_example_doc hb_cli_doc_examples[] = {
    {"", "hopbench", "the quick default suite on this machine, as a table"},
    {"bw", "hopbench bw --kernel triad --cpu-node 0 --mem-node 1 --size 1G",
     "one bandwidth figure from node 0's CPUs to node 1's memory"},
    {"lat", "hopbench lat --cpu-node 0 --mem-node 1 --chains 1,4",
     "node 0's idle latency to node 1's memory, one chain and four at once"},
    {"matrix", "mpirun -np 2 --map-by numa --bind-to numa hopbench matrix -o m.jsonl",
     "the node x node matrix on a two-node machine, as JSON Lines"},
    {"hops", "mpirun -np 4 --map-by numa --bind-to numa hopbench hops --quick -o hops.jsonl",
     "the hop study's representative subset on a four-node machine"},
    {"loaded", "hopbench loaded --mix read --load-nodes 0 -o loaded.jsonl",
     "latency under rising read load from node 0: the knee"},
    {"run", "hopbench run {datadir}/hopbench/scenarios/one-node-load.scn",
     "the experiments of an example scenario file"},
    {"policy", "hopbench policy --mode rate -o policy.jsonl",
     "every workload under every placement policy, a task on every CPU node"},
    {"peak", "hopbench peak --kernel read", "every node's cores reading their own memory at once"},
    {"sweep", "hopbench sweep --max-size 256M -o sweep.csv",
     "latency and bandwidth from 1 KiB to 256 MiB, as CSV"},
    {"c2c", "hopbench c2c --home writer", "cache-line transfer latency between cores of each node"},
    {"migrate", "hopbench migrate --size 256M", "what moving 256 MiB of pages between nodes costs"},
    {"balance", "hopbench balance --max-time 30",
     "how soon automatic NUMA balancing brings remote pages home (30 s at most)"},
    {"comm", "mpirun -np 2 --map-by numa --bind-to numa hopbench comm --size 8,64K -o comm.jsonl",
     "8-byte and 64 KiB message latency and bandwidth between two nodes' ranks"},
    {"coll",
     "mpirun --map-by numa --bind-to numa hopbench coll --op allreduce,bcast --size 8,64K -o "
     "coll.jsonl",
     "allreduce and bcast over ranks by hop class and the world, each node as bcast's root"},
    {"check", "hopbench check --baseline base.jsonl",
     "this node's health against an earlier check of it: exit 0 healthy, 1 degraded, 5 cannot "
     "tell"},
    {"topo", "hopbench topo", "the nodes and the mpirun/srun lines for one rank per node"},
    {"report", "hopbench report m.jsonl -o report.html", "the HTML report of a result file"},
    {"compare", "hopbench compare base.jsonl new.jsonl -o diff.jsonl",
     "exit 1 when new.jsonl is significantly worse; the rows also in diff.jsonl"},
    {"export", "hopbench export m.jsonl -o machine.xml",
     "this machine's hwloc topology with the measured matrix"},
    {"history", "hopbench history add results/*/results.jsonl",
     "store every run so far in ./hopbench-history.sqlite"},
    {"history", "hopbench history check --since 2026-11-01",
     "the change points of every series since November; exit 1 when the last run stepped "
     "worse"},
    {"history", "hopbench history export --format influx -o fleet.lp",
     "every point as InfluxDB line protocol"},
    {NULL, NULL, NULL},
};

const struct hb_term_doc hb_cli_doc_files[] = {
    {"hopbench/hopbench-mpirun.sh",
     "runs hopbench with one MPI rank per NUMA node (the line hopbench topo prints)"},
    {"hopbench/run-local.sh",
     "runs a study, writes results/<timestamp>/results.jsonl, its table and report.html"},
    {"hopbench/slurm/*.sbatch", "Slurm jobs: one host, or the fleet matrix on many"},
    {"hopbench/studies/", "example studies for the launchers"},
    {"hopbench/scenarios/", "example scenario files for hopbench run FILE"},
    {NULL, NULL},
};
