/* The run's collectives (hb_ranks.h): each an MPI call on MPI_COMM_WORLD, or, in a world of one
 * started without a launcher, a copy or nothing, so MPI is never initialised. */
#include "hb_ranks.h"

#include <string.h>
#include <time.h>

static bool solo;

void hb_ranks_set_solo(void)
{
    solo = true;
}

bool hb_ranks_solo(void)
{
    return solo;
}

void hb_ranks_barrier(void)
{
    if (!solo) MPI_Barrier(MPI_COMM_WORLD);
}

void hb_ranks_ibarrier(MPI_Request *req)
{
    if (solo)
        *req = MPI_REQUEST_NULL;
    else
        MPI_Ibarrier(MPI_COMM_WORLD, req);
}

bool hb_ranks_test(MPI_Request *req)
{
    int flag = 1;
    if (!solo) MPI_Test(req, &flag, MPI_STATUS_IGNORE);
    return flag != 0;
}

void hb_ranks_wait_idle(MPI_Request *req)
{
    /* 50 us: far below a pair's measurement, and a barrier's exit stays prompt. */
    const struct timespec nap = {0, 50000};
    while (!hb_ranks_test(req))
        nanosleep(&nap, NULL);
}

void hb_ranks_barrier_idle(void)
{
    MPI_Request req;
    hb_ranks_ibarrier(&req);
    hb_ranks_wait_idle(&req);
}

void hb_ranks_bcast_ints(int *values, int n)
{
    if (!solo) MPI_Bcast(values, n, MPI_INT, 0, MPI_COMM_WORLD);
}

void hb_ranks_bcast_bytes(void *buf, int n)
{
    if (!solo) MPI_Bcast(buf, n, MPI_BYTE, 0, MPI_COMM_WORLD);
}

void hb_ranks_gather_int(int mine, int *all)
{
    if (solo)
        all[0] = mine;
    else
        MPI_Gather(&mine, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
}

void hb_ranks_allgather_int(int mine, int *all)
{
    if (solo)
        all[0] = mine;
    else
        MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
}

void hb_ranks_allgather_bytes(const void *mine, int n, void *all)
{
    if (solo && n > 0)
        memcpy(all, mine, (size_t)n);
    else if (!solo)
        MPI_Allgather(mine, n, MPI_BYTE, all, n, MPI_BYTE, MPI_COMM_WORLD);
}

void hb_ranks_gatherv_bytes(const void *mine, int n, void *all, const int *counts,
                            const int *displs)
{
    if (solo && n > 0)
        memcpy((char *)all + displs[0], mine, (size_t)n);
    else if (!solo)
        MPI_Gatherv(mine, n, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
}

void hb_ranks_allgatherv_bytes(const void *mine, int n, void *all, const int *counts,
                               const int *displs)
{
    if (solo && n > 0)
        memcpy((char *)all + displs[0], mine, (size_t)n);
    else if (!solo)
        MPI_Allgatherv(mine, n, MPI_BYTE, all, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
}

int hb_ranks_max_int(int mine)
{
    int max = mine;
    if (!solo) MPI_Allreduce(&mine, &max, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return max;
}
