/* The collective component behind an operation (hb_coll_mpit.h). Open MPI picks, for each
 * operation of a communicator, the component of highest priority among those that the coll
 * list lets in, that accept the communicator and that implement the operation; the
 * priorities and the list are MPI_T control variables (coll, coll_<name>_priority), and so
 * are tuned's forced algorithms (coll_tuned_use_dynamic_rules, coll_tuned_<op>_algorithm). */
#include "hb_coll_mpit.h"

#include "hb_options.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What each Open MPI component implements among coll's operations (bit i: hb_coll_op_names[i])
 * and which communicators it takes: any, those on one host only (shared memory), or only
 * those that span hosts (han, hierarchical). */
enum coll_scope { COLL_ANY, COLL_ONE_HOST, COLL_HOSTS };
struct coll_component {
    const char *name;
    unsigned ops;
    enum coll_scope scope;
};
#define ALL_OPS 0x3fu
#define OPS(allreduce, reduce, bcast, allgather, alltoall, barrier)                                \
    ((allreduce) | (reduce) << 1 | (bcast) << 2 | (allgather) << 3 | (alltoall) << 4 |             \
     (barrier) << 5)
static const struct coll_component coll_components[] = {
    {"tuned", ALL_OPS, COLL_ANY},
    {"basic", ALL_OPS, COLL_ANY},
    {"sm", OPS(1, 1, 1, 0, 0, 1), COLL_ONE_HOST},
    {"xhc", OPS(1, 1, 1, 0, 0, 1), COLL_ONE_HOST},
    {"han", OPS(1, 1, 1, 1, 0, 1), COLL_HOSTS},
    {"adapt", OPS(0, 1, 1, 0, 0, 0), COLL_ANY},
    {"hcoll", ALL_OPS, COLL_ANY},
    {"ucc", ALL_OPS, COLL_ANY},
};
/* Components that never run a blocking operation of an intra-communicator of two ranks or
 * more: self (one rank), inter (inter-communicators), the non-blocking ones, and wrappers
 * that hand the operation on (sync, monitoring, the accelerator ones, ftagree). */
static const char *const coll_bystanders[] = {"self",    "inter",      "libnbc", "nbc",
                                              "sync",    "monitoring", "cuda",   "accelerator",
                                              "ftagree", "portals4",   NULL};

#define COLL_MAX_SEEN 32
struct coll_seen {
    char name[32];
    int priority;
};

struct hb_coll_mpit {
    bool have_mpit; /* MPI_T answered */
    bool have_coll; /* the library has Open MPI's coll variable */
    char list[256]; /* its value: "" = every component */
    struct coll_seen seen[COLL_MAX_SEEN];
    int nseen;
    int dynamic_rules; /* coll_tuned_use_dynamic_rules: -1 unknown */
    char rules_file[256];
    char tuned_alg[HB_COLL_OPS][40]; /* forced algorithm's name, "" none */
};

/* Variable i's value as text (ints as decimal, an enumeration's item by name, a bool as
 * true or false). */
static int coll_cvar_text(int i, MPI_Datatype type, MPI_T_enum et, char *out, size_t len)
{
    MPI_T_cvar_handle h;
    int count = 0;
    out[0] = '\0';
    if (MPI_T_cvar_handle_alloc(i, NULL, &h, &count) != MPI_SUCCESS) return -1;
    int rc = -1;
    if (type == MPI_CHAR && count > 0) {
        char *buf = calloc((size_t)count + 1, 1);
        if (buf && MPI_T_cvar_read(h, buf) == MPI_SUCCESS) {
            snprintf(out, len, "%s", buf);
            rc = 0;
        }
        free(buf);
    } else if (type == MPI_C_BOOL) {
        bool v = false;
        if (MPI_T_cvar_read(h, &v) == MPI_SUCCESS) {
            snprintf(out, len, "%s", v ? "true" : "false");
            rc = 0;
        }
    } else if (type == MPI_INT || type == MPI_UNSIGNED) {
        int v = 0;
        if (MPI_T_cvar_read(h, &v) == MPI_SUCCESS) {
            rc = 0;
            snprintf(out, len, "%d", v);
            int n = 0;
            if (et != MPI_T_ENUM_NULL &&
                MPI_T_enum_get_info(et, &n, NULL, &(int){0}) == MPI_SUCCESS)
                for (int k = 0; k < n; k++) {
                    char name[64];
                    int nlen = sizeof(name), value = 0;
                    if (MPI_T_enum_get_item(et, k, &value, name, &nlen) == MPI_SUCCESS &&
                        value == v)
                        snprintf(out, len, "%s", name);
                }
        }
    }
    MPI_T_cvar_handle_free(&h);
    return rc;
}

