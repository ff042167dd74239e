/* The OpenMP settings (hb_places.h): the CPUs OpenMP's places give this process, the OMP_*
 * variables checked against what the runtime takes, and hopbench's defaults set by re-exec. */
#include "hb_places.h"

#include "hb_error.h"
#include "hb_restart.h"

#include <errno.h>
#include <sched.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

int hb_places_cpus(hwloc_bitmap_t set)
{
    int n = omp_get_num_places();
    if (n <= 0) return -ENODEV;
    hwloc_bitmap_zero(set);
    for (int p = 0; p < n; p++) {
        int k = omp_get_place_num_procs(p);
        int *ids = malloc(sizeof(*ids) * (size_t)(k > 0 ? k : 1));
        if (!ids) return -ENOMEM;
        omp_get_place_proc_ids(p, ids);
        for (int i = 0; i < k; i++)
            hwloc_bitmap_set(set, (unsigned)ids[i]);
        free(ids);
    }
    return 0;
}

/* A comma list of positive decimal counts, as OMP_NUM_THREADS takes it. */
static int counts_ok(const char *v)
{
    for (;;) {
        v += strspn(v, " ");
        if (*v < '1' || *v > '9') return 0;
        v += strspn(v, "0123456789");
        v += strspn(v, " ");
        if (*v == '\0') return 1;
        if (*v++ != ',') return 0;
    }
}

/* OMP_PLACES as OpenMP 5 writes it: an abstract name with an optional count, or explicit
 * places: braces around numbers, ranges (:len:stride) and exclusions (!). */
static int places_ok(const char *v)
{
    static const char *const names[] = {"threads",   "cores",        "sockets",
                                        "ll_caches", "numa_domains", NULL};
    v += strspn(v, " ");
    for (int i = 0; names[i]; i++) {
        size_t n = strlen(names[i]);
        if (strncasecmp(v, names[i], n) != 0) continue;
        const char *p = v + n;
        if (*p == '(') {
            p++;
            size_t d = strspn(p, "0123456789");
            if (d == 0 || p[d] != ')') return 0;
            p += d + 1;
        }
        return p[strspn(p, " ")] == '\0';
    }
    int depth = 0, braces = 0;
    for (const char *p = v; *p; p++) {
        if (*p == '{') depth++, braces++;
        if (*p == '}') depth--;
        if (depth < 0 || depth > 1 || !strchr("{}0123456789,:!- ", *p)) return 0;
    }
    return depth == 0 && braces > 0;
}

/* OMP_PROC_BIND: a comma list of binding policies. */
static int bind_ok(const char *v)
{
    static const char *const names[] = {"true",  "false",  "master", "primary",
                                        "close", "spread", NULL};
    for (;;) {
        v += strspn(v, " ");
        size_t n = strcspn(v, ", ");
        int known = 0;
        for (int i = 0; names[i]; i++)
            known |= n == strlen(names[i]) && strncasecmp(v, names[i], n) == 0;
        if (!known) return 0;
        v += n;
        v += strspn(v, " ");
        if (*v == '\0') return 1;
        if (*v++ != ',') return 0;
    }
}

int hb_places_omp_env_check(void)
{
    static const struct {
        const char *var;
        int (*ok)(const char *);
        const char *valid;
    } checks[] = {
        {"OMP_PLACES", places_ok, "cores, threads, sockets or places such as {0},{1}"},
        {"OMP_PROC_BIND", bind_ok, "close, spread, master, true or false"},
        {"OMP_NUM_THREADS", counts_ok, "a positive thread count such as 4"},
    };
    for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
        const char *v = getenv(checks[i].var);
        if (!v || checks[i].ok(v)) continue;
        hb_error_set("%s='%s' is not a value the OpenMP runtime takes (it would ignore it and "
                     "the run record would be wrong); use %s, or unset it",
                     checks[i].var, v, checks[i].valid);
        return -EINVAL;
    }
    /* Valid, but a thread that may move between CPUs and nodes while it is timed measures
     * no placement: every record would claim CPUs it did not keep. */
    const char *bind = getenv("OMP_PROC_BIND");
    if (bind && strncasecmp(bind + strspn(bind, " "), "false", 5) == 0) {
        hb_error_set("OMP_PROC_BIND='%s' leaves threads unbound, free to move between CPUs and "
                     "nodes while they are timed; use close or spread, or unset it",
                     bind);
        return -HB_EENV;
    }
    return 0;
}

/* Given OMP_PLACES or OMP_PROC_BIND, the runtime binds the initial thread to its first
 * place before main runs, and exec keeps that binding: the restarted process would find one
 * place's CPUs and refuse a run its affinity allows. The places are made of the CPUs the
 * process was allowed at start, so their union gives that affinity back. */
static void places_unbind(void)
{
    hwloc_bitmap_t cpus = hwloc_bitmap_alloc();
    int last = cpus && hb_places_cpus(cpus) == 0 ? hwloc_bitmap_last(cpus) : -1;
    cpu_set_t *set = last >= 0 ? CPU_ALLOC((size_t)last + 1) : NULL;
    if (set) {
        size_t size = CPU_ALLOC_SIZE((size_t)last + 1);
        unsigned cpu;
        CPU_ZERO_S(size, set);
        hwloc_bitmap_foreach_begin(cpu, cpus) CPU_SET_S(cpu, size, set);
        hwloc_bitmap_foreach_end();
        /* Not fatal: the restarted process checks its threads' CPUs before anything is timed. */
        (void)sched_setaffinity(0, size, set);
        CPU_FREE(set);
    }
    hwloc_bitmap_free(cpus);
}

void hb_places_defaults(char **argv)
{
    if (getenv("HOPBENCH_OMP_DEFAULTS") || (getenv("OMP_PLACES") && getenv("OMP_PROC_BIND")))
        return;
    setenv("HOPBENCH_OMP_DEFAULTS", "1", 1);
    if (!getenv("OMP_PLACES")) setenv("OMP_PLACES", "cores", 1);
    if (!getenv("OMP_PROC_BIND")) setenv("OMP_PROC_BIND", "close", 1);
    places_unbind();
    hb_restart(argv);
    /* Not fatal: threads are still checked against their node before anything is timed. */
}
