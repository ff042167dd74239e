/* The mpirun conventions chosen from MPI_Get_library_version's text: Open MPI 4.1 and 5 by
 * their versions, any other MPI given Open MPI 4.1's with one line saying so. */
#include "../hb_check.h"
#include "hb_mpirun_dialect.h"

int main(void)
{
    CHECK_STR(hb_mpirun_dialect()->package, "socket");
    CHECK(hb_mpirun_dialect_assumed() == NULL);

    hb_mpirun_dialect_choose("Open MPI v5.0.7, package: Debian OpenMPI, ident: 5.0.7, repo rev: "
                             "v5.0.7, Feb 14, 2025");
    CHECK_STR(hb_mpirun_dialect()->name, "Open MPI 5 (PRRTE)");
    CHECK_STR(hb_mpirun_dialect()->package, "package");
    CHECK(hb_mpirun_dialect_assumed() == NULL);

    hb_mpirun_dialect_choose("Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: "
                             "v4.1.4, May 26, 2022");
    CHECK_STR(hb_mpirun_dialect()->name, "Open MPI 4.1 (ORTE)");
    CHECK_STR(hb_mpirun_dialect()->package, "socket");
    CHECK(hb_mpirun_dialect_assumed() == NULL);

    hb_mpirun_dialect_choose(
        "MPICH Version:      4.0.2\nMPICH Release date: Thu Apr  7 12:34:45 CDT 2022");
    CHECK_STR(hb_mpirun_dialect()->package, "socket");
    CHECK_STR(hb_mpirun_dialect_assumed(),
              "MPI library 'MPICH Version:      4.0.2' is not one hopbench "
              "knows: its mpirun lines follow Open MPI 4.1 (ORTE)'s "
              "conventions");

    hb_mpirun_dialect_choose("Intel(R) MPI Library 2021.10 for Linux* OS");
    CHECK_HAS(hb_mpirun_dialect_assumed(), "'Intel(R) MPI Library 2021.10 for Linux* OS'");
    /* Open MPI again: nothing assumed any more. */
    hb_mpirun_dialect_choose("Open MPI v5.1.0a1");
    CHECK(hb_mpirun_dialect_assumed() == NULL);
    return hb_check_result();
}
