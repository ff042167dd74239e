/* The c2c studies on the pinned pair (hb_c2c_pair.c): options, the ping-pong matrices, false
 * sharing, lock hand-off, and their records. */
#include "hb_c2c.h"

#include "hb_c2c_pair.h"

#include "hb_error.h"
#include "hb_record.h"
#include "hb_sizes.h"
#include "hb_suite.h"
#include "hb_timer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int hb_c2c_home_parse(const char *text, int *home)
{
    if (strcmp(text, "writer") == 0) {
        *home = HB_C2C_HOME_WRITER;
        return 0;
    }
    if (strcmp(text, "reader") == 0) {
        *home = HB_C2C_HOME_READER;
        return 0;
    }
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < 0 || v > INT_MAX || *text == '+') {
        hb_err_set("invalid --home '%s': expected writer, reader or a node number with memory "
                   "(see hopbench topo)",
                   text);
        return -EINVAL;
    }
    *home = (int)v;
    return 0;
}

int hb_c2c_check_singleton(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS",
                                       NULL};
    for (int i = 0; vars[i]; i++) {
        const char *v = getenv(vars[i]);
        if (v && atol(v) > 1) {
            hb_err_set("c2c runs in one process that reaches every node, but this is one of %s "
                       "ranks (%s=%s); run it without mpirun/srun: hopbench c2c ...",
                       v, vars[i], v);
            return -EINVAL;
        }
    }
    return 0;
}

int hb_c2c_check(const struct hb_topo *t, const struct hb_options *o)
{
    if (!t->is_this_system) {
        hb_err_set("c2c measures this machine; --topology %s cannot run it", t->source);
        return -EINVAL;
    }
    if (o->c2c_home >= 0) return hb_suite_check_mem_node(t, o->c2c_home, "--home");
    return 0;
}

/* Physical core of an OS CPU (hwloc logical index), or -1 when hwloc cannot say. */
static int hb_c2c_core_of(const struct hb_topo *t, int cpu)
{
    hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t->hw, (unsigned)cpu);
    hwloc_obj_t core = pu ? hwloc_get_ancestor_obj_by_type(t->hw, HWLOC_OBJ_CORE, pu) : NULL;
    return core ? (int)core->logical_index : -1;
}

/* A second CPU of node index i for same-node pairs: on another core when there is one, since
 * SMT siblings share their L1 and would show no transfer at all; else a sibling; else -1. */
static int hb_c2c_second_cpu(const struct hb_topo *t, int i)
{
    const struct hb_node *n = &t->nodes[i];
    if (n->ncpus < 2) return -1;
    int core0 = hb_c2c_core_of(t, n->cpus[0]);
    for (int k = 1; k < n->ncpus; k++)
        if (core0 < 0 || hb_c2c_core_of(t, n->cpus[k]) != core0) return n->cpus[k];
    return n->cpus[1];
}

/* Node that holds the line for a writer on CPU a and a reader on CPU b, or -1 (message set)
 * when that node has no memory. */
static int hb_c2c_home_node(const struct hb_topo *t, int home, int a, int b)
{
    if (home >= 0) return home;
    int i = hb_topo_node_of_cpu(t, home == HB_C2C_HOME_WRITER ? a : b);
    if (i < 0 || !t->nodes[i].has_memory) {
        hb_err_set("the %s's node has no memory; choose --home N",
                   home == HB_C2C_HOME_WRITER ? "writer" : "reader");
        return -1;
    }
    return t->nodes[i].os_index;
}

struct hb_c2c_ctx {
    const struct hb_topo *t;
    const struct hb_options *o;
    struct hb_sink *sink;
    char host[256];
    int ok, skipped, failed;
    int rc; /* first validation/environment failure, kept while the others still run */
};

static void hb_c2c_fail(struct hb_c2c_ctx *c, int rc)
{
    c->failed++;
    if (!c->rc) c->rc = rc;
}

/* One ping-pong matrix over ids[]: CPU OS indexes (cores) or CPU node OS indexes, where a
 * cell runs between the nodes' first CPUs, or two CPUs of the node on the diagonal. */
