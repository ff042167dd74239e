/* hopbench: the entry point. Parses and checks everything before MPI starts, so bad input
 * fails fast with one line on one rank; then runs the plan under MPI (docs/design.md#data-flow). */
#include "hb_cli_doc.h"
#include "hb_ranks.h"
#include "hb_config.h"
#include "hb_config_drift.h"
#include "hb_error.h"
#include "hb_exec.h"
#include "hb_records_held.h"
#include "hb_health.h"
#include "hb_health_fit.h"
#include "hb_help.h"
#include "hb_export.h"
#include "hb_kernel.h"
#include "hb_launcher.h"
#include "hb_level.h"
#include "hb_mpirun_dialect.h"
#include "hb_msg.h"
#include "hb_coll_exec.h"
#include "hb_msg_bg.h"
#include "hb_options.h"
#include "hb_outfile.h"
#include "hb_places.h"
#include "hb_rank_cpus.h"
#include "hb_run_layout.h"
#include "hb_pair.h"
#include "hb_print.h"
#include "hb_rank0.h"
#include "hb_progress.h"
#include "hb_record.h"
#include "hb_rounds.h"
#include "hb_sigpipe.h"
#include "hb_signif.h"
#include "hb_spool.h"
#include "hb_family.h"
#include "hb_simd.h"
#include "hb_default_size.h"
#include "hb_stability.h"
#include "hb_topo_mem.h"
#include "hb_suite.h"
#include "hb_suite_keep.h"
#include "hb_team.h"
#include "hb_timer.h"
#include "hb_stack.h"
#include "hb_version.h"
#include "hb_world.h"
#include "hb_world_interleave_weights.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int exit_failed(int rc)
{
    if (hb_launcher_is_first())
        hb_error_print(rc);
    else
        hb_launcher_wait_for_first();
    return hb_error_exit_code(rc);
}

static int lookup_kernel(const char *name, struct hb_kernel_ref *out)
{
    const struct hb_kernel *k = hb_kernel_registry_find(name);
    if (!k) return -EINVAL;
    out->name = k->name;
    out->access = k->access;
    out->latency = k->kind == HB_KIND_LATENCY;
    out->model_bps = k->model_bps;
    return 0;
}

struct hb_run_ctx {
    struct hb_sink *sink;
    struct hb_progress *progress;
    const struct hb_suite_env *env;
    struct hb_keep keep; /* what the suite's annotate and derive read of each record */
    struct hb_summary summary;
    json_t *judged; /* check: its measurement records for the verdict (a few per node) */
};

static int emit(json_t *rec, void *ctx)
{
    struct hb_run_ctx *rc = ctx;
    hb_suite_keep_annotate(&rc->keep, rc->env, rec);
    hb_progress_clear(rc->progress);
    if (hb_record_summary_add(&rc->summary, rec) != 0) {
        hb_error_set("out of memory counting the records for the summary");
        return -ENOMEM;
    }
    int wrc = hb_sink_write(rc->sink, rec);
    if (wrc == 0 && rc->judged && json_array_append(rc->judged, rec)) {
        hb_error_set("out of memory keeping check's records");
        wrc = -ENOMEM;
    }
    return wrc ? wrc : hb_suite_keep_add(&rc->keep, rc->env, rec);
}

/* --max-time bounds a --repeat auto run only when given (balance's default is its own). */
static double repeat_max_time(const struct hb_options *o)
{
    return (o->given >> (OPT_MAX_TIME - OPT_KERNEL)) & 1 ? o->max_time_s : 0.0;
}

/* Say which experiment and repeat runs; with --repeat auto the rounds are at most. */
static void on_progress(const struct hb_round_step *s, const struct hb_experiment *e, void *ctx)
{
    struct hb_run_ctx *rc = ctx;
    char what[HB_NAME_LEN + 64];
    if (s->rounds > 1)
        snprintf(what, sizeof(what), "%s (repeat %d of %s%d)", e->name, s->round + 1,
                 s->until_clear ? "at most " : "", s->rounds);
    else
        snprintf(what, sizeof(what), "%s", e->name);
    hb_progress_step(rc->progress, s->round, s->rounds, s->x, s->n, what);
}

