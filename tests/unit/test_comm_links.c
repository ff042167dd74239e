/* comm's cross-host derivations over many synthetic runs: the links record (a link flagged
 * exactly when it is worse than the reference by more than the threshold and its interval
 * clears the reference's; one slow host's links, or one slow link, and nothing else; a flagged
 * link's reason names its hosts' configuration drift) and the
 * NIC records (near and far from the NICs' nodes, a verdict only beyond the noise and past the
 * family's adjustment, a note where one side has no rank); a link's p, adjusted p and family,
 * its figures' coverage and repeats, and the table's header saying them. */
#include "../hb_check.h"
#include "hb_interval.h"
#include "hb_jsonl_read.h"
#include "hb_table.h"
#include "hb_suite_comm.h"

#include <math.h>

#define MAX_HOSTS 6
#define MAX_RANKS 4
#define REPEATS 5
#define BW_BYTES 4096

static unsigned long seed = 12345;

/* Uniform in [-1, 1] (a fixed sequence: failures reproduce). */
static double noise(void)
{
    seed = seed * 6364136223846793005UL + 1442695040888963407UL;
    return (double)(seed >> 11) / (double)(1UL << 53) * 2.0 - 1.0;
}

static const char *host_name(int h)
{
    static const char *names[MAX_HOSTS] = {"h1", "h2", "h3", "h4", "h5", "h6"};
    return names[h];
}

/* One record of a pair: `base` with REPEATS values spread by +-spread (a fraction). */
static void add(json_t *m, const char *metric, int bytes, int sh, int sn, int dh, int dn,
                double base, double spread)
{
    double v[REPEATS];
    json_t *rv = json_array();
    for (int i = 0; i < REPEATS; i++) {
        v[i] = base * (1.0 + spread * noise());
        json_array_append_new(rv, json_real(v[i]));
    }
    struct hb_interval iv;
    hb_interval_median(v, REPEATS, HB_CI_LEVEL, &iv);
    json_array_append_new(m, json_pack("{s:s, s:s, s:s, s:i, s:s, s:s, s:i, s:i, s:s, s:f, s:o}",
                                       "type", "measurement", "suite", "comm", "metric", metric,
                                       "message_bytes", bytes, "src_host", host_name(sh),
                                       "dst_host", host_name(dh), "src_node", sn, "dst_node", dn,
                                       "status", "ok", "value", iv.value, "repeat_values", rv));
}

/* A run of nh hosts with nr ranks each (rank r on node node[h][r]): every cross-host pair
 * both ways, latency at 8 B and bandwidth at BW_BYTES; lat(h, node, h2, node2) sets cost. */
typedef double (*cost_fn)(int sh, int sn, int dh, int dn, const void *ctx);
static json_t *run(int nh, int nr, int node[MAX_HOSTS][MAX_RANKS], cost_fn lat, const void *ctx,
                   double spread)
{
    json_t *m = json_array();
    for (int a = 0; a < nh; a++)
        for (int b = 0; b < nh; b++)
            for (int i = 0; a != b && i < nr; i++)
                for (int j = 0; j < nr; j++) {
                    double l = lat(a, node[a][i], b, node[b][j], ctx);
                    add(m, "latency", 8, a, node[a][i], b, node[b][j], l, spread);
                    add(m, "bandwidth", BW_BYTES, a, node[a][i], b, node[b][j], 500.0 / l, spread);
                }
    return m;
}

/* Links: slow[h] multiplies the latency of each link of host h, slow_link the link 0-1. */
struct link_costs {
    double slow[MAX_HOSTS];
    double slow_link;
};

static double link_cost(int sh, int sn, int dh, int dn, const void *ctx)
{
    const struct link_costs *c = ctx;
    (void)sn;
    (void)dn;
    bool first = (sh == 0 && dh == 1) || (sh == 1 && dh == 0);
    return 50.0 * c->slow[sh] * c->slow[dh] * (first ? c->slow_link : 1.0);
}

static struct hb_interval figure(const json_t *fig)
{
    const json_t *ci = json_object_get(fig, "ci95");
    double v = hb_jsonl_read_num(fig, "value", NAN);
    struct hb_interval iv = {2, v, NAN, NAN, 0.0};
    if (json_is_array(ci)) {
        iv.lo = json_number_value(json_array_get(ci, 0));
        iv.hi = json_number_value(json_array_get(ci, 1));
    }
    return iv;
}

