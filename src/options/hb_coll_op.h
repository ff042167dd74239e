/* coll's operations (--op): their names, in the order coll runs them. */
#ifndef HB_COLL_OP_H
#define HB_COLL_OP_H

/* coll's --op values, NULL-ended (HB_COLL_OPS of them). */
#define HB_COLL_OPS 6
extern const char *const hb_coll_op_names[];
/* op's index in hb_coll_op_names, -1 when it names none. */
int hb_coll_op_index(const char *op);

#endif
