/* `hopbench export` and --export-hwloc (hb_export.h): the measured matrix written into the
 * machine's hwloc XML as distances and memory attributes. */
#include "hb_export.h"

#include "hb_args.h"

#include "hb_error.h"
#include "hb_outfile.h"
#include "hb_jsonl_read.h"
#include "hb_topo_mem.h"
#include "hb_version.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int hb_export_check_path(const char *path, const char *opt, const char *const *inputs)
{
    /* The same checks as every output: no directory, no dangling link, a name that fits,
     * not one of the command's inputs. */
    int rc = hb_outfile_check(path, inputs);
    if (rc) {
        char why[1024];
        snprintf(why, sizeof(why), "%s", hb_error_msg());
        /* hb_outfile's reason without its own "cannot write output file 'PATH': " */
        const char *reason = strstr(why, "': ");
        reason = strncmp(why, "cannot write output file", 24) == 0 && reason ? reason + 3 : why;
        hb_error_set("cannot write %s '%s': %s", opt, path, reason);
        return rc;
    }
    return 0;
}

bool hb_export_wanted(const json_t *rec)
{
    const char *type = hb_jsonl_read_str(rec, "type", ""),
               *m = hb_jsonl_read_str(rec, "metric", "");
    if (strcmp(type, "comm_matrix") == 0) return strcmp(m, "latency") == 0;
    return strcmp(type, "matrix") == 0 &&
           (strcmp(m, "latency") == 0 || strcmp(m, "bandwidth") == 0);
}

/* comm's message latency matrix of host, or NULL. */
static json_t *export_pick_mpi(json_t *records, const char *host)
{
    json_t *rec;
    size_t k;
    json_array_foreach(records, k, rec)
    {
        bool comm = strcmp(hb_jsonl_read_str(rec, "type", ""), "comm_matrix") == 0;
        if (comm && strcmp(hb_jsonl_read_str(rec, "host", ""), host) == 0 && hb_export_wanted(rec))
            return rec;
    }
    return NULL;
}

/* One measured matrix in node-index form: NAN where not measured. */
struct hb_export_grid {
    const char *kernel;
    double *v; /* nnodes x nnodes (HB_AT) */
};

/* The matrix record of host/metric: latency from chase; bandwidth from read, else the
 * first bandwidth kernel. */
static json_t *export_pick(json_t *records, const char *host, bool latency)
{
    json_t *best = NULL, *rec;
    size_t k;
    json_array_foreach(records, k, rec)
    {
        if (strcmp(hb_jsonl_read_str(rec, "type", ""), "matrix") != 0 ||
            strcmp(hb_jsonl_read_str(rec, "host", ""), host) != 0)
            continue;
        const char *metric = hb_jsonl_read_str(rec, "metric", "");
        if (strcmp(metric, latency ? "latency" : "bandwidth") != 0) continue;
        if (!best || strcmp(hb_jsonl_read_str(rec, "kernel", ""), "read") == 0) best = rec;
    }
    return best;
}

/* Values of a matrix record by node index of t; false when a row/col is not a node of t. */
static bool export_grid_fill(const struct hb_topo *t, json_t *m, struct hb_export_grid *g)
{
    for (size_t c = 0; c < (size_t)t->nnodes * (size_t)t->nnodes; c++)
        g->v[c] = NAN;
    g->kernel = hb_jsonl_read_str(m, "kernel", "");
    json_t *rows = json_object_get(m, "rows"), *cols = json_object_get(m, "cols");
    size_t r, c;
    json_t *rv, *cv;
    json_array_foreach(rows, r, rv)
    {
        int i = hb_topo_nodes_index(t, (int)json_integer_value(rv));
        if (i < 0) return false;
        json_array_foreach(cols, c, cv)
        {
            int j = hb_topo_nodes_index(t, (int)json_integer_value(cv));
            if (j < 0) return false;
            json_t *x = json_array_get(json_array_get(json_object_get(m, "values"), r), c);
            if (json_is_number(x)) HB_AT(g->v, t, i, j) = json_number_value(x);
        }
    }
    return true;
}

/* hwloc distances `name`: every NUMA node, values x scale rounded (ns, MB/s); 0 = not
 * measured (a memory-only node has no CPUs to measure from). */
