/* The run record: what produced the results and on what machine. */
#include "hb_record.h"

#include "hb_interval.h"
#include "hb_launcher.h"
#include "hb_timer.h"
#include "hb_topo_mem.h"
#include "hb_version.h"

#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static json_t *env_or_null(const char *name)
{
    const char *v = getenv(name);
    return v ? json_string(v) : json_null();
}

json_t *hb_record_run(const struct hb_topo *t, const struct hb_options *o, const char *simd,
                      uint64_t default_bytes, const char *size_source, uint64_t llc_bytes,
                      const json_t *cfg)
{
    char when[64];
    time_t now = time(NULL);
    struct tm tmv;
    gmtime_r(&now, &tmv);
    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tmv);
    char hwloc_version[32];
    unsigned v = hwloc_get_api_version();
    snprintf(hwloc_version, sizeof(hwloc_version), "%u.%u.%u", v >> 16, (v >> 8) & 0xff, v & 0xff);

    json_t *rec = json_object();
    json_object_set_new(rec, "type", json_string("run"));
    json_object_set_new(rec, "schema_version", json_integer(HB_SCHEMA_VERSION));
    json_object_set_new(rec, "hopbench_version", json_string(HB_VERSION));
    json_object_set_new(rec, "git_sha", json_string(HB_GIT_SHA));
    /* Shell-quoted and valid UTF-8 (hb_escape_sh_line): jansson keeps it whatever argv held. */
    json_object_set_new(rec, "command_line", json_string(o->command_line ? o->command_line : ""));
    json_object_set_new(rec, "command", json_string(o->command[0] ? o->command : "default"));
    /* The chase permutations' seed (repeat r uses seed + r): with the command line, what
     * reproduces the run. */
    json_object_set_new(rec, "seed", json_integer((json_int_t)o->seed));
    json_object_set_new(rec, "start_time", json_string(when));
    /* Alone, no MPI started (mpi/hb_ranks.h); else the launcher that made the ranks. */
    struct hb_launch launch;
    json_object_set_new(rec, "launcher",
                        json_string(hb_launcher_launched(&launch) ? launch.launcher : "none"));
    json_object_set_new(rec, "versions",
                        json_pack("{s:s, s:s, s:s}", "hwloc", hwloc_version, "compiler",
                                  "gcc " __VERSION__, "jansson", JANSSON_VERSION));
    json_object_set_new(rec, "build",
                        json_pack("{s:s, s:s}", "type", HB_BUILD_TYPE, "c_flags", HB_C_FLAGS));
    json_object_set_new(rec, "simd", json_string(simd));
    json_object_set_new(rec, "omp",
                        json_pack("{s:o, s:o, s:o, s:b}", "places", env_or_null("OMP_PLACES"),
                                  "proc_bind", env_or_null("OMP_PROC_BIND"), "num_threads",
                                  env_or_null("OMP_NUM_THREADS"), "set_by_hopbench",
                                  getenv("HOPBENCH_OMP_DEFAULTS") != NULL));
    /* The knobs (hb_config.h); thp and numa_balancing as before, the same values. */
    const json_t *knobs = json_object_get(cfg, "config");
    json_object_set(rec, "config", (json_t *)knobs);
    json_object_set(rec, "config_unreadable", json_object_get(cfg, "config_unreadable"));
    json_object_set_new(rec, "thp",
                        json_pack("{s:O, s:O}", "enabled", json_object_get(knobs, "thp_enabled"),
                                  "defrag", json_object_get(knobs, "thp_defrag")));
    json_object_set(rec, "numa_balancing", json_object_get(knobs, "numa_balancing"));
    json_t *topo = hb_record_topology(t);
    json_object_del(topo, "type");
    json_object_set_new(rec, "topology", topo);
    json_object_set_new(rec, "sizes",
                        json_pack("{s:I, s:I, s:I, s:s, s:I, s:s}", "llc_bytes",
                                  (json_int_t)llc_bytes, "memside_cache_bytes",
                                  (json_int_t)hb_topo_mem_cache_max(t), "default_bytes",
                                  (json_int_t)default_bytes, "default_source", size_source,
                                  "size_bytes", (json_int_t)(o->size ? o->size : default_bytes),
                                  "size_source", o->size ? "--size" : size_source));
    /* Per-level cache sizes of the CPU node measured: the report marks them on sweeps. */
    int ci = hb_topo_nodes_index(t, o->cpu_node);
    for (int i = 0; ci < 0 && i < t->nnodes; i++)
        if (t->nodes[i].has_cpus) ci = i;
    uint64_t levels[4];
    if (hb_topo_caches_sizes(t, ci, levels) > 0) {
        json_t *caches = json_array();
        for (int l = 0; l < 4; l++)
            if (levels[l])
                json_array_append_new(caches, json_pack("{s:i, s:I}", "level", l + 1, "bytes",
                                                        (json_int_t)levels[l]));
        json_object_set_new(rec, "caches", caches);
    }
    json_object_set_new(rec, "timer",
                        json_pack("{s:s, s:f}", "clock", "CLOCK_MONOTONIC", "granularity_s",
                                  hb_timer_granularity()));
    /* How every figure's uncertainty was found (docs/method.md, "Statistics"). */
    json_object_set_new(rec, "statistics",
                        json_pack("{s:i, s:i, s:f, s:f, s:f, s:s}", "repeats", o->repeats, "reps",
                                  o->reps, "min_time_s", o->min_time_s, "noise_pct", o->noise_pct,
                                  "ci_level", HB_CI_LEVEL, "ci_method",
                                  "order statistics of the repeats' values (distribution-free "
                                  "interval for their median)"));
    return rec;
}
