/* The measured matrix handed back to hwloc: the machine's topology as hwloc XML with the
 * measured latency and bandwidth as distance matrices (FROM_USER, named hopbench-measured-*)
 * and as memory attributes per CPU node (initiator) x memory node (target), so lstopo,
 * hwloc-info and hwloc-based runtimes (HWLOC_XMLFILE) read measured figures. */
#ifndef HB_EXPORT_H
#define HB_EXPORT_H

#include "hb_opt_doc.h"
#include "hb_topo.h"

#include <jansson.h>

/* Names in the exported file. */
#define HB_EXPORT_DIST_LATENCY "hopbench-measured-latency"
/* comm: one-way MPI message latency between the ranks of two nodes, ns (8 B messages). */
#define HB_EXPORT_DIST_MPI "hopbench-mpi-latency"
#define HB_EXPORT_DIST_BANDWIDTH "hopbench-measured-bandwidth"
#define HB_EXPORT_ATTR_LATENCY "HopbenchMeasuredLatency"
#define HB_EXPORT_ATTR_BANDWIDTH "HopbenchMeasuredBandwidth"

/* Can path be written, as hb_outfile_check (inputs: the command's input files, NULL-ended)?
 * Creates nothing. 0, or -errno with a message naming the path and `opt` (the option that
 * gave it). */
int hb_export_check_path(const char *path, const char *opt, const char *const *inputs);

/* A host's topology; host NULL stands for any host. */
struct hb_host_topo {
    const char *host;
    const struct hb_topo *topo;
};

/* What export writes out: a memory matrix (type matrix) of latency or bandwidth, or comm's
 * matrix of MPI message latency (type comm_matrix). */
bool hb_export_wanted(const json_t *rec);

/* Write each host of ht (n entries) that has `matrix` records in `records` (latency: chase;
 * bandwidth: read, else the first bandwidth kernel) with its own topology to path, one file
 * per host: path itself for one host, else "STEM.HOST.xml". Written through a temporary and
 * renamed. Returns 0; -EINVAL with a message when no host of ht has a measured latency or
 * bandwidth matrix; -errno when a file cannot be written. */
int hb_export_records(const struct hb_host_topo *ht, int n, json_t *records, const char *path);

/* `hopbench export RESULTS.jsonl -o FILE.xml [--topology FILE.xml]`: argv[0] is "export".
 * Returns the exit code. */
int hb_export_main(int argc, char **argv);

/* Its usage line's operands and its options (hb_args.h), as its help lists them. */
extern const char hb_export_operands[];
extern const struct hb_opt_doc hb_export_opts[];

#endif
