/* Readers of option values (see hb_option_values.h). */
#include "hb_option_values.h"

#include "hb_error.h"
#include "hb_nodeset.h"
#include "hb_bytes.h"
#include "hb_interleave_weights.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* strtol and strtod skip leading blanks and take '+', hex, "inf": a number starts with a
 * digit (or '-' and a digit where negatives are in range). */
static bool starts_number(const char *text, bool negative_ok)
{
    if (negative_ok && *text == '-') text++;
    return isdigit((unsigned char)*text) || (*text == '.' && isdigit((unsigned char)text[1]));
}

/* Plain decimal digits (after a '-' where negatives are in range): the only form an integer
 * option takes, so a message about another form ("1e3", "+2", "-0") says so rather than
 * giving a range the number is in. */
static bool plain_digits(const char *text, bool negative_ok)
{
    if (negative_ok && *text == '-') text++;
    return *text && strspn(text, "0123456789") == strlen(text);
}

int hb_option_values_parse_int(const char *opt, const char *text, long lo, long hi,
                               const char *what, int *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || !starts_number(text, lo < 0) || end == text || *end || v < lo || v > hi) {
        hb_error_set("invalid %s '%s': expected %s%s", opt, text, what,
                     plain_digits(text, lo < 0) ? "" : ", in plain digits");
        return -EINVAL;
    }
    *out = (int)v;
    return 0;
}

int hb_option_values_parse_double(const char *opt, const char *text, double lo, double hi,
                                  const char *what, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    bool form = starts_number(text, lo < 0) && !strpbrk(text, "xXpP") && end != text && !*end;
    /* A number under the smallest double is not 0 and not "outside" a range from 0: say it
     * cannot be held ("1e-400" is above 0 and below 1000). */
    if (form && errno == ERANGE && fabs(v) < 1.0) {
        hb_error_set("invalid %s '%s': too close to 0 to hold as a number (the least is "
                     "%.17g); expected %s",
                     opt, text, DBL_MIN, what);
        return -EINVAL;
    }
    if (errno || !form || !(v >= lo && v <= hi)) {
        /* "-0" is 0 and "+1" is 1, in a range from 0: it is the sign that is refused. */
        const char *digits = text + ((*text == '-' && lo >= 0) || *text == '+');
        bool sign = digits != text && starts_number(digits, false) && !strpbrk(text, "xXpP") &&
                    end != text && !*end && !errno && v >= lo && v <= hi;
        /* 0x5 is 5 to strtod: the form is what is wrong. */
        hb_error_set("invalid %s '%s': expected %s%s", opt, text, what,
                     sign                    ? ", without a sign"
                     : strpbrk(text, "xXpP") ? ", in decimal"
                                             : "");
        return -EINVAL;
    }
    *out = v;
    return 0;
}

int hb_option_values_copy_arg(const char *opt, const char *text, char *dst, size_t len)
{
    if (strlen(text) >= len || !*text) {
        hb_error_set("invalid %s '%s': expected a non-empty value of at most %zu characters", opt,
                     text, len - 1);
        return -EINVAL;
    }
    snprintf(dst, len, "%s", text);
    return 0;
}

char *hb_option_values_names_join(const char *const *names, const char *sep)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return NULL;
    for (int i = 0; names[i]; i++)
        fprintf(f, "%s%s", i ? sep : "", names[i]);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

int hb_option_values_parse_enum(const char *opt, const char *text, const char *const *names,
                                int *out)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(text, names[i]) == 0) {
            *out = i;
            return 0;
        }
    char *valid = hb_option_values_names_join(names, ", ");
    hb_error_set("invalid %s '%s': valid values are %s", opt, text,
                 valid ? valid : "(out of memory listing them)");
    free(valid);
    return -EINVAL;
}

/* A comma-separated list has no empty item (strtok would skip it silently). */
int hb_option_values_check_items(const char *opt, const char *text)
{
    if (!*text || text[0] == ',' || text[strlen(text) - 1] == ',' || strstr(text, ",,")) {
        hb_error_set("invalid %s '%s': expected a comma-separated list without empty items", opt,
                     text);
        return -EINVAL;
    }
    return 0;
}

