#include "fitness/pyview.h"

#include <stdlib.h>
#include <string.h>

static const char *const gb_pyview__fields[GB_PF_COUNT] = {NULL,
#define GB_PYFIELD(e, name) name,
                                                           GB_PYFIELD_LIST
#undef GB_PYFIELD
};

/* The field table is rebuilt per view: a few dozen string compares, negligible next to parsing,
 * and it keeps the module free of global state. */
static uint8_t *gb_pyview__fields_table(const TSLanguage *lang)
{
    uint32_t nfield = ts_language_field_count(lang);
    uint8_t *fields = gb_calloc(nfield + 1, 1);
    for (uint32_t f = 1; f <= nfield; f++) {
        const char *name = ts_language_field_name_for_id(lang, (TSFieldId)f);
        if (!name) continue;
        for (int k = 1; k < GB_PF_COUNT; k++) {
            if (strcmp(gb_pyview__fields[k], name) == 0) {
                fields[f] = (uint8_t)k;
                break;
            }
        }
    }
    return fields;
}

/* The kind a view stores: the node kind of named nodes; of anonymous tokens only `async` (the
 * metrics test it), so that the keyword tokens `lambda`, `type`, `await` and `yield` never pass
 * for the named nodes of the same name. */
static uint8_t gb_pyview__kind(const TSLanguage *lang, TSNode n)
{
    GbNodeKind k = gb_node_kind(n);
    TSSymbol sym = ts_node_symbol(n);
    bool named = sym < ts_language_symbol_count(lang) ? ts_language_symbol_type(lang, sym) == TSSymbolTypeRegular
                                                      : ts_node_is_named(n);
    return (uint8_t)(named || k == GB_NK_ASYNC ? k : GB_NK_OTHER);
}

void gb_pyview_build(GbPyView *v, TSTree *tree, const char *src, size_t len)
{
    const TSLanguage *lang = ts_tree_language(tree);
    uint8_t *fields = gb_pyview__fields_table(lang);
    uint32_t nfield = ts_language_field_count(lang);

    GbArray(GbPyNode) nodes = {0};
    GbArray(uint32_t) stack = {0}; /* index of the current node at each depth */
    GbArray(uint32_t) last = {0};  /* last child appended at each depth */
    TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&c);
        uint8_t kind = gb_pyview__kind(lang, n);
        bool skip = kind == GB_NK_COMMENT || kind == GB_NK_LINE_CONTINUATION;
        bool descend = false;
        if (!skip) {
            TSFieldId fid = ts_tree_cursor_current_field_id(&c);
            GbPyNode pn = {
                .kind = kind,
                .field = fid <= nfield ? fields[fid] : 0,
                .named = ts_node_is_named(n),
                .start = ts_node_start_byte(n),
                .end = ts_node_end_byte(n),
                .row = ts_node_start_point(n).row,
                .parent = stack.len ? stack.items[stack.len - 1] : GB_PY_NIL,
                .first_child = GB_PY_NIL,
                .next_sibling = GB_PY_NIL,
                .subtree_end = 0,
            };
            uint32_t idx = (uint32_t)nodes.len;
            gb_array_push(&nodes, pn);
            if (stack.len) {
                uint32_t prev = last.items[stack.len - 1];
                if (prev == GB_PY_NIL)
                    nodes.items[pn.parent].first_child = idx;
                else
                    nodes.items[prev].next_sibling = idx;
                last.items[stack.len - 1] = idx;
            }
            if (ts_tree_cursor_goto_first_child(&c)) {
                gb_array_push(&stack, idx);
                gb_array_push(&last, GB_PY_NIL);
                descend = true;
            }
        }
        if (descend) continue;
        if (!skip) nodes.items[nodes.len - 1].subtree_end = (uint32_t)nodes.len;
        /* Move to the next sibling, climbing up as needed. */
        while (!ts_tree_cursor_goto_next_sibling(&c)) {
            if (!ts_tree_cursor_goto_parent(&c)) goto done;
            stack.len--;
            last.len--;
            nodes.items[stack.items[stack.len]].subtree_end = (uint32_t)nodes.len;
        }
    }
done:
    ts_tree_cursor_delete(&c);
    gb_array_free(&stack);
    gb_array_free(&last);
    free(fields);
    v->nodes = nodes.items;
    v->count = (uint32_t)nodes.len;
    v->src = src;
    v->len = len;
}

void gb_pyview_destroy(GbPyView *v)
{
    free(v->nodes);
    v->nodes = NULL;
    v->count = 0;
}

