/* hb_vm_migrator FROM TO PERIOD_MS -- PROGRAM [ARGS...]
 *
 * Runs PROGRAM and, while it runs, moves every page it has on NUMA node FROM to node TO
 * with migrate_pages(2) every PERIOD_MS milliseconds: real misplacement, done to a live
 * hopbench by the kernel, so the test proves hopbench's page check sees what the kernel
 * did (no fault injection inside hopbench). Repeating the move catches pages hopbench
 * touches after an earlier pass. Exits with PROGRAM's status (128+signal when killed);
 * prints "MIGRATOR passes N calls_ok M" on stderr (calls_ok: calls the kernel accepted).
 * Exit 3 when the arguments or the syscall are unusable here. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int migrator_parse_node(const char *s, int *node)
{
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || v < 0 || v >= 64) {
        fprintf(stderr, "hb_vm_migrator: node '%s' is not a number in 0..63\n", s);
        return -EINVAL;
    }
    *node = (int)v;
    return 0;
}

int main(int argc, char **argv)
{
    int from = 0, to = 0;
    if (argc < 6 || strcmp(argv[4], "--") != 0 || migrator_parse_node(argv[1], &from) != 0 ||
        migrator_parse_node(argv[2], &to) != 0 || atoi(argv[3]) <= 0) {
        fprintf(stderr, "usage: hb_vm_migrator FROM TO PERIOD_MS -- PROGRAM [ARGS...]\n");
        return 3;
    }
    long period_ms = atol(argv[3]);
    pid_t pid = fork();
    if (pid < 0) {
        perror("hb_vm_migrator: fork");
        return 3;
    }
    if (pid == 0) {
        execvp(argv[5], &argv[5]);
        fprintf(stderr, "hb_vm_migrator: cannot run %s: %s\n", argv[5], strerror(errno));
        _exit(127);
    }
    unsigned long old_nodes = 1UL << from, new_nodes = 1UL << to;
    struct timespec nap = {period_ms / 1000, (period_ms % 1000) * 1000000L};
    long passes = 0, calls_ok = 0;
    int status = 0;
    for (;;) {
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) break;
        if (done < 0) {
            perror("hb_vm_migrator: waitpid");
            return 3;
        }
        /* maxnode counts bits; +1 because the kernel reads maxnode - 1 of them. */
        long left =
            syscall(SYS_migrate_pages, pid, 8 * sizeof(old_nodes) + 1, &old_nodes, &new_nodes);
        /* ESRCH: gone; EINVAL: exiting, its memory already released. Both end the loop at
         * the next waitpid. */
        if (left < 0 && errno != ESRCH && errno != EINVAL) {
            int err = errno;
            fprintf(stderr, "hb_vm_migrator: migrate_pages(%d, %d -> %d): %s\n", (int)pid, from, to,
                    strerror(err));
            kill(pid, SIGTERM);
            waitpid(pid, &status, 0);
            return 3;
        }
        passes++;
        calls_ok += left >= 0;
        nanosleep(&nap, NULL);
    }
    fprintf(stderr, "MIGRATOR passes %ld calls_ok %ld\n", passes, calls_ok);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
