/* The OpenMP layer must not see MPI: this does not compile against hb_omp. */
#include <mpi.h>
