/* A fleet's measurements folded as they are read (hb_report_fleet.h): each record gives one
 * entry of its host and cell (interned), its headline and interval, and adds its repeats'
 * deviations to its host's rounds; the record is not kept. */
#include "hb_report_fleet.h"

#include "hb_interval.h"
#include "hb_jsonl_read.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const hb_report_fleet_keys[] = {
    "type",          "role",         "status",      "host",          "suite",   "experiment",
    "label",         "cpu_node",     "mem_node",    "kernel",        "threads", "bytes",
    "metric",        "unit",         "value",       "ci95",          "repeats", "noisy",
    "lat_ns_median", "bw_GBps_best", "ci_coverage", "repeat_values", NULL};

/* Room for id in the array *v of *cap elements of size bytes, new ones zeroed. */
static int rfleet_room(void **v, size_t *cap, uint32_t id, size_t size)
{
    if (id < *cap) return 0;
    size_t c = *cap ? *cap : 64;
    while (c <= id)
        c *= 2;
    void *p = realloc(*v, c * size);
    if (!p) return -ENOMEM;
    memset((char *)p + *cap * size, 0, (c - *cap) * size);
    *v = p;
    *cap = c;
    return 0;
}

/* A whole number as decimal text at the end of buf[24]: its start. */
static const char *rfleet_int(long long v, char *buf)
{
    char *p = buf + 23;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    *p = '\0';
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0) *--p = '-';
    return p;
}

/* A node (a number, a string such as "i" for interleaved) as text, "-" when absent. */
static const char *rfleet_node(const json_t *v, char *buf)
{
    if (json_is_integer(v)) return rfleet_int((long long)json_integer_value(v), buf);
    return json_is_string(v) ? json_string_value(v) : "-";
}

/* The id of rec's cell: its identity without the host, fields apart by \x1f (the cells
 * table's columns, hb_report_fleet_cell_field), interned. HB_STRTAB_NONE when out of memory.
 * Built without printf: it runs once per record. */
static uint32_t rfleet_cell_id(struct hb_rfleet *fl, const json_t *rec)
{
    char cpu[24], mem[24], threads[24], bytes[24], small[512];
    const char *part[] = {hb_jsonl_read_str(rec, "suite", "?"),
                          hb_jsonl_read_str(rec, "experiment", "?"),
                          hb_jsonl_read_str(rec, "label", "?"),
                          hb_jsonl_read_str(rec, "kernel", "-"),
                          rfleet_node(json_object_get(rec, "cpu_node"), cpu),
                          rfleet_node(json_object_get(rec, "mem_node"), mem),
                          rfleet_int((long long)hb_jsonl_read_num(rec, "threads", 0), threads),
                          rfleet_int((long long)hb_jsonl_read_num(rec, "bytes", 0), bytes),
                          hb_jsonl_read_str(rec, "metric", "?")};
    enum { NPART = sizeof(part) / sizeof(part[0]) };
    size_t len[NPART], n = NPART - 1;
    for (int k = 0; k < NPART; k++)
        n += len[k] = strlen(part[k]);
    char *key = n < sizeof(small) ? small : malloc(n + 1);
    if (!key) return HB_STRTAB_NONE;
    for (size_t k = 0, at = 0; k < NPART; at += len[k++] + 1) {
        memcpy(key + at, part[k], len[k]);
        key[at + len[k]] = k + 1 < NPART ? '\x1f' : '\0';
    }
    uint32_t id = hb_strtab_add(&fl->cells, key, n);
    if (key != small) free(key);
    return id;
}

/* A new cell's unit (the record's, or the one its headline key implies) and direction. */
static int rfleet_new_cell(struct hb_rfleet *fl, uint32_t c, const json_t *rec)
{
    const char *key = hb_jsonl_read_headline_key(rec);
    if (rfleet_room((void **)&fl->cell, &fl->cellcap, c, sizeof(*fl->cell))) return -ENOMEM;
    const char *unit = hb_jsonl_read_str(rec, "unit",
                                         strcmp(key, "lat_ns_median") == 0 ? "ns"
                                         : strcmp(key, "value") == 0       ? "?"
                                                                           : "GBps");
    uint32_t u = hb_strtab_add(&fl->units, unit, strlen(unit));
    if (u == HB_STRTAB_NONE) return -ENOMEM;
    fl->cell[c].unit = u;
    fl->cell[c].higher_better = strcmp(unit, "GBps") == 0; /* as compare judges */
    return 0;
}

char *hb_report_fleet_cell_field(const struct hb_rfleet *fl, uint32_t c, int k)
{
    const char *s = hb_strtab_get(&fl->cells, c);
    for (; k > 0 && s; k--)
        if ((s = strchr(s, '\x1f'))) s++;
    return s ? strndup(s, strcspn(s, "\x1f")) : strdup("?");
}

