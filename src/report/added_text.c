#include "src/report/added_text.h"

#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "src/python/nodekind.h"
#include "src/python/pyparse.h"

void gb_added_text_init(GbAddedText *a)
{
    memset(a, 0, sizeof *a);
    a->parser_ = gb_parser_new();
}

void gb_added_text_destroy(GbAddedText *a)
{
    for (size_t i = 0; i < a->all_.len; i++) free(a->all_.items[i]);
    gb_array_free(&a->all_);
    if (a->parser_) ts_parser_delete(a->parser_);
    memset(a, 0, sizeof *a);
}

/* Add the sentences of text[0..len) (split after '.', '!' or '?' followed by white space),
 * trimmed, each prefixed with 's'. */
static void gb_added__sentences(const char *text, size_t len, GbNames *out)
{
    size_t i = 0;
    while (i < len) {
        while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) i++;
        size_t j = i;
        while (j < len && !((text[j] == '.' || text[j] == '!' || text[j] == '?') &&
                            (j + 1 == len || text[j + 1] == ' ' || text[j + 1] == '\n' || text[j + 1] == '\t')))
            j++;
        size_t end = j < len ? j + 1 : len;
        size_t e = end;
        while (e > i && (text[e - 1] == ' ' || text[e - 1] == '\t' || text[e - 1] == '\n' || text[e - 1] == '\r')) e--;
        if (e > i) {
            char *s = malloc(e - i + 2);
            if (!s) abort();
            s[0] = 's';
            memcpy(s + 1, text + i, e - i);
            s[e - i + 1] = '\0';
            gb_names_add(out, s);
            free(s);
        }
        i = end;
    }
}

/* A string statement (docstring-like): an expression statement made of one string. */
static bool gb_added__string_stmt(TSNode n)
{
    return gb_node_is_kind(n, GB_NK_EXPRESSION_STATEMENT) && ts_node_named_child_count(n) == 1 &&
           gb_node_is_kind(ts_node_named_child(n, 0), GB_NK_STRING);
}

/* Every identifier of the import statements under n. */
static void gb_added__imports(TSNode n, const char *src, bool in_import, GbNames *out)
{
    in_import = in_import || gb_node_is_kind(n, GB_NK_IMPORT_STATEMENT) ||
                gb_node_is_kind(n, GB_NK_IMPORT_FROM_STATEMENT) || gb_node_is_kind(n, GB_NK_FUTURE_IMPORT_STATEMENT);
    if (in_import && gb_node_is_kind(n, GB_NK_IDENTIFIER)) {
        char *t = gb_node_text(n, src);
        gb_names_add(out, t);
        free(t);
        return;
    }
    uint32_t c = ts_node_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_added__imports(ts_node_child(n, i), src, in_import, out);
}

static void gb_added__walk(TSNode n, const char *src, const GbNames *imported, GbNames *out)
{
    /* Names of libraries and their members (`import functools`, `functools.wraps`, any `x.attr`,
     * any name an import binds, keyword names at calls) and builtins are Python's and the
     * libraries' words, not ones an operator chose. */
    if (gb_node_is_kind(n, GB_NK_IMPORT_STATEMENT) || gb_node_is_kind(n, GB_NK_IMPORT_FROM_STATEMENT) ||
        gb_node_is_kind(n, GB_NK_FUTURE_IMPORT_STATEMENT))
        return;
    if (gb_node_is_kind(n, GB_NK_ATTRIBUTE)) {
        gb_added__walk(gb_node_field(n, "object"), src, imported, out);
        return;
    }
    /* `max_workers=1`: the keyword is the callee's parameter, a library's word or a name the
     * program defines (and counted there) */
    if (gb_node_is_kind(n, GB_NK_KEYWORD_ARGUMENT)) {
        gb_added__walk(gb_node_field(n, "value"), src, imported, out);
        return;
    }
    if (gb_node_is_kind(n, GB_NK_IDENTIFIER)) {
        char *t = gb_node_text(n, src);
        char *s = gb_asprintf("n%s", t);
        if (!gb_names_has(imported, t) && !gb_python_is_builtin(t)) gb_names_add(out, s);
        free(s);
        free(t);
        return;
    }
    if (gb_node_is_kind(n, GB_NK_COMMENT)) {
        uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
        while (s < e && src[s] == '#') s++;
        gb_added__sentences(src + s, e - s, out);
        return;
    }
    if (gb_added__string_stmt(n)) {
        TSNode str = ts_node_named_child(n, 0);
        uint32_t c = ts_node_named_child_count(str);
        for (uint32_t i = 0; i < c; i++) {
            TSNode k = ts_node_named_child(str, i);
            if (gb_node_is(k, "string_content"))
                gb_added__sentences(src + ts_node_start_byte(k), ts_node_end_byte(k) - ts_node_start_byte(k), out);
        }
        return;
    }
    uint32_t c = ts_node_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_added__walk(ts_node_child(n, i), src, imported, out);
}

static void gb_added__collect(GbAddedText *a, const char *source, const GbFile *extra, size_t n, GbNames *out)
{
    for (size_t f = 0; f <= n; f++) {
        const char *src = f == 0 ? source : extra[f - 1].source;
        if (!src) continue;
        TSTree *t = gb_parse(a->parser_, src, strlen(src));
        GbNames imported = {0};
        gb_added__imports(ts_tree_root_node(t), src, false, &imported);
        gb_added__walk(ts_tree_root_node(t), src, &imported, out);
        gb_names_destroy(&imported);
        ts_tree_delete(t);
    }
}

void gb_added_text_add(GbAddedText *a, const char *orig_source, const GbFile *orig_extra, size_t n_extra,
                       const char *source, const GbFile *extra, size_t n_extra_new)
{
    GbNames before = {0}, after = {0};
    gb_added__collect(a, orig_source, orig_extra, n_extra, &before);
    gb_added__collect(a, source, extra, n_extra_new, &after);
    for (size_t i = 0; i < after.len; i++)
        if (!gb_names_has(&before, after.items[i])) gb_array_push(&a->all_, gb_strdup(after.items[i]));
    gb_names_destroy(&before);
    gb_names_destroy(&after);
    a->tasks++;
}

static int gb_added__cmp(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

size_t gb_added_text_top(const GbAddedText *a, char what, char **text)
{
    *text = NULL;
    size_t n = a->all_.len;
    if (n == 0) return 0;
    char **v = malloc(n * sizeof *v);
    if (!v) abort();
    memcpy(v, a->all_.items, n * sizeof *v);
    qsort(v, n, sizeof *v, gb_added__cmp);
    size_t best = 0;
    const char *top = NULL;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && strcmp(v[j], v[i]) == 0) j++;
        if (v[i][0] == what && j - i > best) {
            best = j - i;
            top = v[i];
        }
        i = j;
    }
    if (top) *text = gb_strdup(top + 1);
    free(v);
    return best;
}
