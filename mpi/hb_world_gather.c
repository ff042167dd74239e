/* Something of each host on rank 0, sent by the host's first rank: its topology, its
 * configuration (hb_world.h). */
#include "hb_world.h"

#include "hb_ranks.h"
#include "hb_error.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>

int hb_world_gather_hosts(const struct hb_world *w, const char *mine, int len,
                          struct hb_host_bytes *out)
{
    *out = (struct hb_host_bytes){0};
    int *lens = NULL, *displs = NULL;
    char *all = NULL;
    int rc = 0;
    if (w->rank == 0) {
        lens = calloc((size_t)w->size, sizeof(*lens));
        displs = calloc((size_t)w->size, sizeof(*displs));
    }
    hb_ranks_gather_int(w->host_rank == 0 && len > 0 ? len : 0, lens);
    long total = 0;
    if (w->rank == 0 && lens && displs)
        for (int r = 0; r < w->size; r++) {
            displs[r] = (int)total;
            total += lens[r];
        }
    if (w->rank == 0 && (!lens || !displs || total > INT_MAX || !(all = malloc(total + 1)))) {
        hb_error_set("out of memory gathering the hosts' descriptions (%ld bytes)", total);
        rc = -ENOMEM;
    }
    hb_ranks_bcast_ints(&rc, 1);
    if (rc == 0)
        hb_ranks_gatherv_bytes(mine, w->host_rank == 0 && len > 0 ? len : 0, all, lens, displs);
    if (rc) {
        free(all);
        free(lens);
        free(displs);
        return rc;
    }
    *out = (struct hb_host_bytes){all, lens, displs};
    return 0;
}

void hb_world_gather_host_bytes_free(struct hb_host_bytes *b)
{
    free(b->all);
    free(b->lens);
    free(b->displs);
    *b = (struct hb_host_bytes){0};
}
