/* Literal data and the calls of a task's entry point in its tests (calls.h). */
#include "src/model/calls.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/python/nodekind.h"
#include "src/python/pyparse.h"

#define GB_LITERAL_MAX_BYTES 65536
#define GB_LITERAL_MAX_DEPTH 200
#define GB_CALLS_MAX_DEPTH 1000

static const char *const gb_literal__ctors[] = {"set",     "frozenset", "list",  "tuple",     "dict", "int", "float",
                                                "complex", "str",       "bytes", "bytearray", "bool", NULL};

static bool gb_literal__why(char *why, size_t size, const char *fmt, ...)
{
    if (why && size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, size, fmt, ap);
        va_end(ap);
    }
    return false;
}

static bool gb_literal__expr_ok(TSNode n, const char *src, int depth, char *why, size_t size);

/* The arguments of a call: literal expressions or keyword=literal. */
static bool gb_literal__arglist_ok(TSNode list, const char *src, int depth, char *why, size_t size)
{
    uint32_t nc = ts_node_named_child_count(list);
    for (uint32_t i = 0; i < nc; i++) {
        TSNode a = ts_node_named_child(list, i);
        if (gb_node_is_kind(a, GB_NK_KEYWORD_ARGUMENT)) {
            TSNode name = gb_node_field(a, "name"), value = gb_node_field(a, "value");
            if (!gb_node_is_kind(name, GB_NK_IDENTIFIER) || ts_node_is_null(value))
                return gb_literal__why(why, size, "a malformed keyword argument");
            if (!gb_literal__expr_ok(value, src, depth + 1, why, size)) return false;
        } else if (!gb_literal__expr_ok(a, src, depth + 1, why, size)) {
            return false;
        }
    }
    return true;
}

static bool gb_literal__expr_ok(TSNode n, const char *src, int depth, char *why, size_t size)
{
    if (depth > GB_LITERAL_MAX_DEPTH) return gb_literal__why(why, size, "nested deeper than %d", GB_LITERAL_MAX_DEPTH);
    GbNodeKind k = gb_node_kind(n);
    switch (k) {
    case GB_NK_INTEGER:
    case GB_NK_FLOAT:
    case GB_NK_TRUE:
    case GB_NK_FALSE:
    case GB_NK_NONE:
    case GB_NK_ELLIPSIS:
    case GB_NK_STRING_START:
    case GB_NK_STRING_CONTENT:
    case GB_NK_STRING_END:
    case GB_NK_ESCAPE_SEQUENCE:
    case GB_NK_ESCAPE_INTERPOLATION:
        return true;
    case GB_NK_STRING:
    case GB_NK_CONCATENATED_STRING:
    case GB_NK_LIST:
    case GB_NK_TUPLE:
    case GB_NK_SET:
    case GB_NK_DICTIONARY:
    case GB_NK_PAIR:
    case GB_NK_PARENTHESIZED_EXPRESSION:
    case GB_NK_UNARY_OPERATOR:
    case GB_NK_BINARY_OPERATOR: {
        uint32_t nc = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < nc; i++)
            if (!gb_literal__expr_ok(ts_node_named_child(n, i), src, depth + 1, why, size)) return false;
        return true;
    }
    case GB_NK_CALL: {
        TSNode fn = gb_node_field(n, "function"), args = gb_node_field(n, "arguments");
        if (!gb_node_is_kind(fn, GB_NK_IDENTIFIER)) return gb_literal__why(why, size, "a call of something not a name");
        bool known = false;
        for (size_t i = 0; gb_literal__ctors[i] && !known; i++) known = gb_node_text_eq(fn, src, gb_literal__ctors[i]);
        if (!known) {
            char *name = gb_node_text(fn, src);
            gb_literal__why(why, size, "a call of %.40s (only builtin constructors of data may be called)", name);
            free(name);
            return false;
        }
        if (!gb_node_is_kind(args, GB_NK_ARGUMENT_LIST))
            return gb_literal__why(why, size, "a call with a generator argument");
        return gb_literal__arglist_ok(args, src, depth + 1, why, size);
    }
    case GB_NK_IDENTIFIER: {
        char *name = gb_node_text(n, src);
        gb_literal__why(why, size, "the name %.40s (only literal data is allowed)", name);
        free(name);
        return false;
    }
    default: {
        const char *kn = ts_node_type(n);
        return gb_literal__why(why, size, "%s %s (only literal data is allowed)",
                               gb_node_is_kind(n, GB_NK_INTERPOLATION) ? "an f-string interpolation" : "a node",
                               gb_node_is_kind(n, GB_NK_INTERPOLATION) ? "" : (kn ? kn : "?"));
    }
    }
}

