/* omp/internal/ is for omp/ only: this does not compile against hb_mpi. */
#include "hb_kernel_work.h"
