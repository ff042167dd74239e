/* Which file systems the history's SQLite file is refused on (hb_history_sqlite.c): the
 * statfs(2) magic numbers of the network file systems (as linux/magic.h and their projects
 * define them) give their names, local ones none. No NFS or Lustre server can be mounted on
 * the test machines, so the decision is tested here, over the numbers; cli.history-store
 * tests that a local file is taken. */
#include "../hb_check.h"
#include "hb_history_db.h"

#include <string.h>

static void is(unsigned long magic, const char *want)
{
    const char *got = hb_history_sqlite_network_fs(magic);
    if (!want) {
        if (got) fprintf(stderr, "magic %#lx: %s, want a local file system\n", magic, got);
        CHECK(got == NULL);
    } else {
        if (!got || strcmp(got, want) != 0)
            fprintf(stderr, "magic %#lx: %s, want %s\n", magic, got ? got : "local", want);
        CHECK(got && strcmp(got, want) == 0);
    }
}

int main(void)
{
    is(0x6969, "NFS");        /* NFS_SUPER_MAGIC */
    is(0x0BD00BD0, "Lustre"); /* LL_SUPER_MAGIC */
    is(0x47504653, "GPFS");   /* "GPFS" */
    is(0xFF534D42, "CIFS");   /* CIFS_SUPER_MAGIC */
    is(0xFE534D42, "SMB2");   /* SMB2_SUPER_MAGIC */
    is(0x517B, "SMB");        /* SMB_SUPER_MAGIC */
    is(0x00C36400, "CephFS"); /* CEPH_SUPER_MAGIC */
    is(0x19830326, "BeeGFS"); /* BeeGFS */
    is(0x5346414F, "AFS");    /* AFS_FS_MAGIC */
    /* statfs's f_type is a signed long on some ABIs: a magic with its top bit set arrives
     * sign-extended, and is still known by its low 32 bits. */
    is((unsigned long)(long)(int)0xFF534D42u, "CIFS");
    is(0xEF53, NULL);     /* ext2/3/4 */
    is(0x58465342, NULL); /* XFS */
    is(0x01021994, NULL); /* tmpfs */
    is(0x794C7630, NULL); /* overlayfs */
    is(0x65735546, NULL); /* FUSE: most are local (fuse-overlayfs) */
    is(0x9123683E, NULL); /* btrfs */
    is(0, NULL);
    return hb_check_result();
}
