/* comm across hosts: what a rank's distance from a NIC costs. For each link and each NIC of
 * either host, the rank pairs whose rank on that host sits on a node local to the NIC (near)
 * against those whose rank sits elsewhere (far), the other host's ranks alike in both: 8 B
 * latency and largest-size bandwidth, far/near with an interval, a verdict only beyond the
 * noise: the intervals apart and the rank test of the near pairs' pooled values against the far
 * pairs' passing the adjustment over every NIC verdict of the run (the family,
 * hb_family_rec.h). Where one side has no rank, a note says why nothing is compared. */
#include "hb_suite_comm.h"

#include "hb_family_rec.h"
#include "hb_jsonl_read.h"
#include "hb_bytes.h"

#include <errno.h>
#include <hwloc.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The rank pairs of one link (host and peer) on one side of a NIC. */
struct hb_nic_side {
    const char *host, *peer;
    const json_t *nodes; /* the NIC's local nodes (os indexes) */
    bool near;
};

static bool nic_has(const json_t *nodes, json_int_t node)
{
    size_t i;
    json_t *v;
    json_array_foreach(nodes, i, v) if (json_integer_value(v) == node) return true;
    return false;
}

/* The node of the side's host's rank in rec, -1 when rec is not a pair of the link. */
static json_int_t nic_node(const json_t *rec, const char *host, const char *peer)
{
    const char *s = hb_jsonl_read_str(rec, "src_host", ""),
               *d = hb_jsonl_read_str(rec, "dst_host", "");
    if (strcmp(s, host) == 0 && strcmp(d, peer) == 0)
        return (json_int_t)hb_jsonl_read_num(rec, "src_node", -1);
    if (strcmp(s, peer) == 0 && strcmp(d, host) == 0)
        return (json_int_t)hb_jsonl_read_num(rec, "dst_node", -1);
    return -1;
}

static bool nic_pick(const json_t *rec, const void *ctx)
{
    const struct hb_nic_side *side = ctx;
    json_int_t node = nic_node(rec, side->host, side->peer);
    return node >= 0 && nic_has(side->nodes, node) == side->near;
}

/* The nodes of the host's ranks in the link's pairs, near the NIC or far from it. */
static json_t *nic_rank_nodes(const json_t *measured, const struct hb_nic_side *side)
{
    json_t *nodes = json_array(), *rec;
    size_t i;
    json_array_foreach(measured, i, rec)
    {
        json_int_t node = nic_node(rec, side->host, side->peer);
        if (strcmp(hb_jsonl_read_str(rec, "suite", ""), "comm") == 0 && nic_pick(rec, side) &&
            !nic_has(nodes, node))
            json_array_append_new(nodes, json_integer(node));
    }
    return nodes;
}

/* far/near of one metric: both figures, the ratio with its interval, and a verdict when the
 * two intervals are apart; a candidate of the family fam (its verdict withdrawn later if the
 * family's adjustment says so). */
static json_t *nic_compare(const json_t *measured, struct hb_nic_side *side, const char *nic,
                           const char *metric, double bytes, struct hb_family_rec *fam)
{
    struct hb_interval near = {0}, far = {0};
    double *nv = NULL, *fv = NULL;
    side->near = true;
    int nn = hb_comm_pool(measured, metric, bytes, nic_pick, side, &near, &nv);
    side->near = false;
    int nf = nn < 0 ? -1 : hb_comm_pool(measured, metric, bytes, nic_pick, side, &far, &fv);
    bool known = nn >= 0 && nf >= 0 && !isnan(near.lo) && !isnan(far.lo);
    double p = known ? hb_family_rec_p_of(nv, near.n, fv, far.n) : NAN;
    free(nv);
    free(fv);
    if (nn < 0 || nf < 0) return NULL;
    bool latency = strcmp(metric, "latency") == 0;
    double ratio = far.value / near.value;
    enum hb_separation sep = !known                               ? HB_NO_INTERVAL
                             : hb_intervals_separate(&near, &far) ? HB_SEPARATE
                                                                  : HB_OVERLAP;
    char size[32], verdict[256];
    hb_bytes_format((uint64_t)bytes, size, sizeof(size));
    snprintf(verdict, sizeof(verdict), "ranks far from %s %s %.2fx the %s %s of ranks near it", nic,
             latency ? "take" : "get", ratio, size, latency ? "latency" : "bandwidth");
    json_t *c =
        json_pack("{s:s, s:I, s:o, s:o, s:i, s:i, s:o, s:o, s:s, s:o}", "metric", metric,
                  "message_bytes", (json_int_t)bytes, "near", hb_comm_pool_figure_json(&near),
                  "far", hb_comm_pool_figure_json(&far), "near_pairs", nn, "far_pairs", nf, "ratio",
                  isfinite(ratio) ? json_real(ratio) : json_null(), "ratio_ci95",
                  known && near.lo > 0 ? json_pack("[f, f]", far.lo / near.hi, far.hi / near.lo)
                                       : json_null(),
                  "noise", hb_jsonl_read_separation_name(sep), "verdict",
                  sep == HB_SEPARATE ? json_string(verdict) : json_null());
    if (c) hb_family_rec_add(fam, c, p, sep == HB_SEPARATE);
    return c;
}

/* Why nothing is compared for this NIC into *why (to free; NULL when both sides have
 * ranks). -ENOMEM when out of memory. */
