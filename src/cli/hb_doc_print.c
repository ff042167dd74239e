/* --help, hopbench(1) and the bash completion, each printed from the tables of hb_cli_doc.c. */
#include "hb_cli_doc.h"
#include "hb_args.h"
#include "hb_option_values.h"
#include "hb_version.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HB_DOC_WIDTH 79

/* Words of text from column col, wrapped at HB_DOC_WIDTH with continuation lines indented
 * to indent; a word longer than the line is printed whole. */
static void doc_wrap(FILE *f, int col, int indent, const char *text)
{
    const char *p = text;
    while (*p) {
        size_t len = strcspn(p, " ");
        if (col > indent && col + 1 + (int)len > HB_DOC_WIDTH) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', f);
            col++;
        }
        fprintf(f, "%.*s", (int)len, p);
        col += (int)len;
        p += len;
        while (*p == ' ')
            p++;
    }
    fputc('\n', f);
}

/* text with "{datadir}" and "{docdir}" replaced by dirs' (to free); NULL when out of memory. */
static char *doc_text(const char *text, const struct hb_doc_dirs *dirs)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f) return NULL;
    for (const char *p = text; *p;) {
        if (strncmp(p, "{datadir}", 9) == 0) {
            fputs(dirs->data, f);
            p += 9;
        } else if (strncmp(p, "{docdir}", 8) == 0) {
            fputs(dirs->doc, f);
            p += 8;
        } else {
            fputc(*p++, f);
        }
    }
    if (fclose(f) != 0) {
        free(out);
        return NULL;
    }
    return out;
}

/* A command's help as people read it (to free; NULL when out of memory): its text with the
 * directories in, and what a study between memory nodes needs (hb_suite.c refuses less). */
static char *cmd_help_text(const struct hb_cmd_doc *c, const struct hb_doc_dirs *dirs)
{
    char *help = doc_text(c->help, dirs), *text = NULL;
    if (!help || c->needs_mem_nodes <= 1) return help;
    if (asprintf(&text,
                 "%s; needs %d or more NUMA nodes with memory (it %s): a machine with fewer "
                 "is refused (exit 3)",
                 help, c->needs_mem_nodes, c->needs_why) < 0)
        text = NULL;
    free(help);
    return text;
}

/* The options command c takes, in the order its help lists them: those its own parser reads
 * (c->opts), or the run's option table's that it takes; never --help and --version. */
static bool doc_next_opt(const struct hb_cmd_doc *c, const struct hb_opt_doc **at)
{
    const struct hb_opt_doc *o = *at ? *at + 1 : (c->opts ? c->opts : hb_opt_docs);
    for (; o->name; o++)
        if (c->opts || (hb_cli_doc_takes(c, o->id) && o->id != OPT_HELP && o->id != OPT_VERSION)) {
            *at = o;
            return true;
        }
    return false;
}

/* The man page's word on what c takes: "Takes --a --b -o and the run options" (to free);
 * NULL when out of memory. */
static char *doc_cmd_help(const struct hb_cmd_doc *c, const struct hb_doc_dirs *dirs)
{
    char *own = NULL, *text = NULL, *drops = hb_cli_doc_drops_list(c),
         *help = cmd_help_text(c, dirs);
    size_t len = 0;
    FILE *f = open_memstream(&own, &len);
    if (!f || !help) {
        if (f) fclose(f);
        free(own);
        free(help);
        free(drops);
        return NULL;
    }
    struct hb_cmd_doc own_only = {.takes = c->takes, .opts = c->opts};
    const char *sep = "";
    for (const struct hb_opt_doc *o = NULL; doc_next_opt(&own_only, &o); sep = " ")
        fprintf(f, "%s%s%s", sep, o->short_name == 'o' ? "-" : "--",
                o->short_name == 'o' ? "o" : o->name);
    if (fclose(f) != 0 ||
        asprintf(&text, "%s. Takes %s%s%s%s", help, own, c->runs ? " and the run options" : "",
                 drops ? " except " : "", drops ? drops : "") < 0)
        text = NULL;
    free(own);
    free(help);
    free(drops);
    return text;
}

static void doc_item(FILE *f, const char *head, int indent, const char *text)
{
    int col = fprintf(f, "  %s", head);
    if (col + 2 > indent) {
        fputc('\n', f);
        col = 0;
    }
    fprintf(f, "%*s", indent - col, "");
    doc_wrap(f, indent, indent, text);
}