/* Where a derived record goes: the output, and with --export-hwloc the matrices to export. */
struct hb_derived_to {
    struct hb_sink *sink;
    json_t *exported; /* NULL: no --export-hwloc */
};

static int put_derived(json_t *rec, void *ctx)
{
    struct hb_derived_to *to = ctx;
    int rc = hb_sink_write(to->sink, rec);
    if (rc == 0 && to->exported && hb_export_wanted(rec) && json_array_append(to->exported, rec))
        rc = -ENOMEM;
    return rc;
}

/* Rank 0: derived records (matrices, fleet), each written as made, the summary, and the
 * debug count of records held (hb_records_held.h). */
static int finish(const struct hb_suite_env *env, const struct hb_world *w,
                  struct hb_topo **host_topos, struct hb_run_ctx *ctx, double t0)
{
    struct hb_sink *sink = ctx->sink;
    bool export = env->opts->export_hwloc[0] != '\0';
    json_t *derived = export ? json_array() : NULL;
    struct hb_derived_to to = {sink, derived};
    int rc = !export || derived ? hb_suite_keep_derive(&ctx->keep, env, put_derived, &to) : -ENOMEM;
    if (rc == -ENOMEM) hb_error_set("out of memory writing the derived records");
    if (rc == 0 && export) {
        /* A fleet: each host with its own topology; one host: this one. */
        int n = host_topos ? w->nhosts : 1;
        struct hb_host_topo *ht = calloc((size_t)n, sizeof(*ht));
        for (int h = 0; ht && h < n; h++)
            ht[h] = host_topos ? (struct hb_host_topo){w->hosts[h], host_topos[h]}
                               : (struct hb_host_topo){NULL, env->topo};
        if (!ht) hb_error_set("out of memory exporting %d hosts", n);
        rc = ht ? hb_export_records(ht, n, derived, env->opts->export_hwloc) : -ENOMEM;
        free(ht);
    }
    json_decref(derived);
    json_t *sum = hb_record_summary(env->opts->command[0] ? env->opts->command : "default",
                                    &ctx->summary, hb_timer_now() - t0);
    if (rc == 0) rc = sum ? hb_sink_write(sink, sum) : -ENOMEM;
    /* A run whose own figures are unstable says so, with the remedy (hb_stability.h). */
    char *unstable = rc == 0 && sum ? hb_stability_message(sum) : NULL;
    if (unstable) fprintf(stderr, "hopbench: warning: %s\n", unstable);
    free(unstable);
    json_decref(sum);
    return rc ? rc : hb_records_held_report();
}

/* Rank 0: the run record, the topology for people, the suite's note. */
static int write_header(const struct hb_suite_env *env, json_t *run, struct hb_sink *sink)
{
    const struct hb_options *o = env->opts;
    int rc = hb_sink_write(sink, run);
    if (rc == 0 && o->format == HB_FORMAT_TABLE) {
        json_t *topo = hb_record_topology(env->topo);
        rc = hb_sink_write(sink, topo);
        json_decref(topo);
    }
    const char *note = hb_suite_note(env);
    if (rc == 0 && note) {
        json_t *rec = json_pack("{s:s, s:s}", "type", "note", "text", note);
        rc = hb_sink_write(sink, rec);
        json_decref(rec);
    }
    return rc;
}

/* Whether progress goes to a terminal: any rank's stderr is one (under a launcher rank 0's
 * may be a pipe while another's is not; Open MPI's are all pipes to mpirun, so there
 * --progress asks for it). Collective. */
static bool any_terminal(void)
{
    return hb_ranks_max_int(isatty(STDERR_FILENO)) != 0;
}

/* Each host's knobs, read now by its first rank; a fleet's, all of them on rank 0. Collective;
 * rank 0 returns 0 or -errno with a message. */
static int read_configs(const struct hb_world *w, const struct hb_topo *t, json_t **cfg,
                        json_t **host_cfgs)
{
    *cfg = w->host_rank == 0 ? hb_config_read(t) : NULL;
    int rc = 0;
    if (w->rank == 0 && !*cfg) {
        hb_error_set("out of memory reading this machine's configuration");
        rc = -ENOMEM;
    }
    int grc = w->nhosts > 1 ? hb_world_config_host_configs(w, *cfg, host_cfgs) : 0;
    return rc ? rc : grc;
}

