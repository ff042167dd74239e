/* The launcher conventions hopbench's mpirun lines follow, chosen once from the MPI library
 * it was built with (MPI_Get_library_version, which main reads before any command): Open MPI
 * 4.1's mpirun (ORTE) or Open MPI 5's (PRRTE). The core layer knows no MPI, so it is told. */
#ifndef HB_MPIRUN_DIALECT_H
#define HB_MPIRUN_DIALECT_H

struct hb_mpirun_dialect {
    const char *name;    /* e.g. "Open MPI 5 (PRRTE)": records and messages say it */
    const char *package; /* the mapping and binding word for a package */
    const char *shm_btl; /* the shared-memory btl: vader (4.1), sm (5; vader is its alias) */
};

/* Choose from the library's version text ("Open MPI v5.0.7, package: ..."); an MPI hopbench
 * does not know (MPICH, Intel MPI) gets Open MPI 4.1's conventions, and hb_mpirun_dialect_assumed
 * says so. Until chosen, Open MPI 4.1's hold. */
void hb_mpirun_dialect_choose(const char *library);

/* The conventions chosen. */
const struct hb_mpirun_dialect *hb_mpirun_dialect(void);

/* NULL, or the one line that says which conventions were assumed for an unknown library. */
const char *hb_mpirun_dialect_assumed(void);

#endif
