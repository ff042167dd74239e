/* coll's derived record (hb_coll_derive): per op, size and load, the best and the worst of the
 * placements timed by p50, their ratio and its interval from the two intervals' far ends, a
 * verdict only where the intervals are apart and the rank test passes the family of every
 * placement verdict of the run; one placement, a failed record or another load is no member of
 * a case. */
#include "../hb_check.h"
#include "hb_interval.h"
#include "hb_jsonl_read.h"
#include "hb_suite_coll.h"

#include <math.h>

#define REPEATS 9

/* A record of op at 8 B in placement cls (root: -1 none), its REPEATS values base x (1 +
 * spread x k/4) for k = -4 .. 4. */
static void add(json_t *m, const char *op, const char *cls, int root, double base, double spread,
                const char *status, const char *bg)
{
    double v[REPEATS];
    json_t *rv = json_array();
    for (int i = 0; i < REPEATS; i++) {
        v[i] = base * (1.0 + spread * (double)(i - REPEATS / 2) / (REPEATS / 2));
        json_array_append_new(rv, json_real(v[i]));
    }
    struct hb_interval iv;
    hb_interval_median(v, REPEATS, HB_CI_LEVEL, &iv);
    json_t *rec =
        json_pack("{s:s, s:s, s:s, s:s, s:i, s:s, s:i, s:s, s:f, s:[f, f], s:f, s:i, "
                  "s:o, s:s, s:s}",
                  "type", "measurement", "suite", "coll", "host", "h", "op", op, "message_bytes", 8,
                  "coll_class", cls, "ranks", 4, "status", status, "value", iv.value, "ci95", iv.lo,
                  iv.hi, "ci_coverage", iv.coverage, "repeats", REPEATS, "repeat_values", rv,
                  "buffers", "own-node", "bg_level", bg);
    json_object_set_new(rec, "root_node", root >= 0 ? json_integer(root) : json_null());
    json_array_append_new(m, rec);
}

static const json_t *find(const json_t *derived, const char *op)
{
    size_t i;
    json_t *d;
    json_array_foreach(derived, i,
                       d) if (strcmp(hb_jsonl_read_str(d, "op", ""), op) == 0 &&
                              strcmp(hb_jsonl_read_str(d, "bg_level", ""), "idle") == 0) return d;
    return NULL;
}

int main(void)
{
    json_t *m = json_array(), *d = json_array();
    /* allreduce: hops-1 twice as fast as the world, package between; a failed world record
     * faster than all is no placement. */
    add(m, "allreduce", "hops-1", -1, 5.0, 0.02, "ok", "idle");
    add(m, "allreduce", "package", -1, 6.0, 0.02, "ok", "idle");
    add(m, "allreduce", "world", -1, 10.0, 0.02, "ok", "idle");
    add(m, "allreduce", "world", -1, 1.0, 0.02, "failed", "idle");
    /* bcast: two roots within each other's noise. */
    add(m, "bcast", "world", 0, 10.0, 0.3, "ok", "idle");
    add(m, "bcast", "world", 1, 10.5, 0.3, "ok", "idle");
    /* alltoall: one placement, nothing to compare; a loaded allreduce is its own case. */
    add(m, "alltoall", "world", -1, 20.0, 0.02, "ok", "idle");
    add(m, "allreduce", "world", -1, 30.0, 0.02, "ok", "low");
    add(m, "allreduce", "hops-1", -1, 29.0, 0.3, "ok", "low");
    struct hb_suite_env env = {0};
    CHECK_INT(hb_coll_derive(&env, m, d), 0);
    CHECK_INT(json_array_size(d), 3); /* allreduce idle, bcast, allreduce low */
    const json_t *a = find(d, "allreduce"), *b = find(d, "bcast");
    CHECK(a && b && !find(d, "alltoall"));
    if (a) {
        CHECK_STR(hb_jsonl_read_str(a, "type", ""), "coll_placement");
        CHECK_INT(hb_jsonl_read_num(a, "placements", 0), 3);
        CHECK_STR(hb_jsonl_read_str(json_object_get(a, "best"), "coll_class", ""), "hops-1");
        CHECK_STR(hb_jsonl_read_str(json_object_get(a, "worst"), "coll_class", ""), "world");
        CHECK_WITHIN(hb_jsonl_read_num(a, "ratio", 0), 2.0, 1e-9);
        const json_t *ci = json_object_get(a, "ratio_ci95");
        CHECK(json_array_size(ci) == 2 && json_number_value(json_array_get(ci, 0)) < 2.0 &&
              json_number_value(json_array_get(ci, 1)) > 2.0);
        CHECK_STR(hb_jsonl_read_str(a, "separation", ""), "clear");
        CHECK_STR(hb_jsonl_read_str(a, "verdict", ""), "placement matters: the worst is slower");
        CHECK(hb_jsonl_read_num(a, "p_adjusted", 1.0) < 0.05);
        CHECK_INT(hb_jsonl_read_num(json_object_get(a, "family"), "size", 0), 3);
    }
    if (b) {
        CHECK_INT(hb_jsonl_read_num(json_object_get(b, "best"), "root_node", -1), 0);
        CHECK_INT(hb_jsonl_read_num(json_object_get(b, "worst"), "root_node", -1), 1);
        CHECK_STR(hb_jsonl_read_str(b, "separation", ""), "inconclusive");
        CHECK(json_is_null(json_object_get(b, "verdict")));
    }
    json_decref(m);
    json_decref(d);
    return hb_check_result();
}
