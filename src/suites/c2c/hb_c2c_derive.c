/* The c2c records people read, from the pairs' measurement records: the ping-pong matrices,
 * false sharing and lock hand-off, each with a note for every pair that could not be made. */
#include "hb_suite_c2c.h"

#include "hb_error.h"
#include "hb_jsonl_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct hb_c2c_in {
    const struct hb_suite_env *env;
    json_t *by_name; /* experiment name -> measurement record (borrowed) */
    char host[256];
};

static double num(const json_t *rec, const char *key)
{
    return json_number_value(json_object_get(rec, key));
}

static bool record_ok(const json_t *rec)
{
    const char *st = json_string_value(json_object_get(rec, "status"));
    return st && strcmp(st, "ok") == 0;
}

static const char *note_of(const json_t *rec)
{
    const char *n = json_string_value(json_object_get(rec, "note"));
    return n && n[0] ? n : "not measured";
}

/* One ping-pong matrix: rows and columns are ids (nodes or cores), writer x reader. */
static json_t *c2c_matrix(const struct hb_c2c_in *in, bool cores)
{
    const struct hb_topo *t = in->env->topo;
    const struct hb_options *o = in->env->opts;
    int *ids = NULL;
    int n = hb_c2c_pairs_ids(in->env, cores, &ids);
    json_t *values = json_array(), *mins = json_array(), *homes = json_array(),
           *pairs = json_array(), *notes = json_array(), *jids = json_array();
    json_int_t round_trips = 0;
    double on_target = 100.0;
    for (int r = 0; r < n; r++) {
        json_array_append_new(jids, json_integer(ids[r]));
        json_t *vr = json_array(), *mr = json_array(), *hr = json_array(), *pr = json_array();
        for (int k = 0; k < n; k++) {
            int a = -1, b = -1, home = -1;
            int rc = hb_c2c_pairs_cell(t, o->c2c_home, cores, ids, r, k, &a, &b, &home);
            char name[HB_NAME_LEN];
            hb_c2c_pairs_cell_name(name, sizeof(name), cores, ids[r], ids[k]);
            const json_t *rec = rc == 0 ? json_object_get(in->by_name, name) : NULL;
            json_t *v = json_null(), *m = json_null(), *h = json_null();
            if (rc < 0)
                json_array_append_new(notes, json_string(hb_error_msg()));
            else if (rc == 0 && !record_ok(rec))
                json_array_append_new(notes, json_sprintf("CPUs %d-%d: %s", a, b, note_of(rec)));
            if (rc == 0) h = json_integer(home);
            if (rc == 0 && record_ok(rec)) {
                v = json_real(num(rec, hb_jsonl_read_headline_key(rec)));
                m = json_real(num(rec, "lat_ns_min"));
                round_trips = json_integer_value(json_object_get(rec, "sweeps_per_sample"));
                double pct = num(rec, "pages_on_target_pct");
                if (pct >= 0 && pct < on_target) on_target = pct;
            }
            json_array_append_new(vr, v);
            json_array_append_new(mr, m);
            json_array_append_new(hr, h);
            json_array_append_new(pr, rc != 1 && b >= 0 ? json_pack("[i, i]", a, b) : json_null());
        }
        json_array_append_new(values, vr);
        json_array_append_new(mins, mr);
        json_array_append_new(homes, hr);
        json_array_append_new(pairs, pr);
    }
    free(ids);
    const char *home_name = o->c2c_home == HB_C2C_HOME_WRITER   ? "writer"
                            : o->c2c_home == HB_C2C_HOME_READER ? "reader"
                                                                : "node";
    json_t *rec = json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:O, s:O, s:o, s:o, s:s, s:o, s:o, s:I, s:i, "
        "s:f, s:o, s:o}",
        "type", "matrix", "suite", "c2c", "host", in->host, "metric", "c2c", "kernel", "pingpong",
        "unit", "ns", "axis", cores ? "core" : "node", "rows", jids, "cols", jids, "values", values,
        "lat_ns_min", mins, "home", home_name, "home_nodes", homes, "cpus", pairs, "round_trips",
        round_trips, "reps", o->reps, "pages_on_target_pct", on_target, "flags", json_array(),
        "notes", notes);
    json_decref(jids);
    return rec;
}

/* A record of the false-sharing or lock study with its pair's placement. `recs`: the
 * measurement records it reads, NULL when the pair could not be made (hb_error_msg says why).
 * Sets *ok when every one of them measured. */