/* check's verdict on its records: the lines on stdout, each host's "health" record into the
 * sink. The exit code: 0 healthy, 1 degraded, 5 cannot tell, or an error's (bad input: 2). */
static int check_verdict(const struct hb_options *o, const struct hb_world *w, json_t *run,
                         json_t *records, struct hb_topo **host_topos, const struct hb_topo *t,
                         struct hb_sink *sink)
{
    const char **hosts = calloc((size_t)w->nhosts, sizeof(*hosts));
    json_t *verdicts = json_array();
    for (int h = 0; hosts && h < w->nhosts; h++)
        hosts[h] = w->hosts[h];
    struct hb_health_run hr = {o, run, records, hosts, host_topos, t, w->nhosts};
    int rc = hosts && verdicts ? hb_health_judge(&hr, stdout, verdicts) : -ENOMEM;
    fflush(stdout);
    size_t i;
    json_t *rec;
    json_array_foreach(verdicts, i, rec)
    {
        int wrc = rc >= 0 ? hb_sink_write(sink, rec) : 0;
        if (wrc) rc = wrc;
    }
    if (rc < 0) hb_error_print(rc);
    json_decref(verdicts);
    free(hosts);
    return rc < 0 ? hb_error_exit_code(rc) : rc;
}

static int run_suite(int argc, char **argv, const struct hb_suite_env *env, struct hb_plan *plan,
                     const char *size_source, uint64_t llc, const struct hb_estimate *est)
{
    const struct hb_options *o = env->opts;
    const struct hb_topo *t = env->topo;
    struct hb_world w;
    /* comm pairs ranks wherever they are bound; the other suites want one rank per node. */
    bool messages = hb_suite_find(o->command)->flags & HB_SUITE_MESSAGES;
    /* comm and coll without --bg run no thread but the one that calls MPI. */
    if (hb_world_init(&argc, &argv, t, !messages || o->bg >= 0, &w) != 0)
        return exit_failed(-HB_EENV);
    const char *args = o->command_argv0_end;
    /* check judges each host against its peers of the same hardware: their topologies. */
    bool judges = hb_suite_find(o->command)->flags & HB_SUITE_FIT_REPEATS;
    int rc = messages ? hb_msg_check_layout(&w, o->command, args ? args + 1 : "")
                      : hb_world_check_layout(&w, t, args ? args + 1 : "");
    /* comm and coll --bg: a node named to load needs a rank there, as the world now shows. */
    if (rc == 0 && messages)
        rc = hb_msg_bg_check(&w, t, plan, o->nload_nodes > 0, o->command, args ? args + 1 : "");
    if (rc && messages) {
        if (w.rank == 0) hb_error_print(rc);
        hb_world_finalize(&w);
        return hb_error_exit_code(rc);
    }
    if (rc) {
        if (w.rank == 0) hb_error_print(rc);
        hb_world_finalize(&w);
        return HB_EXIT_ENV;
    }
    /* Threads that would share a core measure nothing: refuse before measuring. */
    hb_error_clear();
    rc = hb_world_check_binding(&w, t, hb_plan_threads_on(plan, t, w.node), args ? args + 1 : "");
    if (rc) {
        if (hb_error_msg()[0]) fprintf(stderr, "hopbench: %s\n", hb_error_msg());
        hb_world_finalize(&w);
        return HB_EXIT_ENV;
    }
    /* Hosts of a fleet may differ: each exports with its own topology; comm tells ranks near
     * each host's NICs from far ones. */
    struct hb_topo **host_topos = NULL;
    int trc = (o->export_hwloc[0] || messages || judges) && w.nhosts > 1
                  ? hb_world_topo_host_topos(&w, t, &host_topos)
                  : 0;
    json_t *host_nics = host_topos && messages ? hb_world_topo_host_nics(&w, host_topos) : NULL;
    trc = trc ? trc : host_topos && messages && !host_nics ? -ENOMEM : 0;
    json_t *cfg = NULL, *host_cfgs = NULL;
    int crc = read_configs(&w, t, &cfg, &host_cfgs);
    trc = trc ? trc : crc;
    struct hb_suite_env fleet_env = *env;
    fleet_env.host_configs = host_cfgs;
    fleet_env.host_nics = host_nics;
    env = &fleet_env;
    double t0 = hb_timer_now();
    struct hb_run_ctx ctx = {0};
    ctx.summary.estimate_s = est->seconds;
    ctx.env = env;
    json_t *run_rec = NULL; /* check: the run record its verdict reads */
    const char *simd = hb_simd_name(hb_simd_active());
    /* Rank 0 opens the output and writes the run record before anything is measured: an
     * output that cannot take it stops every rank now. */
    int wrc = 0;
    if (w.rank == 0) {
        json_t *run = hb_record_run(t, o, simd, env->default_bytes, size_source, llc, cfg);
        hb_rank0_record_world(run, &w);
        if (host_cfgs) {
            /* Every multi-host run (matrix, peak, comm...) lists each host's drift from the
             * majority; matrix's fleet record repeats it beside its outliers. */
            json_object_set(run, "host_configs", host_cfgs);
            json_t *drift = hb_config_drift_fleet(host_cfgs);
            json_object_set_new(run, "config_drift", drift ? drift : json_null());
        }
        wrc = trc ? trc : hb_suite_keep_init(&ctx.keep, env);
        /* comm and coll measure messages, not a working set: the record says what they use. */
        const struct hb_suite *s = hb_suite_find(o->command);
        if (wrc == 0 && s->run_sizes && (wrc = s->run_sizes(env, plan, run)) != 0)
            hb_error_set("out of memory listing %s's message sizes", o->command);
        if (wrc == 0) wrc = hb_sink_open(o->format, o->output, &hb_run_layout, &ctx.sink);
        if (wrc == 0) wrc = write_header(env, run, ctx.sink);
        if (judges && wrc == 0 && !(ctx.judged = json_array())) wrc = -ENOMEM;
        if (judges) run_rec = json_incref(run);
        json_decref(run);
        if (wrc && ctx.sink) hb_sink_close(ctx.sink, false);
        if (wrc) hb_error_print(wrc);
    }
    wrc = hb_rank0_share(wrc);
    /* --policy weighted: the kernel's weights for the run. Set after the output opens, their
     * signal handler runs before the output's: a job killed right after still restores them. */
    bool weighted = o->policy_set && o->policy == HB_POLICY_WEIGHTED;
    if (wrc == 0 && weighted &&
        (wrc = hb_world_interleave_weights_apply(&w, o->mem_nodes, o->weights, o->nweights)) &&
        ctx.sink)
        hb_sink_close(ctx.sink, false);
    if (wrc) {
        json_decref(cfg);
        json_decref(host_cfgs);
        json_decref(host_nics);
        hb_world_topo_host_topos_free(&w, host_topos);
        hb_world_finalize(&w);
        hb_suite_keep_free(&ctx.keep);
        return hb_error_exit_code(wrc);
    }
    bool tty = any_terminal();
    if (w.rank == 0) ctx.progress = hb_progress_new(o->quiet, o->progress, tty);
    /* Where progress shows, the plan and its estimate come first; check says it always. */
    if (ctx.progress || (judges && w.rank == 0 && !o->quiet)) hb_print_plan_line(est);
    struct hb_exec_io io = {emit,         on_progress,        &ctx,
                            simd,         o->allow_misplaced, o->repeats,
                            o->noise_pct, o->repeat_auto,     repeat_max_time(o)};
    bool coll = hb_suite_find(o->command)->flags & HB_SUITE_COLLECTIVES;
    int code = coll       ? hb_coll_exec_plan(&w, t, plan, &io, o->clean_buffers)
               : messages ? hb_msg_exec_plan(&w, t, plan, &io)
                          : hb_exec_plan(&w, t, plan, &io);
    if (w.rank == 0) {
        /* The cause first, then where the records are (FILE.partial when incomplete). */
        /* Status 1 (a measurement failed its checks) derives and sums up too, as in-process. */
        if (code <= HB_EXIT_FAILED && wrc == 0 &&
            (wrc = finish(env, &w, host_topos, &ctx, t0)) != 0) {
            hb_error_print(wrc);
            code = hb_error_exit_code(wrc);
        }
        hb_progress_free(ctx.progress);
        /* Status 1 (a measurement failed its checks) still completes the file. */
        bool complete = wrc == 0 && code <= HB_EXIT_FAILED;
        /* check: the verdict on what was measured (exit 0 healthy, 1 degraded, 5 cannot tell),
         * its records in the file before it closes. */
        int judged = judges && code == HB_EXIT_OK && complete
                         ? check_verdict(o, &w, run_rec, ctx.judged, host_topos, t, ctx.sink)
                         : HB_EXIT_OK;
        int closed = hb_sink_close(ctx.sink, complete);
        if (closed != 0) {
            hb_error_print(closed);
            code = code ? code : HB_EXIT_ENV;
        }
        if (code == HB_EXIT_OK) code = judged;
    }
    json_decref(run_rec);
    json_decref(ctx.judged);
    hb_suite_keep_free(&ctx.keep);
    hb_record_summary_free(&ctx.summary);
    json_decref(cfg);
    json_decref(host_cfgs);
    json_decref(host_nics);
    hb_world_topo_host_topos_free(&w, host_topos);
    code = hb_rank0_share(code);
    if (weighted)
        hb_world_interleave_weights_restore(
            &w); /* error paths: at exit (hb_interleave_weights.h) */
    hb_world_finalize(&w);
    return code;
}

