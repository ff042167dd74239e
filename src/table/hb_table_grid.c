/* The grid the table format prints matrices with (hb_table_grid.h). */
#include "hb_table_grid.h"

#include "hb_figure_text.h"

void hb_table_grid(FILE *f, const char *corner, json_t *rows, json_t *cols, json_t *m, int decimals)
{
    fprintf(f, "%8s", corner);
    size_t j, i;
    json_t *v;
    json_array_foreach(cols, j, v) fprintf(f, " %9lld", (long long)json_integer_value(v));
    fputc('\n', f);
    json_array_foreach(rows, i, v)
    {
        fprintf(f, "%8lld", (long long)json_integer_value(v));
        json_t *row = json_array_get(m, i);
        for (j = 0; j < json_array_size(cols); j++) {
            json_t *c = json_array_get(row, j);
            if (!c || json_is_null(c))
                fprintf(f, " %9s", "-");
            else if (json_is_integer(c))
                fprintf(f, " %9lld", (long long)json_integer_value(c));
            else if (decimals == HB_GRID_FIGURES) {
                char t[HB_FIGURE_LEN];
                fprintf(f, " %9s", hb_figure_text(json_number_value(c), t, sizeof(t)));
            } else
                fprintf(f, " %9.*f", decimals, json_number_value(c));
        }
        fputc('\n', f);
    }
}