/* The values an option takes, from the parser's own table, or NULL. */
static const char *const *doc_values(const struct hb_opt_doc *o, const struct hb_doc_kernels *k)
{
    return o->complete == HB_COMPLETE_WORDS  ? o->words
           : o->complete == HB_COMPLETE_SIMD ? k->simd
                                             : NULL;
}

/* An option's help with its values in place of "{values}" ("a | b | c"); free it. NULL when
 * out of memory. */
static char *doc_opt_help(const struct hb_opt_doc *o, const struct hb_doc_kernels *k)
{
    const char *const *values = doc_values(o, k);
    const char *mark = values ? strstr(o->help, "{values}") : NULL;
    if (!mark) return strdup(o->help);
    char *list = hb_option_values_names_join(values, " | "), *text = NULL;
    if (list && asprintf(&text, "%.*s%s%s", (int)(mark - o->help), o->help, list,
                         mark + strlen("{values}")) < 0)
        text = NULL;
    free(list);
    return text;
}

static void doc_opt_head(char *dst, size_t len, const struct hb_opt_doc *o)
{
    char shortname[8] = "";
    if (o->short_name) snprintf(shortname, sizeof(shortname), "-%c, ", o->short_name);
    snprintf(dst, len, "%s--%s%s%s", shortname, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

static void doc_terms(FILE *f, const char *title, const struct hb_term_doc *t, const char *prefix)
{
    fprintf(f, "\n%s:\n", title);
    for (; t->term; t++) {
        char head[256];
        snprintf(head, sizeof(head), "%s%s%s", prefix ? prefix : "", prefix ? "/" : "", t->term);
        doc_item(f, head, 21, t->help);
    }
}

/* Option o's help as command c's help says it (to free): with its values, and for --kernel the
 * kernels c runs without it. NULL when out of memory. */
static char *doc_cmd_opt_help(const struct hb_doc_kernels *k, const struct hb_cmd_doc *c,
                              const struct hb_opt_doc *o)
{
    char *help = doc_opt_help(o, k), *text = NULL;
    if (!help || o->id != OPT_KERNEL || !c->kernels) return help;
    if (asprintf(&text, "%s (default: %s)", help, c->kernels) < 0) text = NULL;
    free(help);
    return text;
}

/* One option's line of c's help: its head, then its help. */
static void doc_option(FILE *f, const struct hb_doc_kernels *k, const struct hb_cmd_doc *c,
                       const struct hb_opt_doc *o)
{
    char head[256];
    doc_opt_head(head, sizeof(head), o);
    char *help = doc_cmd_opt_help(k, c, o);
    doc_item(f, head, 21, help ? help : "(out of memory)");
    free(help);
}

/* The examples of command name ("" the default suite); all of them when name is NULL. */
static void doc_examples(FILE *f, const char *name, const struct hb_doc_dirs *dirs)
{
    fputs("\nexamples:\n", f);
    for (const struct hb_example_doc *e = hb_cli_doc_examples; e->command; e++) {
        if (name && strcmp(e->command, name) != 0) continue;
        char *line = doc_text(e->line, dirs);
        doc_item(f, line ? line : e->line, 21, e->help);
        free(line);
    }
}

/* Whether the installed files are where dirs says: not for a binary run from its build tree. */
static bool doc_installed(const struct hb_doc_dirs *dirs)
{
    char *share = NULL;
    bool there = asprintf(&share, "%s/hopbench", dirs->data) >= 0 && access(share, F_OK) == 0;
    free(share);
    return there;
}

/* What a help that names installed files adds when they are not there. */
#define HB_DOC_NOT_INSTALLED                                                                       \
    "not installed here: this hopbench runs from its build tree; `cmake --install` puts them "     \
    "there"

/* Whether command name's help or examples name an installed file. */
static bool doc_names_files(const struct hb_cmd_doc *c)
{
    bool names = strchr(c->help, '{') != NULL;
    for (const struct hb_example_doc *e = hb_cli_doc_examples; e->command; e++)
        names |= strcmp(e->command, c->name) == 0 && strchr(e->line, '{');
    return names;
}

static void doc_files(FILE *f, const struct hb_doc_dirs *dirs)
{
    doc_terms(f, doc_installed(dirs) ? "files" : "files (" HB_DOC_NOT_INSTALLED ")",
              hb_cli_doc_files, dirs->data);
}

void hb_doc_print_command_help(FILE *f, const struct hb_doc_kernels *k, const struct hb_cmd_doc *c,
                               const struct hb_doc_dirs *dirs)
{
    char *usage = hb_args_usage_line(c->name, c->args), *help = cmd_help_text(c, dirs);
    fprintf(f, "%s\n", usage ? usage : "usage: hopbench");
    if (c->runs)
        fprintf(f, "       mpirun -np <nodes> --map-by numa --bind-to numa %s\n",
                usage ? usage + strlen("usage: ") : "hopbench");
    fputc('\n', f);
    doc_wrap(f, 0, 0, help ? help : c->help);
    free(usage);
    free(help);
    /* A suite's own options, then the run options it takes (-o among them); the others'. */
    struct hb_cmd_doc own = *c;
    own.runs = false;
    bool any = false;
    for (const struct hb_opt_doc *o = NULL; doc_next_opt(&own, &o);) {
        if (c->runs && o->id == 'o') continue;
        if (!any) fputs("\noptions:\n", f);
        any = true;
        doc_option(f, k, c, o);
    }
    if (c->runs) {
        fputs("\nrun options (every suite's):\n", f);
        for (const struct hb_opt_doc *o = NULL; doc_next_opt(c, &o);)
            if (!hb_cli_doc_takes(&own, o->id) || o->id == 'o') doc_option(f, k, c, o);
    }
    if (hb_cli_doc_takes(c, OPT_KERNEL)) {
        fputs("\nkernels:\n  ", f);
        doc_wrap(f, 2, 2, HB_DOC_BYTES_RULE);
        k->help(f);
    }
    doc_examples(f, c->name, dirs);
    if (doc_names_files(c) && !doc_installed(dirs)) {
        fputc('\n', f);
        doc_wrap(f, 0, 0, "The files named above are " HB_DOC_NOT_INSTALLED ".");
    }
    fputs("\nEvery command: hopbench help. The whole manual: man hopbench.\n", f);
}

void hb_doc_print_help(FILE *f, const struct hb_doc_kernels *k, const struct hb_doc_dirs *dirs)
{
    fprintf(f, "usage: hopbench [COMMAND] [OPTIONS]\n"
               "       mpirun -np <nodes> --map-by numa --bind-to numa hopbench [COMMAND] ...\n"
               "       hopbench help [COMMAND]\n\n");
    doc_wrap(f, 0, 0,
             "hopbench help COMMAND, or hopbench COMMAND --help: the command's usage, its "
             "options with their defaults, and an example (hopbench help default: the "
             "default suite's). The whole manual: man hopbench.");
    fputs("\ncommands:\n", f);
    struct hb_cmd_doc cmd;
    for (size_t i = 0; hb_cli_doc_command_at(i, &cmd); i++) {
        const struct hb_cmd_doc *c = &cmd;
        char head[256];
        snprintf(head, sizeof(head), "%s%s%s", c->name[0] ? c->name : "(none)", c->args ? " " : "",
                 c->args ? c->args : "");
        char *help = cmd_help_text(c, dirs);
        doc_item(f, head, 11, help ? help : c->help);
        free(help);
    }
    /* The run options: every suite's (each command's own: hopbench help COMMAND). */
    fputs("\noptions:\n", f);
    struct hb_cmd_doc run = {.takes = hb_cli_doc_run_takes};
    for (const struct hb_opt_doc *o = hb_opt_docs; o->name; o++)
        if (hb_cli_doc_takes(&run, o->id)) doc_option(f, k, &run, o);
    fprintf(f, "\nkernels:\n");
    fputs("  ", f);
    doc_wrap(f, 2, 2, HB_DOC_BYTES_RULE);
    k->help(f);
    doc_terms(f, "exit codes", hb_cli_doc_exits, NULL);
    doc_files(f, dirs);
}

/* One Markdown item per option c takes, in the option table's order: -o only when with_o
 * (the suites have it among the run options), never --help and --version. */
static void md_options(FILE *f, const struct hb_doc_kernels *k, const struct hb_cmd_doc *c,
                       bool with_o)
{
    for (const struct hb_opt_doc *o = NULL; doc_next_opt(c, &o);) {
        if (o->id == 'o' && !with_o) continue;
        char head[256];
        doc_opt_head(head, sizeof(head), o);
        char *help = doc_cmd_opt_help(k, c, o);
        fprintf(f, "- `%s`: %s\n", head, help ? help : "(out of memory)");
        free(help);
    }
}

int hb_doc_print_markdown(FILE *f, const struct hb_doc_kernels *k, const char *command)
{
    struct hb_cmd_doc c;
    if (strcmp(command, "run-options") == 0) {
        struct hb_cmd_doc run = {.takes = hb_cli_doc_run_takes};
        md_options(f, k, &run, true);
        return 0;
    }
    if (!hb_cli_doc_command_find(strcmp(command, "default") == 0 ? "" : command, &c)) return -1;
    /* The pages are for any installation: its directories by their roles. */
    static const struct hb_doc_dirs dirs = {"DATADIR", "DOCDIR"};
    char *help = cmd_help_text(&c, &dirs);
    fprintf(f, "`hopbench%s%s%s%s`: %s.\n\n", c.name[0] ? " " : "", c.name, c.args ? " " : "",
            c.args ? c.args : "", help ? help : c.help);
    free(help);
    if (c.opts) {
        md_options(f, k, &c, true);
        return 0;
    }
    /* The suites' run options are listed once, under their own heading. */
    struct hb_cmd_doc own = {.takes = c.takes, .kernels = c.kernels};
    char *list = hb_cli_doc_takes_list(&own);
    if (list && !*list && c.runs)
        fputs("Only the [run options](#run-options).\n", f);
    else
        md_options(f, k, &own, !c.runs);
    char *drops = hb_cli_doc_drops_list(&c);
    if (list && *list && c.runs)
        fprintf(f, "\nAnd the [run options](#run-options)%s%s%s.\n", drops ? " except `" : "",
                drops ? drops : "", drops ? "`" : "");
    free(drops);
    free(list);
    return 0;
}

/* Text as roff: backslashes and minus signs escaped, a leading dot or quote neutralised. */
static void roff_text(FILE *f, const char *text)
{
    if (*text == '.' || *text == '\'') fputs("\\&", f);
    for (const char *p = text; *p; p++) {
        if (*p == '\\')
            fputs("\\e", f);
        else if (*p == '-')
            fputs("\\-", f);
        else
            fputc(*p, f);
    }
}

static void roff_terms(FILE *f, const char *title, const struct hb_term_doc *t, const char *prefix,
                       const char *font)
{
    fprintf(f, ".SH %s\n", title);
    for (; t->term; t++) {
        fprintf(f, ".TP\n\\f%s", font);
        if (prefix) {
            roff_text(f, prefix);
            fputc('/', f);
        }
        roff_text(f, t->term);
        fputs("\\fR\n", f);
        roff_text(f, t->help);
        fputc('\n', f);
    }
}

/* One tagged paragraph per kernel line of --help: the name, then the rest of the line. */
static void roff_kernels(FILE *f, const struct hb_doc_kernels *k)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) return;
    k->help(mem);
    fclose(mem);
    fputs(".SH KERNELS\n", f);
    roff_text(f, HB_DOC_BYTES_RULE);
    fputc('\n', f);
    for (char *line = buf, *nl; line && *line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        line += strspn(line, " ");
        size_t name = strcspn(line, " ");
        char *rest = line + name + strspn(line + name, " ");
        fprintf(f, ".TP\n\\fB%.*s\\fR\n", (int)name, line);
        roff_text(f, rest);
        fputc('\n', f);
    }
    free(buf);
}

