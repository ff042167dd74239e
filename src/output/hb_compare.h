/* `hopbench compare BASE.jsonl NEW.jsonl`: run-to-run comparison and regression gate. */
#ifndef HB_COMPARE_H
#define HB_COMPARE_H

/* argv[0] is "compare". Prints the comparison on stdout, messages on stderr. Returns the exit
 * code: 0 no regression; 1 a record worse (a change over --threshold whose repeats separate);
 * 4 measurements of BASE missing from NEW; 2 bad usage or input (unusable, duplicated or
 * mismatched records, several runs in a file, runs of different machines); 3 environment. */
int hb_compare_main(int argc, char **argv);

#endif
