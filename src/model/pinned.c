#include "src/model/pinned.h"

#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"
#include "src/base/util.h"

typedef GbArray(char *) GbNames;

typedef enum { GB_SCOPE_MODULE, GB_SCOPE_CLASS, GB_SCOPE_FUNCTION } GbScopeKind;

static void gb_pinned__add(GbNames *names, TSNode n, const char *src)
{
    gb_array_push(names, gb_node_text(n, src));
}

/* Names bound by an assignment-like target: identifiers (only outside functions, where
 * they are module or class attributes) and attribute names (anywhere: self.x = ...). */
static void gb_pinned__targets(TSNode n, const char *src, GbScopeKind scope, GbNames *defs)
{
    if (gb_node_is_kind(n, GB_NK_IDENTIFIER)) {
        if (scope != GB_SCOPE_FUNCTION) gb_pinned__add(defs, n, src);
        return;
    }
    if (gb_node_is_kind(n, GB_NK_ATTRIBUTE)) {
        TSNode attr = ts_node_child_by_field_name(n, "attribute", 9);
        if (!ts_node_is_null(attr)) gb_pinned__add(defs, attr, src);
        return;
    }
    if (gb_node_is_kind(n, GB_NK_SUBSCRIPT)) return;
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_pinned__targets(ts_node_named_child(n, i), src, scope, defs);
}

static void gb_pinned__import(TSNode n, const char *src, GbNames *defs)
{
    uint32_t c = ts_node_named_child_count(n);
    bool from = gb_node_is_kind(n, GB_NK_IMPORT_FROM_STATEMENT);
    TSNode module = ts_node_child_by_field_name(n, "module_name", 11);
    for (uint32_t i = 0; i < c; i++) {
        TSNode ch = ts_node_named_child(n, i);
        if (from && !ts_node_is_null(module) && ts_node_eq(ch, module)) continue;
        if (gb_node_is_kind(ch, GB_NK_ALIASED_IMPORT)) {
            TSNode alias = ts_node_child_by_field_name(ch, "alias", 5);
            if (!ts_node_is_null(alias)) gb_pinned__add(defs, alias, src);
        } else if (gb_node_is_kind(ch, GB_NK_DOTTED_NAME)) {
            /* `import a.b` binds a; `from m import x` binds x */
            TSNode first = ts_node_named_child(ch, 0);
            if (!ts_node_is_null(first)) gb_pinned__add(defs, first, src);
        }
    }
}

static void gb_pinned__defs(TSNode n, const char *src, GbScopeKind scope, GbNames *defs)
{
    GbNodeKind type = gb_node_kind(n);
    GbScopeKind inner = scope;
    if (type == GB_NK_FUNCTION_DEFINITION || type == GB_NK_CLASS_DEFINITION) {
        TSNode name = ts_node_child_by_field_name(n, "name", 4);
        if (!ts_node_is_null(name)) gb_pinned__add(defs, name, src);
        inner = type == GB_NK_FUNCTION_DEFINITION ? GB_SCOPE_FUNCTION : GB_SCOPE_CLASS;
    } else if (type == GB_NK_ASSIGNMENT || type == GB_NK_AUGMENTED_ASSIGNMENT) {
        TSNode left = ts_node_child_by_field_name(n, "left", 4);
        if (!ts_node_is_null(left)) gb_pinned__targets(left, src, scope, defs);
    } else if (type == GB_NK_FOR_STATEMENT && scope != GB_SCOPE_FUNCTION) {
        TSNode left = ts_node_child_by_field_name(n, "left", 4);
        if (!ts_node_is_null(left)) gb_pinned__targets(left, src, scope, defs);
    } else if (type == GB_NK_AS_PATTERN_TARGET && scope != GB_SCOPE_FUNCTION) {
        gb_pinned__targets(n, src, scope, defs);
    } else if ((type == GB_NK_IMPORT_STATEMENT || type == GB_NK_IMPORT_FROM_STATEMENT) && scope != GB_SCOPE_FUNCTION) {
        gb_pinned__import(n, src, defs);
        return;
    } else if (type == GB_NK_GLOBAL_STATEMENT) {
        uint32_t c = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < c; i++) {
            TSNode ch = ts_node_named_child(n, i);
            if (gb_node_is_kind(ch, GB_NK_IDENTIFIER)) gb_pinned__add(defs, ch, src);
        }
        return;
    }
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_pinned__defs(ts_node_named_child(n, i), src, inner, defs);
}