uint32_t gb_pyview_field(const GbPyView *v, uint32_t n, GbPyField f)
{
    for (uint32_t c = v->nodes[n].first_child; c != GB_PY_NIL; c = v->nodes[c].next_sibling)
        if (v->nodes[c].field == f) return c;
    return GB_PY_NIL;
}

uint32_t gb_pyview_first_named(const GbPyView *v, uint32_t n)
{
    for (uint32_t c = v->nodes[n].first_child; c != GB_PY_NIL; c = v->nodes[c].next_sibling)
        if (v->nodes[c].named) return c;
    return GB_PY_NIL;
}

bool gb_pyview_text_eq(const GbPyView *v, uint32_t n, const char *s)
{
    size_t k = strlen(s);
    return gb_pyview_len(v, n) == k && memcmp(v->src + v->nodes[n].start, s, k) == 0;
}

uint32_t gb_pyview_unparen(const GbPyView *v, uint32_t n)
{
    while (n != GB_PY_NIL && v->nodes[n].kind == GB_NK_PARENTHESIZED_EXPRESSION) {
        uint32_t inner = gb_pyview_first_named(v, n);
        if (inner == GB_PY_NIL) break;
        n = inner;
    }
    return n;
}

static uint32_t gb_pyview__unwrap(const GbPyView *v, uint32_t n)
{
    while (n != GB_PY_NIL) {
        uint8_t k = v->nodes[n].kind;
        if (k != GB_NK_PARENTHESIZED_EXPRESSION && k != GB_NK_LIST_SPLAT && k != GB_NK_DICTIONARY_SPLAT) break;
        uint32_t inner = gb_pyview_first_named(v, n);
        if (inner == GB_PY_NIL) break;
        n = inner;
    }
    return n;
}

uint32_t gb_pyview_callee(const GbPyView *v, uint32_t call)
{
    return gb_pyview__unwrap(v, gb_pyview_field(v, call, GB_PF_FUNCTION));
}

uint32_t gb_pyview_attr_object(const GbPyView *v, uint32_t attr)
{
    return gb_pyview__unwrap(v, gb_pyview_field(v, attr, GB_PF_OBJECT));
}

bool gb_pyview_is_async(const GbPyView *v, uint32_t n)
{
    uint32_t c = v->nodes[n].first_child;
    return c != GB_PY_NIL && v->nodes[c].kind == GB_NK_ASYNC;
}

bool gb_pyview_is_else_if(const GbPyView *v, uint32_t n)
{
    const GbPyNode *nodes = v->nodes;
    if (nodes[n].kind != GB_NK_IF_STATEMENT) return false;
    uint32_t block = nodes[n].parent;
    if (block == GB_PY_NIL || nodes[block].kind != GB_NK_BLOCK) return false;
    if (gb_pyview_first_named(v, block) != n) return false;
    uint32_t els = nodes[block].parent;
    if (els == GB_PY_NIL || nodes[els].kind != GB_NK_ELSE_CLAUSE) return false;
    uint32_t owner = nodes[els].parent;
    return owner != GB_PY_NIL && nodes[owner].kind == GB_NK_IF_STATEMENT;
}

bool gb_pyview_in_case_pattern(const GbPyView *v, uint32_t n)
{
    for (uint32_t p = v->nodes[n].parent; p != GB_PY_NIL; p = v->nodes[p].parent) {
        uint8_t k = v->nodes[p].kind;
        if (k == GB_NK_CASE_PATTERN) return true;
        if (k == GB_NK_CASE_CLAUSE || k == GB_NK_BLOCK || k == GB_NK_MODULE) return false;
    }
    return false;
}

static bool gb_pyview__string_is_f(const GbPyView *v, uint32_t s)
{
    uint32_t st = gb_pyview_first_named(v, s);
    if (st == GB_PY_NIL || v->nodes[st].kind != GB_NK_STRING_START) return false;
    for (uint32_t i = v->nodes[st].start; i < v->nodes[st].end; i++) {
        char ch = v->src[i];
        if (ch == 'f' || ch == 'F') return true;
        if (ch == '"' || ch == '\'') break;
    }
    return false;
}

bool gb_pyview_is_fstring(const GbPyView *v, uint32_t n)
{
    if (v->nodes[n].kind == GB_NK_STRING) return gb_pyview__string_is_f(v, n);
    if (v->nodes[n].kind == GB_NK_CONCATENATED_STRING) {
        for (uint32_t c = v->nodes[n].first_child; c != GB_PY_NIL; c = v->nodes[c].next_sibling)
            if (v->nodes[c].kind == GB_NK_STRING && gb_pyview__string_is_f(v, c)) return true;
    }
    return false;
}