static int export_distances(hwloc_topology_t hw, const struct hb_topo *t,
                            const struct hb_export_grid *g, bool latency, const char *name,
                            double scale)
{
    int n = t->nnodes;
    hwloc_obj_t *objs = calloc((size_t)n, sizeof(*objs));
    hwloc_uint64_t *values = calloc((size_t)n * (size_t)n, sizeof(*values));
    if (!values || !objs) {
        free(objs);
        free(values);
        hb_error_set("out of memory exporting a %d x %d matrix", n, n);
        return -ENOMEM;
    }
    for (int i = 0; i < n; i++) {
        objs[i] = hwloc_get_numanode_obj_by_os_index(hw, (unsigned)t->nodes[i].os_index);
        for (int j = 0; j < n; j++)
            if (!isnan(HB_AT(g->v, t, i, j)))
                values[i * n + j] = (hwloc_uint64_t)llround(HB_AT(g->v, t, i, j) * scale);
    }
    unsigned long kind =
        HWLOC_DISTANCES_KIND_FROM_USER |
        (latency ? HWLOC_DISTANCES_KIND_MEANS_LATENCY : HWLOC_DISTANCES_KIND_MEANS_BANDWIDTH);
    hwloc_distances_add_handle_t h = hwloc_distances_add_create(hw, name, kind, 0);
    int rc = h && hwloc_distances_add_values(hw, h, (unsigned)n, objs, values, 0) == 0 &&
                     hwloc_distances_add_commit(hw, h, 0) == 0
                 ? 0
                 : -EINVAL;
    free(values);
    free(objs);
    if (rc) hb_error_set("hwloc refused the measured matrix %s as distances", name);
    return rc;
}

/* Memory attributes per initiator (a CPU node's CPUs) x target: the standard ones runtimes
 * read, and hopbench's own so the measured figures stay recognisable. */
static int export_memattrs(hwloc_topology_t hw, const struct hb_topo *t,
                           const struct hb_export_grid *g, bool latency, bool write_kernel)
{
    hwloc_memattr_id_t own;
    const char *name = latency ? HB_EXPORT_ATTR_LATENCY : HB_EXPORT_ATTR_BANDWIDTH;
    unsigned long flags =
        HWLOC_MEMATTR_FLAG_NEED_INITIATOR |
        (latency ? HWLOC_MEMATTR_FLAG_LOWER_FIRST : HWLOC_MEMATTR_FLAG_HIGHER_FIRST);
    if (hwloc_memattr_get_by_name(hw, name, &own) < 0 &&
        hwloc_memattr_register(hw, name, flags, &own) < 0) {
        hb_error_set("hwloc refused to register memory attribute %s", name);
        return -EINVAL;
    }
    hwloc_memattr_id_t std[2] = {latency ? HWLOC_MEMATTR_ID_LATENCY : HWLOC_MEMATTR_ID_BANDWIDTH,
                                 latency        ? HWLOC_MEMATTR_ID_READ_LATENCY
                                 : write_kernel ? HWLOC_MEMATTR_ID_WRITE_BANDWIDTH
                                                : HWLOC_MEMATTR_ID_READ_BANDWIDTH};
    for (int i = 0; i < t->nnodes; i++) {
        if (!t->nodes[i].has_cpus) continue;
        hwloc_bitmap_t set = hwloc_bitmap_alloc();
        for (int k = 0; set && k < t->nodes[i].ncpus; k++)
            hwloc_bitmap_set(set, (unsigned)t->nodes[i].cpus[k]);
        struct hwloc_location loc = {.type = HWLOC_LOCATION_TYPE_CPUSET};
        loc.location.cpuset = set;
        for (int j = 0; set && j < t->nnodes; j++) {
            if (isnan(HB_AT(g->v, t, i, j))) continue;
            hwloc_obj_t target =
                hwloc_get_numanode_obj_by_os_index(hw, (unsigned)t->nodes[j].os_index);
            hwloc_uint64_t v = (hwloc_uint64_t)llround(latency ? HB_AT(g->v, t, i, j)
                                                               : HB_AT(g->v, t, i, j) * 1000.0);
            hwloc_memattr_set_value(hw, own, target, &loc, 0, v);
            for (int s = 0; s < 2; s++)
                hwloc_memattr_set_value(hw, std[s], target, &loc, 0, v);
        }
        hwloc_bitmap_free(set);
    }
    return 0;
}

