/* How Open MPI carries comm's messages, read from its MCA parameters through MPI_T. */
#ifndef HB_MSG_TRANSPORT_H
#define HB_MSG_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>

/* In words, for two ranks on one host (same_host) or on two: the byte transport the `btl`
 * list allows for that pair (vader with its single-copy mechanism inside a host, tcp between
 * hosts; the list itself when it allows neither) and the `pml` asked for, e.g.
 * "btl vader, single copy cma; pml default" (Open MPI 5: "btl sm, ..."). Call after MPI_Init;
 * "none: one process" when MPI did not start. */
void hb_msg_transport(bool same_host, char *out, size_t len);

#endif
