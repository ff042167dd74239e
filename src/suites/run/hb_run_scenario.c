/* The scenario parser: line by line, word by word, every error at its line and column. */
#include "hb_run_scenario.h"

#include "hb_error.h"
#include "hb_options.h"
#include "hb_bytes.h"
#include "hb_version.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HB_SCN_LINE_MAX 512

struct hb_scn_cursor {
    const char *file;
    int line;
    const char *start; /* of the line, for columns */
};

static int scn_error(const struct hb_scn_cursor *c, const char *at, const char *expected,
                     const char *got, size_t got_len)
{
    hb_error_set("%s:%d:%d: expected %s, got '%.*s'", c->file, c->line, (int)(at - c->start) + 1,
                 expected, (int)(got_len > 40 ? 40 : got_len), got);
    return -EINVAL;
}

/* A decimal node or thread number of at most 6 digits at *p; advances *p. */
static int scn_number(const char **p, const char *end, int *out)
{
    const char *s = *p;
    int v = 0, n = 0;
    while (s < end && isdigit((unsigned char)*s) && n < 6) {
        v = v * 10 + (*s - '0');
        s++;
        n++;
    }
    if (n == 0 || (s < end && isdigit((unsigned char)*s))) return -1;
    *p = s;
    *out = v;
    return 0;
}

static int scn_label(const struct hb_scn_cursor *c, const char *w, size_t len,
                     struct hb_scn_task *t)
{
    const char *p = w, *end = w + len;
    static const char *const want = "a label node.thread.access.memnode such as 0.0.r.1";
    if (scn_number(&p, end, &t->node) || p >= end || *p != '.')
        return scn_error(c, p, want, w, len);
    p++;
    if (p < end && *p == '*') {
        t->thread = -1;
        p++;
    } else if (scn_number(&p, end, &t->thread)) {
        return scn_error(c, p, "a thread number or '*' after the node", w, len);
    }
    if (p >= end || *p++ != '.') return scn_error(c, p - 1, want, w, len);
    t->access_col = (int)(p - c->start) + 1;
    if (end - p >= 3 && p[0] == 'r' && p[1] == 'w' && p[2] == '.') {
        snprintf(t->access, sizeof(t->access), "rw");
        p += 2;
    } else if (end - p >= 2 && (p[0] == 'r' || p[0] == 'w') && p[1] == '.') {
        snprintf(t->access, sizeof(t->access), "%c", p[0]);
        p += 1;
    } else {
        return scn_error(c, p, "access r, w or rw", w, len);
    }
    p++;
    if (scn_number(&p, end, &t->mem_node) || p != end)
        return scn_error(c, p, "a memory node number ending the label", w, len);
    return 0;
}

static int scn_option(const struct hb_scn_cursor *c, const char *w, size_t len,
                      struct hb_scn_task *t)
{
    const char *eq = memchr(w, '=', len);
    char val[64];
    if (!eq || eq == w || (size_t)(w + len - eq - 1) >= sizeof(val) || eq + 1 == w + len)
        return scn_error(c, w, "key=value (kernel, size, level, rate)", w, len);
    snprintf(val, sizeof(val), "%.*s", (int)(w + len - eq - 1), eq + 1);
    size_t klen = (size_t)(eq - w);
    const char *at = eq + 1;
    if (klen == 6 && memcmp(w, "kernel", 6) == 0) {
        if (strlen(val) >= sizeof(t->kernel))
            return scn_error(c, at, "a kernel name (see hopbench --help)", val, strlen(val));
        memcpy(t->kernel, val, strlen(val) + 1); /* length checked just above */
    } else if (klen == 4 && memcmp(w, "size", 4) == 0) {
        /* The size reader's own message names the value and what is valid ("too large: it
         * must be less than 16 EiB", "at least 1 byte"), at the value's column. */
        if (hb_bytes_parse(val, &t->size)) {
            char *why = strdup(hb_error_msg());
            hb_error_set("%s:%d:%d: %s", c->file, c->line, (int)(at - c->start) + 1,
                         why ? why : "invalid size");
            free(why);
            return -EINVAL;
        }
        t->size_col = (int)(at - c->start) + 1;
        memcpy(t->size_text, val, strlen(val) + 1); /* as long as val at most */
    } else if (klen == 5 && memcmp(w, "level", 5) == 0) {
        t->level = 0;
        for (int i = 1; hb_options_bg_level_names[i]; i++)
            if (strcmp(val, hb_options_bg_level_names[i]) == 0) t->level = i;
        if (t->level == 0)
            return scn_error(c, at, "level low, medium, high or very-high", val, strlen(val));
        if (!t->bg) return scn_error(c, w, "level= only on bg lines", w, len);
    } else if (klen == 4 && memcmp(w, "rate", 4) == 0) {
        char *end = NULL;
        errno = 0;
        t->rate = strtod(val, &end);
        /* Decimal only: strtod would also take "+1", "0x1p3" and "inf". */
        if (errno || *end || end == val || !isdigit((unsigned char)val[0]) ||
            strpbrk(val, "xXpP") || !(t->rate >= 0.0 && t->rate <= 1000.0))
            return scn_error(c, at, "a rate in GB/s from 0 (unpaced) to 1000", val, strlen(val));
        if (!t->bg) return scn_error(c, w, "rate= only on bg lines", w, len);
    } else {
        return scn_error(c, w, "a key kernel, size, level or rate", w, klen);
    }
    return 0;
}

