/* Weighted interleave on this machine (Linux 6.9+, root): the kernel's weights set and put
 * back by the run, by exit(), by a fatal signal and, after SIGKILL, by the guardian; read, not set,
 * without root; a weighted buffer's pages on its node. 77 (skipped) without the policy or without
 * root. */
#include "../hb_check.h"
#include "hb_error.h"
#include "hb_placement.h"
#include "hb_topo.h"
#include "hb_interleave_weights.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define HB_SKIP 77

static int weight_now(int node)
{
    int w = -1;
    CHECK_INT(hb_interleave_weights_read(node, &w), 0);
    return w;
}

/* Weight 7 (or 8 where 7 is there already) on node: set, then the child ends as `how` says. */
static void child_sets_then(int node, int how, int want_status)
{
    int was = weight_now(node), w = was == 7 ? 8 : 7;
    pid_t pid = fork();
    if (pid == 0) {
        if (hb_interleave_weights_apply(&node, &w, 1) != 0 || weight_now(node) != w) _exit(90);
        if (how == 0) exit(3); /* atexit puts them back */
        raise(how);            /* the handler puts them back, then the default ends it */
        _exit(91);
    }
    int status = 0;
    CHECK_INT(waitpid(pid, &status, 0), pid);
    if (how == 0)
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == want_status);
    else
        CHECK(WIFSIGNALED(status) && WTERMSIG(status) == how);
    /* After SIGKILL the guardian process puts them back, as soon as it sees the end. */
    for (int i = 0; how == SIGKILL && i < 250 && weight_now(node) != was; i++)
        usleep(20000);
    CHECK_INT(weight_now(node), was);
}

/* Without root: nothing written, the current weight is what the run uses. */
static void child_not_root(int node)
{
    int was = weight_now(node), w = was == 7 ? 8 : 7;
    pid_t pid = fork();
    if (pid == 0) {
        if (setgid(65534) != 0 || setuid(65534) != 0) _exit(92);
        if (hb_interleave_weights_apply(&node, &w, 1) != 0) _exit(93);
        const struct hb_interleave_weights_state *s = hb_interleave_weights_current();
        _exit(s && !s->set && s->n == 1 && s->weights[0] == was ? 0 : 94);
    }
    int status = 0;
    CHECK_INT(waitpid(pid, &status, 0), pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK_INT(weight_now(node), was);
}

/* A weighted buffer over the first node with memory: every page there. */
static void weighted_buffer(struct hb_topo *t, int node)
{
    struct hb_buf b;
    CHECK_INT(hb_placement_buf_alloc(t, 8u << 20, HB_POLICY_WEIGHTED, &node, 1, HB_PAGES_4K, &b),
              0);
    memset(b.ptr, 1, b.bytes);
    struct hb_pageloc pl;
    CHECK_INT(hb_placement_buf_locate(t, &b, NULL, 0, &pl), 0);
    CHECK_WITHIN(pl.on_target_pct, 100.0, 0.0);
    hb_placement_pageloc_free(&pl);
    hb_placement_buf_free(&b);
}

int main(void)
{
    if (hb_interleave_weights_check("weighted interleave") != 0) {
        printf("SKIP: %s\n", hb_error_msg());
        return HB_SKIP;
    }
    if (!hb_interleave_weights_writable()) {
        printf("SKIP: setting the weights needs root\n");
        return HB_SKIP;
    }
    struct hb_topo *t = NULL;
    CHECK_INT(hb_topo_load(NULL, &t), 0);
    int node = -1;
    for (int i = 0; t && i < t->nnodes && node < 0; i++)
        if (t->nodes[i].has_memory) node = t->nodes[i].os_index;
    CHECK(node >= 0);
    if (node < 0) return hb_check_result();

    int was = weight_now(node), w = was == 7 ? 8 : 7;
    CHECK_INT(hb_interleave_weights_apply(&node, &w, 1), 0);
    const struct hb_interleave_weights_state *s = hb_interleave_weights_current();
    CHECK(s && s->set && s->n == 1 && s->nodes[0] == node && s->weights[0] == w);
    CHECK_INT(weight_now(node), w);
    weighted_buffer(t, node);
    hb_interleave_weights_restore();
    CHECK_INT(weight_now(node), was);
    CHECK(hb_interleave_weights_current() == NULL);
    hb_interleave_weights_restore(); /* twice: nothing more */
    CHECK_INT(weight_now(node), was);

    child_sets_then(node, 0, 3);
    child_sets_then(node, SIGTERM, 0);
    child_sets_then(node, SIGINT, 0);
    child_sets_then(node, SIGKILL, 0);
    child_not_root(node);

    /* A node the kernel has no weight for: refused, nothing left changed. */
    int bad = 4095, one = 1;
    CHECK_INT(hb_interleave_weights_apply(&bad, &one, 1), -ENOENT);
    CHECK_HAS(hb_error_msg(), "node 4095");
    CHECK(hb_interleave_weights_current() == NULL);
    hb_topo_load_free(t);
    return hb_check_result();
}
