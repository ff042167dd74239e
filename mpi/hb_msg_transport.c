/* comm's transport in words (hb_msg_transport.h), from the MCA parameters as MPI_T control
 * variables: btl, pml and the shared-memory btl's single-copy mechanism (vader's in Open MPI
 * 4.1, sm's in 5). */
#include "hb_msg_transport.h"

#include "hb_comm.h"
#include "hb_mpi_conv.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An enum variable's value by its name, else the number. */
static void hb_cvar_enum(MPI_T_enum e, int v, char *out, size_t len)
{
    int n = 0;
    snprintf(out, len, "%d", v);
    if (e == MPI_T_ENUM_NULL || MPI_T_enum_get_info(e, &n, NULL, NULL) != MPI_SUCCESS) return;
    for (int i = 0; i < n; i++) {
        int value = 0, name_len = (int)len;
        if (MPI_T_enum_get_item(e, i, &value, out, &name_len) == MPI_SUCCESS && value == v) return;
    }
    snprintf(out, len, "%d", v);
}

/* The value of control variable `name` as text ("" when unset); false when the library has
 * no such variable or it cannot be read. */
static bool hb_cvar(const char *name, char *out, size_t len)
{
    int index = -1, count = 0, verbosity = 0, bind = 0, scope = 0, name_len = 0, desc_len = 0;
    MPI_Datatype type;
    MPI_T_enum enumtype;
    MPI_T_cvar_handle h;
    out[0] = '\0';
    if (MPI_T_cvar_get_index(name, &index) != MPI_SUCCESS ||
        MPI_T_cvar_get_info(index, NULL, &name_len, &verbosity, &type, &enumtype, NULL, &desc_len,
                            &bind, &scope) != MPI_SUCCESS ||
        MPI_T_cvar_handle_alloc(index, NULL, &h, &count) != MPI_SUCCESS)
        return false;
    char text[256] = "";
    int v = 0;
    bool read = false;
    if (type == MPI_CHAR && count < (int)sizeof(text) && MPI_T_cvar_read(h, text) == MPI_SUCCESS)
        read = true, snprintf(out, len, "%s", text);
    else if (type == MPI_INT && count == 1 && MPI_T_cvar_read(h, &v) == MPI_SUCCESS)
        read = true, hb_cvar_enum(enumtype, v, out, len);
    MPI_T_cvar_handle_free(&h);
    return read;
}

/* An MCA parameter as this process got it: its control variable, or where mpirun --mca and
 * the user's environment put it (OMPI_MCA_<name>) when the variable says nothing. false when
 * neither says anything and the variable cannot be read: unknown. */
static bool hb_mca(const char *name, char *out, size_t len)
{
    bool read = hb_cvar(name, out, len);
    char env[64];
    snprintf(env, sizeof(env), "OMPI_MCA_%s", name);
    const char *given = getenv(env);
    if (!out[0] && given) {
        snprintf(out, len, "%s", given);
        return true;
    }
    return read;
}

/* Whether a btl list ("", "vader,self", "^openib") lets component `c` run. */
static bool hb_btl_allows(const char *list, const char *c)
{
    if (!list[0]) return true;
    bool excl = list[0] == '^';
    char copy[256];
    snprintf(copy, sizeof(copy), "%s", excl ? list + 1 : list);
    bool named = false;
    char *save = NULL;
    for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save))
        named = named || strcmp(w, c) == 0;
    return excl ? !named : named;
}

void hb_msg_transport(bool same_host, char *out, size_t len)
{
    if (hb_comm_solo()) {
        snprintf(out, len, "none: one process");
        return;
    }
    int provided = 0;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
        snprintf(out, len, "unknown: MPI_T did not start");
        return;
    }
    const char *shm = hb_mpi_conv()->shm_btl;
    char btl[256], pml[256], copy[64], copy_var[64];
    snprintf(copy_var, sizeof(copy_var), "btl_%s_single_copy_mechanism", shm);
    bool known = hb_mca("btl", btl, sizeof(btl));
    hb_mca("pml", pml, sizeof(pml));
    hb_cvar(copy_var, copy, sizeof(copy));
    MPI_T_finalize();
    /* Nothing says which btl may run: no guess at a default. */
    if (!known) {
        snprintf(out, len, "unknown: the MPI library's btl variable cannot be read");
        return;
    }
    const char *pml_text = pml[0] ? pml : "default";
    /* A list may name Open MPI 5's sm by its old name: vader is its alias there. */
    if (same_host && (hb_btl_allows(btl, shm) || hb_btl_allows(btl, "vader")))
        snprintf(out, len, "btl %s, single copy %s; pml %s", shm, copy[0] ? copy : "unknown",
                 pml_text);
    else if (!same_host && hb_btl_allows(btl, "tcp"))
        snprintf(out, len, "btl tcp; pml %s", pml_text);
    else
        snprintf(out, len, "btl %s; pml %s", btl[0] ? btl : "default", pml_text);
}
