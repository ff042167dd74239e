/* coll's operations by name (hb_coll_op.h): the suite, the executor, the MPI_T reader and the
 * report index them alike. */
#include "hb_coll_op.h"

#include <stddef.h>
#include <string.h>

const char *const hb_coll_op_names[] = {"allreduce", "reduce",  "bcast", "allgather",
                                        "alltoall",  "barrier", NULL};

int hb_coll_op_index(const char *op)
{
    for (int k = 0; hb_coll_op_names[k]; k++)
        if (strcmp(hb_coll_op_names[k], op) == 0) return k;
    return -1;
}
