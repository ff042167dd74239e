/* The machine's configuration as the run record carries it (docs/config.md): the knobs that
 * move memory performance, read live, each a value or null with the reason it is null. */
#ifndef HB_CONFIG_H
#define HB_CONFIG_H

#include "hb_topo.h"

#include <jansson.h>

/* This machine's knobs now: {"config": {key: value or null}, "config_unreadable": {key:
 * reason}}, every key of the table present in config. t must be this machine (NUMA nodes,
 * CPUs, packages). New reference; NULL only when out of memory. */
json_t *hb_config_read(const struct hb_topo *t);

/* A knob's value as words: a string as it is, a CPU-set list as "performance on 0-3,
 * powersave on 4-7" (one value alone: just it), null as "unreadable", an object as "key:
 * value, ..." (nested in brackets), a list as its items, a number as written; never JSON.
 * A new string; NULL when out of memory. */
char *hb_config_diff_words(const json_t *v);

/* {key: words, ...} as "governor=powersave, thp_enabled=never" ("" for none): a new string,
 * NULL when out of memory. */
char *hb_config_diff_pairs(const json_t *words);

/* Every knob that differs between two config objects, objects walked into ("hugepages.node0.
 * 2048kB.total"): fn(key, base value or NULL, new value or NULL, ctx) in key order of base,
 * then keys only in new. A knob that only one side has at the top (read by a newer hopbench)
 * is not a difference; a part of one (a node, a page size) is. Free huge pages never differ
 * (state, not configuration). Stops at and returns fn's first non-zero (-1: out of memory). */
typedef int (*hb_config_diff_fn)(const char *key, const json_t *base, const json_t *new_,
                                 void *ctx);
int hb_config_diff(const json_t *base, const json_t *new_, hb_config_diff_fn fn, void *ctx);

/* A run record's config and config_unreadable are objects where present, and host_configs a
 * list of {"host": name, "config": object}: 0, or -EINVAL with "PATH:LINE: ..." (every
 * reader of result files checks each run record so, whether it shows the knobs or not). */
int hb_config_check_run(const json_t *run, const char *path, int line);

#endif