/* One variable: kept when it is one of those that decide. */
static void coll_cvar(struct hb_coll_mpit *m, int i)
{
    char name[128], value[256];
    int nlen = sizeof(name), verb = 0, bind = 0, scope = 0;
    MPI_Datatype type;
    MPI_T_enum et;
    if (MPI_T_cvar_get_info(i, name, &nlen, &verb, &type, &et, NULL, NULL, &bind, &scope) !=
        MPI_SUCCESS)
        return;
    size_t n = strlen(name);
    const char *suffix = "_priority";
    bool priority = strncmp(name, "coll_", 5) == 0 && n > 5 + strlen(suffix) &&
                    strcmp(name + n - strlen(suffix), suffix) == 0;
    bool alg = strncmp(name, "coll_tuned_", 11) == 0 && strstr(name, "_algorithm") &&
               !strstr(name, "_algorithm_");
    bool want = strcmp(name, "coll") == 0 || priority || alg ||
                strcmp(name, "coll_tuned_use_dynamic_rules") == 0 ||
                strcmp(name, "coll_tuned_dynamic_rules_filename") == 0;
    if (!want || coll_cvar_text(i, type, et, value, sizeof(value)) != 0) return;
    if (strcmp(name, "coll") == 0) {
        m->have_coll = true;
        snprintf(m->list, sizeof(m->list), "%s", value);
    } else if (priority && m->nseen < COLL_MAX_SEEN) {
        struct coll_seen *s = &m->seen[m->nseen++];
        snprintf(s->name, sizeof(s->name), "%.*s", (int)(n - 5 - strlen(suffix)), name + 5);
        s->priority = atoi(value);
    } else if (strcmp(name, "coll_tuned_use_dynamic_rules") == 0) {
        m->dynamic_rules = strcmp(value, "true") == 0 || strcmp(value, "1") == 0;
    } else if (strcmp(name, "coll_tuned_dynamic_rules_filename") == 0) {
        snprintf(m->rules_file, sizeof(m->rules_file), "%s", value);
    } else {
        for (int op = 0; op < HB_COLL_OPS; op++) {
            char want_name[64];
            snprintf(want_name, sizeof(want_name), "coll_tuned_%s_algorithm", hb_coll_op_names[op]);
            if (strcmp(name, want_name) == 0 && strcmp(value, "ignore") != 0 &&
                strcmp(value, "0") != 0)
                snprintf(m->tuned_alg[op], sizeof(m->tuned_alg[op]), "%.39s", value);
        }
    }
}

struct hb_coll_mpit *hb_coll_mpit_read(void)
{
    struct hb_coll_mpit *m = calloc(1, sizeof(*m));
    if (!m) return NULL;
    m->dynamic_rules = -1;
    int provided = 0, n = 0;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) return m;
    m->have_mpit = true;
    if (MPI_T_cvar_get_num(&n) == MPI_SUCCESS)
        for (int i = 0; i < n; i++)
            coll_cvar(m, i);
    MPI_T_finalize();
    return m;
}

void hb_coll_mpit_free(struct hb_coll_mpit *m)
{
    free(m);
}