/* The invariant of every link: which reason or inconclusive line names a figure follows from
 * the figure, the reference and the threshold alone. The count of links flagged. */
static int check_links(const json_t *rec, double pct)
{
    const json_t *ref = json_object_get(rec, "reference"), *l;
    struct hb_interval rl = figure(json_object_get(ref, "latency_us"));
    struct hb_interval rb = figure(json_object_get(ref, "bandwidth_GBps"));
    size_t i;
    int flagged = 0;
    json_array_foreach(json_object_get(rec, "links"), i, l)
    {
        struct hb_interval x = figure(json_object_get(l, "latency_us"));
        struct hb_interval y = figure(json_object_get(l, "bandwidth_GBps"));
        bool lat_worse = x.value > rl.value * (1 + pct / 100), lat_apart = x.lo > rl.hi;
        bool bw_worse = y.value < rb.value * (1 - pct / 100), bw_apart = y.hi < rb.lo;
        const char *why = hb_jsonl_read_str(l, "reason", ""),
                   *in = hb_jsonl_read_str(l, "inconclusive", "");
        CHECK(!!strstr(why, "latency") == (lat_worse && lat_apart));
        CHECK(!!strstr(in, "latency") == (lat_worse && !lat_apart));
        CHECK(!!strstr(why, "bandwidth") == (bw_worse && bw_apart));
        CHECK(!!strstr(in, "bandwidth") == (bw_worse && !bw_apart));
        CHECK(json_is_true(json_object_get(l, "outlier")) == (why[0] != '\0'));
        flagged += json_is_true(json_object_get(l, "outlier"));
    }
    return flagged;
}

static json_t *links_of(json_t *m, double pct)
{
    json_t *d = json_array();
    CHECK_INT(hb_comm_links_derive(m, pct, NULL, d), 0);
    json_t *rec = json_incref(json_array_get(d, 0));
    json_decref(d);
    return rec;
}

/* Whether link entry l joins hosts a and b. */
static bool joins(const json_t *l, int a)
{
    const json_t *h = json_object_get(l, "hosts");
    return strcmp(json_string_value(json_array_get(h, 0)), host_name(a)) == 0 ||
           strcmp(json_string_value(json_array_get(h, 1)), host_name(a)) == 0;
}

static void test_links(void)
{
    int node[MAX_HOSTS][MAX_RANKS] = {{0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}};
    /* Two hosts: one link, nothing to set it beside. */
    struct link_costs even = {{1, 1, 1, 1, 1, 1}, 1};
    json_t *m = run(2, 1, node, link_cost, &even, 0.02), *d = json_array();
    CHECK_INT(hb_comm_links_derive(m, 35, NULL, d), 0);
    CHECK_INT(json_array_size(d), 0);
    json_decref(d);
    json_decref(m);
    /* Every mix of hosts, ranks, threshold, spread and kind comes round once in 60 rounds;
     * the short count (hb_check_short) takes those 60, once. */
    const int rounds = hb_check_short() ? 60 : 300;
    for (int round = 0; round < rounds; round++) {
        int nh = 3 + round % 4, nr = 1 + round % 2, slow = round % nh;
        double pct = round % 3 ? 35 : 10, spread = 0.02 + 0.3 * (round % 5) / 4.0;
        struct link_costs c = {{1, 1, 1, 1, 1, 1}, 1};
        int kind = round % 3; /* 0: all alike, 1: one slow host, 2: one slow link */
        double factor = 1.0 + 10.0 * fabs(noise());
        if (kind == 1) c.slow[slow] = factor;
        if (kind == 2) c.slow_link = factor;
        m = run(nh, nr, node, link_cost, &c, spread);
        json_t *rec = links_of(m, pct);
        CHECK_STR(hb_jsonl_read_str(rec, "type", ""), "comm_links");
        CHECK_INT(json_array_size(json_object_get(rec, "links")), nh * (nh - 1) / 2);
        int flagged = check_links(rec, pct);
        /* A clear difference (x3 or more at +-2%): exactly the slow links; none when all alike
         * with little noise. */
        size_t i;
        json_t *l;
        if (spread < 0.05 && (kind == 0 || factor >= 3))
            json_array_foreach(json_object_get(rec, "links"), i, l)
            {
                bool slow_one =
                    kind == 1 ? joins(l, slow) : kind == 2 && joins(l, 0) && joins(l, 1);
                CHECK(json_is_true(json_object_get(l, "outlier")) == slow_one);
            }
        if (spread < 0.05 && kind == 0) CHECK_INT(flagged, 0);
        json_decref(rec);
        json_decref(m);
    }
}

