/* The OpenMP layer must not see the MPI layer: this does not compile against hb_omp. */
#include "hb_exec.h"