/* The rest of a tag: its operand in italics (when there is one), then the paragraph. */
static void roff_tail(FILE *f, const char *arg, const char *help)
{
    if (arg) {
        fputs(" \\fI", f);
        roff_text(f, arg);
        fputs("\\fR", f);
    }
    fputc('\n', f);
    roff_text(f, help);
    fputc('\n', f);
}

/* An option's tagged paragraph: -o, --name VALUE, then its help with its values. */
static void roff_option(FILE *f, const struct hb_doc_kernels *k, const struct hb_opt_doc *o)
{
    fputs(".TP\n", f);
    if (o->short_name) fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
    fputs("\\fB\\-\\-", f);
    roff_text(f, o->name);
    fputs("\\fR", f);
    char *help = doc_opt_help(o, k);
    roff_tail(f, o->arg, help ? help : "(out of memory)");
    free(help);
}

/* "Taken by: bw, lat." under an option that is not a run option, from the commands' tables. */
static void roff_takers(FILE *f, const struct hb_opt_doc *o)
{
    struct hb_cmd_doc run = {.takes = hb_cli_doc_run_takes}, c;
    if (hb_cli_doc_takes(&run, o->id)) return;
    const char *sep = ".br\nTaken by: ";
    for (size_t i = 0; hb_cli_doc_command_at(i, &c); i++)
        if (hb_cli_doc_takes(&c, o->id)) {
            fprintf(f, "%s%s", sep, c.name[0] ? c.name : "the default suite");
            sep = ", ";
        }
    fputs(".\n", f);
}

