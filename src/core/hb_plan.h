/* The experiment model (docs/design.md#plans-and-experiments): a plan is an ordered list of
 * experiments; an experiment is a set of tasks that run at the same time; a task is threads on one
 * CPU node running one kernel against memory on one target.
 *
 * An experiment holds as many tasks as it needs and each task's node set as an hwloc bitmap
 * (any OS index), so rank 0 sends one as bytes made by hb_plan_experiment_pack. */
#ifndef HB_PLAN_H
#define HB_PLAN_H

#include "hb_placement.h"

#include <hwloc.h>
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HB_NAME_LEN 64

enum hb_role {
    HB_ROLE_FG, /* timed; its repetitions are the measurement */
    HB_ROLE_BG, /* load only; runs until every foreground task of the experiment is done */
};

struct hb_task {
    enum hb_role role;
    int cpu_node;     /* OS index of the node whose rank runs it */
    int first_thread; /* first slot in that node's thread team (40555 "core" number) */
    int threads;
    int whole_node; /* 1: threads = every core of cpu_node on the host that runs it (hosts of a
                       fleet may differ; the rank sets threads from its own topology) */
    char kernel[24];
    enum hb_policy policy;
    int mem_node;             /* OS index for bind; -1 for interleave / first touch */
    hwloc_bitmap_t mem_nodes; /* interleave set (first touch: policy "os"), OS indexes; NULL
                                 for none. Owned by the task (freed with its experiment) */
    enum hb_pages pages;
    uint64_t bytes;        /* working set of the task: all its arrays together */
    double bg_rate_GBps;   /* background target per thread; 0 = unpaced */
    double bg_fraction;    /* background: else this fraction of the thread's own unpaced rate */
    int hops;              /* hop class cpu_node -> mem_node, -1 unknown / not one node */
    uint64_t distance;     /* firmware distance, 0 unknown */
    char access[4];        /* "r", "w" or "rw", from the kernel */
    char label[32];        /* AMD 40555 style: node.thread.{r|w|rw}.memnode */
    double param;          /* kernel parameter (intensity: flops per byte loaded), 0 = none */
    int touch_master;      /* 1: thread 0 first-touches all the task's arrays (policy "os") */
    uint64_t chase_stride; /* latency kernels: bytes per visited line (hb_chase.h) */
    uint64_t chase_group_bytes; /* latency kernels: TLB group, HB_CHASE_GROUP_ALL = whole */
    int chase_chains;           /* latency kernels: chases per thread (--chains); 0 = one */
    /* How messages about the task's size name it, where that is more than "size N bytes" of
     * `bytes`: the scenario line and value that set it ("t.scn:3:13: size=4K"); "" = that.
     * size_per_thread: the size so named is per thread (bytes = it x threads). */
    char size_from[384];
    int size_per_thread;
};

/* A suite's key for the records of an experiment (case, bg_level, workload...): typed, so
 * the experiment still travels as plain bytes, and written after the standard columns of
 * every record in the order the suite set them. */
enum hb_param_kind { HB_PARAM_NULL, HB_PARAM_INT, HB_PARAM_NUM, HB_PARAM_STR, HB_PARAM_INTS };
#define HB_PARAMS_MAX 8
#define HB_PARAM_KEY_LEN 20
#define HB_PARAM_STR_LEN 40
#define HB_PARAM_INTS_MAX 4
struct hb_param {
    char key[HB_PARAM_KEY_LEN];
    unsigned char kind; /* enum hb_param_kind */
    unsigned char nints;
    union {
        long long ints[HB_PARAM_INTS_MAX]; /* INT: ints[0] */
        double num;
        char str[HB_PARAM_STR_LEN];
    } v;
};

struct hb_params {
    int n;
    struct hb_param v[HB_PARAMS_MAX];
};