/* This machine's name, "localhost" when it has none. */
static const char *this_host(char *buf, size_t len)
{
    if (gethostname(buf, len) != 0) snprintf(buf, len, "localhost");
    buf[len - 1] = '\0';
    return buf;
}

/* c2c: the plan's pinned pairs in this one process, no MPI world (omp/hb_pair.h). The same
 * records and output as a run under MPI; a failed measurement still completes the file. */
static int run_in_process(const struct hb_suite_env *env, const struct hb_plan *plan,
                          const char *size_source, uint64_t llc, const struct hb_estimate *est)
{
    const struct hb_options *o = env->opts;
    const char *simd = hb_simd_name(hb_simd_active());
    char host[HB_HOST_LEN];
    this_host(host, sizeof(host));
    json_t *cfg = hb_config_read(env->topo);
    if (!cfg) {
        fprintf(stderr, "hopbench: out of memory reading this machine's configuration\n");
        return HB_EXIT_ENV;
    }
    json_t *run = hb_record_run(env->topo, o, simd, env->default_bytes, size_source, llc, cfg);
    json_decref(cfg);
    hb_rank0_record_versions(run);
    json_object_set_new(run, "hosts", json_pack("[s]", host));
    json_object_set_new(run, "ranks", json_integer(1));
    double t0 = hb_timer_now();
    struct hb_run_ctx ctx = {.env = env, .summary.estimate_s = est->seconds};
    int rc = hb_suite_keep_init(&ctx.keep, env);
    if (rc == 0) rc = hb_sink_open(o->format, o->output, &hb_run_layout, &ctx.sink);
    if (rc == 0) rc = write_header(env, run, ctx.sink);
    json_decref(run);
    if (rc == 0) {
        ctx.progress = hb_progress_new(o->quiet, o->progress, isatty(STDERR_FILENO));
        if (ctx.progress) hb_print_plan_line(est);
        struct hb_pair_io io = {emit,         on_progress,    &ctx,
                                simd,         host,           o->repeats,
                                o->noise_pct, o->repeat_auto, repeat_max_time(o)};
        rc = hb_pair_exec(env->topo, plan, &io);
    }
    bool complete = ctx.sink && hb_error_exit_code(rc) <= HB_EXIT_FAILED;
    int frc = complete ? finish(env, NULL, NULL, &ctx, t0) : 0;
    rc = rc ? rc : frc;
    complete = complete && frc == 0;
    hb_progress_free(ctx.progress);
    hb_suite_keep_free(&ctx.keep);
    hb_record_summary_free(&ctx.summary);
    /* The cause first, then where the records are (FILE.partial when incomplete). */
    if (rc) hb_error_print(rc);
    int crc = ctx.sink ? hb_sink_close(ctx.sink, complete) : 0;
    if (crc) hb_error_print(crc);
    return hb_error_exit_code(rc ? rc : crc);
}

