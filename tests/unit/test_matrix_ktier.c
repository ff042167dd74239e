/* Measured matrices beside the kernel's memory tiers, on recorded measurements that follow
 * the firmware of 2n1m-hmat-full.xml (latency x 1.2: from node 0 120 / 252 / 204 ns to nodes
 * 0 / 1 / 2, from node 1 252 / 120 / 336; read bandwidth 20 / 9.523 / 11.764 GB/s from node
 * 0) and kernel tiers planted in the topology, never in the timings. And the candidates as a
 * family: a borderline flag (4 repeats against 4) drawn alone, inconclusive beside a second
 * candidate within the noise, 9 against 9 drawn there; p, p_adjusted and family. */
#include "../hb_check.h"
#include "hb_jsonl_read.h"
#include "hb_table.h"
#include "hb_suite.h"
#include "matrix_derive.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double lat_ns[2][3] = {{120, 252, 204}, {252, 120, 336}};
static const double bw_GBps[2][3] = {{20.0, 9.523, 11.764}, {9.523, 20.0, 7.142}};

/* One record per cell; spread > 0 gives each a 95% interval of +-spread x value over 5
 * repeats, 0 none (the noise unknown). */
static json_t *cells(bool lat, double spread)
{
    json_t *m = json_array();
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) {
            double v = lat ? lat_ns[i][j] : bw_GBps[i][j];
            json_t *r =
                json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:f, s:s}", "suite", "matrix",
                          "role", "foreground", "metric", lat ? "latency" : "bandwidth", "host",
                          "h", "kernel", lat ? "chase" : "read", "access", "r", "cpu_node", i,
                          "mem_node", j, "value", v, "status", "ok");
            if (spread > 0) {
                json_object_set_new(r, "ci95",
                                    json_pack("[f, f]", v * (1 - spread), v * (1 + spread)));
                json_object_set_new(r, "repeats", json_integer(5));
            }
            json_array_append_new(m, r);
        }
    return m;
}

/* The matrix record's kernel_tiers after deriving measured at threshold (percent). */
static json_t *kernel_tiers(struct hb_topo *t, json_t *measured, double threshold, json_t **matrix)
{
    json_t *derived = derive(t, measured, threshold);
    size_t i;
    json_t *r;
    *matrix = NULL;
    json_array_foreach(derived, i, r) if (strcmp(hb_jsonl_read_str(r, "type", ""), "matrix") == 0)
    {
        *matrix = json_incref(r);
        break;
    }
    json_decref(derived);
    CHECK(*matrix != NULL);
    return json_object_get(*matrix, "kernel_tiers");
}

static void plant(struct hb_topo *t, int t0, int t1, int t2)
{
    t->nodes[0].kernel_tier = t0;
    t->nodes[1].kernel_tier = t1;
    t->nodes[2].kernel_tier = t2;
}

/* What the table format prints for a matrix record. */
static void table_of(json_t *rec, char *text, size_t len)
{
    FILE *tab = tmpfile();
    text[0] = '\0';
    if (!tab) return;
    hb_table_print(tab, rec);
    rewind(tab);
    text[fread(text, 1, len - 1, tab)] = '\0';
    fclose(tab);
}

/* The family (docs/verdicts.md): tiers (4, 4, 19), from node 0 node 1 (252 ns) costlier than
 * node 2 (204), +-2% over n repeats: apart. With wide, the cell 1 -> 2 at 200 ns +-50%: from
 * node 1 node 0 (252) is costlier than it too, a second candidate within the noise. */
static json_t *family_tiers(struct hb_topo *t, int n, bool wide, json_t **matrix)
{
    json_t *m = json_array();
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) {
            bool second = wide && i == 1 && j == 2;
            json_array_append_new(
                m, cell_repeats(i, j, second ? 200 : lat_ns[i][j], second ? 0.5 : 0.02, n));
        }
    return kernel_tiers(t, m, 5.0, matrix);
}

static void test_family(struct hb_topo *t)
{
    json_t *m;
    plant(t, 4, 4, 19);
    /* 4 repeats against 4, apart: p = 2/70 = 0.029, drawn alone. */
    json_t *k = family_tiers(t, 4, false, &m);
    CHECK_INT(json_array_size(json_object_get(k, "flags")), 1);
    json_t *f = json_array_get(json_object_get(k, "flags"), 0);
    CHECK_STR(hb_jsonl_read_str(f, "evidence", ""), "clear");
    CHECK_WITHIN(hb_jsonl_read_num(f, "p", NAN), 2.0 / 70, 1e-12);
    CHECK_WITHIN(hb_jsonl_read_num(f, "p_adjusted", NAN), 2.0 / 70, 1e-12);
    CHECK_INT(hb_jsonl_read_num(json_object_get(k, "family"), "size", 0), 1);
    CHECK_STR(hb_jsonl_read_str(json_object_get(k, "family"), "rule", ""), "BH FDR");
    json_decref(m);
    /* Beside a second candidate within the noise: 2 x 0.029 = 0.057, inconclusive. */
    k = family_tiers(t, 4, true, &m);
    CHECK_INT(json_array_size(json_object_get(k, "flags")), 0);
    CHECK_INT(json_array_size(json_object_get(k, "inconclusive")), 2);
    CHECK_INT(hb_jsonl_read_num(json_object_get(k, "family"), "size", 0), 2);
    f = json_array_get(json_object_get(k, "inconclusive"), 0);
    CHECK_WITHIN(hb_jsonl_read_num(f, "p_adjusted", NAN), 2 * 2.0 / 70, 1e-12);
    json_decref(m);
    /* 9 repeats against 9: drawn in the same family. */
    k = family_tiers(t, 9, true, &m);
    CHECK_INT(json_array_size(json_object_get(k, "flags")), 1);
    CHECK_INT(json_array_size(json_object_get(k, "inconclusive")), 1);
    json_decref(m);
}

