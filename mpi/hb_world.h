/* The MPI world: ranks, hosts, and which NUMA node each rank serves (docs/design.md#executor). */
#ifndef HB_WORLD_H
#define HB_WORLD_H

#include "hb_topo.h"

#include <jansson.h>
#include <mpi.h>

#define HB_HOST_LEN 256

struct hb_world {
    int rank, size;
    MPI_Comm host_comm;
    int host_rank, host_size;
    int host_index, nhosts;     /* hosts numbered in order of their lowest rank */
    char host[HB_HOST_LEN];     /* gethostname(), or HOPBENCH_HOST for tests */
    int node;                   /* OS index of this rank's NUMA node, -1 when not one node */
    char *cpus;                 /* this rank's binding, as a list (as long as it takes) */
    int *rank_node;             /* per rank (every rank has the whole table) */
    int *rank_host;             /* host index per rank */
    char **rank_cpus;           /* binding per rank, as a CPU list (into cpus_text) */
    char *cpus_text;            /* every rank's binding, one after another */
    char (*hosts)[HB_HOST_LEN]; /* name per host index */
};

/* The resource limits MPI_Init needs (file descriptors, address space): 0 or -HB_EENV with
 * the limit and how to raise it; 0 when no launcher started this process (no MPI then). */
int hb_world_limits(void);

/* Started by a launcher: MPI_Init_thread, FUNNELED when threads (other threads run beside
 * the main thread's MPI calls: OpenMP teams, a background load), else SINGLE; then group ranks by
 * host: MPI_Comm_split_type(SHARED), or by the HOPBENCH_HOST variable when set (lets several ranks
 * on one machine act as several hosts in tests). Started alone: a world of one rank, without
 * MPI (hb_ranks.h). Each rank reads its binding with hwloc and finds its node. 0 or -HB_EENV
 * (also before MPI_Init when ulimit -n or -v is below what MPI_Init needs). When MPI_Init
 * itself fails, Open MPI ends the process: with one hopbench line and status 3 (see _exit
 * there). */
int hb_world_init(int *argc, char ***argv, const struct hb_topo *t, bool threads,
                  struct hb_world *w);

/* Check that the ranks of every host cover each node with CPUs exactly once. Same answer on
 * every rank; -HB_EENV with a message that says what was found and the launch lines that
 * work (`args` is the hopbench command line without argv[0], to complete them). */
int hb_world_check_layout(const struct hb_world *w, const struct hb_topo *t, const char *args);

/* How many of node index i's cores a binding (a CPU list: w->cpus, w->rank_cpus[r]) reaches
 * (OMP_PLACES=cores: one place each); -1 when out of memory. */
int hb_world_cores_in(const struct hb_topo *t, const char *cpus, int i);

/* How many ranks of this rank's host sit on its node (itself included); *below: how many of
 * them have a lower rank. */
int hb_world_node_ranks(const struct hb_world *w, int *below);

/* Check that this rank's binding reaches `need` cores of its node (the plan's threads there,
 * hb_plan_threads_on). Collective; -HB_EENV on every rank when any rank is short, with the
 * message (and the launch lines that work) set on the lowest such rank only. */
int hb_world_check_binding(const struct hb_world *w, const struct hb_topo *t, int need,
                           const char *args);

/* Print "hopbench: rank R (host H, node N): MESSAGE" and end the whole job with `code`. */
void hb_world_abort(const struct hb_world *w, int code, const char *msg) __attribute__((noreturn));

void hb_world_finalize(struct hb_world *w);

/* What each host's first rank sent, on rank 0: rank r's lens[r] bytes at all + displs[r]
 * (0 bytes from the other ranks, and from a first rank that had nothing to send). */
struct hb_host_bytes {
    char *all;
    int *lens, *displs;
};

/* Collective: the `len` bytes at `mine` of each host's first rank (len <= 0: nothing) on
 * rank 0. 0, or -ENOMEM with a message, the same on every rank. Free with
 * hb_world_gather_host_bytes_free. */
int hb_world_gather_hosts(const struct hb_world *w, const char *mine, int len,
                          struct hb_host_bytes *out);
void hb_world_gather_host_bytes_free(struct hb_host_bytes *b);

/* Collective: every host's configuration (hb_config_read of its first rank, `mine` there) on
 * rank 0, in host order: [{"host", "config", "config_unreadable"}, ...]; *out stays NULL
 * elsewhere. Rank 0 returns 0 or -errno with a message (the caller shares the verdict). */
int hb_world_config_host_configs(const struct hb_world *w, const json_t *mine, json_t **out);

/* Collective: every host's topology (sent as hwloc XML by its first rank) on rank 0, indexed
 * by host index; *out stays NULL elsewhere. Rank 0 returns 0 or -errno with a message (the
 * caller shares the verdict); free with hb_world_topo_host_topos_free. */
int hb_world_topo_host_topos(const struct hb_world *w, const struct hb_topo *t,
                             struct hb_topo ***out);
void hb_world_topo_host_topos_free(const struct hb_world *w, struct hb_topo **topos);
/* Rank 0, from hb_world_topo_host_topos: {host: its NICs (hb_topo_nics_json)}; NULL with a message
 * when out of memory. */
json_t *hb_world_topo_host_nics(const struct hb_world *w, struct hb_topo **topos);

#endif
