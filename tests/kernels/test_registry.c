/* The kernel table: the contract kernels first and in order, lookup and its error, help
 * text, and the bandwidth and load accounting derived from the metadata. Other families may
 * follow the contract kernels in the table. */
#include "hb_error.h"
#include "hb_kernel.h"
#include "../hb_check.h"

static const char *const want_names[] = {"read",  "write",    "write-nt", "copy", "copy-nt",
                                         "triad", "triad-nt", "memcpy",   "chase"};
#define N_WANT (int)(sizeof(want_names) / sizeof(want_names[0]))

static void expect_bytes(const char *name, uint64_t elements, uint64_t sweeps, double bytes)
{
    const struct hb_kernel *k = hb_kernel_registry_find(name);
    HB_EXPECT(k != NULL, "%s", hb_error_msg());
    double got = hb_kernel_registry_bytes(k, elements, sweeps);
    HB_EXPECT(got == bytes, "%s: %g bytes, want %g", name, got, bytes);
}

int main(void)
{
    int count = hb_kernel_registry_count();
    HB_EXPECT(count >= N_WANT, "%d kernels", count);
    HB_EXPECT(hb_kernel_registry[count].name == NULL, "table not terminated");
    char names[512] = "";
    for (int i = 0; i < count; i++) {
        if (i < N_WANT)
            HB_EXPECT(strcmp(hb_kernel_registry[i].name, want_names[i]) == 0, "entry %d is %s", i,
                      hb_kernel_registry[i].name);
        const struct hb_kernel *k = hb_kernel_registry_find(hb_kernel_registry[i].name);
        HB_EXPECT(k == &hb_kernel_registry[i], "find(%s)", hb_kernel_registry[i].name);
        HB_EXPECT(k->init && k->run && k->check && k->desc && k->desc[0], "%s", k->name);
        HB_EXPECT(k->streams >= 1 && k->streams <= HB_KERNEL_MAX_STREAMS, "%s streams %d", k->name,
                  k->streams);
        HB_EXPECT(k->nt == (strstr(k->name, "-nt") != NULL), "%s nt", k->name);
        /* The dry run's estimate needs every bandwidth kernel's sweep rate. */
        HB_EXPECT((k->kind == HB_KIND_LATENCY) == !(k->model_bps > 0.0), "%s model_bps %g", k->name,
                  k->model_bps);
        size_t used = strlen(names);
        snprintf(names + used, sizeof(names) - used, "%s%s", i ? ", " : "", k->name);
    }

    const char *contract = "read, write, write-nt, copy, copy-nt, triad, triad-nt, memcpy, chase";
    HB_EXPECT(strncmp(hb_kernel_registry_names(), contract, strlen(contract)) == 0, "%s",
              hb_kernel_registry_names());
    HB_EXPECT(strcmp(hb_kernel_registry_names(), names) == 0, "%s, want %s",
              hb_kernel_registry_names(), names);
    hb_error_clear();
    HB_EXPECT(hb_kernel_registry_find("tirad") == NULL, "found a misspelt kernel");
    char want_msg[640];
    snprintf(want_msg, sizeof(want_msg), "unknown kernel 'tirad'; valid kernels: %s", names);
    HB_EXPECT(strcmp(hb_error_msg(), want_msg) == 0, "%s", hb_error_msg());
    HB_EXPECT(hb_kernel_registry_find(NULL) == NULL, "found NULL");
    HB_EXPECT_CONTAINS(hb_error_msg(), "valid kernels: read,");

    const char *access[] = {"r", "w", "w", "rw", "rw", "rw", "rw", "rw", "r"};
    const int streams[] = {1, 1, 1, 2, 2, 3, 3, 2, 1};
    const double flops[] = {1, 0, 0, 0, 0, 2, 2, 0, 0};
    for (int i = 0; i < N_WANT; i++) {
        HB_EXPECT(strcmp(hb_kernel_registry[i].access, access[i]) == 0, "%s",
                  hb_kernel_registry[i].name);
        HB_EXPECT(hb_kernel_registry[i].streams == streams[i], "%s", hb_kernel_registry[i].name);
        HB_EXPECT(hb_kernel_registry[i].flops == flops[i], "%s", hb_kernel_registry[i].name);
        HB_EXPECT((hb_kernel_registry[i].kind == HB_KIND_LATENCY) == (i == N_WANT - 1), "%s kind",
                  hb_kernel_registry[i].name);
    }

    expect_bytes("read", 1000, 3, 24000);
    expect_bytes("write", 1000, 3, 24000);
    expect_bytes("write-nt", 1000, 1, 8000);
    expect_bytes("copy", 1000, 3, 48000);
    expect_bytes("copy-nt", 1000, 1, 16000);
    expect_bytes("triad", 1000, 3, 72000);
    expect_bytes("triad-nt", 1000, 1, 24000);
    expect_bytes("memcpy", 1000, 2, 32000);
    expect_bytes("chase", 1024, 2, 16384); /* one 64-byte line per load */
    expect_bytes("triad", (uint64_t)1 << 27, 10, 24.0 * (double)((uint64_t)10 << 27));

    /* The write-allocate model: plain stores to unread lines fetch them first. */
    static const struct {
        const char *name;
        double per_elem;
    } wa[] = {{"read", 8},     {"write", 16},     {"write-nt", 8},  {"copy", 24},
              {"copy-nt", 16}, {"triad", 32},     {"triad-nt", 24}, {"memcpy", 24},
              {"mix3:1", 32},  {"mix3:1-nt", 32}, {"mix2:1", 24},   {"mix2:1-nt", 24},
              {"mix1:1", 16},  {"mix1:1-nt", 16}, {"gups", 16}};
    for (size_t i = 0; i < sizeof(wa) / sizeof(wa[0]); i++) {
        const struct hb_kernel *k = hb_kernel_registry_find(wa[i].name);
        HB_EXPECT(k != NULL, "%s", hb_error_msg());
        CHECK(hb_kernel_registry_bytes_wa_model(k, 1000, 3) == wa[i].per_elem * 3000);
    }
    /* Mixes: bytes counted the STREAM way give their read:write ratio. */
    expect_bytes("mix3:1", 1000, 1, 32000);
    expect_bytes("mix2:1", 1000, 1, 24000);
    expect_bytes("mix1:1-nt", 1000, 1, 16000);

    const struct hb_kernel *chase = hb_kernel_registry_find("chase");
    HB_EXPECT(hb_kernel_registry_loads(chase, 1024, 3, 64) == 384, "%g",
              hb_kernel_registry_loads(chase, 1024, 3, 64));
    HB_EXPECT(hb_kernel_registry_loads(chase, 1023, 1, 64) == 127, "partial line counted");
    /* The default stride: one load per 256 bytes (32 elements). */
    HB_EXPECT(hb_kernel_registry_loads(chase, 1024, 3, 0) == 96, "%g",
              hb_kernel_registry_loads(chase, 1024, 3, 0));
    HB_EXPECT(hb_kernel_registry_loads(chase, 1024, 1, 512) == 16, "stride 512");
    HB_EXPECT(hb_kernel_registry_loads(hb_kernel_registry_find("read"), 1024, 3, 0) == 0,
              "read has no chase loads");

    char *help = NULL;
    size_t help_len = 0;
    FILE *f = open_memstream(&help, &help_len);
    HB_EXPECT(f != NULL, "open_memstream");
    hb_kernel_registry_help(f);
    fclose(f);
    int lines = 0;
    for (char *line = help; *line; lines++) {
        char *end = strchr(line, '\n');
        HB_EXPECT(end != NULL, "help line without newline: %s", line);
        *end = '\0';
        HB_EXPECT(lines < count, "extra help line: %s", line);
        char word[32];
        HB_EXPECT(sscanf(line, "%31s", word) == 1, "%s", line);
        HB_EXPECT(strcmp(word, hb_kernel_registry[lines].name) == 0, "help line %d: %s", lines,
                  line);
        HB_EXPECT((strstr(line, " NT ") != NULL) == hb_kernel_registry[lines].nt, "%s", line);
        line = end + 1;
    }
    HB_EXPECT(lines == count, "%d help lines", lines);
    free(help);
    return hb_check_result();
}