/* What needs no topology: output paths, the OpenMP environment, kernels, the SIMD path. The
 * output is checked before anything is measured, by the dry run too. */
static int check_inputs(const struct hb_options *o)
{
    const char *inputs[] = {o->topology, o->operand, NULL};
    int rc = hb_outfile_check(o->output, inputs);
    if (rc == 0 && o->export_hwloc[0])
        rc = hb_export_check_path(o->export_hwloc, "--export-hwloc", inputs);
    if (rc == 0 && o->export_hwloc[0]) {
        const char *outputs[] = {o->output, o->export_hwloc}, *opts[] = {"-o", "--export-hwloc"};
        rc = hb_outfile_check_apart(outputs, opts, 2);
    }
    if (rc == 0) rc = hb_places_omp_env_check();
    /* Repeats and derived records wait in a temporary file: checked before any run, the dry
     * run's too. */
    const struct hb_suite *suite = hb_suite_find(o->command);
    bool spools = suite && (o->repeats > 1 || o->repeat_auto || suite->derive);
    if (rc == 0 && spools) rc = hb_spool_check("the records that wait for their last repeat");
    if (rc == 0) rc = hb_kernel_registry_check_list(o->kernels);
    if (rc == 0) rc = hb_simd_select(o->simd[0] ? o->simd : NULL);
    return rc;
}

