#include "src/python/pyparse.h"

#include <string.h>

#include "src/base/util.h"

const TSLanguage *tree_sitter_python(void);

const TSLanguage *gb_python_language(void)
{
    return tree_sitter_python();
}

TSParser *gb_parser_new(void)
{
    TSParser *p = ts_parser_new();
    if (!ts_parser_set_language(p, tree_sitter_python())) {
        /* The grammar's ABI does not match the runtime: a build problem, not bad input. */
        ts_parser_delete(p);
        return NULL;
    }
    return p;
}

TSTree *gb_parse(TSParser *parser, const char *source, size_t len)
{
    return ts_parser_parse_string(parser, NULL, source, (uint32_t)len);
}

/* The first error below node, in document order, by descent rather than recursion: a tree
 * may be as deep as its text is long (an answer of 60,000 nested operators). */
static bool gb__find_error(TSNode node, unsigned *row, unsigned *col)
{
    if (!ts_node_has_error(node)) return false;
    for (;;) {
        if (gb_node_kind(node) == GB_NK_ERROR || ts_node_is_missing(node)) break;
        uint32_t n = ts_node_child_count(node);
        TSNode next = {0};
        for (uint32_t i = 0; i < n && ts_node_is_null(next); i++) {
            TSNode c = ts_node_child(node, i);
            if (ts_node_has_error(c)) next = c;
        }
        if (ts_node_is_null(next)) break; /* has_error set but no child found: the node itself */
        node = next;
    }
    TSPoint p = ts_node_start_point(node);
    if (row) *row = p.row;
    if (col) *col = p.column;
    return true;
}

bool gb_tree_has_error(TSTree *tree, unsigned *row, unsigned *col)
{
    return gb__find_error(ts_tree_root_node(tree), row, col);
}

bool gb_source_parses(TSParser *parser, const char *source, size_t len, unsigned *row, unsigned *col)
{
    TSTree *t = gb_parse(parser, source, len);
    bool bad = gb_tree_has_error(t, row, col);
    ts_tree_delete(t);
    return !bad;
}

char *gb_node_text(TSNode node, const char *source)
{
    uint32_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
    return gb_strndup(source + a, b - a);
}

bool gb_node_text_eq(TSNode node, const char *source, const char *s)
{
    uint32_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
    size_t n = strlen(s);
    return (size_t)(b - a) == n && memcmp(source + a, s, n) == 0;
}

bool gb_node_is(TSNode node, const char *type)
{
    return !ts_node_is_null(node) && strcmp(ts_node_type(node), type) == 0;
}

TSNode gb_node_unminus(TSNode node, bool *neg)
{
    *neg = gb_node_is_kind(node, GB_NK_UNARY_OPERATOR) && ts_node_child_count(node) == 2 &&
           gb_node_kind(ts_node_child(node, 0)) == GB_NK_MINUS;
    return *neg ? ts_node_named_child(node, 0) : node;
}

TSNode gb_node_field(TSNode node, const char *name)
{
    return ts_node_child_by_field_name(node, name, (uint32_t)strlen(name));
}

void gb_multiline_strings(TSNode node, const char *src, GbByteRanges *out)
{
    if (gb_node_is_kind(node, GB_NK_STRING)) {
        uint32_t s = ts_node_start_byte(node), e = ts_node_end_byte(node);
        if (memchr(src + s, '\n', e - s)) {
            gb_array_push(out, s);
            gb_array_push(out, e);
        }
        return;
    }
    uint32_t c = ts_node_child_count(node);
    for (uint32_t i = 0; i < c; i++) gb_multiline_strings(ts_node_child(node, i), src, out);
}
