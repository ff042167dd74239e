/* comm's transport in words (hb_msg_transport.h), from the MCA parameters as MPI_T control
 * variables: btl, pml and the shared-memory btl's single-copy mechanism (vader's in Open MPI
 * 4.1, sm's in 5). */
#include "hb_msg_transport.h"

#include "hb_ranks.h"
#include "hb_mpirun_dialect.h"

#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An enum variable's value by its name, else the number. */
static void cvar_enum(MPI_T_enum e, int v, char *out, size_t len)
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
static bool cvar(const char *name, char *out, size_t len)
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
        read = true, cvar_enum(enumtype, v, out, len);
    MPI_T_cvar_handle_free(&h);
    return read;
}

/* `name = value` of an MCA parameter file (Open MPI's mca-params.conf syntax) into out: 1
 * when the file sets it, 0 when not or absent, -1 when it exists but cannot be read. */
static int mca_file(const char *path, const char *name, char *out, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f) return errno == ENOENT ? 0 : -1;
    char line[512];
    int found = 0;
    size_t n = strlen(name);
    while (fgets(line, sizeof(line), f)) {
        char *p = line + strspn(line, " \t");
        if (strncmp(p, name, n) != 0) continue;
        p += n;
        p += strspn(p, " \t");
        if (*p != '=') continue;
        p += 1 + strspn(p + 1, " \t");
        p[strcspn(p, " \t\r\n#")] = '\0';
        snprintf(out, len, "%s", p);
        found = 1;
    }
    fclose(f);
    return found;
}

/* An MCA parameter as this process got it: its control variable; else where mpirun --mca
 * and the user's environment put it (OMPI_MCA_<name>); else the parameter files (the user's,
 * then the system's). Set nowhere: "" (Open MPI's own selection). false only when a file
 * that may set it cannot be read: unknown, never a guess. */
static bool mca_param(const char *name, char *out, size_t len)
{
    if (cvar(name, out, len) && out[0]) return true;
    char env[64];
    snprintf(env, sizeof(env), "OMPI_MCA_%s", name);
    const char *given = getenv(env);
    out[0] = '\0';
    if (given) {
        snprintf(out, len, "%s", given);
        return true;
    }
    char user[4096] = "";
    const char *home = getenv("HOME");
    if (home) snprintf(user, sizeof(user), "%s/.openmpi/mca-params.conf", home);
    const char *files[] = {getenv("OMPI_MCA_mca_base_param_files"), user,
                           "/etc/openmpi/openmpi-mca-params.conf"};
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        if (!files[i] || !files[i][0] || strchr(files[i], ':')) continue;
        int got = mca_file(files[i], name, out, len);
        if (got) return got > 0;
    }
    return true;
}

/* Whether a btl list ("", "vader,self", "^openib") lets component `c` run. */
static bool btl_allows(const char *list, const char *c)
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
    if (hb_ranks_solo()) {
        snprintf(out, len, "none: one process");
        return;
    }
    int provided = 0;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
        snprintf(out, len, "unknown: MPI_T did not start");
        return;
    }
    const char *shm = hb_mpirun_dialect()->shm_btl;
    char btl[256], pml[256], copy[64], copy_var[64];
    snprintf(copy_var, sizeof(copy_var), "btl_%s_single_copy_mechanism", shm);
    bool known = mca_param("btl", btl, sizeof(btl));
    mca_param("pml", pml, sizeof(pml));
    cvar(copy_var, copy, sizeof(copy));
    MPI_T_finalize();
    /* A parameter file that may set it cannot be read: no guess at a default. */
    if (!known) {
        snprintf(out, len, "unknown: an MCA parameter file that may set the btl cannot be read");
        return;
    }
    const char *pml_text = pml[0] ? pml : "default";
    /* A list may name Open MPI 5's sm by its old name: vader is its alias there. */
    if (same_host && (btl_allows(btl, shm) || btl_allows(btl, "vader")))
        snprintf(out, len, "btl %s, single copy %s; pml %s", shm, copy[0] ? copy : "unknown",
                 pml_text);
    else if (!same_host && btl_allows(btl, "tcp"))
        snprintf(out, len, "btl tcp; pml %s", pml_text);
    else
        snprintf(out, len, "btl %s; pml %s", btl[0] ? btl : "default", pml_text);
}