/* This machine's topology or --topology's. Another machine's serves topo and --dry-run only;
 * topo shows what a topology lacks, everything else refuses it the same way. */
static int load_topology(const struct hb_options *o, struct hb_topo **out)
{
    struct hb_topo *t = NULL;
    int rc = hb_topo_load(o->topology[0] ? o->topology : NULL, &t);
    if (rc) return rc;
    bool topo = strcmp(o->command, "topo") == 0;
    if (!t->is_this_system && !o->dry_run && !topo && o->topology[0]) {
        hb_error_set("--topology %s describes another machine: nothing can run on it; add "
                     "--dry-run to print the plan, or use 'hopbench topo --topology %s'",
                     o->topology, o->topology);
        rc = -EINVAL;
    } else if (!t->is_this_system && !o->dry_run && !topo) {
        /* hwloc's variables replaced this machine: its memory and CPUs are not these. */
        hb_error_set("%s gives hwloc another machine's topology: nothing can run on it; unset "
                     "it (or set HWLOC_THISSYSTEM=1 if it describes this machine), or add "
                     "--dry-run to print the plan",
                     t->source);
        rc = -HB_EENV;
    } else if (!topo) {
        rc = hb_topo_nodes_check_usable(t);
    }
    if (rc) {
        hb_topo_load_free(t);
        return rc;
    }
    *out = t;
    return 0;
}