void hb_doc_print_man(FILE *f, const struct hb_doc_kernels *k, const struct hb_doc_dirs *dirs)
{
    fprintf(f,
            ".\\\" Generated from hopbench's command-line tables (src/cli/hb_cli_doc.c).\n"
            ".TH HOPBENCH 1 \"\" \"hopbench %s\" \"User Commands\"\n"
            ".SH NAME\nhopbench \\- NUMA memory latency and bandwidth, node by node\n"
            ".SH SYNOPSIS\n.B hopbench\n[\\fICOMMAND\\fR] [\\fIOPTIONS\\fR]\n.br\n"
            ".B mpirun\n\\-np \\fInodes\\fR \\-\\-map\\-by numa \\-\\-bind\\-to numa\n"
            ".B hopbench\n[\\fICOMMAND\\fR] [\\fIOPTIONS\\fR]\n.br\n"
            ".B hopbench help\n[\\fICOMMAND\\fR]\n"
            ".SH DESCRIPTION\n"
            "hopbench measures what memory placement costs on NUMA machines: latency and\n"
            "bandwidth between every CPU node and every memory node, under load, against\n"
            "the firmware's distances. Run one MPI rank per NUMA node; each rank drives\n"
            "OpenMP threads bound inside its node. Every result is a JSON Lines record\n"
            "that says where its threads ran and where its pages were.\n",
            HB_VERSION);
    fputs(".SH COMMANDS\n", f);
    struct hb_cmd_doc cmd;
    for (size_t i = 0; hb_cli_doc_command_at(i, &cmd); i++) {
        const struct hb_cmd_doc *c = &cmd;
        fputs(".TP\n", f);
        if (c->name[0])
            fprintf(f, "\\fB%s\\fR", c->name);
        else
            fputs("(none)", f);
        char *help = doc_cmd_help(c, dirs);
        roff_tail(f, c->args, help ? help : c->help);
        free(help);
        /* A command that reads its own arguments: its options, under it. */
        if (!c->opts) continue;
        fputs(".RS\n", f);
        for (const struct hb_opt_doc *o = c->opts; o->name; o++)
            roff_option(f, k, o);
        fputs(".RE\n", f);
    }
    struct hb_cmd_doc run = {.takes = hb_cli_doc_run_takes};
    char *list = hb_cli_doc_takes_list(&run);
    fputs(".TP\nrun options\ntaken by every suite: ", f);
    roff_text(f, list ? list : "");
    fputs(" \\-o\n", f);
    free(list);
    fputs(".SH OPTIONS\n", f);
    for (const struct hb_opt_doc *o = hb_opt_docs; o->name; o++) {
        roff_option(f, k, o);
        roff_takers(f, o);
    }
    roff_kernels(f, k);
    roff_terms(f, "EXIT STATUS", hb_cli_doc_exits, NULL, "B");
    roff_terms(f, "ENVIRONMENT", hb_cli_doc_env, NULL, "B");
    fputs(".SH EXAMPLES\n", f);
    for (const struct hb_example_doc *e = hb_cli_doc_examples; e->command; e++) {
        char *line = doc_text(e->line, dirs);
        fputs(".TP\n\\fB", f);
        roff_text(f, line ? line : e->line);
        fputs("\\fR\n", f);
        roff_text(f, e->help);
        fputc('\n', f);
        free(line);
    }
    roff_terms(f, "FILES", hb_cli_doc_files, dirs->data, "I");
    fputs(".SH \"SEE ALSO\"\n\\fBmpirun\\fR(1), \\fBlstopo\\fR(1), \\fBnumactl\\fR(8)\n", f);
}

