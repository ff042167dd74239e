/* peak's derived records: per experiment and host, the nodes' best figures, their sum, and how
 * much of each node's timed span all nodes shared; a node that failed or ran apart is said. */
#include "hb_suite.h"
#include "../hb_check.h"

#include <jansson.h>
#include <math.h>

static json_t *rec(const char *exp, const char *host, int node, double bw, double s, double e,
                   const char *status)
{
    return json_pack("{s:s, s:s, s:s, s:s, s:i, s:f, s:f, s:f, s:s}", "experiment", exp, "host",
                     host, "kernel", "mix2:1", "policy", "bind", "cpu_node", node, "bw_GBps_best",
                     bw, "fg_start_s", s, "fg_end_s", e, "status", status);
}

static json_t *peak_of(json_t *derived, const char *exp, const char *host)
{
    size_t i;
    json_t *r;
    json_array_foreach(
        derived, i,
        r) if (strcmp(json_string_value(json_object_get(r, "experiment")), exp) == 0 &&
               strcmp(json_string_value(json_object_get(r, "host")), host) == 0) return r;
    return NULL;
}

int main(void)
{
    json_t *m = json_array();
    /* Host a: two nodes that ran together (spans 0-10 and 1-10: 9 of 9 and 9 of 10 shared). */
    json_array_append_new(m, rec("peak-mix2:1-bind", "a", 0, 40.0, 0.0, 10.0, "ok"));
    json_array_append_new(m, rec("peak-mix2:1-bind", "a", 1, 38.5, 1.0, 10.0, "ok"));
    /* Host b, same experiment: the nodes barely met (5-6 of 0-6 and 5-11). */
    json_array_append_new(m, rec("peak-mix2:1-bind", "b", 0, 30.0, 0.0, 6.0, "ok"));
    json_array_append_new(m, rec("peak-mix2:1-bind", "b", 1, 30.0, 5.0, 11.0, "ok"));
    /* Next experiment on host a: node 1 failed validation. */
    json_array_append_new(m, rec("peak-read-bind", "a", 0, 50.0, 0.0, 4.0, "ok"));
    json_array_append_new(m, rec("peak-read-bind", "a", 1, 49.0, 0.0, 4.0, "failed"));
    json_t *d = json_array();
    CHECK_INT(hb_suite_find("peak")->derive(NULL, m, d), 0);
    CHECK_INT(json_array_size(d), 3);

    json_t *a = peak_of(d, "peak-mix2:1-bind", "a");
    HB_EXPECT(a != NULL, "no peak record for host a");
    CHECK(strcmp(json_string_value(json_object_get(a, "type")), "peak") == 0);
    CHECK(json_number_value(json_object_get(a, "total_GBps")) == 78.5);
    CHECK(json_number_value(json_object_get(a, "fg_overlap")) == 1.0);
    CHECK_INT(json_array_size(json_object_get(a, "node_GBps")), 2);
    json_t *want_nodes = json_pack("[i,i]", 0, 1);
    CHECK(json_equal(json_object_get(a, "nodes"), want_nodes));
    json_decref(want_nodes);
    CHECK(strcmp(json_string_value(json_object_get(a, "note")), "") == 0);

    json_t *b = peak_of(d, "peak-mix2:1-bind", "b");
    HB_EXPECT(b != NULL, "no peak record for host b");
    CHECK(json_number_value(json_object_get(b, "total_GBps")) == 60.0);
    CHECK(fabs(json_number_value(json_object_get(b, "fg_overlap")) - 1.0 / 6.0) < 1e-3);
    CHECK(strstr(json_string_value(json_object_get(b, "note")), "overlapped too little") != NULL);

    json_t *f = peak_of(d, "peak-read-bind", "a");
    HB_EXPECT(f != NULL, "no peak record for the failed experiment");
    CHECK(json_number_value(json_object_get(f, "total_GBps")) == 50.0);
    CHECK(strstr(json_string_value(json_object_get(f, "note")), "failed") != NULL);
    json_decref(m);
    json_decref(d);
    return hb_check_result();
}
