/* Which mpirun conventions the launch lines follow (hb_mpirun_dialect.h): one table of what
 * differs between Open MPI 4.1 and 5. */
#include "hb_mpirun_dialect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ORTE calls a package "socket" and refuses "package"; PRRTE's word is "package". Open MPI 5
 * renamed the shared-memory btl vader to sm (its parameters btl_sm_*). */
static const struct hb_mpirun_dialect mpi_convs[] = {
    {"Open MPI 4.1 (ORTE)", "socket", "vader"},
    {"Open MPI 5 (PRRTE)", "package", "sm"},
};

static const struct hb_mpirun_dialect *mpi_chosen = &mpi_convs[0];
static char mpi_note[256];

void hb_mpirun_dialect_choose(const char *library)
{
    static const char ompi[] = "Open MPI v";
    mpi_note[0] = '\0';
    mpi_chosen = &mpi_convs[0];
    if (strncmp(library, ompi, sizeof(ompi) - 1) == 0) {
        if (atoi(library + sizeof(ompi) - 1) >= 5) mpi_chosen = &mpi_convs[1];
        return;
    }
    /* The library's first line names it; what follows is build detail. */
    int len = (int)strcspn(library, ",\n");
    snprintf(mpi_note, sizeof(mpi_note),
             "MPI library '%.*s' is not one hopbench knows: its mpirun lines follow %s's "
             "conventions",
             len > 120 ? 120 : len, library, mpi_chosen->name);
}

const struct hb_mpirun_dialect *hb_mpirun_dialect(void)
{
    return mpi_chosen;
}

const char *hb_mpirun_dialect_assumed(void)
{
    return mpi_note[0] ? mpi_note : NULL;
}