static int rfleet_add(struct hb_rfleet *fl, const struct hb_rfleet_obs *o)
{
    if (fl->n == fl->cap) {
        size_t cap = fl->cap ? fl->cap * 2 : 4096;
        struct hb_rfleet_obs *v = realloc(fl->v, cap * sizeof(*v));
        if (!v) return -ENOMEM;
        fl->v = v;
        fl->cap = cap;
    }
    fl->v[fl->n++] = *o;
    return 0;
}

/* rec's repeat values (headline v, its cell's direction) added to its host's rounds. 0 or
 * -ENOMEM. */
static int rfleet_rounds(struct hb_rfleet_host *hs, const json_t *rec, double v, bool higher_better)
{
    const json_t *rv = json_object_get(rec, "repeat_values"), *x;
    size_t n = json_array_size(rv), r;
    if (n < 2 || n > UINT32_MAX / 2) return 0;
    if (n > hs->rcap) {
        double *l = realloc(hs->rlog, n * sizeof(*l));
        if (l) hs->rlog = l;
        uint32_t *c = l ? realloc(hs->rn, n * sizeof(*c)) : NULL;
        if (!c) return -ENOMEM;
        hs->rn = c;
        memset(hs->rlog + hs->rcap, 0, (n - hs->rcap) * sizeof(*l));
        memset(hs->rn + hs->rcap, 0, (n - hs->rcap) * sizeof(*c));
        hs->rcap = (uint32_t)n;
    }
    json_array_foreach(rv, r, x)
    {
        double y = json_number_value(x);
        if (!json_is_number(x) || !(y > 0.0) || !isfinite(y)) continue;
        hs->rlog[r] += higher_better ? log(v / y) : log(y / v);
        hs->rn[r]++;
        if (r >= hs->nr) hs->nr = (uint32_t)r + 1;
    }
    return 0;
}

int hb_report_fleet_take(struct hb_rfleet *fl, const json_t *rec)
{
    if (fl->off) return 0;
    if (!fl->on && fl->hosts.n <= 1 && fl->measurements >= HB_FLEET_PROBE) {
        hb_report_fleet_free(fl); /* one host's many records: no fleet, nothing more to fold */
        fl->off = true;
        return 0;
    }
    fl->measurements++;
    if (strcmp(hb_jsonl_read_str(rec, "role", "foreground"), "foreground") != 0) {
        fl->background++;
        return 0;
    }
    /* A fleet's records come host by host: the last host's id is reused. */
    const char *host = hb_jsonl_read_str(rec, "host", "?");
    uint32_t h = fl->hosts.n && strcmp(host, hb_strtab_get(&fl->hosts, fl->last_host)) == 0
                     ? fl->last_host
                     : hb_strtab_add(&fl->hosts, host, strlen(host));
    if (h == HB_STRTAB_NONE || rfleet_room((void **)&fl->host, &fl->hostcap, h, sizeof(*fl->host)))
        return -ENOMEM;
    fl->last_host = h;
    fl->on |= fl->hosts.n >= HB_FLEET_MIN_HOSTS;
    struct hb_rfleet_host *hs = &fl->host[h];
    if (strcmp(hb_jsonl_read_str(rec, "status", "ok"), "ok") != 0) return hs->failed++, 0;
    struct hb_interval iv; /* its value the headline even without an interval */
    bool has = hb_jsonl_read_interval(rec, &iv) && iv.n >= 2;
    double v = iv.value;
    if (!(v > 0.0) || !isfinite(v)) return hs->unusable++, 0;
    uint32_t ncells = fl->cells.n, c = rfleet_cell_id(fl, rec);
    if (c == HB_STRTAB_NONE || (c == ncells && rfleet_new_cell(fl, c, rec))) return -ENOMEM;
    hs->noisy += json_is_true(json_object_get(rec, "noisy"));
    if (rfleet_rounds(hs, rec, v, fl->cell[c].higher_better)) return -ENOMEM;
    return rfleet_add(fl, &(struct hb_rfleet_obs){h, c, v, has ? iv.lo : NAN, has ? iv.hi : NAN});
}

void hb_report_fleet_free(struct hb_rfleet *fl)
{
    for (uint32_t h = 0; fl->host && h < fl->hosts.n && h < fl->hostcap; h++) {
        free(fl->host[h].rlog);
        free(fl->host[h].rn);
    }
    hb_strtab_free(&fl->hosts);
    hb_strtab_free(&fl->cells);
    hb_strtab_free(&fl->units);
    free(fl->host);
    free(fl->cell);
    free(fl->v);
    free(fl->rank);
    memset(fl, 0, sizeof(*fl));
}