int main(void)
{
    struct hb_topo *t = NULL;
    CHECK_INT(hb_topo_load(HB_FIXTURES "/2n1m-hmat-full.xml", &t), 0);
    json_t *m;
    /* A topology file says nothing of the kernel's tiers: nothing compared. */
    for (int i = 0; i < t->nnodes; i++)
        CHECK_INT(t->nodes[i].kernel_tier, -1);
    /* (json_is_null is a macro that reads its argument twice: the call goes first.) */
    json_t *k = kernel_tiers(t, cells(true, 0), 5.0, &m);
    CHECK(json_is_null(k));
    json_decref(m);
    /* One tier for all: nothing to order. */
    plant(t, 4, 4, 4);
    k = kernel_tiers(t, cells(true, 0), 5.0, &m);
    CHECK(json_is_null(k));
    json_decref(m);

    /* Agreement: node 0 in tier 4, the memory-only node 2 in 19, node 1 untiered. From node 0
     * 120 < 204 ns, from node 1 252 < 336 ns: the tiers listed, nothing flagged. */
    plant(t, 4, -1, 19);
    k = kernel_tiers(t, cells(true, 0), 5.0, &m);
    CHECK_INT(json_array_size(json_object_get(k, "tiers")), 2);
    CHECK_INT(json_integer_value(
                  json_object_get(json_array_get(json_object_get(k, "tiers"), 1), "kernel_tier")),
              19);
    CHECK_INT(json_array_size(json_object_get(k, "flags")), 0);
    CHECK_INT(json_array_size(json_object_get(k, "inconclusive")), 0);
    json_decref(m);

    /* Disagreement: node 1 in tier 4 beside node 0, node 2 in 19; from node 0 node 1 measures
     * 252 ns against node 2's 204 (23.5% costlier): one flag, noise unknown. */
    plant(t, 4, 4, 19);
    k = kernel_tiers(t, cells(true, 0), 5.0, &m);
    json_t *flags = json_object_get(k, "flags");
    CHECK_INT(json_array_size(flags), 1);
    json_t *f = json_array_get(flags, 0);
    CHECK_INT(json_integer_value(json_object_get(f, "cpu_node")), 0);
    CHECK_INT(json_integer_value(json_object_get(f, "mem_node")), 1);
    CHECK_INT(json_integer_value(json_object_get(f, "other_mem_node")), 2);
    CHECK_INT(json_integer_value(json_object_get(f, "kernel_tier")), 4);
    CHECK_INT(json_integer_value(json_object_get(f, "other_kernel_tier")), 19);
    CHECK_STR(hb_jsonl_read_str(f, "evidence", ""), "unknown noise");
    CHECK_STR(
        hb_jsonl_read_str(f, "reason", ""),
        "from node 0 the kernel puts node 1 in a faster tier than node 2 (memory_tier4 vs "
        "memory_tier19), measured the other way (252.0 vs 204.0 ns, 18.5% beyond the threshold)");
    CHECK(json_number_value(json_object_get(json_object_get(f, "figure"), "value")) == 252.0);
    CHECK(json_number_value(json_object_get(json_object_get(f, "other_figure"), "value")) == 204.0);
    char text[8192];
    table_of(m, text, sizeof(text));
    CHECK_HAS(text, "kernel memory tiers: node 0 memory_tier4, node 1 memory_tier4, node 2 "
                    "memory_tier19\n");
    CHECK_HAS(text, "kernel tier flag: from node 0 the kernel puts node 1 in a faster tier than "
                    "node 2");
    json_decref(m);
    /* Beyond the intervals (+-5%: 239-265 against 194-214 ns): clear. */
    k = kernel_tiers(t, cells(true, 0.05), 5.0, &m);
    CHECK_INT(json_array_size(json_object_get(k, "flags")), 1);
    CHECK_STR(hb_jsonl_read_str(json_array_get(json_object_get(k, "flags"), 0), "evidence", ""),
              "clear");
    CHECK_INT(json_array_size(json_object_get(k, "inconclusive")), 0);
    json_decref(m);
    /* Within them (+-15%: 214-290 against 173-235 ns): inconclusive, not flagged. */
    k = kernel_tiers(t, cells(true, 0.15), 5.0, &m);
    CHECK_INT(json_array_size(json_object_get(k, "flags")), 0);
    CHECK_INT(json_array_size(json_object_get(k, "inconclusive")), 1);
    CHECK_STR(
        hb_jsonl_read_str(json_array_get(json_object_get(k, "inconclusive"), 0), "evidence", ""),
        "inconclusive");
    table_of(m, text, sizeof(text));
    CHECK_HAS(text, "kernel tier inconclusive (within the measured figures' noise): from node 0");
    json_decref(m);
    /* Under the threshold (23.5% costlier, threshold 30%): nothing. */
    k = kernel_tiers(t, cells(true, 0), 30.0, &m);
    CHECK_INT(json_array_size(json_object_get(k, "flags")), 0);
    CHECK_INT(json_array_size(json_object_get(k, "inconclusive")), 0);
    json_decref(m);
    /* Bandwidth the other way up: node 1 reads 9.523 GB/s from node 0, node 2 11.764. */
    k = kernel_tiers(t, cells(false, 0), 5.0, &m);
    CHECK_INT(json_array_size(json_object_get(k, "flags")), 1);
    CHECK_HAS(hb_jsonl_read_str(json_array_get(json_object_get(k, "flags"), 0), "reason", ""),
              "measured the other way (9.523 vs 11.76 GB/s, 18.5% beyond the threshold)");
    json_decref(m);
    test_family(t);
    hb_topo_load_free(t);
    return hb_check_result();
}