int hb_option_values_check_unique(const char *opt, const char *text)
{
    /* An item twice, as written: each later item against every earlier one. */
    for (const char *a = text; *a; a = strchr(a, ',') ? strchr(a, ',') + 1 : a + strlen(a)) {
        size_t la = strcspn(a, ",");
        for (const char *b = a + la; *b == ','; b += 1 + strcspn(b + 1, ",")) {
            size_t lb = strcspn(b + 1, ",");
            if (la == lb && strncmp(a, b + 1, la) == 0) {
                hb_error_set("invalid %s '%s': '%.*s' is given twice; give each item once", opt,
                             text, (int)la, a);
                return -EINVAL;
            }
        }
    }
    return 0;
}

/* Every comma-separated item of text is one of names: *mask gets bit `first + index` of each. */
int hb_option_values_parse_list(const char *opt, const char *text, const char *const *names,
                                int first, unsigned *mask)
{
    int rc = hb_option_values_check_items(opt, text);
    if (rc == 0) rc = hb_option_values_check_unique(opt, text);
    if (rc) return rc;
    char *list = strdup(text), *save = NULL;
    if (!list) {
        hb_error_set("out of memory reading %s", opt);
        return -ENOMEM;
    }
    int v = 0;
    *mask = 0;
    for (char *w = strtok_r(list, ",", &save); w && rc == 0; w = strtok_r(NULL, ",", &save))
        if ((rc = hb_option_values_parse_enum(opt, w, names, &v)) == 0) *mask |= 1u << (first + v);
    free(list);
    return rc;
}

int hb_option_values_parse_int_list(const char *opt, const char *text, int *out, int cap, int *n)
{
    const char *p = text;
    for (*n = 0;; (*n)++) {
        char *end = NULL;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (errno || end == p || v < 0 || v > INT_MAX || !isdigit((unsigned char)*p) ||
            (*end != ',' && *end != '\0')) {
            hb_error_set("invalid %s '%s': expected comma-separated node numbers, e.g. 1,2", opt,
                         text);
            return -EINVAL;
        }
        for (int i = 0; i < *n && i < cap; i++)
            if (out[i] == (int)v) {
                hb_error_set("invalid %s '%s': node %ld is named twice; name each node once", opt,
                             text, v);
                return -EINVAL;
            }
        /* Past cap only for a list too long to keep, which the caller then refuses. */
        if (*n < cap) out[*n] = (int)v;
        if (*end == '\0') {
            (*n)++;
            return 0;
        }
        p = end + 1;
    }
}

/* A list item given twice makes two measurements of one identity, which compare and the
 * derived records refuse: refused here, naming it. */
static int item_twice(const char *opt, const char *item)
{
    hb_error_set("invalid %s: '%s' is given twice; give each item once", opt, item);
    return -EINVAL;
}

/* Each comma-separated item of an option's list (at most cap; `what` names them in the
 * message) to item(word, k, ctx), k counting from 0 in *n; then the list's shape is checked. */
static int each_item(const char *opt, const char *what, const char *text, int cap,
                     int (*item)(const char *w, int k, void *ctx), void *ctx, int *n)
{
    char list[256], *save = NULL;
    if (hb_option_values_copy_arg(opt, text, list, sizeof(list))) return -EINVAL;
    *n = 0;
    for (char *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save), (*n)++) {
        if (*n == cap) {
            hb_error_set("invalid %s '%s': at most %d %s in one list", opt, text, cap, what);
            return -EINVAL;
        }
        int rc = item(w, *n, ctx);
        if (rc) return rc;
    }
    return hb_option_values_check_items(opt, text);
}

/* One size of --size's list, kept in order: a list is a set of sizes, measured smallest
 * first. */
struct hb_size_list {
    struct hb_options *o;
    const char *text; /* the whole list, as messages name it */
};

static int size_item(const char *w, int k, void *ctx)
{
    const struct hb_size_list *l = ctx;
    struct hb_options *o = l->o;
    uint64_t v = 0;
    if (hb_bytes_parse(w, &v)) return -EINVAL;
    int at = k;
    while (at > 0 && o->sizes[at - 1] > v)
        at--;
    if (at > 0 && o->sizes[at - 1] == v) {
        hb_error_set("invalid --size '%s': %s is given twice; give each size once", l->text, w);
        return -EINVAL;
    }
    memmove(&o->sizes[at + 1], &o->sizes[at], sizeof(o->sizes[0]) * (size_t)(k - at));
    o->sizes[at] = v;
    return 0;
}

