/* Report: memory-level parallelism. With --chains the chase keeps N misses in flight: the
 * latency of each load against the loads a second shows how much of a node's latency the
 * core hides, one curve per node pair (named with the memory node's kind and kernel tier). */
#include "hb_report_kit.h"
#include "hb_report_sections.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ", DRAM, kernel memory_tier4": the memory node's kind and tier from the run record's
 * topology, "" when it has none. */
static void mlp_tier_words(const json_t *run, long long mem, char *buf, size_t len)
{
    size_t i;
    json_t *n;
    buf[0] = '\0';
    json_array_foreach(json_object_get(json_object_get(run, "topology"), "nodes"), i, n)
    {
        if (hb_jsonl_read_num(n, "os_index", -1) != (double)mem) continue;
        json_t *kt = json_object_get(n, "kernel_tier");
        if (json_is_integer(kt))
            snprintf(buf, len, " (%s, kernel memory_tier%lld)",
                     hb_jsonl_read_str(n, "kind", "DRAM"), (long long)json_integer_value(kt));
        else
            snprintf(buf, len, " (%s)", hb_jsonl_read_str(n, "kind", "DRAM"));
        return;
    }
}

int hb_report_mlp_take(struct hb_report_in *in, const json_t *m)
{
    const char *ykey = hb_jsonl_read_headline_key(m);
    int chains = hb_report_kit_int(m, "chains", 0);
    double loads = hb_jsonl_read_num(m, "loads_per_s", NAN);
    if (!hb_report_kit_is(m, "measurement", NULL, "loads_per_s") ||
        strcmp(hb_jsonl_read_str(m, "metric", ""), "latency") != 0 || chains < 1 || !(loads > 0) ||
        !json_is_number(json_object_get(m, ykey)))
        return 0;
    if (!in->mlp_chains[0] || chains < in->mlp_chains[0]) in->mlp_chains[0] = chains;
    if (chains > in->mlp_chains[1]) in->mlp_chains[1] = chains;
    char name[240], tier[96], count[20];
    mlp_tier_words(in->res.run, (long long)hb_jsonl_read_num(m, "mem_node", -1), tier,
                   sizeof(tier));
    snprintf(name, sizeof(name), "%s: CPU node %lld \xe2\x86\x92 memory node %lld%s",
             hb_jsonl_read_str(m, "host", "?"), (long long)hb_jsonl_read_num(m, "cpu_node", -1),
             (long long)hb_jsonl_read_num(m, "mem_node", -1), tier);
    snprintf(count, sizeof(count), "%d", chains);
    return hb_report_data_add_point(&in->mlp, name, loads / 1e6, hb_report_data_fig(m, ykey),
                                    count);
}

/* A file draws the figure when its points have two chain counts or more. */
static bool mlp_drawn(const struct hb_report_in *in)
{
    return in->mlp.n > 0 && in->mlp_chains[1] > in->mlp_chains[0];
}

void hb_report_mlp(FILE *f, const struct hb_report_in *in, int nin)
{
    bool any = false;
    for (int i = 0; i < nin; i++)
        any |= mlp_drawn(&in[i]);
    if (!any) return;
    fputs("<section id=\"mlp\"><h2>Memory-level parallelism</h2><p>Each point is one count "
          "of independent pointer chases interleaved in one thread (<code>--chains</code>): "
          "right is more loads completed a second, up is a longer wait for each load. A curve "
          "that goes right without going up is latency the core hides by overlapping misses; "
          "the table gives the chain count of each point.</p><div class=\"row\">\n",
          f);
    const struct hb_curve_fig fig = {
        {false, false, false, "million loads per second (all chains)", "latency per load (ns)",
         "latency per load"},
        "select(.type == \"measurement\" and .metric == \"latency\" and has(\"loads_per_s\"))",
        "chains"};
    for (int i = 0; i < nin; i++) {
        if (!mlp_drawn(&in[i])) continue;
        fputs("<div class=\"panel\">", f);
        hb_report_kit_caption(f, &in[i].res, "latency against throughput by chain count");
        hb_report_curves_figure(f, &in[i], &in[i].mlp, NULL, 0, &fig);
        fputs("</div>\n", f);
    }
    fputs("</div></section>\n", f);
}