/* path for one host: path itself when alone, else STEM.HOST.xml. NULL when out of memory. */
static char *export_host_path(const char *path, const char *host, bool several)
{
    char *out = NULL;
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    int stem = dot && (!slash || dot > slash) ? (int)(dot - path) : (int)strlen(path);
    int n = several
                ? asprintf(&out, "%.*s.%s%s", stem, path, host, path[stem] ? path + stem : ".xml")
                : asprintf(&out, "%s", path);
    return n < 0 ? NULL : out;
}

static int export_host(const struct hb_topo *t, json_t *records, const char *host, const char *path)
{
    json_t *lat = export_pick(records, host, true), *bw = export_pick(records, host, false);
    struct hb_export_grid *g = calloc(1, sizeof(*g));
    hwloc_topology_t hw = NULL;
    int rc = 0;
    if (g) g->v = malloc(sizeof(*g->v) * (size_t)t->nnodes * (size_t)t->nnodes);
    if (!g || !g->v || hwloc_topology_dup(&hw, t->hw) < 0) {
        hb_error_set("out of memory exporting the topology of host %s", host);
        if (g) free(g->v);
        free(g);
        return -ENOMEM;
    }
    json_t *ms[2] = {lat, bw};
    for (int m = 0; m < 2 && rc == 0; m++) {
        if (!ms[m]) continue;
        if (!export_grid_fill(t, ms[m], g)) {
            hb_error_set("the %s matrix of host %s names nodes this topology (%s) does not have",
                         m ? "bandwidth" : "latency", host, t->source);
            rc = -EINVAL;
            break;
        }
        bool write_kernel = strstr(g->kernel, "write") != NULL;
        /* hwloc keeps no 1 x 1 distance matrix: one node's figures go in memattrs only */
        if (t->nnodes > 1)
            rc = export_distances(hw, t, g, m == 0,
                                  m ? HB_EXPORT_DIST_BANDWIDTH : HB_EXPORT_DIST_LATENCY,
                                  m ? 1000.0 : 1.0);
        if (rc == 0) rc = export_memattrs(hw, t, g, m == 0, write_kernel);
    }
    /* MPI messages between the nodes' ranks (comm), in ns as the memory latency is. */
    json_t *mpi = export_pick_mpi(records, host);
    if (rc == 0 && mpi && !export_grid_fill(t, mpi, g)) {
        hb_error_set("the MPI latency matrix of host %s names nodes this topology (%s) does not "
                     "have",
                     host, t->source);
        rc = -EINVAL;
    }
    if (rc == 0 && mpi && t->nnodes > 1)
        rc = export_distances(hw, t, g, true, HB_EXPORT_DIST_MPI, 1000.0);
    char *text = NULL;
    if (asprintf(&text, "hopbench %s (git %s), host %s: latency %s, bandwidth %s, MPI latency %s",
                 HB_VERSION, HB_GIT_SHA, host, lat ? hb_jsonl_read_str(lat, "kernel", "") : "none",
                 bw ? hb_jsonl_read_str(bw, "kernel", "") : "none", mpi ? "comm" : "none") < 0)
        text = NULL;
    if (!text && rc == 0) {
        hb_error_set("out of memory describing the export of host %s", host);
        rc = -ENOMEM;
    }
    if (text) hwloc_obj_add_info(hwloc_get_root_obj(hw), "HopbenchMeasured", text);
    free(text);
    /* Through hb_outfile: a temporary made exclusively beside PATH, synced and renamed. */
    char *xml = NULL;
    int len = 0;
    if (rc == 0 && hwloc_topology_export_xmlbuffer(hw, &xml, &len, 0) < 0) {
        hb_error_set("cannot make hwloc XML for '%s': %s", path, strerror(errno));
        rc = -ENOMEM;
    }
    struct hb_outfile *of = NULL;
    FILE *f = NULL;
    if (rc == 0) rc = hb_outfile_open(path, false, &of, &f);
    if (rc == 0) {
        /* len counts the terminating NUL */
        fwrite(xml, 1, len > 0 ? (size_t)len - 1 : 0, f);
        int mrc = hb_outfile_mark(of);
        rc = hb_outfile_close(of, mrc == 0);
    }
    if (xml) hwloc_free_xmlbuffer(hw, xml);
    hwloc_topology_destroy(hw);
    free(g->v);
    free(g);
    return rc;
}