static int hb_c2c_matrix(struct hb_c2c_ctx *c, bool cores, const int *ids, int n)
{
    const struct hb_topo *t = c->t;
    json_t *values = json_array(), *mins = json_array(), *homes = json_array(),
           *pairs = json_array(), *notes = json_array(), *jids = json_array();
    uint64_t round_trips = 0;
    double on_target = 100.0;
    for (int r = 0; r < n; r++) {
        json_array_append_new(jids, json_integer(ids[r]));
        json_t *vr = json_array(), *mr = json_array(), *hr = json_array(), *pr = json_array();
        for (int k = 0; k < n; k++) {
            int a, b;
            if (cores) {
                a = ids[r];
                b = ids[k];
            } else {
                int ni = hb_topo_node_index(t, ids[r]), nj = hb_topo_node_index(t, ids[k]);
                a = t->nodes[ni].cpus[0];
                b = r == k ? hb_c2c_second_cpu(t, ni) : t->nodes[nj].cpus[0];
            }
            json_t *v = json_null(), *m = json_null(), *h = json_null(), *pc = json_null();
            if (cores && r == k) {
                /* a core with itself moves nothing: the diagonal stays empty */
            } else if (b < 0) {
                json_array_append_new(
                    notes, json_sprintf("node %d has one CPU: no same-node pair", ids[r]));
                c->skipped++;
            } else {
                pc = json_pack("[i, i]", a, b);
                int home = hb_c2c_home_node(t, c->o->c2c_home, a, b);
                struct hb_c2c_res res;
                int rc =
                    home < 0 ? -EINVAL : hb_c2c_measure(t, c->o, HB_C2C_PINGPONG, a, b, home, &res);
                if (home < 0) {
                    json_array_append_new(notes,
                                          json_sprintf("CPUs %d-%d: %s", a, b, hb_err_msg()));
                    c->skipped++;
                } else if (rc) {
                    json_array_append_new(notes,
                                          json_sprintf("CPUs %d-%d: %s", a, b, hb_err_msg()));
                    hb_c2c_fail(c, rc);
                    h = json_integer(home);
                } else {
                    /* One way is half a round trip: the line crosses twice per iteration. */
                    v = json_real(res.median_s / (double)res.n / 2.0 * 1e9);
                    m = json_real(res.min_s / (double)res.n / 2.0 * 1e9);
                    h = json_integer(home);
                    round_trips = res.n;
                    if (res.on_target_pct >= 0 && res.on_target_pct < on_target)
                        on_target = res.on_target_pct;
                    c->ok++;
                }
            }
            json_array_append_new(vr, v);
            json_array_append_new(mr, m);
            json_array_append_new(hr, h);
            json_array_append_new(pr, pc);
        }
        json_array_append_new(values, vr);
        json_array_append_new(mins, mr);
        json_array_append_new(homes, hr);
        json_array_append_new(pairs, pr);
    }
    const char *home_name = c->o->c2c_home == HB_C2C_HOME_WRITER   ? "writer"
                            : c->o->c2c_home == HB_C2C_HOME_READER ? "reader"
                                                                   : "node";
    json_t *rec = json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:O, s:O, s:o, s:o, s:s, s:o, s:o, s:I, s:i, "
        "s:f, s:o, s:o}",
        "type", "matrix", "suite", "c2c", "host", c->host, "metric", "c2c", "kernel", "pingpong",
        "unit", "ns", "axis", cores ? "core" : "node", "rows", jids, "cols", jids, "values", values,
        "lat_ns_min", mins, "home", home_name, "home_nodes", homes, "cpus", pairs, "round_trips",
        (json_int_t)round_trips, "reps", c->o->reps, "pages_on_target_pct", on_target, "flags",
        json_array(), "notes", notes);
    json_decref(jids);
    int rc = hb_sink_write(c->sink, rec);
    json_decref(rec);
    return rc;
}

/* The two CPUs of a same-node or cross-node pair: the first CPU node's first two cores, or
 * the first CPUs of the first two CPU nodes. -1 (message set) when the machine has no such
 * pair. */
static int hb_c2c_pick(const struct hb_topo *t, bool cross, int *a, int *b)
{
    int first = -1, second = -1;
    for (int i = 0; i < t->nnodes; i++)
        if (t->nodes[i].has_cpus && t->nodes[i].ncpus > 0) {
            if (first < 0)
                first = i;
            else if (second < 0)
                second = i;
        }
    if (first < 0) {
        hb_err_set("no node has CPUs");
        return -1;
    }
    *a = t->nodes[first].cpus[0];
    if (cross) {
        if (second < 0) {
            hb_err_set("one node with CPUs: no cross-node pair on this machine");
            return -1;
        }
        *b = t->nodes[second].cpus[0];
        return 0;
    }
    *b = hb_c2c_second_cpu(t, first);
    if (*b < 0) {
        hb_err_set("node %d has one CPU: no same-node pair", t->nodes[first].os_index);
        return -1;
    }
    return 0;
}

