/* The argument reader of report, compare and export (hb_args.h): getopt_long over the option
 * tables of their rows in hb_cli_doc.c, which their help lists, with `--` honoured and the
 * offending word named. */
#include "hb_args.h"

#include "hb_error.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *hb_args_refused(char **argv, bool missing_value, char short_buf[3])
{
    const char *word = argv[optind > 0 ? optind - 1 : 0];
    if (missing_value && strncmp(word, "--", 2) == 0) return word;
    if (optopt > 0 && optopt < 256) {
        short_buf[0] = '-';
        short_buf[1] = (char)optopt;
        short_buf[2] = '\0';
        return short_buf;
    }
    return word;
}

char *hb_args_usage_line(const char *cmd, const char *operands)
{
    char *text = NULL;
    if (asprintf(&text, "usage: hopbench%s%s%s%s [OPTIONS]", cmd[0] ? " " : "", cmd,
                 operands ? " " : "", operands ? operands : "") < 0)
        return NULL;
    return text;
}

const char *hb_args_usage(const char *cmd, const char *operands)
{
    static char text[512];
    char *usage = hb_args_usage_line(cmd, operands);
    snprintf(text, sizeof(text), "%s (see hopbench %s --help)", usage ? usage : "usage:", cmd);
    free(usage);
    return text;
}

/* The place of option row o, by its name; NULL when the command's reader has none. */
static const struct hb_arg *args_place(const struct hb_arg *places, const struct hb_opt_doc *o)
{
    for (; places->name; places++)
        if (strcmp(places->name, o->name) == 0) return places;
    return NULL;
}

/* One option's value stored at its place: 0, or -EINVAL when given twice. */
static int args_store(const char *cmd, const struct hb_opt_doc *o, const struct hb_arg *at,
                      const char *v)
{
    if (at->list) {
        at->list[(*at->nlist)++] = v;
        return 0;
    }
    if (!*at->value) {
        *at->value = v;
        return 0;
    }
    if (!o->arg)
        hb_error_set("%s: --%s given twice; give it once", cmd, o->name);
    else
        hb_error_set("%s: --%s given twice ('%s', then '%s'); give it once", cmd, o->name,
                     *at->value, v);
    return -EINVAL;
}

int hb_args_parse(int argc, char **argv, const char *operands, const struct hb_opt_doc *opts,
                  const struct hb_arg *places, const char **out, int *n)
{
    const char *cmd = argv[0];
    size_t nopts = 0;
    while (opts[nopts].name)
        nopts++;
    struct option *longopts = calloc(nopts + 1, sizeof(*longopts));
    char *shorts = calloc(2 * nopts + 3, 1); /* "+:" would stop at operands: "-:" keeps them */
    if (!longopts || !shorts) {
        free(longopts);
        free(shorts);
        hb_error_set("%s: out of memory reading %d arguments", cmd, argc);
        return -ENOMEM;
    }
    char *p = shorts;
    *p++ = '-'; /* operands in order, as option 1 */
    *p++ = ':';
    for (size_t i = 0; i < nopts; i++) {
        const struct hb_opt_doc *o = &opts[i];
        longopts[i] =
            (struct option){o->name, o->arg ? required_argument : no_argument, NULL, (int)i + 256};
        if (o->short_name) {
            *p++ = o->short_name;
            if (o->arg) *p++ = ':';
        }
    }
    int rc = 0;
    *n = 0;
    for (const struct hb_arg *at = places; at->name; at++)
        if (at->list) *at->nlist = 0;
    optind = 1;
    opterr = 0;
    for (int ch; rc == 0 && (ch = getopt_long(argc, argv, shorts, longopts, NULL)) != -1;) {
        if (ch == 1) {
            out[(*n)++] = optarg;
            continue;
        }
        if (ch == '?' || ch == ':') {
            char shortname[3];
            const char *what = hb_args_refused(argv, ch == ':', shortname);
            hb_error_set(ch == '?' ? "%s: unknown option '%s'; %s" : "%s: %s needs a value; %s",
                         cmd, what, hb_args_usage(cmd, operands));
            rc = -EINVAL;
            continue;
        }
        for (size_t i = 0; rc == 0 && i < nopts; i++) {
            const struct hb_opt_doc *o = &opts[i];
            if (ch != (int)i + 256 && !(o->short_name && ch == o->short_name)) continue;
            const struct hb_arg *at = args_place(places, o);
            if (!at) {
                hb_error_set("%s: --%s has no reader in this build", cmd, o->name);
                rc = -EINVAL;
            } else {
                rc = args_store(cmd, o, at, o->arg ? optarg : "");
            }
        }
    }
    /* After "--" everything is an operand, a name that starts with '-' too. */
    while (rc == 0 && optind < argc)
        out[(*n)++] = argv[optind++];
    free(longopts);
    free(shorts);
    return rc;
}