int hb_option_values_parse_sizes(const char *text, struct hb_options *o)
{
    struct hb_size_list l = {o, text};
    int rc = each_item("--size", "sizes", text, HB_MAX_SIZE_LIST, size_item, &l, &o->nsizes);
    if (rc == 0) o->size = o->sizes[o->nsizes - 1];
    return rc;
}

/* One stride: a power of two of at least 64 bytes, any size form. */
static int stride_item(const char *w, int k, void *ctx)
{
    struct hb_options *o = ctx;
    uint64_t v = 0;
    if (hb_bytes_parse(w, &v) == -ERANGE) {
        /* 2^70 is a power of two of at least 64 bytes: it is its size that is wrong. */
        hb_error_set("invalid --stride '%s': too large: expected a power of two from 64 bytes "
                     "to 8 EiB, e.g. 64, 128, 256 (default), 512, 4K",
                     w);
        return -EINVAL;
    }
    if (hb_chase_check_stride(w, v)) return -EINVAL;
    for (int i = 0; i < k; i++)
        if (o->strides[i] == v) return item_twice("--stride", w);
    o->strides[k] = v;
    return 0;
}

/* --stride 256 or 64,128,256. */
int hb_option_values_parse_strides(const char *text, struct hb_options *o)
{
    return each_item("--stride", "strides", text, HB_CHASE_MAX_STRIDES, stride_item, o,
                     &o->nstrides);
}

static int chains_item(const char *w, int k, void *ctx)
{
    struct hb_options *o = ctx;
    char *end = NULL;
    errno = 0;
    long long v = strtoll(w, &end, 10);
    if (errno || end == w || *end || !isdigit((unsigned char)*w)) v = 0;
    if (hb_chase_check_chains(w, v)) return -EINVAL;
    for (int i = 0; i < k; i++)
        if (o->chains[i] == v) return item_twice("--chains", w);
    o->chains[k] = (int)v;
    return 0;
}

int hb_option_values_parse_chains(const char *text, struct hb_options *o)
{
    return each_item("--chains", "chain counts", text, HB_CHASE_MAX_STRIDES, chains_item, o,
                     &o->nchains);
}

int hb_option_values_parse_tlb_group(const char *text, uint64_t *out)
{
    if (strcmp(text, "all") == 0) {
        *out = HB_CHASE_GROUP_ALL;
        return 0;
    }
    int rc = hb_bytes_parse(text, out);
    if (rc == 0) return 0;
    /* 0 and 2^70 are multiples of any stride: say what else is wrong with them. */
    hb_error_set("invalid --tlb-group '%s': %sexpected 'all' or a positive size that is a multiple "
                 "of the stride, e.g. 256K (default)",
                 text, rc == -ERANGE ? "too large (16 EiB or more): " : "");
    return -EINVAL;
}

/* --seed: any non-negative integer the run record's JSON integer (jansson's, 64 bits
 * signed) holds exactly; a larger one was recorded as a negative number. */
int hb_option_values_parse_seed(const char *arg, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long s = strtoull(arg, &end, 10);
    if (errno || !starts_number(arg, false) || end == arg || *end ||
        s > (unsigned long long)LLONG_MAX) {
        /* 2^63 is a non-negative integer too, and "-0" is 0: name the range and the form. */
        hb_error_set("invalid --seed '%s': expected a non-negative integer up to %lld, in plain "
                     "digits",
                     arg, LLONG_MAX);
        return -EINVAL;
    }
    *out = s;
    return 0;
}

int hb_option_values_parse_positive(const char *opt, const char *arg, double hi, const char *what,
                                    double *out)
{
    double v = 0.0;
    /* From the least normal double: 0 and -0 are not above 0. */
    int rc = hb_option_values_parse_double(opt, arg, DBL_MIN, hi, what, &v);
    if (rc == 0 && v <= 0.0) {
        hb_error_set("invalid %s '%s': expected %s", opt, arg, what);
        rc = -EINVAL;
    }
    if (rc == 0) *out = v;
    return rc;
}