static const struct hb_topo *export_topo_of(const struct hb_host_topo *ht, int n, const char *host)
{
    for (int i = 0; i < n; i++)
        if (!ht[i].host || strcmp(ht[i].host, host) == 0) return ht[i].topo;
    return NULL;
}

int hb_export_records(const struct hb_host_topo *ht, int nht, json_t *records, const char *path)
{
    /* The hosts of ht that have a matrix, in record order; at most one per record. */
    const char **hosts = calloc(json_array_size(records) + 1, sizeof(*hosts));
    if (!hosts) {
        hb_error_set("out of memory listing the hosts to export");
        return -ENOMEM;
    }
    int nh = 0;
    size_t k;
    json_t *rec;
    json_array_foreach(records, k, rec)
    {
        if (!hb_export_wanted(rec)) continue;
        const char *h = hb_jsonl_read_str(rec, "host", "");
        int seen = !export_topo_of(ht, nht, h);
        for (int i = 0; i < nh && !seen; i++)
            seen = strcmp(hosts[i], h) == 0;
        if (!seen) hosts[nh++] = h;
    }
    int rc = 0;
    if (nh == 0) {
        hb_error_set("no measured latency or bandwidth matrix%s%s to export (run: hopbench matrix, "
                     "or comm for MPI latency)",
                     nht == 1 && ht[0].host ? " of host " : "",
                     nht == 1 && ht[0].host ? ht[0].host : "");
        rc = -EINVAL;
    }
    for (int i = 0; rc == 0 && i < nh; i++) {
        const struct hb_topo *t = export_topo_of(ht, nht, hosts[i]);
        char *out = export_host_path(path, hosts[i], nh > 1);
        rc = out ? export_host(t, records, hosts[i], out) : -ENOMEM;
        if (!out) hb_error_set("out of memory naming the export of host %s", hosts[i]);
        free(out);
    }
    free(hosts);
    return rc;
}

/* The results' run record describes the same nodes (OS index, CPUs, memory or not) as t. */
static int export_same_machine(const struct hb_topo *t, const struct hb_results *r)
{
    json_t *nodes = json_object_get(json_object_get(r->run, "topology"), "nodes");
    bool same = json_array_size(nodes) == (size_t)t->nnodes;
    for (int i = 0; same && i < t->nnodes; i++) {
        json_t *n = json_array_get(nodes, (size_t)i);
        json_t *cpus = json_object_get(n, "cpus");
        same = json_integer_value(json_object_get(n, "os_index")) == t->nodes[i].os_index &&
               json_is_true(json_object_get(n, "has_memory")) == t->nodes[i].has_memory &&
               json_array_size(cpus) == (size_t)t->nodes[i].ncpus;
        for (int c = 0; same && c < t->nodes[i].ncpus; c++)
            same = json_integer_value(json_array_get(cpus, (size_t)c)) == t->nodes[i].cpus[c];
    }
    if (same) return 0;
    hb_error_set("'%s' was measured on another topology (%zu nodes) than %s (%d nodes, or other "
                 "CPUs): export on the machine it was measured on, or give its --topology FILE.xml",
                 r->path, json_array_size(nodes), t->source, t->nnodes);
    return -EINVAL;
}

/* The host to export into *host: --host, else the results' only host (NULL: the results
 * name none, so whichever). -EINVAL with a message when the results hold several hosts and
 * none was chosen, or the chosen one is not among them. */
static int export_pick_host(const struct hb_results *r, const char *want, const char **host)
{
    json_t *hosts = json_object_get(r->run, "hosts");
    size_t n = json_array_size(hosts), i;
    json_t *h;
    *host = want;
    json_array_foreach(hosts, i,
                       h) if (want && strcmp(want, json_string_value(h) ?: "") == 0) return 0;
    if (!want && n <= 1) {
        *host = n ? json_string_value(json_array_get(hosts, 0)) : NULL;
        return 0;
    }
    char *list = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&list, &len);
    json_array_foreach(hosts, i, h) if (f) fprintf(f, "%s%s", i ? ", " : "", json_string_value(h));
    if (f) fclose(f);
    if (want)
        hb_error_set("--host %s is not a host of '%s'; its hosts: %s", want, r->path,
                     list ? list : "?");
    else
        hb_error_set("'%s' holds %zu hosts (%s): export one at a time with --host NAME and that "
                     "host's --topology FILE.xml (a fleet run with --export-hwloc writes every "
                     "host's own)",
                     r->path, n, list ? list : "?");
    free(list);
    return -EINVAL;
}

