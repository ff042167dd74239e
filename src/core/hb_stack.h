/* The stack limit hopbench starts under: below what its own start-up needs (option parsing,
 * hwloc, the C library's number conversions), a run would die of SIGSEGV before it could say
 * anything, so it is refused first, in one line. */
#ifndef HB_STACK_H
#define HB_STACK_H

/* 0, or -HB_EENV with a message naming the limit (ulimit -s) and what to raise it to. */
int hb_stack_check(void);

#endif