static uint32_t scn_hash(const char *name, size_t len)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)name[i]) * 16777619u;
    return h;
}

/* The experiment already named name (len bytes), or NULL in *first; the table grows so the
 * next experiment has room (kept at most half full: a file may hold tens of thousands).
 * 0 or -ENOMEM. */
static int scn_name_find(struct hb_scenario *s, const char *name, size_t len,
                         const struct hb_scn_exp **first)
{
    *first = NULL;
    if (2 * (s->n + 1) > s->names_cap) {
        int cap = s->names_cap ? s->names_cap * 2 : 64;
        int *grown = calloc((size_t)cap, sizeof(*grown));
        if (!grown) {
            hb_error_set("%s: out of memory for %d experiment names", s->file, cap);
            return -ENOMEM;
        }
        for (int i = 0; i < s->n; i++) {
            uint32_t h = scn_hash(s->exps[i].name, strlen(s->exps[i].name));
            size_t at = h & (size_t)(cap - 1);
            while (grown[at])
                at = (at + 1) & (size_t)(cap - 1);
            grown[at] = i + 1;
        }
        free(s->names);
        s->names = grown;
        s->names_cap = cap;
    }
    size_t mask = (size_t)s->names_cap - 1;
    for (size_t at = scn_hash(name, len) & mask; s->names[at]; at = (at + 1) & mask) {
        const struct hb_scn_exp *e = &s->exps[s->names[at] - 1];
        if (strlen(e->name) == len && memcmp(e->name, name, len) == 0) {
            *first = e;
            return 0;
        }
    }
    return 0;
}

/* Note the newest experiment in the name table (scn_name_find made room). */
static void scn_name_add(struct hb_scenario *s)
{
    const struct hb_scn_exp *e = &s->exps[s->n - 1];
    size_t mask = (size_t)s->names_cap - 1;
    size_t at = scn_hash(e->name, strlen(e->name)) & mask;
    while (s->names[at])
        at = (at + 1) & mask;
    s->names[at] = s->n;
}

static int scn_add_exp(struct hb_scenario *s, const char *name, size_t len, int line)
{
    if (s->n == s->cap) {
        int cap = s->cap ? s->cap * 2 : 8;
        struct hb_scn_exp *grown = realloc(s->exps, sizeof(*grown) * (size_t)cap);
        if (!grown) {
            hb_error_set("%s: out of memory for %d experiments", s->file, cap);
            return -ENOMEM;
        }
        s->exps = grown;
        s->cap = cap;
    }
    struct hb_scn_exp *e = &s->exps[s->n++];
    memset(e, 0, sizeof(*e));
    snprintf(e->name, sizeof(e->name), "%.*s", (int)len, name);
    e->line = line;
    scn_name_add(s);
    return 0;
}

/* An experiment needs something to time. */
static int scn_close(const struct hb_scenario *s)
{
    if (s->n == 0) return 0;
    const struct hb_scn_exp *e = &s->exps[s->n - 1];
    for (int i = 0; i < e->ntasks; i++)
        if (!e->tasks[i].bg) return 0;
    hb_error_set("%s:%d:1: expected at least one fg line in experiment %s", s->file, e->line,
                 e->name);
    return -EINVAL;
}

