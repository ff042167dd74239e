/* The report's contents: a list at the top of the page linking every section it holds, made
 * from the page itself (each <section id> and its <h2>), so that every link resolves. */
#include "hb_report_sections.h"

#include <stdbool.h>
#include <string.h>

/* The next "<section id=\"" in [p, end), or NULL. */
static const char *toc_next(const char *p, const char *end)
{
    static const char tag[] = "<section id=\"";
    const char *at = memmem(p, (size_t)(end - p), tag, sizeof(tag) - 1);
    return at ? at + sizeof(tag) - 1 : NULL;
}

/* The heading's text from h (after "<h2>") to its end, tags left out (it is HTML already). */
static void toc_title(FILE *f, const char *h, const char *end)
{
    bool tag = false;
    for (; h < end; h++) {
        if (*h == '<') tag = true;
        if (!tag) fputc(*h, f);
        if (*h == '>') tag = false;
    }
}

void hb_report_toc_write(FILE *f, const char *page, size_t len)
{
    const char *end = page + len, *first = toc_next(page, end);
    if (!first) {
        fwrite(page, 1, len, f);
        return;
    }
    first -= strlen("<section id=\"");
    fwrite(page, 1, (size_t)(first - page), f);
    fputs("<nav class=\"toc\" id=\"contents\"><h2>Contents</h2><ol>\n", f);
    for (const char *id = toc_next(first, end); id; id = toc_next(id, end)) {
        const char *q = memchr(id, '"', (size_t)(end - id));
        if (!q) break;
        const char *next = toc_next(q, end), *stop = next ? next : end;
        const char *h = memmem(q, (size_t)(stop - q), "<h2>", 4);
        const char *he = h ? memmem(h, (size_t)(stop - h), "</h2>", 5) : NULL;
        fputs("<li><a href=\"#", f);
        fwrite(id, 1, (size_t)(q - id), f);
        fputs("\">", f);
        if (he)
            toc_title(f, h + 4, he);
        else
            fwrite(id, 1, (size_t)(q - id), f);
        fputs("</a></li>\n", f);
    }
    fputs("</ol></nav>\n", f);
    fwrite(first, 1, (size_t)(end - first), f);
}