/* Parse text as a module that must be exactly one expression statement with one child;
 * returns that child (the tree in *tree, owned) or a null node with the reason. */
static TSNode gb_literal__single(TSParser *parser, const char *text, TSTree **tree, char *why, size_t size)
{
    TSNode null = {0};
    *tree = NULL;
    size_t len = strlen(text);
    if (len == 0) return gb_literal__why(why, size, "empty"), null;
    if (len > GB_LITERAL_MAX_BYTES)
        return gb_literal__why(why, size, "longer than %d bytes", GB_LITERAL_MAX_BYTES), null;
    if (!gb_utf8_valid(text, len, NULL)) return gb_literal__why(why, size, "not valid UTF-8"), null;
    if (memchr(text, '\0', len) || strchr(text, '\r') || strchr(text, '\f'))
        return gb_literal__why(why, size, "a control character"), null;
    *tree = gb_parse(parser, text, len);
    unsigned row, col;
    if (gb_tree_has_error(*tree, &row, &col))
        return gb_literal__why(why, size, "not valid Python (line %u column %u)", row + 1, col + 1), null;
    TSNode root = ts_tree_root_node(*tree);
    if (ts_node_child_count(root) != 1)
        return gb_literal__why(why, size, "not a single expression (%u statements or comments)",
                               ts_node_child_count(root)),
               null;
    TSNode st = ts_node_child(root, 0);
    if (!gb_node_is_kind(st, GB_NK_EXPRESSION_STATEMENT) || ts_node_child_count(st) != 1)
        return gb_literal__why(why, size, "not a single expression (a %s)", ts_node_type(st)), null;
    return ts_node_child(st, 0);
}

/* No comment anywhere below n (a comment would swallow the closing parenthesis). Walked with a
 * cursor, not by recursion: the tree is untrusted text and may be as deep as it is long. */
static bool gb_literal__no_comment(TSNode n)
{
    TSTreeCursor cur = ts_tree_cursor_new(n);
    bool ok = true;
    for (;;) {
        TSNode c = ts_tree_cursor_current_node(&cur);
        if (gb_node_is_kind(c, GB_NK_COMMENT) || gb_node_is_kind(c, GB_NK_LINE_CONTINUATION)) {
            ok = false;
            break;
        }
        if (ts_tree_cursor_goto_first_child(&cur)) continue;
        bool moved = false;
        while (!moved) {
            if (ts_tree_cursor_goto_next_sibling(&cur))
                moved = true;
            else if (!ts_tree_cursor_goto_parent(&cur))
                break;
        }
        if (!moved) break;
    }
    ts_tree_cursor_delete(&cur);
    return ok;
}

bool gb_literal_ok(TSParser *parser, const char *text, char *why, size_t why_size)
{
    TSTree *tree;
    TSNode e = gb_literal__single(parser, text, &tree, why, why_size);
    bool ok = false;
    if (!ts_node_is_null(e)) {
        if (!gb_literal__no_comment(ts_tree_root_node(tree)))
            gb_literal__why(why, why_size, "a comment or line continuation");
        else
            ok = gb_literal__expr_ok(e, text, 0, why, why_size);
    }
    if (tree) ts_tree_delete(tree);
    return ok;
}

bool gb_literal_args_ok(TSParser *parser, const char *text, char *why, size_t why_size)
{
    if (strlen(text) > GB_LITERAL_MAX_BYTES)
        return gb_literal__why(why, why_size, "longer than %d bytes", GB_LITERAL_MAX_BYTES);
    char *call = gb_asprintf("_gb_call(%s)", text);
    TSTree *tree;
    TSNode e = gb_literal__single(parser, call, &tree, why, why_size);
    bool ok = false;
    if (!ts_node_is_null(e)) {
        TSNode fn = gb_node_field(e, "function"), args = gb_node_field(e, "arguments");
        if (!gb_literal__no_comment(ts_tree_root_node(tree)))
            gb_literal__why(why, why_size, "a comment or line continuation");
        else if (!gb_node_is_kind(e, GB_NK_CALL) || !gb_node_text_eq(fn, call, "_gb_call") ||
                 !gb_node_is_kind(args, GB_NK_ARGUMENT_LIST) || ts_node_end_byte(e) != strlen(call))
            gb_literal__why(why, why_size, "not an argument list");
        else
            ok = gb_literal__arglist_ok(args, call, 0, why, why_size);
    }
    if (tree) ts_tree_delete(tree);
    free(call);
    return ok;
}

