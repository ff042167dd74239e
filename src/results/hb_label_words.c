/* A 40555 label ("0.0.r.1": CPU node 0 -> memory node 1, read) in words (hb_label_words.h). */
#include "hb_label_words.h"

#include <stdio.h>
#include <string.h>

bool hb_label_words(const char *label, char *buf, size_t len)
{
    int cpu = -1, thread = -1, used = 0;
    char access[4] = "", target[8] = "";
    if (sscanf(label, "%d.%d.%3[rw].%7[0-9a-z]%n", &cpu, &thread, access, target, &used) != 4 ||
        label[used] != '\0' || cpu < 0 || thread < 0)
        return false;
    const char *what = strcmp(access, "r") == 0    ? "read"
                       : strcmp(access, "w") == 0  ? "write"
                       : strcmp(access, "rw") == 0 ? "read and write"
                                                   : NULL;
    char where[64];
    if (strcmp(target, "i") == 0)
        snprintf(where, sizeof(where), "memory interleaved over the nodes");
    else if (strcmp(target, "ft") == 0)
        snprintf(where, sizeof(where), "first-touch memory (the OS places each page)");
    else if (strspn(target, "0123456789") == strlen(target))
        snprintf(where, sizeof(where), "memory node %s", target);
    else
        return false;
    if (!what) return false;
    char from[48];
    if (thread)
        snprintf(from, sizeof(from), "CPU node %d, from its thread %d", cpu, thread);
    else
        snprintf(from, sizeof(from), "CPU node %d", cpu);
    snprintf(buf, len, "%s \xe2\x86\x92 %s, %s", from, where, what);
    return true;
}