/* A record with the pair's placement; status and note from rc (0 ok, >0 skipped, <0 failed). */
static json_t *hb_c2c_pair_record(struct hb_c2c_ctx *c, const char *type, bool cross, int a, int b,
                                  int mem_node, int rc)
{
    const struct hb_topo *t = c->t;
    int na = a >= 0 ? hb_topo_node_of_cpu(t, a) : -1, nb = b >= 0 ? hb_topo_node_of_cpu(t, b) : -1;
    json_t *rec = json_pack("{s:s, s:s, s:s, s:s}", "type", type, "suite", "c2c", "host", c->host,
                            "placement", cross ? "cross-node" : "same-node");
    json_object_set_new(rec, "cpus", a >= 0 && b >= 0 ? json_pack("[i, i]", a, b) : json_null());
    json_object_set_new(rec, "cpu_nodes",
                        na >= 0 && nb >= 0
                            ? json_pack("[i, i]", t->nodes[na].os_index, t->nodes[nb].os_index)
                            : json_null());
    json_object_set_new(rec, "mem_node", mem_node >= 0 ? json_integer(mem_node) : json_null());
    json_object_set_new(rec, "reps", json_integer(c->o->reps));
    json_object_set_new(rec, "status", json_string(rc == 0 ? "ok" : rc > 0 ? "skipped" : "failed"));
    json_object_set_new(rec, "note", json_string(rc ? hb_err_msg() : ""));
    if (rc == 0)
        c->ok++;
    else if (rc > 0)
        c->skipped++;
    else
        hb_c2c_fail(c, rc);
    return rec;
}

static int hb_c2c_write(struct hb_c2c_ctx *c, json_t *rec)
{
    int rc = hb_sink_write(c->sink, rec);
    json_decref(rec);
    return rc;
}

/* Two threads bump their own counters: in one line, then 128 bytes apart. On different nodes
 * when there are several, since that is where a shared line hurts most. */
static int hb_c2c_false_sharing(struct hb_c2c_ctx *c)
{
    const struct hb_topo *t = c->t;
    bool cross = hb_topo_count_cpu_nodes(t) > 1;
    int a = -1, b = -1, mem = -1, rc = 1;
    struct hb_c2c_res sh = {0}, pad = {0};
    if (hb_c2c_pick(t, cross, &a, &b) == 0 &&
        (mem = hb_c2c_home_node(t, c->o->c2c_home, a, b)) >= 0)
        if ((rc = hb_c2c_measure(t, c->o, HB_C2C_FS_SHARED, a, b, mem, &sh)) == 0)
            rc = hb_c2c_measure(t, c->o, HB_C2C_FS_PADDED, a, b, mem, &pad);
    json_t *rec = hb_c2c_pair_record(c, "c2c_false_sharing", cross, a, b, mem, rc);
    if (rc == 0) {
        double ns_sh = sh.median_s / (double)sh.n * 1e9,
               ns_pad = pad.median_s / (double)pad.n * 1e9;
        json_object_set_new(rec, "increments_shared", json_integer((json_int_t)sh.n));
        json_object_set_new(rec, "increments_padded", json_integer((json_int_t)pad.n));
        json_object_set_new(rec, "ns_per_inc_shared", json_real(ns_sh));
        json_object_set_new(rec, "ns_per_inc_padded", json_real(ns_pad));
        json_object_set_new(rec, "slowdown", json_real(ns_sh / ns_pad));
    } else {
        json_object_set_new(rec, "slowdown", json_null());
    }
    return hb_c2c_write(c, rec);
}

/* A lock passed back and forth in strict alternation, on one node and across two. */
static int hb_c2c_locks(struct hb_c2c_ctx *c)
{
    static const struct {
        const char *name;
        enum hb_c2c_kind kind;
    } locks[] = {{"spinlock", HB_C2C_SPIN}, {"mutex", HB_C2C_MUTEX}};
    for (int x = 0; x < 2; x++)
        for (int l = 0; l < 2; l++) {
            bool cross = x == 1;
            int a = -1, b = -1, mem = -1, rc = 1;
            struct hb_c2c_res res = {0};
            if (hb_c2c_pick(c->t, cross, &a, &b) == 0 &&
                (mem = hb_c2c_home_node(c->t, c->o->c2c_home, a, b)) >= 0)
                rc = hb_c2c_measure(c->t, c->o, locks[l].kind, a, b, mem, &res);
            json_t *rec = hb_c2c_pair_record(c, "c2c_lock", cross, a, b, mem, rc);
            json_object_set_new(rec, "lock", json_string(locks[l].name));
            if (rc == 0) {
                double per_s = 2.0 * (double)res.n / res.median_s;
                json_object_set_new(rec, "handoffs", json_integer((json_int_t)(2 * res.n)));
                json_object_set_new(rec, "t_median_s", json_real(res.median_s));
                json_object_set_new(rec, "handoffs_per_s", json_real(per_s));
                json_object_set_new(rec, "ns_per_handoff", json_real(1e9 / per_s));
            } else {
                json_object_set_new(rec, "handoffs_per_s", json_null());
            }
            int wrc = hb_c2c_write(c, rec);
            if (wrc) return wrc;
        }
    return 0;
}