/* ---- calls ------------------------------------------------------------------------------ */

bool gb_call_eq_operands(TSNode cmp, const char *src, TSNode *a, TSNode *b)
{
    if (!gb_node_is_kind(cmp, GB_NK_COMPARISON_OPERATOR) || ts_node_named_child_count(cmp) != 2) return false;
    uint32_t nc = ts_node_child_count(cmp);
    int ops = 0;
    bool eq = false;
    for (uint32_t i = 0; i < nc; i++) {
        TSNode c = ts_node_child(cmp, i);
        if (ts_node_is_named(c)) continue;
        ops++;
        eq = gb_node_text_eq(c, src, "==");
    }
    if (ops != 1 || !eq) return false;
    *a = ts_node_named_child(cmp, 0);
    *b = ts_node_named_child(cmp, 1);
    return true;
}

char *gb_call_args_text(TSNode call, const char *src)
{
    TSNode args = gb_node_field(call, "arguments");
    uint32_t s = ts_node_start_byte(args), e = ts_node_end_byte(args);
    if (e - s < 2) return gb_strdup("");
    return gb_strndup(src + s + 1, e - s - 2);
}

/* The name a call calls when it is the entry point, `candidate` or `f` (owned), else NULL. */
static char *gb_calls__callee(TSNode call, const char *src, const char *entry)
{
    TSNode fn = gb_node_field(call, "function");
    if (!gb_node_is_kind(fn, GB_NK_IDENTIFIER)) return NULL;
    if (!gb_node_is_kind(gb_node_field(call, "arguments"), GB_NK_ARGUMENT_LIST)) return NULL;
    if ((entry && gb_node_text_eq(fn, src, entry)) || gb_node_text_eq(fn, src, "candidate") ||
        gb_node_text_eq(fn, src, "f"))
        return gb_node_text(fn, src);
    return NULL;
}

/* expected_of: the call that is the left operand of the assert being walked, with its EXPECTED
 * node (null when none). */
static void gb_calls__collect(TSParser *parser, TSNode n, const char *src, const char *entry, TSNode direct,
                              TSNode expected, int depth, GbCallList *out)
{
    /* the tests are untrusted text: no call is looked for deeper than a literal may nest */
    if (depth > GB_CALLS_MAX_DEPTH) return;
    if (gb_node_is_kind(n, GB_NK_ASSERT_STATEMENT) && ts_node_named_child_count(n) >= 1) {
        TSNode a, b;
        if (gb_call_eq_operands(ts_node_named_child(n, 0), src, &a, &b) && gb_node_is_kind(a, GB_NK_CALL)) {
            direct = a;
            expected = b;
        }
    }
    if (gb_node_is_kind(n, GB_NK_CALL)) {
        char *callee = gb_calls__callee(n, src, entry);
        if (callee) {
            char *args = gb_call_args_text(n, src);
            char why[160];
            if (gb_literal_args_ok(parser, args, why, sizeof why)) {
                GbCall c = {callee, args, NULL, ts_node_start_point(n).row + 1};
                if (ts_node_eq(n, direct) && !ts_node_is_null(expected)) {
                    char *exp = gb_node_text(expected, src);
                    if (gb_literal_ok(parser, exp, why, sizeof why))
                        c.expected = exp;
                    else
                        free(exp);
                }
                gb_array_push(out, c);
                return; /* literal arguments hold no further call of interest */
            }
            free(args);
            free(callee);
        }
    }
    uint32_t nc = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < nc; i++)
        gb_calls__collect(parser, ts_node_named_child(n, i), src, entry, direct, expected, depth + 1, out);
}

void gb_calls_extract(TSParser *parser, const GbTask *t, GbCallList *out)
{
    if (t->kind != GB_TESTS_ASSERT || !t->test_code) return;
    TSTree *tree = gb_parse(parser, t->test_code, strlen(t->test_code));
    TSNode none = {0};
    gb_calls__collect(parser, ts_tree_root_node(tree), t->test_code, t->entry_point, none, none, 0, out);
    ts_tree_delete(tree);
}

void gb_call_list_destroy(GbCallList *l)
{
    for (size_t i = 0; i < l->len; i++) {
        free(l->items[i].callee);
        free(l->items[i].args);
        free(l->items[i].expected);
    }
    gb_array_free(l);
}