/* hb_results_take_fn: only the measured matrices are exported; the run record is kept by the
 * reader, every other record is freed as it is read. */
static int export_take(void *ctx, const json_t *rec)
{
    (void)ctx;
    return hb_export_wanted(rec);
}

const char hb_export_operands[] = "RESULTS.jsonl -o FILE.xml";
const struct hb_opt_doc hb_export_opts[] = {
    {"output", 'o', 'o', "FILE.xml", HB_COMPLETE_FILE, NULL, "the hwloc XML to write (needed)"},
    {"topology", 0, 0, "FILE.xml", HB_COMPLETE_FILE, NULL,
     "the machine's hwloc XML to add the matrix to (default: this machine's, which must be the "
     "one measured)"},
    {"host", 0, 0, "NAME", HB_COMPLETE_NONE, NULL,
     "the host whose matrix to export, of a fleet's results (default: the only one)"},
    {NULL, 0, 0, NULL, HB_COMPLETE_NONE, NULL, NULL},
};

int hb_export_main(int argc, char **argv)
{
    const char *out = NULL, *xml = NULL, *want = NULL;
    const struct hb_arg places[] = {{"output", &out, NULL, NULL},
                                    {"topology", &xml, NULL, NULL},
                                    {"host", &want, NULL, NULL},
                                    {NULL, NULL, NULL, NULL}};
    const char **files = calloc((size_t)argc + 1, sizeof(*files));
    int nfiles = 0, arc = -ENOMEM;
    if (!files)
        hb_error_set("export: out of memory reading %d arguments", argc);
    else
        arc = hb_args_parse(argc, argv, hb_export_operands, hb_export_opts, places, files, &nfiles);
    const char *results = nfiles == 1 ? files[0] : NULL;
    free(files);
    if (arc) {
        hb_error_print(arc);
        return hb_error_exit_code(arc);
    }
    if (!results || !out) {
        fprintf(stderr, "hopbench: export needs one results file and -o FILE.xml; %s\n",
                hb_args_usage("export", hb_export_operands));
        return HB_EXIT_USAGE;
    }
    struct hb_results r;
    struct hb_topo *t = NULL;
    /* what hb_export_wanted and the matrices read of a record: only these are built */
    static const char *const keys[] = {"metric", "host", "kernel", "rows", "cols", "values", NULL};
    int rc = hb_jsonl_load_read_keys(results, keys, export_take, NULL, &r);
    if (rc) {
        hb_error_print(rc);
        return hb_error_exit_code(rc);
    }
    if (!r.run) {
        hb_error_set("'%s' has no run record: it does not say which machine it measured", r.path);
        rc = -EINVAL;
    }
    const char *inputs[] = {results, xml, NULL};
    if (rc == 0) rc = hb_export_check_path(out, "-o", inputs);
    const char *host = NULL;
    if (rc == 0) rc = export_pick_host(&r, want, &host);
    if (rc == 0) rc = hb_topo_load(xml, &t);
    /* The run record describes the first host's machine (rank 0's); another host's topology
     * is checked against its matrices only. */
    json_t *first = json_array_get(json_object_get(r.run, "hosts"), 0);
    if (rc == 0 && (!host || !first || strcmp(host, json_string_value(first) ?: "") == 0))
        rc = export_same_machine(t, &r);
    struct hb_host_topo ht = {host, t};
    if (rc == 0) rc = hb_export_records(&ht, 1, r.records, out);
    if (rc == 0 && !hb_topo_mem_hmat_present(t))
        fprintf(stderr,
                "hopbench: note: the firmware of %s gives no HMAT (no latency or bandwidth per "
                "initiator); %s holds the measured matrix only\n",
                t->source, out);
    if (rc) hb_error_print(rc);
    hb_topo_load_free(t);
    hb_jsonl_load_free(&r);
    return hb_error_exit_code(rc);
}
