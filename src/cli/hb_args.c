/* The argument reader of report, compare and export (hb_args.h): getopt_long over their own
 * small option tables, with `--` honoured and the offending word named. */
#include "hb_args.h"

#include "hb_error.h"

#include <errno.h>
#include <getopt.h>
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

int hb_args_parse(int argc, char **argv, const char *cmd, const char *usage,
                  const struct hb_arg *opts, const char **operands, int *n)
{
    size_t nopts = 0;
    while (opts[nopts].name)
        nopts++;
    struct option *longopts = calloc(nopts + 1, sizeof(*longopts));
    char *shorts = calloc(2 * nopts + 3, 1); /* "+:" would stop at operands: "-:" keeps them */
    if (!longopts || !shorts) {
        free(longopts);
        free(shorts);
        hb_err_set("%s: out of memory reading %d arguments", cmd, argc);
        return -ENOMEM;
    }
    char *p = shorts;
    *p++ = '-'; /* operands in order, as option 1 */
    *p++ = ':';
    for (size_t i = 0; i < nopts; i++) {
        longopts[i] = (struct option){opts[i].name, opts[i].flag ? no_argument : required_argument,
                                      NULL, (int)i + 256};
        if (opts[i].short_name) {
            *p++ = opts[i].short_name;
            if (!opts[i].flag) *p++ = ':';
        }
    }
    int rc = 0;
    *n = 0;
    for (size_t i = 0; i < nopts; i++)
        if (opts[i].list) *opts[i].nlist = 0;
    optind = 1;
    opterr = 0;
    for (int c; rc == 0 && (c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1;) {
        if (c == 1) {
            operands[(*n)++] = optarg;
            continue;
        }
        if (c == '?' || c == ':') {
            char shortname[3];
            const char *what = hb_args_refused(argv, c == ':', shortname);
            hb_err_set(c == '?' ? "%s: unknown option '%s'; %s" : "%s: %s needs a value; %s", cmd,
                       what, usage);
            rc = -EINVAL;
            continue;
        }
        for (size_t i = 0; rc == 0 && i < nopts; i++) {
            if (c != (int)i + 256 && !(opts[i].short_name && c == opts[i].short_name)) continue;
            const char *v = opts[i].flag ? "" : optarg;
            if (opts[i].list) {
                opts[i].list[(*opts[i].nlist)++] = v;
            } else if (*opts[i].value) {
                if (opts[i].flag)
                    hb_err_set("%s: --%s given twice; give it once", cmd, opts[i].name);
                else
                    hb_err_set("%s: --%s given twice ('%s', then '%s'); give it once", cmd,
                               opts[i].name, *opts[i].value, v);
                rc = -EINVAL;
            } else {
                *opts[i].value = v;
            }
        }
    }
    /* After "--" everything is an operand, a name that starts with '-' too. */
    while (rc == 0 && optind < argc)
        operands[(*n)++] = argv[optind++];
    free(longopts);
    free(shorts);
    return rc;
}
