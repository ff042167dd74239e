/* `hopbench report`'s entry in the command table: with --history DB the history's pictures,
 * else the records' report (hb_report_main) as before. */
#ifndef HB_HISTORY_REPORT_H
#define HB_HISTORY_REPORT_H

/* argv[0] is "report". Returns the exit code: 0 written, 2 bad usage or input (nothing
 * written), 3 the database could not be reached or the output not written. */
int hb_history_report_main(int argc, char **argv);

#endif