static int scn_line(struct hb_scenario *s, struct hb_scn_cursor *c, const char *p, const char *end)
{
    const char *words[16];
    size_t lens[16];
    int n = 0;
    while (p < end) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
            p++;
        if (p >= end || *p == '#') break;
        const char *w = p;
        while (p < end && *p != ' ' && *p != '\t' && *p != '\r' && *p != '#')
            p++;
        if (n == 16) return scn_error(c, w, "at most 16 words on a line", w, (size_t)(p - w));
        words[n] = w;
        lens[n++] = (size_t)(p - w);
    }
    if (n == 0) return 0;
    if (lens[0] == 10 && memcmp(words[0], "experiment", 10) == 0) {
        if (n != 2)
            return scn_error(c, n < 2 ? words[0] + lens[0] : words[2], "one experiment NAME",
                             n < 2 ? "" : words[2], n < 2 ? 0 : lens[2]);
        for (size_t i = 0; i < lens[1]; i++)
            if (!isalnum((unsigned char)words[1][i]) && !strchr("-_.", words[1][i]))
                return scn_error(c, words[1] + i, "a NAME of letters, digits, '-', '_', '.'",
                                 words[1], lens[1]);
        if (lens[1] > 40)
            return scn_error(c, words[1], "a NAME of at most 40 characters", words[1], lens[1]);
        /* The experiment before must be whole first: its error is on an earlier line. */
        int rc = scn_close(s);
        if (rc) return rc;
        /* A name is the experiment's identity in the records: a second one would merge two
         * experiments' results under it (compare calls that an error duplicate). */
        const struct hb_scn_exp *first = NULL;
        if ((rc = scn_name_find(s, words[1], lens[1], &first))) return rc;
        if (first) {
            hb_error_set("%s:%d:%d: experiment %s is already defined at line %d; expected a NAME "
                         "no other experiment of the file has",
                         c->file, c->line, (int)(words[1] - c->start) + 1, first->name,
                         first->line);
            return -EINVAL;
        }
        return scn_add_exp(s, words[1], lens[1], c->line);
    }
    bool fg = lens[0] == 2 && memcmp(words[0], "fg", 2) == 0;
    bool bg = lens[0] == 2 && memcmp(words[0], "bg", 2) == 0;
    if (!fg && !bg) return scn_error(c, words[0], "'experiment', 'fg' or 'bg'", words[0], lens[0]);
    if (s->n == 0)
        return scn_error(c, words[0], "'experiment NAME' before the first task line", words[0],
                         lens[0]);
    struct hb_scn_exp *e = &s->exps[s->n - 1];
    if (e->ntasks == e->task_cap) {
        int cap = e->task_cap ? e->task_cap * 2 : 8;
        struct hb_scn_task *grown = realloc(e->tasks, sizeof(*grown) * (size_t)cap);
        if (!grown) {
            hb_error_set("%s: out of memory for %d task lines", s->file, cap);
            return -ENOMEM;
        }
        e->tasks = grown;
        e->task_cap = cap;
    }
    if (n < 2) return scn_error(c, words[0] + lens[0], "a label node.thread.access.memnode", "", 0);
    struct hb_scn_task *t = &e->tasks[e->ntasks];
    memset(t, 0, sizeof(*t));
    t->bg = bg;
    t->rate = -1.0;
    t->line = c->line;
    t->col = (int)(words[1] - c->start) + 1;
    int rc = scn_label(c, words[1], lens[1], t);
    for (int i = 2; rc == 0 && i < n; i++)
        rc = scn_option(c, words[i], lens[i], t);
    if (rc == 0) e->ntasks++;
    return rc;
}

int hb_run_scenario_parse(const char *file, const char *text, size_t len, struct hb_scenario *out)
{
    memset(out, 0, sizeof(*out));
    snprintf(out->file, sizeof(out->file), "%s", file);
    struct hb_scn_cursor c = {out->file, 0, text};
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl : end;
        c.line++;
        c.start = p;
        if (memchr(p, '\0', (size_t)(eol - p)))
            return scn_error(&c, memchr(p, '\0', (size_t)(eol - p)), "text, not a NUL byte", "", 0);
        if (eol - p > HB_SCN_LINE_MAX)
            return scn_error(&c, p + HB_SCN_LINE_MAX, "a line of at most 512 characters", p, 40);
        int rc = scn_line(out, &c, p, eol);
        if (rc) return rc;
        p = nl ? nl + 1 : end;
    }
    if (out->n == 0) {
        hb_error_set("%s:%d:1: expected 'experiment NAME' and task lines, got no experiment",
                     out->file, c.line ? c.line : 1);
        return -EINVAL;
    }
    return scn_close(out);
}

int hb_run_scenario_load(const char *path, struct hb_scenario *out)
{
    memset(out, 0, sizeof(*out));
    FILE *f = fopen(path, "rb");
    if (!f) {
        int err = errno;
        hb_error_set("run: cannot open scenario %s: %s (examples: %s/hopbench/scenarios)", path,
                     strerror(err), HB_DATADIR);
        return -err;
    }
    /* Scenario files are small; a cap keeps a wrong path (a disk image...) from filling memory. */
    size_t cap = (size_t)1 << 20, len = 0;
    char *buf = malloc(cap + 1); /* one byte more tells "exactly 1 MiB" from "larger" */
    int rc = 0;
    if (!buf) {
        hb_error_set("run: out of memory reading %s", path);
        rc = -ENOMEM;
    } else {
        len = fread(buf, 1, cap + 1, f);
        if (ferror(f)) {
            int err = errno ? errno : EIO;
            hb_error_set("run: cannot read scenario %s: %s", path, strerror(err));
            rc = -err;
        } else if (len > cap) {
            hb_error_set("run: scenario %s is larger than 1 MiB; is it a scenario file?", path);
            rc = -EINVAL;
        }
    }
    fclose(f);
    if (rc == 0) rc = hb_run_scenario_parse(path, buf, len, out);
    free(buf);
    return rc;
}

void hb_run_scenario_free(struct hb_scenario *s)
{
    for (int i = 0; i < s->n; i++)
        free(s->exps[i].tasks);
    free(s->exps);
    free(s->names);
    memset(s, 0, sizeof(*s));
}
