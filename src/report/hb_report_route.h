/* `hopbench report`'s entry in the command table: with --history DB the history's pictures,
 * else the records' report (hb_report_main) as before. */
#ifndef HB_REPORT_ROUTE_H
#define HB_REPORT_ROUTE_H

/* argv[0] is "report". Returns the exit code: 0 written, 2 bad usage or input (nothing
 * written), 3 the database could not be reached or the output not written. */
int hb_report_route_main(int argc, char **argv);

#endif