/* The suite's plan, printed (--dry-run) or run: under MPI, or in this process for c2c. */
static int plan_and_run(int argc, char **argv, const struct hb_options *o, const struct hb_topo *t)
{
    int rc = hb_suite_check_nodes(t, o);
    if (rc) return exit_failed(rc);
    /* A few one-line reasons, joined by hb_suite_kit_say, as long as they take. */
    char *note_text = NULL;
    size_t note_size = 0;
    FILE *note = open_memstream(&note_text, &note_size);
    if (!note) {
        hb_error_set("out of memory starting the plan");
        return exit_failed(-ENOMEM);
    }
    char size_source[HB_SIZES_SOURCE_LEN];
    uint64_t llc = 0;
    struct hb_suite_env env = {t, o, lookup_kernel, 0, note, NULL, NULL, NULL};
    env.default_bytes = hb_default_size_choose(t, size_source, sizeof(size_source), &llc);
    struct hb_plan plan = {0};
    int code = HB_EXIT_OK;
    /* c2c's pairs share a line between CPUs of any node: one process runs them, no MPI. */
    unsigned flags = hb_suite_find(o->command)->flags;
    bool in_process = flags & HB_SUITE_ONE_PROCESS, messages = flags & HB_SUITE_MESSAGES;
    rc = hb_suite_plan(&env, &plan);
    /* comm's tasks run no kernel: its plan checked itself. */
    if (rc == 0 && !messages)
        rc = in_process ? hb_pair_check(t, &plan) : hb_team_tasks_plan_check(t, &plan);
    /* A default set inside a memory-side cache measures the cache: say so, and why. */
    uint64_t msc = hb_topo_mem_cache_max(t);
    /* Notes on this host's plan: said once per host, not once per rank. */
    bool say = !o->quiet && hb_launcher_is_host_first();
    if (rc == 0 && !o->size && msc && env.default_bytes <= msc && say)
        fprintf(stderr, "hopbench: default size: %s\n", size_source);
    if (fflush(note) != 0 && rc == 0) {
        hb_error_set("out of memory holding the plan's note");
        rc = -ENOMEM;
    }
    if (rc == 0 && note_size && say) fprintf(stderr, "hopbench: %s\n", note_text);
    /* A working set inside a cache measures the cache: say so before anything runs, unless
     * the suite measures caches on purpose. */
    char level[256];
    int in_cache =
        rc == 0 && !o->quiet && !messages && !(flags & HB_SUITE_CACHES) && hb_launcher_is_first()
            ? hb_level_plan(t, &plan, level, sizeof(level))
            : 0;
    if (in_cache == 1) fprintf(stderr, "hopbench: %s\n", level);
    if (in_cache > 1)
        fprintf(stderr,
                "hopbench: %d measurements fit a CPU or memory-side cache, e.g. %s (each "
                "record's level says which)\n",
                in_cache, level);
    /* What it will cost, before it runs (the dry run's last record says the same). */
    struct hb_estimate est = {0};
    char host[HB_HOST_LEN];
    const struct hb_estimate_model model = {hb_suite_estimate, hb_suite_kernel_bps, &env};
    /* check: as many repeats as its --max-time holds, from the estimate of one (and its
     * --baseline checked before anything is measured). */
    struct hb_options *fitted = NULL;
    if (rc == 0 && (flags & HB_SUITE_FIT_REPEATS)) {
        int repeats = 0;
        rc = hb_estimate_plan(&plan, 1, &model, &est);
        if (rc == 0) rc = hb_health_fit_repeats(o, est.seconds, &repeats);
        hb_estimate_free(&est);
        est = (struct hb_estimate){0};
        if (rc == 0 && !o->dry_run) rc = hb_health_precheck(o, t, &plan);
        if (rc == 0 && !(fitted = malloc(sizeof(*fitted)))) {
            hb_error_set("out of memory fitting check's repeats");
            rc = -ENOMEM;
        }
        if (rc == 0) {
            *fitted = *o;
            fitted->repeats = repeats;
            env.opts = o = fitted;
        }
    }
    if (rc == 0) rc = hb_estimate_plan(&plan, o->repeats, &model, &est);
    if (rc == 0 && o->repeat_auto)
        hb_estimate_range(&est, HB_ROUNDS_AUTO_MIN, o->repeats, repeat_max_time(o));
    /* Too few repeats for compare's rank test ever to decide: said before minutes are spent. */
    int need = hb_signif_mwu_repeats_for(HB_FAMILY_LEVEL);
    if (rc == 0 && !o->repeat_auto && o->repeats < need && !o->quiet && hb_launcher_is_first())
        fprintf(stderr,
                "hopbench: note: --repeat %d is too few for compare ever to decide on these "
                "figures (its rank test needs %d or more per run); use --repeat 5, or --repeat "
                "auto\n",
                o->repeats, need);
    /* A launched dry run (comm's): rank 0 prints it, the others end with it. */
    bool first = hb_launcher_is_first(), dry = rc == 0 && o->dry_run;
    if (dry && !o->quiet && first) hb_print_plan_line(&est);
    if (dry && first)
        rc = hb_print_plan(&plan, o, &est,
                           t->is_this_system ? this_host(host, sizeof(host)) : t->source);
    else if (rc == 0 && !o->dry_run && in_process)
        code = run_in_process(&env, &plan, size_source, llc, &est);
    else if (rc == 0 && !o->dry_run)
        code = run_suite(argc, argv, &env, &plan, size_source, llc, &est);
    hb_estimate_free(&est);
    hb_plan_free(&plan);
    free(fitted);
    fclose(note);
    free(note_text);
    return rc ? exit_failed(rc) : code;
}