struct hb_experiment {
    char suite[16];
    char name[HB_NAME_LEN];
    char metric[16]; /* "latency" or "bandwidth" */
    int reps;        /* kept samples per foreground task */
    double min_time_s;
    uint64_t seed;
    struct hb_params params; /* the suite's keys (hb_param_*) */
    int ntasks, task_cap;
    struct hb_task *tasks; /* as many as the experiment runs at once */
};

struct hb_plan {
    int n, cap;
    struct hb_experiment *exps;
};

/* A new zeroed task at the end of e (ntasks counts it); NULL with a message when out of
 * memory. Pointers to earlier tasks may move. */
struct hb_task *hb_plan_experiment_task(struct hb_experiment *e);
/* Free e's tasks and node sets; e keeps its other fields and holds no task. */
void hb_plan_experiment_clear(struct hb_experiment *e);

/* Add a suite key to e: 0, or -EINVAL with a message naming the experiment and the key when
 * e holds HB_PARAMS_MAX keys already or a key or string is longer than its room. */
int hb_plan_param_null(struct hb_experiment *e, const char *key);
int hb_plan_param_int(struct hb_experiment *e, const char *key, long long v);
/* A number as "%g" writes it: an integer when that text is one, else a real of 6 digits. */
int hb_plan_param_num(struct hb_experiment *e, const char *key, double v);
int hb_plan_param_str(struct hb_experiment *e, const char *key, const char *v);
int hb_plan_param_ints(struct hb_experiment *e, const char *key, const long long *v, int n);

/* The value of e's integer key `key`, or dflt when e has none. */
long long hb_plan_param_int_of(const struct hb_experiment *e, const char *key, long long dflt);
/* The value of e's number key `key` (an integer key too), or dflt when e has none. */
double hb_plan_param_num_of(const struct hb_experiment *e, const char *key, double dflt);
/* The text of e's string key `key`, or dflt when e has none. */
const char *hb_plan_param_str_of(const struct hb_experiment *e, const char *key, const char *dflt);
/* The values of e's list key `key` into out (HB_PARAM_INTS_MAX room): how many, 0 for none. */
int hb_plan_param_ints_of(const struct hb_experiment *e, const char *key, long long *out);

/* The keys as a JSON object, in the order set (NULL when out of memory). */
json_t *hb_plan_params_json(const struct hb_params *p);

/* Move e into the plan (e is left without tasks, also on failure); 0 or -ENOMEM. */
int hb_plan_add(struct hb_plan *p, struct hb_experiment *e);
/* How many of node `node`'s thread slots (cores) the plan uses: the rank that serves it must
 * be bound to at least that many of its cores. */
struct hb_topo;
int hb_plan_threads_on(const struct hb_plan *p, const struct hb_topo *t, int node);
void hb_plan_free(struct hb_plan *p);

/* An experiment as bytes for another rank and back: fixed fields, the tasks, then each
 * task's node set as an hwloc list ("0-3,252-255"). Pack: 0 and a buffer to free, or
 * -ENOMEM. Unpack: 0 and a new experiment (hb_plan_experiment_clear it), or -EINVAL when the
 * bytes are not a packed experiment, -ENOMEM. A message either way. */
int hb_plan_experiment_pack(const struct hb_experiment *e, char **buf, size_t *len);
int hb_plan_experiment_unpack(const char *buf, size_t len, struct hb_experiment *e);

/* The OS indexes of the nodes a task's memory is placed on: its node when bound, else its
 * node set (interleave; first touch under policy "os"). Returns how many (0 for plain first
 * touch) with *nodes to free, or -ENOMEM with a message. */
int hb_plan_task_mem_nodes(const struct hb_task *task, int **nodes);

/* Fill hops/distance of a task from the topology (bind targets only) and its 40555 label
 * from cpu_node, first_thread, the kernel's access and the memory target. */
struct hb_topo;
void hb_plan_task_describe(const struct hb_topo *t, struct hb_task *task, const char *access);

#endif
