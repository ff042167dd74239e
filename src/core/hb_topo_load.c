/* Loading a topology (this machine, an XML file or buffer) and freeing it. */
#include "hb_topo.h"
#include "hb_topo_read.h"

#include "hb_error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* hwloc says why it refuses an XML file only on stderr, and only with HWLOC_XML_VERBOSE: its
 * first line is kept (without the newline) in reason[], not shown. */
struct topo_quiet {
    int saved_fd;
    FILE *capture;
};

static void topo_quiet_begin(struct topo_quiet *q)
{
    fflush(stderr);
    q->capture = tmpfile();
    q->saved_fd = q->capture ? dup(STDERR_FILENO) : -1;
    if (q->saved_fd >= 0) dup2(fileno(q->capture), STDERR_FILENO);
    setenv("HWLOC_XML_VERBOSE", "1", 0);
}

static void topo_quiet_end(struct topo_quiet *q, char *reason, size_t len)
{
    reason[0] = '\0';
    if (q->saved_fd >= 0) {
        fflush(stderr);
        dup2(q->saved_fd, STDERR_FILENO);
        close(q->saved_fd);
        rewind(q->capture);
        if (fgets(reason, (int)len, q->capture)) reason[strcspn(reason, "\n")] = '\0';
    }
    if (q->capture) fclose(q->capture);
}

/* One line for an XML file hwloc refused: hwloc's own reason, and how to write a file this
 * hwloc reads (a newer hwloc writes its own format version unless asked for v2). */
static void topo_xml_refused(const char *path, const char *reason)
{
    unsigned v = hwloc_get_api_version();
    char why[400];
    snprintf(why, sizeof(why), "%s", reason[0] ? reason : "no reason given");
    /* hwloc prefixes its reason with the file's name; once in the line is enough. */
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t plen = strlen(base);
    const char *r = strncmp(why, base, plen) == 0 && why[plen] == ':' ? why + plen + 1 : why;
    r += strspn(r, " ");
    if (strstr(r, "XML version"))
        hb_error_set("topology file '%s': the installed hwloc (API %u.%u) refuses it: %s; on the "
                     "machine, write one this hwloc reads with: lstopo --of xml --export-xml-flags "
                     "v2 FILE.xml",
                     path, v >> 16, (v >> 8) & 0xff, r);
    else
        hb_error_set("topology file '%s' cannot be loaded by the installed hwloc (API %u.%u): %s; "
                     "make one with: lstopo --of xml FILE.xml",
                     path, v >> 16, (v >> 8) & 0xff, r);
}

/* Open and load the XML file or say in one line why it cannot be a topology. */
static int topo_load_xml(struct hb_topo *t, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        int err = errno;
        if (err == ENOENT)
            hb_error_set("topology file '%s' does not exist", path);
        else
            hb_error_set("topology file '%s' cannot be read: %s", path, strerror(err));
        return -err;
    }
    struct topo_quiet q;
    char reason[400];
    topo_quiet_begin(&q);
    int rc = hwloc_topology_set_xml(t->hw, path);
    if (rc == 0) rc = hwloc_topology_load(t->hw);
    topo_quiet_end(&q, reason, sizeof(reason));
    if (rc < 0) {
        topo_xml_refused(path, reason);
        return -EINVAL;
    }
    return 0;
}

static bool topo_env_is(const char *var, const char *value)
{
    const char *v = getenv(var);
    return v && strcmp(v, value) == 0;
}

/* A topology that hwloc's environment loaded from elsewhere: not this system, named by the
 * variable that did it. */
static int topo_env_source(struct hb_topo *t)
{
    static const char *const vars[] = {"HWLOC_XMLFILE", "HWLOC_SYNTHETIC", "HWLOC_FSROOT",
                                       "HWLOC_COMPONENTS"};
    const char *var = "HWLOC_COMPONENTS", *val = "";
    for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
        if (getenv(vars[i])) {
            var = vars[i];
            val = getenv(vars[i]);
            break;
        }
    t->is_this_system = false;
    free(t->source);
    if (asprintf(&t->source, "%s=%s", var, val) < 0) {
        t->source = NULL;
        hb_error_set("out of memory loading the topology");
        return -ENOMEM;
    }
    return 0;
}

/* hwloc's variables that load another machine in place of this one, alike: the first set
 * (its value in *val), or NULL. HWLOC_FSROOT=/ is this machine's own root. */
static const char *topo_env_var(const char **val)
{
    static const char *const vars[] = {"HWLOC_XMLFILE", "HWLOC_SYNTHETIC", "HWLOC_FSROOT"};
    for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
        const char *v = getenv(vars[i]);
        if (v && !(i == 2 && strcmp(v, "/") == 0)) {
            *val = v;
            return vars[i];
        }
    }
    return NULL;
}

