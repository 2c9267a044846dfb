/* The "Where the model breaks" panel (report.h): the self-contained part of the page that
 * `genebench breaks` writes, shown as it is. */
#include "src/report/report_private.h"

#include <stdlib.h>
#include <string.h>

bool gb_report_add_breaks(GbReport *r, const char *dir, GbError *err)
{
    char *path = gb_asprintf("%s/breaks.html", dir);
    size_t len;
    char *html = gb_read_file(path, &len, err);
    if (!html) {
        free(path);
        return false;
    }
    const char *a = strstr(html, GB_REPORT_BREAKS_BEGIN);
    const char *b = a ? strstr(a, GB_REPORT_BREAKS_END) : NULL;
    if (!b) {
        gb_error_set(err, "%s: no part marked " GB_REPORT_BREAKS_BEGIN " (not written by genebench breaks?)", path);
        free(html);
        free(path);
        return false;
    }
    a += strlen(GB_REPORT_BREAKS_BEGIN);
    gb_array_push(&r->breaks_dirs, gb_strdup(dir));
    gb_array_push(&r->breaks_parts, gb_strndup(a, (size_t)(b - a)));
    free(html);
    free(path);
    return true;
}

void gb_report__panel_breaks(GbStr *out, GbReport *r)
{
    gb_str_append(out, "<section id=\"breaks\"><h2>Where the model breaks</h2><p>Each model evaluation over the "
                       "complexity levels of `genebench levels`, as analysed by `genebench breaks` (its "
                       "breaks.json and the per-item &times; version table items.csv are in the directory "
                       "named).</p>");
    for (size_t i = 0; i < r->breaks_dirs.len; i++) {
        gb_str_append(out, "<h3>");
        gb_report__esc(out, r->breaks_dirs.items[i]);
        gb_str_append(out, "</h3>");
        gb_str_append(out, r->breaks_parts.items[i]);
    }
    gb_str_append(out, "</section>\n");
}