/* names as one space-separated word list (commas become spaces). */
static void bash_words(FILE *f, const char *names)
{
    for (const char *p = names; *p; p++)
        fputc(*p == ',' ? ' ' : *p, f);
}

/* The commands' names (the default suite has none), sep between them. */
static void bash_commands(FILE *f, const char *sep)
{
    struct hb_cmd_doc c;
    const char *s = "";
    for (size_t i = 0; hb_cli_doc_command_at(i, &c); i++) {
        if (!c.name[0]) continue;
        fprintf(f, "%s%s", s, c.name);
        s = sep;
    }
}

/* The case of the completion that completes option o's value (none for a flag). */
static void bash_value(FILE *f, const struct hb_doc_kernels *k, const struct hb_opt_doc *o)
{
    if (!o->arg) return;
    fputs("    ", f);
    if (o->short_name) fprintf(f, "-%c|", o->short_name);
    fprintf(f, "--%s)\n        ", o->name);
    switch (o->complete) {
    case HB_COMPLETE_FILE:
        fputs("mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")", f);
        break;
    case HB_COMPLETE_KERNELS:
        fputs("_hopbench_words \"", f);
        bash_words(f, k->names);
        fputs("\" \"$cur\"", f);
        break;
    case HB_COMPLETE_WORDS:
    case HB_COMPLETE_SIMD: {
        char *words = hb_option_values_names_join(doc_values(o, k), " ");
        fprintf(f, "_hopbench_words \"%s\" \"$cur\"", words ? words : "");
        free(words);
        break;
    }
    case HB_COMPLETE_NONE:
        fputs(":", f);
        break;
    }
    fputs("\n        return ;;\n", f);
}

