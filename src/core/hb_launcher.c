/* Who started this process (hb_launcher.h): one table of the launchers' environment variables. */
#include "hb_launcher.h"

#include "hb_error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Each launcher's variables for this rank and for the job's size, most specific first:
 * Open MPI's mpirun also sets PMIX_RANK, srun with PMI-2 also sets PMI_RANK. */
static const struct hb_launcher_vars {
    const char *launcher, *rank, *size, *local_size, *local_rank;
} launcher_table[] = {
    {"mpirun", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE",
     "OMPI_COMM_WORLD_LOCAL_RANK"},
    {"srun", "SLURM_PROCID", "SLURM_STEP_NUM_TASKS", "SLURM_STEP_TASKS_PER_NODE", "SLURM_LOCALID"},
    {"pmix", "PMIX_RANK", "PMIX_SIZE", "PMIX_LOCAL_SIZE", "PMIX_LOCAL_RANK"},
    {"pmi", "PMI_RANK", "PMI_SIZE", "MPI_LOCALNRANKS", "MPI_LOCALRANKID"},
};

bool hb_launcher_launched(struct hb_launch *l)
{
    memset(l, 0, sizeof(*l));
    for (size_t i = 0; i < sizeof(launcher_table) / sizeof(launcher_table[0]); i++) {
        const struct hb_launcher_vars *v = &launcher_table[i];
        const char *rank = getenv(v->rank), *size = getenv(v->size);
        if (!rank && !size) continue;
        l->launcher = v->launcher;
        l->var = size ? v->size : v->rank;
        l->rank = rank ? atol(rank) : 0;
        l->ranks = size ? atol(size) : 0;
        /* srun's "2(x3)" starts with the count of this host's tasks too. */
        const char *local = getenv(v->local_size);
        l->local_ranks = local ? atol(local) : 0;
        l->local_var = v->local_size;
        const char *local_rank = getenv(v->local_rank);
        l->local_rank = local_rank ? atol(local_rank) : -1;
        l->local_rank_var = v->local_rank;
        return true;
    }
    return false;
}

bool hb_launcher_is_first(void)
{
    struct hb_launch l;
    return !hb_launcher_launched(&l) || l.rank == 0;
}

bool hb_launcher_is_host_first(void)
{
    struct hb_launch l;
    if (!hb_launcher_launched(&l)) return true;
    return l.local_rank >= 0 ? l.local_rank == 0 : l.rank == 0;
}

void hb_launcher_wait_for_first(void)
{
    /* The launcher ends the job once the first rank has failed: usually at once. */
    if (!hb_launcher_is_first()) sleep(5);
}

int hb_launcher_refuse_ranks(const char *what, bool per_host)
{
    struct hb_launch l;
    if (!hb_launcher_launched(&l) || l.ranks <= 1) return 0;
    if (per_host && l.local_ranks == 1) return 0;
    if (per_host)
        hb_error_set("'hopbench %s' runs once per host, but %s started %ld ranks on this one "
                     "(%s=%ld); run one rank per host, or run it without mpirun/srun",
                     what, l.launcher, l.local_ranks, l.local_var, l.local_ranks);
    else
        hb_error_set("'hopbench %s' runs in one process, but %s started this one as one of %ld "
                     "ranks (%s=%ld); run it without mpirun/srun",
                     what, l.launcher, l.ranks, l.var, l.ranks);
    return -EINVAL;
}
