/* Rank 0's part of a run that only the MPI layer can play: the run record's MPI fields and
 * the status every rank adopts. */
#include "hb_rank0.h"

#include "hb_ranks.h"
#include "hb_mpirun_dialect.h"

#include <stdio.h>
#include <string.h>

void hb_rank0_choose_conventions(void)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(lib, &len);
    hb_mpirun_dialect_choose(lib);
}

void hb_rank0_record_versions(json_t *run)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0, major = 0, minor = 0;
    MPI_Get_library_version(lib, &len);
    MPI_Get_version(&major, &minor);
    lib[strcspn(lib, ",\n")] = '\0';
    json_t *versions = json_object_get(run, "versions");
    json_object_set_new(versions, "mpi_library", json_string(lib));
    json_object_set_new(versions, "mpi_launcher", json_string(hb_mpirun_dialect()->name));
    char std[16];
    snprintf(std, sizeof(std), "%d.%d", major, minor);
    json_object_set_new(versions, "mpi", json_string(std));
}

void hb_rank0_record_world(json_t *run, const struct hb_world *w)
{
    hb_rank0_record_versions(run);
    json_t *hosts = json_array();
    for (int h = 0; h < w->nhosts; h++)
        json_array_append_new(hosts, json_string(w->hosts[h]));
    json_object_set_new(run, "hosts", hosts);
    json_object_set_new(run, "ranks", json_integer(w->size));
    json_t *layout = json_array();
    for (int r = 0; r < w->size; r++)
        json_array_append_new(layout, json_pack("{s:i, s:s, s:i, s:s}", "rank", r, "host",
                                                w->hosts[w->rank_host[r]], "node", w->rank_node[r],
                                                "cpus", w->rank_cpus[r]));
    json_object_set_new(run, "rank_layout", layout);
}

int hb_rank0_share(int value)
{
    hb_ranks_bcast_ints(&value, 1);
    return value;
}
