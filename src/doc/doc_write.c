/* Writing helpers shared by the documents (doc_write.h). */
#include "src/doc/doc_write.h"

#include <stdbool.h>
#include <stdlib.h>

#include "src/base/json_write.h"

const char *const gb_doc_stat_keys[] = {"mean", "median", "q1", "q3", "min", "max", NULL};

void gb_doc_strings_destroy(GbDocStrings *s)
{
    for (size_t i = 0; i < s->len; i++) free(s->items[i]);
    gb_array_free(s);
}

void gb_doc_write_strings(GbStr *out, char *const *items, size_t n)
{
    gb_str_append(out, "[");
    for (size_t i = 0; i < n; i++) {
        if (i) gb_str_append(out, ",");
        gb_json_string(out, items[i]);
    }
    gb_str_append(out, "]");
}

void gb_doc_write_stats(GbStr *out, const GbDocStats *s)
{
    const double v[] = {s->mean, s->median, s->q1, s->q3, s->min, s->max};
    bool first = true;
    gb_str_append(out, "{");
    for (size_t i = 0; gb_doc_stat_keys[i]; i++) {
        gb_json_key(out, gb_doc_stat_keys[i], &first);
        gb_json_number(out, v[i]);
    }
    gb_str_append(out, "}");
}

void gb_doc_put_string(GbStr *out, const char *key, const char *v, bool *first)
{
    gb_json_key(out, key, first);
    gb_json_string(out, v);
}

void gb_doc_put_number(GbStr *out, const char *key, double v, bool *first)
{
    gb_json_key(out, key, first);
    gb_json_number(out, v);
}

void gb_doc_put_count(GbStr *out, const char *key, size_t v, bool *first)
{
    gb_json_key(out, key, first);
    gb_json_integer(out, (long long)v);
}

void gb_doc_put_bool(GbStr *out, const char *key, bool v, bool *first)
{
    gb_json_key(out, key, first);
    gb_json_bool(out, v);
}