/* A fleet of four, h4 slow with THP never, h1 with another governor: the links of h4 flagged,
 * each reason ending with the drift of its hosts (h1-h4: both), the links not flagged with no
 * reason at all. */
static void test_links_drift(void)
{
    int node[MAX_HOSTS][MAX_RANKS] = {{0}, {0}, {0}, {0}};
    struct link_costs c = {{1, 1, 1, 20, 1, 1}, 1};
    json_t *m = run(4, 1, node, link_cost, &c, 0.02), *cfgs = json_array();
    for (int h = 0; h < 4; h++)
        json_array_append_new(cfgs, json_pack("{s:s, s:{s:s, s:[{s:s, s:s}]}}", "host",
                                              host_name(h), "config", "thp_enabled",
                                              h == 3 ? "never" : "madvise", "governor", "value",
                                              h == 0 ? "powersave" : "performance", "cpus", "0-1"));
    json_t *d = json_array();
    CHECK_INT(hb_comm_links_derive(m, 35, cfgs, d), 0);
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(json_array_get(d, 0), "links"), i, l)
    {
        const char *why = hb_jsonl_read_str(l, "reason", "?");
        if (!joins(l, 3)) CHECK_STR(why, "");
        if (joins(l, 3) && joins(l, 0))
            CHECK_HAS(why, "; h1 differs in governor=powersave; h4 differs in thp_enabled=never; ");
        else if (joins(l, 3))
            CHECK_HAS(why, "below the reference; h4 differs in thp_enabled=never; ");
        CHECK(json_is_true(json_object_get(l, "outlier")) == joins(l, 3));
    }
    json_decref(d);
    json_decref(cfgs);
    json_decref(m);
}

/* One direction of a link, a -> b (rank on node 0 each): latency evenly lo..hi us over
 * REPEATS repeats, bandwidth 10 GB/s flat. */
static void one_way(json_t *m, int a, int b, double lo, double hi)
{
    json_t *rv = json_array(), *bw = json_array();
    double v[REPEATS];
    for (int i = 0; i < REPEATS; i++) {
        v[i] = lo + (hi - lo) * i / (REPEATS - 1);
        json_array_append_new(rv, json_real(v[i]));
        json_array_append_new(bw, json_real(10.0));
    }
    static const char *const metric[] = {"latency", "bandwidth"};
    for (int k = 0; k < 2; k++)
        json_array_append_new(
            m, json_pack("{s:s, s:s, s:s, s:i, s:s, s:s, s:i, s:i, s:s, s:f, s:o}", "type",
                         "measurement", "suite", "comm", "metric", metric[k], "message_bytes",
                         k ? BW_BYTES : 8, "src_host", host_name(a), "dst_host", host_name(b),
                         "src_node", 0, "dst_node", 0, "status", "ok", "value",
                         k ? 10.0 : (lo + hi) / 2, "repeat_values", k ? bw : rv));
}

/* The family (docs/verdicts.md): three hosts, each link one way; link h1-h2 at 120-130 us
 * against the reference link h1-h3's 100-110 (5 repeats against 5, apart: p = 2/252), h2-h3
 * at 101-111. The one candidate, drawn; its p and adjusted p on its figure, the family's
 * size on the record. */