/* Whether the coll list lets component name in. */
static bool coll_listed(const struct hb_coll_mpit *m, const char *name)
{
    if (!m->list[0]) return true;
    bool exclude = m->list[0] == '^';
    const char *p = m->list + exclude;
    size_t n = strlen(name);
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0) return !exclude;
        if (!end) return exclude;
        p = end + 1;
    }
}

static const struct coll_component *coll_known(const char *name)
{
    for (size_t k = 0; k < sizeof(coll_components) / sizeof(coll_components[0]); k++)
        if (strcmp(coll_components[k].name, name) == 0) return &coll_components[k];
    return NULL;
}

static bool coll_bystander(const char *name)
{
    for (int k = 0; coll_bystanders[k]; k++)
        if (strcmp(coll_bystanders[k], name) == 0) return true;
    return false;
}

/* tuned's algorithm: a forced one by name, else its fixed decision rules (not exposed). */
static void coll_tuned_algorithm(const struct hb_coll_mpit *m, int op, char *alg, size_t alen,
                                 char *why, size_t wlen)
{
    if (m->dynamic_rules == 1 && op >= 0 && m->tuned_alg[op][0]) {
        snprintf(alg, alen, "%s", m->tuned_alg[op]);
        snprintf(why, wlen, "; algorithm forced by coll_tuned_%s_algorithm", hb_coll_op_names[op]);
    } else if (m->dynamic_rules == 1 && m->rules_file[0]) {
        snprintf(why, wlen, "; algorithm from the rules file %.100s (not read)", m->rules_file);
    } else {
        snprintf(why, wlen, "; algorithm: tuned's fixed decision by size and ranks (not exposed)");
    }
}

void hb_coll_mpit_choose(const struct hb_coll_mpit *m, const char *op, bool one_host,
                         char *component, size_t clen, char *algorithm, size_t alen, char *source,
                         size_t slen)
{
    snprintf(component, clen, "unknown");
    algorithm[0] = '\0';
    if (!m->have_mpit || !m->have_coll) {
        snprintf(source, slen, "%s",
                 m->have_mpit ? "MPI_T has no Open MPI coll variable: the library does not say"
                              : "MPI_T did not start: the library does not say");
        return;
    }
    int k = hb_coll_op_index(op);
    unsigned bit = k >= 0 ? 1u << k : 0;
    const struct coll_seen *best = NULL, *stranger = NULL;
    for (int i = 0; i < m->nseen; i++) {
        const struct coll_seen *s = &m->seen[i];
        if (s->priority < 0 || !coll_listed(m, s->name) || coll_bystander(s->name)) continue;
        const struct coll_component *c = coll_known(s->name);
        if (!c) {
            if (!stranger || s->priority > stranger->priority) stranger = s;
            continue;
        }
        bool takes =
            (c->ops & bit) && (c->scope == COLL_ANY || (c->scope == COLL_ONE_HOST) == one_host);
        if (takes && (!best || s->priority > best->priority)) best = s;
    }
    char why[200] = "";
    if (stranger && (!best || stranger->priority >= best->priority)) {
        snprintf(source, slen,
                 "MPI_T: component %s (priority %d) is let in and not known to hopbench; it may "
                 "take %s",
                 stranger->name, stranger->priority, op);
        return;
    }
    if (!best) {
        snprintf(source, slen, "MPI_T: no component the coll list '%s' lets in implements %s",
                 m->list, op);
        return;
    }
    snprintf(component, clen, "%s", best->name);
    if (strcmp(best->name, "tuned") == 0)
        coll_tuned_algorithm(m, k, algorithm, alen, why, sizeof(why));
    snprintf(source, slen,
             "MPI_T: coll list '%s', the highest priority (%d) of the components that implement "
             "%s for a communicator %s%s",
             m->list[0] ? m->list : "(all)", best->priority, op,
             one_host ? "on one host" : "across hosts", why);
}