/* --nodes: the set now (the last one given counts); whether its nodes exist once the
 * topology is loaded (hb_suite_check_nodes). */
int hb_option_values_parse_nodes(const char *arg, struct hb_options *o)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set) {
        hb_error_set("out of memory reading --nodes %s", arg);
        return -ENOMEM;
    }
    int rc = hb_nodeset_parse("--nodes", arg, set);
    if (rc == 0)
        rc = hb_option_values_copy_arg("--nodes", arg, o->nodes_text, sizeof(o->nodes_text));
    if (rc) {
        hwloc_bitmap_free(set);
        return rc;
    }
    hwloc_bitmap_free(o->nodes);
    o->nodes = set;
    return 0;
}

/* --home writer, reader or a node number. */
int hb_option_values_parse_home(const char *arg, int *out)
{
    if (strcmp(arg, "writer") == 0 || strcmp(arg, "reader") == 0) {
        *out = arg[0] == 'w' ? HB_C2C_HOME_WRITER : HB_C2C_HOME_READER;
        return 0;
    }
    return hb_option_values_parse_int(
        "--home", arg, 0, INT_MAX,
        "writer, reader or a node number with memory (see hopbench topo)", out);
}

int hb_option_values_parse_mem_nodes(const char *text, struct hb_options *o)
{
    if (!strchr(text, ',')) {
        int rc = hb_option_values_parse_int("--mem-node", text, 0, INT_MAX,
                                            "a node number (see hopbench topo)", &o->mem_node);
        o->mem_nodes[0] = o->mem_node;
        o->nmem_nodes = rc ? 0 : 1;
        return rc;
    }
    int n = 0,
        rc = hb_option_values_parse_int_list("--mem-node", text, o->mem_nodes, HB_MAX_WEIGHTED, &n);
    if (rc) return rc;
    if (n > HB_MAX_WEIGHTED) {
        hb_error_set("invalid --mem-node '%s': at most %d nodes", text, HB_MAX_WEIGHTED);
        return -EINVAL;
    }
    o->nmem_nodes = n;
    o->mem_node = -1; /* a list is --policy weighted's set, checked after the options */
    return 0;
}

int hb_option_values_parse_weights(const char *text, struct hb_options *o)
{
    if (hb_option_values_check_items("--weights", text)) return -EINVAL;
    o->nweights = 0;
    o->weights_auto = strcmp(text, "auto") == 0;
    if (o->weights_auto) return 0;
    for (const char *p = text;; p++) {
        int len = (int)strcspn(p, ",");
        char *end = NULL;
        errno = 0;
        long v = isdigit((unsigned char)*p) ? strtol(p, &end, 10) : 0;
        if (errno || end != p + len || v < 1 || v > HB_INTERLEAVE_WEIGHTS_MAX) {
            hb_error_set("invalid --weights '%s': weight '%.*s' is not an integer from 1 to %d",
                         text, len, p, HB_INTERLEAVE_WEIGHTS_MAX);
            return -EINVAL;
        }
        if (o->nweights == HB_MAX_WEIGHTED) {
            hb_error_set("invalid --weights '%s': at most %d weights", text, HB_MAX_WEIGHTED);
            return -EINVAL;
        }
        o->weights[o->nweights++] = (int)v;
        p += len;
        if (!*p) return 0;
    }
}

int hb_option_values_parse_repeat(const char *arg, int most_default, int hi, int *repeats,
                                  bool *until_clear)
{
    static const char what[] = "a repeat count from 1 to 1000, auto, or auto:MAX with MAX from "
                               "6 to 1000";
    if (strncmp(arg, "auto", 4) != 0 || (arg[4] && arg[4] != ':')) {
        *until_clear = false;
        return hb_option_values_parse_int("--repeat", arg, 1, hi, what, repeats);
    }
    *until_clear = true;
    *repeats = most_default;
    if (!arg[4]) return 0;
    int most = 0;
    if (hb_option_values_parse_int("--repeat", arg + 5, 6, hi, what, &most)) {
        hb_error_set("invalid --repeat '%s': expected %s", arg, what);
        return -EINVAL;
    }
    *repeats = most;
    return 0;
}