static void test_links_family(void)
{
    json_t *m = json_array();
    one_way(m, 0, 1, 120, 130);
    one_way(m, 0, 2, 100, 110);
    one_way(m, 1, 2, 101, 111);
    json_t *rec = links_of(m, 10), *l = json_array_get(json_object_get(rec, "links"), 0);
    CHECK(joins(l, 0) && joins(l, 1));
    CHECK(json_is_true(json_object_get(l, "outlier")));
    const json_t *lat = json_object_get(l, "latency_us");
    CHECK_WITHIN(hb_jsonl_read_num(lat, "p", NAN), 2.0 / 252, 1e-12);
    CHECK_WITHIN(hb_jsonl_read_num(lat, "p_adjusted", NAN), 2.0 / 252, 1e-12);
    CHECK_INT(hb_jsonl_read_num(lat, "repeats", 0), REPEATS);
    CHECK_WITHIN(hb_jsonl_read_num(lat, "ci_coverage", 0), 0.9375, 1e-12);
    const json_t *fam = json_object_get(json_object_get(rec, "family"), "latency_us");
    CHECK_INT(hb_jsonl_read_num(fam, "size", 0), 1);
    CHECK_STR(hb_jsonl_read_str(fam, "rule", ""), "BH FDR");
    CHECK(json_is_null(json_object_get(json_object_get(l, "bandwidth_GBps"), "p")));
    /* The reference: medians of intervals, no one coverage or count of repeats. */
    const json_t *ref = json_object_get(json_object_get(rec, "reference"), "latency_us");
    CHECK(json_is_null(json_object_get(ref, "ci_coverage")) &&
          json_is_null(json_object_get(ref, "repeats")));
    /* The table's header says what the intervals are. */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    hb_table_print(f, rec);
    fclose(f);
    CHECK_HAS(text, "latency us [93.75% interval, 5 repeats]");
    free(text);
    json_decref(rec);
    json_decref(m);
}

/* NICs: far[h] multiplies the latency of host h's end when its rank's node is not local to
 * its NIC (nodes near[h]). */
struct nic_costs {
    double far;
    int near_node; /* host 0's NIC is local to this node only */
};

static double nic_cost(int sh, int sn, int dh, int dn, const void *ctx)
{
    const struct nic_costs *c = ctx;
    int mine = sh == 0 ? sn : dh == 0 ? dn : -1;
    return 50.0 * (mine >= 0 && mine != c->near_node ? c->far : 1.0);
}

static json_t *nics(const char *name, json_t *nodes)
{
    return json_pack("[{s:s, s:s, s:n, s:o}]", "name", name, "kind", "network", "pci", "nodes",
                     nodes);
}

/* Every comm_nic record: near nodes local to the NIC, far nodes not, a note exactly when a
 * side is empty, a verdict exactly when near and far are apart. The records of host 0. */
static int check_nic(const json_t *d, double want_ratio)
{
    size_t i, k;
    json_t *rec, *v;
    int mine = 0;
    json_array_foreach(d, i, rec)
    {
        const json_t *nn = json_object_get(rec, "nic_nodes");
        json_array_foreach(json_object_get(rec, "near_nodes"), k, v)
        {
            bool in = false;
            for (size_t j = 0; j < json_array_size(nn); j++)
                in = in || json_integer_value(json_array_get(nn, j)) == json_integer_value(v);
            CHECK(in);
        }
        json_array_foreach(json_object_get(rec, "far_nodes"), k,
                           v) for (size_t j = 0; j < json_array_size(nn); j++)
            CHECK(json_integer_value(json_array_get(nn, j)) != json_integer_value(v));
        bool empty = !json_array_size(json_object_get(rec, "near_nodes")) ||
                     !json_array_size(json_object_get(rec, "far_nodes"));
        CHECK(json_is_string(json_object_get(rec, "note")) == (empty || json_is_null(nn)));
        if (strcmp(hb_jsonl_read_str(rec, "host", ""), "h1") != 0 || empty) continue;
        mine++;
        const json_t *lat = json_object_get(rec, "latency");
        struct hb_interval n = figure(json_object_get(lat, "near")),
                           f = figure(json_object_get(lat, "far"));
        /* A verdict exactly when the intervals are apart and the family's adjusted p passes;
         * the record says its family. */
        double adj = hb_jsonl_read_num(lat, "p_adjusted", NAN);
        CHECK(json_is_number(json_object_get(lat, "p")) && isfinite(adj));
        CHECK(json_is_string(json_object_get(lat, "verdict")) ==
              (hb_intervals_separate(&n, &f) && adj < 0.05));
        CHECK_STR(hb_jsonl_read_str(lat, "noise", ""),
                  json_is_string(json_object_get(lat, "verdict")) ? "clear" : "inconclusive");
        CHECK(hb_jsonl_read_num(json_object_get(rec, "family"), "size", 0) >= 2);
        CHECK_WITHIN(hb_jsonl_read_num(lat, "ratio", NAN), f.value / n.value, 1e-9);
        if (want_ratio > 0) {
            CHECK_WITHIN(hb_jsonl_read_num(lat, "ratio", NAN), want_ratio, want_ratio * 0.05);
            CHECK_HAS(hb_jsonl_read_str(lat, "verdict", ""), "ranks far from eth0 take");
        }
    }
    return mine;
}

