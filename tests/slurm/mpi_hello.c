/*
 * mpi_hello.c - the smallest real MPI job for the slurm tests: every rank prints
 * one line with its rank, the world size and an Allreduce sum, so the test can
 * tell a working `srun --mpi=pmix` launch (N lines "of N", sum N) from one that
 * started N unconnected singletons ("of 1") or none at all.
 */
#include <mpi.h>
#include <sched.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank = 0, size = 0, one = 1, sum = 0, len = 0;
    char host[MPI_MAX_PROCESSOR_NAME];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(host, &len);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("HELLO rank %d of %d sum %d host %s cpu %d\n", rank, size, sum, host, sched_getcpu());
    MPI_Finalize();
    return sum == size ? 0 : 1;
}