/* What to check, for the variable that did not load. */
static const char *topo_env_advice(const char *var, const char *val)
{
    static char advice[4200];
    if (strcmp(var, "HWLOC_XMLFILE") == 0)
        snprintf(advice, sizeof(advice), "check the file with: hopbench topo --topology %s", val);
    else if (strcmp(var, "HWLOC_SYNTHETIC") == 0)
        snprintf(advice, sizeof(advice),
                 "give a synthetic description hwloc reads, e.g. "
                 "HWLOC_SYNTHETIC='node:2 core:2 pu:1'");
    else
        snprintf(advice, sizeof(advice),
                 "give the root of a copy of a machine's /sys and /proc "
                 "(hwloc-gather-topology)");
    return advice;
}

/* A variable named another machine, yet hwloc loaded this one. */
static bool topo_env_fell_back(const struct hb_topo *t)
{
    const char *val = NULL;
    return topo_env_var(&val) && hwloc_topology_is_thissystem(t->hw) &&
           !topo_env_is("HWLOC_THISSYSTEM", "1");
}

/* From this machine (path and buf NULL), an XML file, or an XML buffer named `name`. */
static int topo_load(const char *path, const char *buf, int len, const char *name,
                     struct hb_topo **out)
{
    int rc = 0;
    *out = NULL;
    struct hb_topo *t = calloc(1, sizeof(*t));
    if (!t) {
        hb_error_set("out of memory loading the topology");
        return -ENOMEM;
    }
    if (hwloc_topology_init(&t->hw) < 0) {
        int err = errno;
        hb_error_set("hwloc cannot start a topology: %s", strerror(err));
        rc = err ? -err : -ENOMEM;
        goto fail;
    }
    /* Decided by where it came from, not by HWLOC_THISSYSTEM: an XML file is never bound. */
    t->is_this_system = !path && !buf;
    t->source = strdup(path ? path : buf ? name : "this machine");
    if (!t->source) {
        hb_error_set("out of memory loading the topology");
        rc = -ENOMEM;
        goto fail;
    }
    /* Memory-side caches (HBM cache mode, Optane memory mode) are dropped by default. */
    hwloc_topology_set_type_filter(t->hw, HWLOC_OBJ_MEMCACHE, HWLOC_TYPE_FILTER_KEEP_ALL);
    /* NICs and the PCI path to them (hwloc keeps no I/O by default): which node a NIC hangs
     * from decides where a message-passing rank should sit. */
    hwloc_topology_set_io_types_filter(t->hw, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    /* Linux's sysfs backend finds the PCI tree and the NICs by itself; the pci component
     * would add libpciaccess, which scans config space and leaks when hwloc unloads it. */
    hwloc_topology_set_components(t->hw, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "pci");
    if (path) {
        rc = topo_load_xml(t, path);
        if (rc < 0) goto fail;
    } else if (buf) {
        if (hwloc_topology_set_xmlbuffer(t->hw, buf, len) < 0 || hwloc_topology_load(t->hw) < 0) {
            hb_error_set("hwloc cannot read the topology of %s: %s", name, strerror(errno));
            rc = -EINVAL;
            goto fail;
        }
    } else if (hwloc_topology_load(t->hw) < 0) {
        int err = errno;
        const char *val = NULL, *var = topo_env_var(&val);
        if (var)
            hb_error_set("hwloc cannot load %s=%s: %s; unset it, or %s", var, val, strerror(err),
                         topo_env_advice(var, val));
        else
            hb_error_set("hwloc cannot read the topology of this machine: %s", strerror(err));
        rc = err ? -err : -ENODEV;
        goto fail;
    } else if (topo_env_fell_back(t)) {
        /* hwloc falls back to this machine without a word when what a variable names does
         * not load (what it loads is "not this system" unless HWLOC_THISSYSTEM=1 says so). */
        const char *val = NULL, *var = topo_env_var(&val);
        hb_error_set("hwloc cannot load %s=%s (it fell back to this machine); unset it, or %s", var,
                     val, topo_env_advice(var, val));
        rc = -EINVAL;
        goto fail;
    } else if (!hwloc_topology_is_thissystem(t->hw)) {
        /* hwloc's own variables (HWLOC_XMLFILE, HWLOC_SYNTHETIC, HWLOC_FSROOT) can load
         * another machine in place of this one; only HWLOC_THISSYSTEM=1 says it is this one. */
        rc = topo_env_source(t);
        if (rc < 0) goto fail;
    }
    rc = hb_topo_nodes_read(t);
    if (rc < 0) goto fail;
    rc = hb_topo_distances_read(t);
    if (rc < 0) goto fail;
    *out = t;
    return 0;
fail:
    hb_topo_load_free(t);
    return rc;
}

int hb_topo_load(const char *xml_path, struct hb_topo **out)
{
    return topo_load(xml_path, NULL, 0, NULL, out);
}

int hb_topo_load_xmlbuffer(const char *buf, int len, const char *name, struct hb_topo **out)
{
    return topo_load(NULL, buf, len, name, out);
}

void hb_topo_load_free(struct hb_topo *t)
{
    if (!t) return;
    free(t->source);
    for (int i = 0; i < t->nnodes; i++)
        free(t->nodes[i].cpus);
    free(t->nodes);
    free(t->distances);
    free(t->hop_class);
    if (t->hw) hwloc_topology_destroy(t->hw);
    free(t);
}
