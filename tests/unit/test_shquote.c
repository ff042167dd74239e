/* Shell words for the run record's command_line: plain words as they are, single quotes for
 * the rest, bash's $'...' for control characters and bytes that are not UTF-8, and the line
 * JSON can always hold. tests/cli/command-line.sh reads such a line back with bash. */
#include "../hb_check.h"
#include "hb_escape.h"

#include <jansson.h>
#include <stdlib.h>

static void word(const char *arg, bool first, const char *want)
{
    char *got = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&got, &len);
    if (!f) exit(1);
    hb_escape_sh_word(f, arg, first);
    fclose(f);
    CHECK_STR(got, want);
    /* Whatever the argument, the word is UTF-8: jansson takes it. */
    json_t *j = json_string(got);
    CHECK(j != NULL);
    json_decref(j);
    free(got);
}

/* A line for a terminal: control bytes and bidirectional controls escaped, the rest kept. */
static void line(const char *in, const char *want)
{
    char *got = NULL, small[64];
    size_t len = 0;
    FILE *f = open_memstream(&got, &len);
    if (!f) exit(1);
    hb_escape_line(f, in);
    fclose(f);
    CHECK_STR(got, want);
    hb_escape_line_str(small, sizeof(small), in);
    CHECK_STR(small, want);
    free(got);
}

int main(void)
{
    line("plain", "plain");
    line("a\nb\x01", "a\\nb\\x01");
    line("node\xe2\x80\xae"
         "0.0",
         "node\\u202e0.0"); /* RIGHT-TO-LEFT OVERRIDE */
    line("\xe2\x81\xa6"
         "x\xe2\x81\xa9",
         "\\u2066x\\u2069");                                                        /* isolates */
    line("\xd8\x9c\xe2\x80\x8f", "\\u061c\\u200f");                                 /* ALM, RLM */
    line("caf\xc3\xa9 \xe2\x80\x94 \xe2\x80", "caf\xc3\xa9 \xe2\x80\x94 \xe2\x80"); /* kept */
    word("bw", false, "bw");
    word("--size=1.5G", false, "--size=1.5G");
    word("0-3,8:x/y@z%+_", false, "0-3,8:x/y@z%+_");
    word("", false, "''");
    word("a b", false, "'a b'");
    word("it's", false, "'it'\\''s'");
    word("$(rm -rf x) * ? ~ ! { } [ ] ; & | < > # \" \\", false,
         "'$(rm -rf x) * ? ~ ! { } [ ] ; & | < > # \" \\'");
    /* The command word: an assignment or a reserved word would not be a command. */
    word("a=b", true, "'a=b'");
    word("a=b", false, "a=b");
    word("if", true, "'if'");
    word("if", false, "if");
    word("/usr/bin/hopbench", true, "/usr/bin/hopbench");
    /* Valid UTF-8 stays as it is, inside single quotes; U+00A0 is not a control. */
    word("é", false, "'é'");
    word("\xc2\xa0", false, "'\xc2\xa0'");
    word("\xf0\x9f\x98\x80", false, "'\xf0\x9f\x98\x80'");
    /* Control characters (C0, DEL, C1) and bytes that are not UTF-8: $'...' with \xNN, the
     * rest of the word as it is, \ and ' escaped. */
    word("r\xff.jsonl", false, "$'r\\xff.jsonl'");
    word("a\tb\nc\x7f", false, "$'a\\x09b\\x0ac\\x7f'");
    word("\xc2\x85", false, "$'\\xc2\\x85'");
    word("x'\\\xff é", false, "$'x\\'\\\\\\xff é'");
    word("\xc0\x80", false, "$'\\xc0\\x80'");                   /* overlong */
    word("\xed\xa0\x80", false, "$'\\xed\\xa0\\x80'");          /* a surrogate */
    word("\xf4\x90\x80\x80", false, "$'\\xf4\\x90\\x80\\x80'"); /* past U+10FFFF */
    word("\xe2\x82", false, "$'\\xe2\\x82'");                   /* cut short */
    word("\xe2\x82\xac", false, "'\xe2\x82\xac'");              /* the euro sign, whole */

    /* The line and where argv[0]'s word ends, a quoted space in it or not. */
    char *argv[] = {"my dir/hopbench", "bw", "-o", "a b", NULL};
    const char *args = NULL;
    char *line = hb_escape_sh_line(4, argv, &args);
    CHECK_STR(line, "'my dir/hopbench' bw -o 'a b'");
    CHECK(args != NULL && args == line + strlen("'my dir/hopbench'"));
    if (args) CHECK_STR(args, " bw -o 'a b'");
    free(line);
    line = hb_escape_sh_line(1, argv, &args);
    CHECK_STR(line, "'my dir/hopbench'");
    CHECK(args == NULL);
    free(line);
    return hb_check_result();
}
