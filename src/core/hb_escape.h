/* Strings from result files, scenarios and the command line are data: every context they
 * are written to gets them escaped, so no byte can end a line, a cell or a tag early. */
#ifndef HB_ESCAPE_H
#define HB_ESCAPE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* One line of text: control bytes (and DEL) as \n, \r, \t or \xNN; the rest as is. */
void hb_escape_line(FILE *f, const char *s);

/* The same into dst (always terminated, cut to len - 1 bytes at a whole escape). */
void hb_escape_line_str(char *dst, size_t len, const char *s);

/* A CSV field (RFC 4180): quoted, with quotes doubled, when it holds a comma, quote, CR, LF
 * or leading/trailing space; control bytes other than CR/LF escaped as in hb_escape_line. */
void hb_escape_csv(FILE *f, const char *s);

/* HTML text or a double- or single-quoted attribute value: & < > " ' as entities, control
 * bytes other than tab and newline as U+FFFD (they are not allowed in HTML). */
void hb_escape_html(FILE *f, const char *s);

/* One argument as a word a POSIX shell (bash) reads back as the same bytes: a plain word
 * (letters, digits and -_./:=@%+, only; not empty; as the `first` word, no '=', which would
 * be an assignment, nor a reserved word such as `if`) as it is; one holding a control character
 * (C0, DEL, C1) or bytes that are not valid UTF-8 as bash's $'...' with \xNN for those bytes,
 * \\ and \'; any other in single quotes with ' as '\''. What it writes is valid UTF-8 either way.
 */
void hb_escape_sh_word(FILE *f, const char *s, bool first);

/* argv as one shell-quoted line (hb_escape_sh_word, separated by one space) that re-runs it with
 * the same argv, malloc'd; *args (may be NULL): in that line, the space that ends argv[0]'s word,
 * NULL when there are no arguments. NULL when out of memory. */
char *hb_escape_sh_line(int argc, char *const *argv, const char **args);

/* A deep copy of v with every string (keys too) escaped as by hb_escape_line, or NULL when
 * out of memory. */
json_t *hb_escape_json_lines(const json_t *v);

#endif