/* Whether an option of the run's table, or of a command before c, has o's name already. */
static bool bash_named_before(const struct hb_cmd_doc *c, const struct hb_opt_doc *o)
{
    for (const struct hb_opt_doc *g = hb_opt_docs; g->name; g++)
        if (strcmp(g->name, o->name) == 0) return true;
    for (const struct hb_cmd_doc *b = hb_cli_doc_commands; b != c; b++)
        for (const struct hb_opt_doc *p = b->opts; p && p->name; p++)
            if (strcmp(p->name, o->name) == 0) return true;
    return false;
}

void hb_doc_print_bash(FILE *f, const struct hb_doc_kernels *k)
{
    fputs("# bash completion for hopbench, generated from its command-line tables\n"
          "# (src/cli/hb_cli_doc.c); lists of values complete after each comma.\n"
          "_hopbench_words() {\n"
          "    local head=\"\" item=$2\n"
          "    case $item in *,*) head=${item%,*},; item=${item##*,} ;; esac\n"
          "    mapfile -t COMPREPLY < <(compgen -P \"$head\" -W \"$1\" -- \"$item\")\n"
          "}\n"
          "_hopbench() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} w\n"
          "    COMPREPLY=()\n"
          "    case $prev in\n",
          f);
    for (const struct hb_opt_doc *o = hb_opt_docs; o->name; o++)
        bash_value(f, k, o);
    /* The commands' own options whose name no earlier row has. */
    for (const struct hb_cmd_doc *c = hb_cli_doc_commands; c->name; c++)
        for (const struct hb_opt_doc *o = c->opts; o && o->name; o++)
            if (!bash_named_before(c, o)) bash_value(f, k, o);
    /* Options: those of the command on the line; the default suite's when none is. */
    fputs("    esac\n    if [[ $cur == -* ]]; then\n        case \" "
          "${COMP_WORDS[*]:1:COMP_CWORD-1} \" "
          "in\n",
          f);
    struct hb_cmd_doc c;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; hb_cli_doc_command_at(i, &c); i++) {
            if ((pass == 0) != (c.name[0] != '\0')) continue;
            if (pass == 0)
                fprintf(f, "        *\" %s \"*)\n", c.name);
            else
                fputs("        *)\n", f);
            /* What its help lists, and --help (the suites': --version too). */
            fputs("            _hopbench_words \"--help", f);
            for (const struct hb_opt_doc *o = NULL; doc_next_opt(&c, &o);)
                fprintf(f, " %s--%s", o->short_name == 'o' ? "-o " : "", o->name);
            if (!c.opts) fputs(" --version", f);
            fputs("\" \"$cur\"\n            return ;;\n", f);
        }
    fputs("        esac\n    fi\n"
          "    for w in \"${COMP_WORDS[@]:1:COMP_CWORD-1}\"; do\n        case $w in\n"
          "        help)\n            _hopbench_words \"default ",
          f);
    bash_commands(f, " ");
    fputs("\" \"$cur\"\n            return ;;\n        ", f);
    bash_commands(f, "|");
    fputs(")\n            mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
          "            return ;;\n        esac\n    done\n    _hopbench_words \"help ",
          f);
    bash_commands(f, " ");
    fputs("\" \"$cur\"\n}\ncomplete -F _hopbench hopbench\n", f);
}