/* After the options: the checks, the topology, then topo's printout or the suite. */
static int main_parsed(int argc, char **argv, const struct hb_options *o)
{
    struct hb_topo *t = NULL;
    int rc = 0;
    /* The launch lines follow this MPI's mpirun; one hopbench does not know is said once. */
    hb_rank0_choose_conventions();
    const char *assumed = hb_mpirun_dialect_assumed();
    if (assumed && !o->quiet && hb_launcher_is_first()) fprintf(stderr, "hopbench: %s\n", assumed);
    /* What prints or writes without measuring, once: not once per rank. */
    /* topo prints each host's machine, one rank per host (on stdout: an -o would be one
     * file written by every host when they share it). */
    if (strcmp(o->command, "topo") == 0)
        rc = hb_launcher_refuse_ranks(o->output[0] ? "topo -o" : "topo", !o->output[0]);
    /* comm's dry run checks the launch its run needs: under it, rank 0 prints the plan. */
    const struct hb_suite *suite = hb_suite_find(o->command);
    bool messages = suite && (suite->flags & HB_SUITE_MESSAGES);
    if (rc == 0 && o->dry_run && !messages) {
        char what[sizeof(o->command) + 16];
        snprintf(what, sizeof(what), "%s%s--dry-run", o->command, o->command[0] ? " " : "");
        rc = hb_launcher_refuse_ranks(what, false);
    }
    if (rc == 0) rc = check_inputs(o);
    if (rc == 0) rc = load_topology(o, &t);
    if (rc) return exit_failed(rc);
    int code;
    if (strcmp(o->command, "topo") == 0) {
        rc = hb_print_topo(t, o);
        code = rc ? exit_failed(rc) : HB_EXIT_OK;
    } else {
        code = plan_and_run(argc, argv, o, t);
    }
    hb_topo_load_free(t);
    return code;
}

/* Help or version that could not be written (a full disk, a closed pipe) is not success. */
static int stdout_flushed(const char *what)
{
    if (fflush(stdout) == 0 && !ferror(stdout)) return HB_EXIT_OK;
    fprintf(stderr, "hopbench: cannot write the %s to standard output: %s\n", what,
            strerror(errno));
    return HB_EXIT_ENV;
}

/* report, compare and export --help (or -h) before any "--": their usage and help. */
static bool asks_help(int argc, char **argv)
{
    for (int i = 2; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return true;
    return false;
}

/* main's work, in a frame of its own: its options alone take tens of KiB of stack. */
static __attribute__((noinline)) int run_main(int argc, char **argv)
{
    struct hb_doc_kernels k = {hb_kernel_registry_help, hb_kernel_registry_names(),
                               hb_simd_choices};
    const struct hb_doc_dirs dirs = {HB_DATADIR, HB_DOCDIR};
    if (argc > 1 && strcmp(argv[1], "help") == 0) {
        int hrc = hb_help_main(argc - 1, argv + 1, &k, &dirs);
        return hrc ? exit_failed(hrc) : stdout_flushed("help");
    }
    /* Reading result files needs neither MPI nor OpenMP placement: no re-exec, no world. */
    const struct hb_cmd_doc *own = argc > 1 ? hb_cli_doc_own_args(argv[1]) : NULL;
    if (own && asks_help(argc, argv)) {
        hb_doc_print_command_help(stdout, &k, own, &dirs);
        return stdout_flushed("help");
    }
    if (own) {
        /* Under a launcher each rank would print, and write one -o, once per rank. */
        int lrc = hb_launcher_refuse_ranks(own->name, false);
        return lrc ? exit_failed(lrc) : own->main(argc - 1, argv + 1);
    }
    /* A rank told to bind itself does so, and restarts, before OpenMP reads its binding. */
    int brc = hb_rank_cpus_bind(argv);
    if (brc) return exit_failed(brc);
    hb_places_defaults(argv);

    struct hb_options o;
    int rc = hb_cli_options_parse(argc, argv, &o);
    int code = HB_EXIT_OK;
    if (rc == 1 && (rc = hb_help_for(o.command, &k, &dirs)) == 0) rc = 1;
    if (rc == 1 || rc == 2) {
        code = stdout_flushed(rc == 1 ? "help" : "version");
    } else {
        code = rc ? exit_failed(rc) : main_parsed(argc, argv, &o);
    }
    hb_cli_options_free(&o);
    return code;
}

int main(int argc, char **argv)
{
    /* A broken pipe on stderr or stdout is an error of that write, not the end of the run. */
    hb_sigpipe_install();
    /* Checked before run_main's frame is entered, which a small stack could not hold. */
    int rc = hb_stack_check();
    return rc ? exit_failed(rc) : run_main(argc, argv);
}