static int nic_why_not(const char *host, const char *nic, const json_t *nic_nodes,
                       const json_t *near, const json_t *far, char **why)
{
    *why = NULL;
    bool none_far = json_array_size(far) == 0, none_near = json_array_size(near) == 0;
    if (!none_far && !none_near) return 0;
    /* The NIC's nodes in words: "node 0", "nodes 0-1,4". */
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    size_t i;
    json_t *n;
    json_array_foreach(nic_nodes, i, n) if (set)
        hwloc_bitmap_set(set, (unsigned)json_integer_value(n));
    char *list = NULL;
    int rc = set && hwloc_bitmap_list_asprintf(&list, set) >= 0 ? 0 : -ENOMEM;
    const char *s = hwloc_bitmap_weight(set) == 1 ? "" : "s";
    hwloc_bitmap_free(set);
    if (rc == 0 && none_far &&
        asprintf(why,
                 "every rank of host %s sits on a node local to its NIC %s (node%s %s): no far "
                 "rank to compare",
                 host, nic, s, list) < 0)
        rc = -ENOMEM;
    else if (rc == 0 && !none_far &&
             asprintf(why,
                      "no rank of host %s sits on a node local to its NIC %s (node%s %s): no "
                      "near rank to compare",
                      host, nic, s, list) < 0)
        rc = -ENOMEM;
    if (rc) *why = NULL;
    free(list);
    return rc;
}

/* Say a note on stderr, once per text (`said` holds those said). */
static void nic_say(json_t *said, const char *note)
{
    size_t i;
    json_t *v;
    json_array_foreach(said, i, v) if (strcmp(json_string_value(v), note) == 0) return;
    fprintf(stderr, "hopbench: comm: %s\n", note);
    json_array_append_new(said, json_string(note));
}

/* The record of one link and one NIC of `host` (nic NULL: the host lists none). */
static json_t *nic_record(const json_t *measured, struct hb_nic_side *side, const json_t *nic,
                          json_t *said, struct hb_family_rec *fam)
{
    const char *name = hb_jsonl_read_str(nic, "name", "");
    side->nodes = json_object_get(nic, "nodes");
    side->near = true;
    json_t *near = nic_rank_nodes(measured, side);
    side->near = false;
    json_t *far = nic_rank_nodes(measured, side);
    char *why = NULL;
    int rc = near && far ? 0 : -ENOMEM;
    if (rc == 0 && !nic &&
        asprintf(&why,
                 "host %s lists no network or OpenFabrics device (hwloc's I/O discovery): no "
                 "NIC to tell near ranks from far ones",
                 side->host) < 0)
        rc = -ENOMEM;
    else if (rc == 0 && nic)
        rc = nic_why_not(side->host, name, side->nodes, near, far, &why);
    double least, most;
    hb_comm_pool_sizes(measured, &least, &most);
    json_t *lat =
        rc || why ? json_null() : nic_compare(measured, side, name, "latency", least, fam);
    json_t *bw =
        rc || why ? json_null() : nic_compare(measured, side, name, "bandwidth", most, fam);
    json_t *rec = NULL;
    if (rc == 0 && lat && bw) /* json_pack takes lat, bw, near and far, packed or not */
        rec = json_pack("{s:s, s:s, s:s, s:s, s:o, s:O, s:O, s:o, s:o, s:o, s:o}", "type",
                        "comm_nic", "suite", "comm", "host", side->host, "peer", side->peer, "nic",
                        nic ? json_string(name) : json_null(), "nic_nodes",
                        nic ? side->nodes : json_null(), "nic_pci",
                        nic ? json_object_get(nic, "pci") : json_null(), "near_nodes", near,
                        "far_nodes", far, "latency", lat, "bandwidth", bw);
    else {
        json_decref(lat);
        json_decref(bw);
        json_decref(near);
        json_decref(far);
    }
    if (rec && why) json_object_set_new(rec, "note", json_string(why));
    if (rec && why) nic_say(said, why);
    free(why);
    return rec;
}

/* The records of one side of a link: one per NIC of host, one with no NIC when it has none. */
static int nic_side_records(const json_t *measured, struct hb_nic_side *side, const json_t *nics,
                            json_t *said, struct hb_family_rec *fam, json_t *derived)
{
    size_t n = json_array_size(nics);
    for (size_t k = 0; k < (n ? n : 1); k++) {
        json_t *rec = nic_record(measured, side, n ? json_array_get(nics, k) : NULL, said, fam);
        if (!rec || json_array_append_new(derived, rec)) return -ENOMEM;
    }
    return 0;
}

int hb_comm_nic_derive(const json_t *measured, const json_t *host_nics, json_t *derived)
{
    json_t *links = hb_comm_pool_links_of(measured), *said = json_array(), *l;
    int rc = links && said ? 0 : -ENOMEM;
    size_t i, first = json_array_size(derived);
    struct hb_family_rec fam = {0};
    json_array_foreach(links, i, l) for (int end = 0; rc == 0 && end < 2; end++)
    {
        struct hb_nic_side side = {json_string_value(json_array_get(l, (size_t)end)),
                                   json_string_value(json_array_get(l, (size_t)!end)), NULL, true};
        rc = nic_side_records(measured, &side, json_object_get(host_nics, side.host), said, &fam,
                              derived);
    }
    /* The family: every NIC verdict of the run; each record that compares says it. */
    if (rc == 0) rc = hb_family_rec_decide(&fam);
    hb_family_rec_demote(&fam, "noise", "inconclusive", "verdict");
    for (i = first; rc == 0 && i < json_array_size(derived); i++) {
        json_t *rec = json_array_get(derived, i);
        if (json_is_object(json_object_get(rec, "latency")))
            json_object_set_new(rec, "family", hb_family_rec_json(&fam));
    }
    hb_family_rec_free(&fam);
    json_decref(links);
    json_decref(said);
    return rc;
}