int hb_c2c_run(const struct hb_topo *t, const struct hb_options *o, struct hb_sink *sink)
{
    struct hb_c2c_ctx c = {.t = t, .o = o, .sink = sink};
    if (gethostname(c.host, sizeof(c.host)) != 0) snprintf(c.host, sizeof(c.host), "localhost");
    c.host[sizeof(c.host) - 1] = '\0';
    double t0 = hb_now();
    int *ids = calloc((size_t)t->nnodes, sizeof(*ids)), n = 0;
    if (!ids) {
        hb_err_set("c2c: out of memory for %d nodes", t->nnodes);
        return -ENOMEM;
    }
    for (int i = 0; i < t->nnodes; i++)
        if (t->nodes[i].has_cpus && t->nodes[i].ncpus > 0) ids[n++] = t->nodes[i].os_index;
    int rc = hb_c2c_matrix(&c, false, ids, n);
    free(ids);
    if (rc == 0 && o->c2c_cores) {
        int *cpus = calloc((size_t)t->ncpus_total + 1, sizeof(*cpus));
        if (!cpus) {
            hb_err_set("c2c: out of memory for %d CPUs", t->ncpus_total);
            return -ENOMEM;
        }
        int nc = 0;
        for (int i = 0; i < t->nnodes; i++)
            for (int k = 0; k < t->nodes[i].ncpus && nc < t->ncpus_total; k++)
                cpus[nc++] = t->nodes[i].cpus[k];
        rc = hb_c2c_matrix(&c, true, cpus, nc);
        free(cpus);
    }
    if (rc == 0) rc = hb_c2c_false_sharing(&c);
    if (rc == 0) rc = hb_c2c_locks(&c);
    if (rc) return rc;
    json_t *sum = json_pack("{s:s, s:s, s:i, s:i, s:i, s:i, s:f}", "type", "summary", "suite",
                            "c2c", "experiments", c.ok + c.skipped + c.failed, "ok", c.ok,
                            "skipped", c.skipped, "failed", c.failed, "elapsed_s", hb_now() - t0);
    if ((rc = hb_c2c_write(&c, sum))) return rc;
    if (c.rc)
        hb_err_set("c2c: %d measurement(s) failed (a count off its exact value, or a thread or "
                   "line not where asked); the records' notes say which",
                   c.failed);
    return c.rc;
}

int hb_c2c_command(const struct hb_topo *t, const struct hb_options *o, const char *simd)
{
    int rc = hb_c2c_check_singleton();
    if (rc == 0) rc = hb_c2c_check(t, o);
    if (rc == 0 && o->dry_run) {
        hb_err_set("c2c --dry-run: c2c has no plan to print; run it without --dry-run (a "
                   "short run: --min-time 0.01 --reps 3)");
        rc = -EINVAL;
    }
    if (rc == 0 && o->format == HB_FORMAT_CSV) {
        hb_err_set("c2c --format csv: CSV carries measurement records only and c2c makes "
                   "matrices and its own records; use --format jsonl or table");
        rc = -EINVAL;
    }
    if (rc) return rc;
    struct hb_sink *sink = NULL;
    if ((rc = hb_sink_open(o->format, o->output, &sink))) return rc;
    char size_source[256], host[256] = "localhost";
    uint64_t llc = 0;
    uint64_t bytes = hb_sizes_default(t, size_source, sizeof(size_source), &llc);
    json_t *run = hb_record_run(t, o, simd, bytes, size_source, llc);
    if (gethostname(host, sizeof(host)) == 0) host[sizeof(host) - 1] = '\0';
    json_object_set_new(run, "hosts", json_pack("[s]", host));
    json_object_set_new(run, "ranks", json_integer(1));
    rc = hb_sink_write(sink, run);
    json_decref(run);
    if (rc == 0) rc = hb_c2c_run(t, o, sink);
    /* A failed check still completes the file (its records say so); anything else keeps
     * the records so far as FILE.partial, and the cause is said before where they are. */
    bool complete = hb_err_exit_code(rc) <= HB_EXIT_FAILED;
    if (!complete) fprintf(stderr, "hopbench: %s\n", hb_err_msg());
    int crc = hb_sink_close(sink, complete);
    if (crc && complete) return crc;
    return rc ? rc : crc;
}