static bool gb_pinned__identifier_like(const char *s, size_t n)
{
    if (n == 0 || !(s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'))) return false;
    for (size_t i = 1; i < n; i++) {
        char c = s[i];
        if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return false;
    }
    return true;
}

static void gb_pinned__uses(TSNode n, const char *src, GbNames *uses)
{
    GbNodeKind type = gb_node_kind(n);
    if (type == GB_NK_IDENTIFIER) {
        gb_pinned__add(uses, n, src);
        return;
    }
    if (type == GB_NK_STRING_CONTENT) {
        uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
        if (gb_pinned__identifier_like(src + a, b - a)) gb_pinned__add(uses, n, src);
        return;
    }
    uint32_t c = ts_node_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_pinned__uses(ts_node_child(n, i), src, uses);
}

static int gb_pinned__cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void gb_pinned__sort_unique(GbNames *names)
{
    if (names->len == 0) return;
    qsort(names->items, names->len, sizeof *names->items, gb_pinned__cmp);
    size_t k = 1;
    for (size_t i = 1; i < names->len; i++) {
        if (strcmp(names->items[i], names->items[k - 1]) == 0) {
            free(names->items[i]);
        } else {
            names->items[k++] = names->items[i];
        }
    }
    names->len = k;
}

static void gb_pinned__free(GbNames *names)
{
    for (size_t i = 0; i < names->len; i++) free(names->items[i]);
    gb_array_free(names);
}

static void gb_pinned__collect_defs(TSParser *parser, const char *src, GbNames *defs)
{
    TSTree *tree = gb_parse(parser, src, strlen(src));
    gb_pinned__defs(ts_tree_root_node(tree), src, GB_SCOPE_MODULE, defs);
    ts_tree_delete(tree);
}

void gb_task_compute_pinned(GbTask *t, TSParser *parser)
{
    for (size_t i = 0; i < t->pinned.len; i++) free(t->pinned.items[i]);
    t->pinned.len = 0;
    if (t->kind == GB_TESTS_STDIO) return;
    if (t->entry_point) gb_array_push(&t->pinned, gb_strdup(t->entry_point));
    if (!t->test_code) return;

    GbNames defs = {0}, uses = {0};
    if (t->source) gb_pinned__collect_defs(parser, t->source, &defs);
    for (size_t i = 0; i < t->extra_files.len; i++)
        gb_pinned__collect_defs(parser, t->extra_files.items[i].source, &defs);
    TSTree *tree = gb_parse(parser, t->test_code, strlen(t->test_code));
    gb_pinned__uses(ts_tree_root_node(tree), t->test_code, &uses);
    ts_tree_delete(tree);
    gb_pinned__sort_unique(&defs);
    gb_pinned__sort_unique(&uses);

    /* merge-intersect the two sorted lists */
    size_t i = 0, j = 0;
    while (i < defs.len && j < uses.len) {
        int c = strcmp(defs.items[i], uses.items[j]);
        if (c < 0) {
            i++;
        } else if (c > 0) {
            j++;
        } else {
            if (!t->entry_point || strcmp(defs.items[i], t->entry_point) != 0)
                gb_array_push(&t->pinned, gb_strdup(defs.items[i]));
            i++;
            j++;
        }
    }
    gb_pinned__free(&defs);
    gb_pinned__free(&uses);
}