static json_t *c2c_pair_record(const struct hb_c2c_in *in, const char *type, bool cross,
                               const json_t *const *recs, int nrecs, bool *ok)
{
    const struct hb_topo *t = in->env->topo;
    int a, b, home;
    bool made = hb_c2c_pairs_pick(in->env, cross, &a, &b, &home) == 0;
    const char *note = made ? "" : hb_error_msg();
    *ok = made;
    for (int i = 0; made && i < nrecs; i++)
        if (!record_ok(recs[i])) {
            *ok = false;
            note = note_of(recs[i]);
            break;
        }
    int na = a >= 0 ? hb_topo_nodes_of_cpu(t, a) : -1,
        nb = b >= 0 ? hb_topo_nodes_of_cpu(t, b) : -1;
    json_t *rec = json_pack("{s:s, s:s, s:s, s:s}", "type", type, "suite", "c2c", "host", in->host,
                            "placement", cross ? "cross-node" : "same-node");
    json_object_set_new(rec, "cpus", a >= 0 && b >= 0 ? json_pack("[i, i]", a, b) : json_null());
    json_object_set_new(rec, "cpu_nodes",
                        na >= 0 && nb >= 0
                            ? json_pack("[i, i]", t->nodes[na].os_index, t->nodes[nb].os_index)
                            : json_null());
    json_object_set_new(rec, "mem_node", home >= 0 ? json_integer(home) : json_null());
    json_object_set_new(rec, "reps", json_integer(in->env->opts->reps));
    json_object_set_new(rec, "status", json_string(*ok ? "ok" : made ? "failed" : "skipped"));
    json_object_set_new(rec, "note", json_string(note));
    return rec;
}

static const json_t *c2c_find(const struct hb_c2c_in *in, const char *kernel, bool cross)
{
    char name[HB_NAME_LEN];
    hb_c2c_pairs_study_name(name, sizeof(name), kernel, cross);
    return json_object_get(in->by_name, name);
}

/* Two threads bump their own counters: in one line, then 128 bytes apart. */
static json_t *false_sharing_record(const struct hb_c2c_in *in)
{
    bool cross = hb_suite_kit_count_cpu_nodes(in->env) > 1, ok;
    const json_t *recs[2] = {c2c_find(in, "fs_shared", cross), c2c_find(in, "fs_padded", cross)};
    json_t *rec = c2c_pair_record(in, "c2c_false_sharing", cross, recs, 2, &ok);
    if (!ok) {
        json_object_set_new(rec, "slowdown", json_null());
        return rec;
    }
    double ns_sh = num(recs[0], hb_jsonl_read_headline_key(recs[0]));
    double ns_pad = num(recs[1], hb_jsonl_read_headline_key(recs[1]));
    json_object_set(rec, "increments_shared", json_object_get(recs[0], "sweeps_per_sample"));
    json_object_set(rec, "increments_padded", json_object_get(recs[1], "sweeps_per_sample"));
    json_object_set_new(rec, "ns_per_inc_shared", json_real(ns_sh));
    json_object_set_new(rec, "ns_per_inc_padded", json_real(ns_pad));
    json_object_set_new(rec, "slowdown", json_real(ns_sh / ns_pad));
    return rec;
}

/* A lock passed back and forth in strict alternation. */
static json_t *lock_record(const struct hb_c2c_in *in, const char *lock, bool cross)
{
    bool ok;
    const json_t *m = c2c_find(in, lock, cross);
    json_t *rec = c2c_pair_record(in, "c2c_lock", cross, &m, 1, &ok);
    json_object_set_new(rec, "lock", json_string(lock));
    if (!ok) {
        json_object_set_new(rec, "handoffs_per_s", json_null());
        return rec;
    }
    double ns = num(m, hb_jsonl_read_headline_key(m));
    /* Each iteration of a sample is a hand-off by each thread (omp/hb_pair.c). */
    json_int_t iters = json_integer_value(json_object_get(m, "sweeps_per_sample"));
    json_object_set_new(rec, "handoffs", json_integer(2 * iters));
    json_object_set(rec, "t_median_s", json_object_get(m, "t_median_s"));
    json_object_set_new(rec, "handoffs_per_s", json_real(1e9 / ns));
    json_object_set_new(rec, "ns_per_handoff", json_real(ns));
    return rec;
}

int hb_c2c_derive(const struct hb_suite_env *env, json_t *measured, json_t *derived)
{
    struct hb_c2c_in in = {env, json_object(), "localhost"};
    size_t i;
    json_t *rec;
    json_array_foreach(measured, i, rec)
    {
        const char *name = json_string_value(json_object_get(rec, "experiment"));
        if (name) json_object_set(in.by_name, name, rec);
    }
    const char *host = json_string_value(json_object_get(json_array_get(measured, 0), "host"));
    if (host)
        snprintf(in.host, sizeof(in.host), "%s", host);
    else if (gethostname(in.host, sizeof(in.host)) == 0)
        in.host[sizeof(in.host) - 1] = '\0';
    json_array_append_new(derived, c2c_matrix(&in, false));
    if (env->opts->c2c_cores) json_array_append_new(derived, c2c_matrix(&in, true));
    json_array_append_new(derived, false_sharing_record(&in));
    for (int x = 0; x < 2; x++) {
        json_array_append_new(derived, lock_record(&in, "spinlock", x == 1));
        json_array_append_new(derived, lock_record(&in, "mutex", x == 1));
    }
    json_decref(in.by_name);
    return 0;
}
