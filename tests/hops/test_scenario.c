/* The scenario parser on good text: every field of every line, comments and blank lines. */
#include "../hb_check.h"

#include "hb_error.h"
#include "hb_run_scenario.h"

int main(void)
{
    static const char text[] = "# 40555 figure\n"
                               "experiment cf-0.1\n"
                               "  fg 0.0.w.1   # node 0 writes node 1\n"
                               "fg 1.12.rw.0 size=1M kernel=triad\r\n"
                               "\n"
                               "bg 2.*.r.2 level=very-high\n"
                               "bg 3.1.r.3 rate=0.5\n"
                               "experiment second\n"
                               "fg 0.0.r.0";
    struct hb_scenario s;
    int rc = hb_run_scenario_parse("t.scn", text, sizeof(text) - 1, &s);
    CHECK_INT(rc, 0);
    CHECK_INT(s.n, 2);
    if (s.n == 2) {
        const struct hb_scn_exp *e = &s.exps[0];
        CHECK_STR(e->name, "cf-0.1");
        CHECK_INT(e->ntasks, 4);
        CHECK_INT(e->tasks[0].bg, 0);
        CHECK_INT(e->tasks[0].node, 0);
        CHECK_INT(e->tasks[0].mem_node, 1);
        CHECK_STR(e->tasks[0].access, "w");
        CHECK_INT(e->tasks[0].col, 6);
        CHECK_INT(e->tasks[1].thread, 12);
        CHECK_STR(e->tasks[1].access, "rw");
        CHECK_INT(e->tasks[1].size, 1 << 20);
        /* Columns for messages: the access letters and the size's value, as written. */
        CHECK_INT(e->tasks[0].access_col, 10);
        CHECK_INT(e->tasks[0].size_col, 0);
        CHECK_INT(e->tasks[1].access_col, 9);
        CHECK_INT(e->tasks[1].size_col, 19);
        CHECK_STR(e->tasks[1].size_text, "1M");
        CHECK_STR(e->tasks[1].kernel, "triad");
        CHECK_INT(e->tasks[2].bg, 1);
        CHECK_INT(e->tasks[2].thread, -1);
        CHECK_INT(e->tasks[2].level, 4);
        CHECK(e->tasks[2].rate < 0);
        CHECK(e->tasks[3].rate == 0.5);
        CHECK_INT(e->tasks[3].line, 7);
        CHECK_STR(s.exps[1].name, "second");
        CHECK_INT(s.exps[1].ntasks, 1);
    }
    hb_run_scenario_free(&s);
    /* A NUL inside the text is refused at its column, not read past. */
    static const char nul[] = "experiment a\nfg 0.0\0.r.0\n";
    CHECK_INT(hb_run_scenario_parse("n.scn", nul, sizeof(nul) - 1, &s), -22);
    CHECK_STR(hb_error_msg(), "n.scn:2:7: expected text, not a NUL byte, got ''");
    hb_run_scenario_free(&s);

    /* A repeated experiment name is refused at its line, naming where it was first. */
    static const char dup[] = "experiment one\nfg 0.0.r.0\nexperiment two\nfg 0.0.r.0\n"
                              "# again\n  experiment one\nfg 0.0.w.0\n";
    CHECK_INT(hb_run_scenario_parse("d.scn", dup, sizeof(dup) - 1, &s), -22);
    CHECK_STR(hb_error_msg(), "d.scn:6:14: experiment one is already defined at line 1; expected a "
                              "NAME no other experiment of the file has");
    hb_run_scenario_free(&s);
    /* Names differ by any byte, case too; many names are told apart (the table grows). */
    static char many[160 * 1024];
    size_t used = 0;
    for (int i = 0; i < 2000; i++)
        used += (size_t)snprintf(many + used, sizeof(many) - used,
                                 "experiment e%d\nfg 0.0.r.0\nexperiment E%d\nfg 0.0.r.0\n", i, i);
    CHECK_INT(hb_run_scenario_parse("m.scn", many, used, &s), 0);
    CHECK_INT(s.n, 4000);
    hb_run_scenario_free(&s);
    used += (size_t)snprintf(many + used, sizeof(many) - used, "experiment E1234\nfg 0.0.r.0\n");
    CHECK_INT(hb_run_scenario_parse("m.scn", many, used, &s), -22);
    CHECK_STR(hb_error_msg(), "m.scn:8001:12: experiment E1234 is already defined at line 4939; "
                              "expected a NAME no other experiment of the file has");
    hb_run_scenario_free(&s);
    /* A size the size reader refuses: its message, at the value. */
    static const char big[] = "experiment a\nfg 0.0.r.0 size=1e400\n";
    CHECK_INT(hb_run_scenario_parse("b.scn", big, sizeof(big) - 1, &s), -22);
    CHECK_STR(hb_error_msg(), "b.scn:2:17: size '1e400' is too large: it must be less than 16 EiB "
                              "(at most 18446744073709551615 bytes)");
    hb_run_scenario_free(&s);
    return hb_check_result();
}
