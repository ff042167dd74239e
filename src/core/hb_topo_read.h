/* Steps of loading a topology, shared by hb_topo_load.c and the files that read each part. */
#ifndef HB_TOPO_READ_H
#define HB_TOPO_READ_H

#include "hb_topo.h"

/* The nodes, their CPUs and memory, from t->hw. 0 or -errno with hb_error_msg() set. */
int hb_topo_nodes_read(struct hb_topo *t);

/* The distance matrix and hop classes, from t->hw once the nodes are read. 0 or -errno. */
int hb_topo_distances_read(struct hb_topo *t);

#endif