static void test_nic(void)
{
    /* Host 1's ranks on nodes 0-3, its NIC local to node near_node (or to nodes 0-1); the
     * others' NICs local to every node of theirs, or (host 2) none listed. */
    int node[MAX_HOSTS][MAX_RANKS] = {{0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}};
    /* Every cost and noise comes round once in 4 rounds; the short count takes 12. */
    const int rounds = hb_check_short() ? 12 : 60;
    for (int round = 0; round < rounds; round++) {
        struct nic_costs c = {1.0 + 3.0 * (round % 4), round % 4};
        json_t *m = run(3, 4, node, nic_cost, &c, round % 2 ? 0.02 : 0.4);
        json_t *hn =
            json_pack("{s:o, s:o, s:[]}", "h1", nics("eth0", json_pack("[i]", c.near_node)), "h2",
                      nics("ib0", json_pack("[i, i, i, i]", 0, 1, 2, 3)), "h3");
        json_t *d = json_array();
        CHECK_INT(hb_comm_nic_derive(m, hn, d), 0);
        /* 3 links x 2 ends, one NIC each or one record for none. */
        CHECK_INT(json_array_size(d), 6);
        int mine = check_nic(d, round % 2 && c.far >= 2 ? c.far : 0);
        CHECK_INT(mine, 2);
        size_t i;
        json_t *rec;
        json_array_foreach(d, i, rec)
        {
            const char *host = hb_jsonl_read_str(rec, "host", "");
            if (strcmp(host, "h2") == 0)
                CHECK_HAS(hb_jsonl_read_str(rec, "note", ""),
                          "every rank of host h2 sits on a node local to its NIC ib0 (nodes 0-3): "
                          "no far rank to compare");
            if (strcmp(host, "h3") == 0)
                CHECK_HAS(hb_jsonl_read_str(rec, "note", ""), "host h3 lists no network");
            if (strcmp(host, "h1") == 0) {
                CHECK_INT(json_array_size(json_object_get(rec, "near_nodes")), 1);
                CHECK_INT(json_array_size(json_object_get(rec, "far_nodes")), 3);
            }
        }
        json_decref(d);
        json_decref(hn);
        json_decref(m);
    }
}

/* The table lines of a record, as --format table prints it (to free). */
static char *table(json_t *rec)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    hb_table_print(f, rec);
    fclose(f);
    return text;
}

/* --format table: a slow link marked with its reason, a NIC's figures and ratio, a note. */
static void test_table(void)
{
    seed = 12345; /* its own draws, however many the loops before took */
    int node[MAX_HOSTS][MAX_RANKS] = {{0, 1}, {0, 1}, {0, 1}};
    struct link_costs c = {{1, 1, 20, 1, 1, 1}, 1};
    json_t *m = run(3, 2, node, link_cost, &c, 0.02), *rec = links_of(m, 35);
    char *text = table(rec);
    CHECK_HAS(text, "MPI links (host pairs): latency (us) at 8 B, bandwidth (GB/s) at 4 KiB");
    CHECK_HAS(text, "h1 - h3");
    CHECK_HAS(text, "OUTLIER: 8 B latency");
    CHECK_HAS(text, "reference");
    free(text);
    json_decref(rec);
    json_decref(m);
    struct nic_costs n = {3, 0};
    m = run(2, 2, node, nic_cost, &n, 0.02);
    json_t *hn = json_pack("{s:o, s:o}", "h1", nics("eth0", json_pack("[i]", 0)), "h2",
                           nics("eth0", json_pack("[i, i]", 0, 1))),
           *d = json_array();
    CHECK_INT(hb_comm_nic_derive(m, hn, d), 0);
    text = table(json_array_get(d, 0));
    CHECK_HAS(text, "NIC locality, h1 -> h2, NIC eth0:");
    CHECK_HAS(text, "(clear): ranks far from eth0 take 3.");
    free(text);
    text = table(json_array_get(d, 1));
    CHECK_HAS(text,
              "NIC locality, h2 -> h1: every rank of host h2 sits on a node local to its NIC eth0");
    free(text);
    json_decref(d);
    json_decref(hn);
    json_decref(m);
}

int main(void)
{
    test_links();
    test_links_drift();
    test_links_family();
    test_nic();
    test_table();
    return hb_check_result();
}
