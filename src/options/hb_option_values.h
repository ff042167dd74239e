/* Readers of option values: each checks one value and stores it, or says in one line
 * (hb_error_msg()) which value is wrong and what is valid, returning -EINVAL. */
#ifndef HB_OPTION_VALUES_H
#define HB_OPTION_VALUES_H

#include "hb_options.h"

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

int hb_option_values_parse_int(const char *opt, const char *text, long lo, long hi,
                               const char *what, int *out);
int hb_option_values_parse_double(const char *opt, const char *text, double lo, double hi,
                                  const char *what, double *out);
/* A non-empty text that fits len bytes with its NUL. */
int hb_option_values_copy_arg(const char *opt, const char *text, char *dst, size_t len);
/* names (NULL-ended) joined by sep, e.g. "table|csv|jsonl" (free it); NULL when out of
 * memory. */
char *hb_option_values_names_join(const char *const *names, const char *sep);
/* One of names (NULL-ended): *out gets its index. */
int hb_option_values_parse_enum(const char *opt, const char *text, const char *const *names,
                                int *out);
/* A comma-separated list has no empty item (strtok would skip it silently). */
int hb_option_values_check_items(const char *opt, const char *text);
/* No item of a comma-separated list given twice as written (0, or -EINVAL naming it): a list
 * of things to measure, where a repeat would make two measurements of one identity. */
int hb_option_values_check_unique(const char *opt, const char *text);
/* Every comma-separated item is one of names: *mask gets bit `first + index` of each. */
int hb_option_values_parse_list(const char *opt, const char *text, const char *const *names,
                                int first, unsigned *mask);
/* Comma-separated node numbers in the order given: out[0..cap), *n counts them all. */
int hb_option_values_parse_int_list(const char *opt, const char *text, int *out, int cap, int *n);
int hb_option_values_parse_strides(const char *text, struct hb_options *o);

/* --size 64M, or a list 8,1K,64K (comm's message sizes): kept ascending, each size once;
 * o->size is the largest. */
int hb_option_values_parse_sizes(const char *text, struct hb_options *o);
/* --chains 1,2,4,8: each 1 to HB_CHASE_MAX_CHAINS, at most HB_CHASE_MAX_STRIDES of them. */
int hb_option_values_parse_chains(const char *text, struct hb_options *o);
int hb_option_values_parse_tlb_group(const char *text, uint64_t *out);
int hb_option_values_parse_seed(const char *arg, uint64_t *out);
/* --repeat N (1..hi), auto (at most most_default rounds) or auto:MAX (6..hi): *repeats the
 * count or the most, *until_clear whether auto. 0, or -EINVAL naming the value. */
int hb_option_values_parse_repeat(const char *arg, int most_default, int hi, int *repeats,
                                  bool *until_clear);
/* A number above 0 and at most hi (--bg-rate, --noise); `what` says what is valid. */
int hb_option_values_parse_positive(const char *opt, const char *arg, double hi, const char *what,
                                    double *out);
/* --nodes: o->nodes (the last one given) and its text; the nodes are checked against the
 * topology once it is loaded (hb_suite_check_nodes). */
int hb_option_values_parse_nodes(const char *arg, struct hb_options *o);
int hb_option_values_parse_home(const char *arg, int *out);
/* --mem-node N, or a list A,B,... of distinct nodes (o->mem_nodes; --policy weighted's). */
int hb_option_values_parse_mem_nodes(const char *text, struct hb_options *o);
/* --weights 3,1: each an integer from 1 to 255 (o->weights); or auto (o->weights_auto). */
int hb_option_values_parse_weights(const char *text, struct hb_options *o);

#endif
