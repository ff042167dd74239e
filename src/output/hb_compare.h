/* `hopbench compare BASE.jsonl NEW.jsonl`: run-to-run comparison and regression gate. */
#ifndef HB_COMPARE_H
#define HB_COMPARE_H

/* argv[0] is "compare". Prints the comparison on stdout, messages on stderr. Returns the exit
 * code: 0 no significant regression, 1 a change worse than --threshold and significant,
 * 2 bad usage or input. */
int hb_compare_main(int argc, char **argv);

#endif
