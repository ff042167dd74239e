/* The report's codes in words (hb_report_kit.h): an interval's ends at its figure's rounding,
 * sysfs choice lists ("always [madvise] never": madvise) and the pair
 * classes of MPI messages ("same node (0 hops)", "between hosts"). */
#include "hb_report_kit.h"

#include "hb_figure_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool hb_report_words_ci(const json_t *ci, double *lo, double *hi)
{
    bool two = json_array_size(ci) == 2 && json_is_number(json_array_get(ci, 0)) &&
               json_is_number(json_array_get(ci, 1));
    *lo = two ? json_number_value(json_array_get(ci, 0)) : NAN;
    *hi = two ? json_number_value(json_array_get(ci, 1)) : NAN;
    return two;
}

const char *hb_report_words_ends(double v, double lo, double hi, char *buf, size_t len)
{
    const char *ends = strchr(hb_figure_text_interval_text(v, lo, hi, buf, len), '[');
    return ends ? ends : "";
}

void hb_report_words_comm_class(int cls, size_t pairs, char *buf, size_t len)
{
    char what[32];
    if (cls == HB_RCOMM_HOSTS)
        snprintf(what, sizeof(what), "between hosts");
    else if (cls < 0)
        snprintf(what, sizeof(what), "hop class unknown");
    else if (cls == 0)
        snprintf(what, sizeof(what), "same node (0 hops)");
    else
        snprintf(what, sizeof(what), "%d hop%s", cls, cls == 1 ? "" : "s");
    snprintf(buf, len, "%s, %zu pair%s", what, pairs, pairs == 1 ? "" : "s");
}

const char *hb_report_words_sysfs_choice(const char *s, char *buf, size_t len)
{
    const char *open = strchr(s, '['), *close = open ? strchr(open, ']') : NULL;
    /* One bracketed word among plain words: "always [madvise] never". */
    if (!open || !close || close == open + 1 || strchr(close + 1, '[') || strchr(s, '\n'))
        return NULL;
    for (const char *p = s; *p; p++)
        if (!(*p == ' ' || *p == '[' || *p == ']' || *p == '+' || *p == '_' || *p == '-' ||
              (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
            return NULL;
    snprintf(buf, len, "%.*s", (int)(close - open - 1), open + 1);
    return buf;
}

int hb_report_words_label_add(struct hb_strtab *labels, const char *label)
{
    char words[160];
    if (!hb_label_words(label, words, sizeof(words))) return 0;
    return hb_strtab_add(labels, label, strlen(label)) == HB_STRTAB_NONE ? -1 : 0;
}

static int label_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void hb_report_words_label_key(FILE *f, const struct hb_strtab *labels)
{
    if (labels->n == 0) return;
    const char **v = malloc(labels->n * sizeof(*v));
    if (!v) return;
    for (uint32_t i = 0; i < labels->n; i++)
        v[i] = hb_strtab_get(labels, i);
    qsort(v, labels->n, sizeof(*v), label_cmp);
    fputs("<p class=\"keyhead\">Labels (AMD 40555 style: CPU node.thread.access.memory):</p>"
          "<dl class=\"labelkey\">\n",
          f);
    char words[160];
    for (uint32_t i = 0; i < labels->n; i++) {
        if (!hb_label_words(v[i], words, sizeof(words))) continue;
        fputs("<dt>", f);
        hb_escape_html(f, v[i]);
        fputs("</dt><dd>", f);
        hb_escape_html(f, words);
        fputs("</dd>\n", f);
    }
    fputs("</dl>\n", f);
    free(v);
}
