/* Items from assert tests, answer extraction and the whitelist of answers (answer.h). */
#include "src/eval/answer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/python/nodekind.h"
#include "src/python/pyparse.h"

#define GB_ANSWER_MAX_BYTES 65536
#define GB_ANSWER_MAX_DEPTH 200

static const char *const gb_answer__ctors[] = {"set",     "frozenset", "list",  "tuple",     "dict", "int", "float",
                                               "complex", "str",       "bytes", "bytearray", "bool", NULL};

static bool gb_answer__why(char *why, size_t size, const char *fmt, ...)
{
    if (why && size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, size, fmt, ap);
        va_end(ap);
    }
    return false;
}

static bool gb_answer__expr_ok(TSNode n, const char *src, int depth, char *why, size_t size);

/* The arguments of a call: literal expressions or keyword=literal. */
static bool gb_answer__arglist_ok(TSNode list, const char *src, int depth, char *why, size_t size)
{
    uint32_t nc = ts_node_named_child_count(list);
    for (uint32_t i = 0; i < nc; i++) {
        TSNode a = ts_node_named_child(list, i);
        if (gb_node_is_kind(a, GB_NK_KEYWORD_ARGUMENT)) {
            TSNode name = gb_node_field(a, "name"), value = gb_node_field(a, "value");
            if (!gb_node_is_kind(name, GB_NK_IDENTIFIER) || ts_node_is_null(value))
                return gb_answer__why(why, size, "a malformed keyword argument");
            if (!gb_answer__expr_ok(value, src, depth + 1, why, size)) return false;
        } else if (!gb_answer__expr_ok(a, src, depth + 1, why, size)) {
            return false;
        }
    }
    return true;
}

static bool gb_answer__expr_ok(TSNode n, const char *src, int depth, char *why, size_t size)
{
    if (depth > GB_ANSWER_MAX_DEPTH) return gb_answer__why(why, size, "nested deeper than %d", GB_ANSWER_MAX_DEPTH);
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
            if (!gb_answer__expr_ok(ts_node_named_child(n, i), src, depth + 1, why, size)) return false;
        return true;
    }
    case GB_NK_CALL: {
        TSNode fn = gb_node_field(n, "function"), args = gb_node_field(n, "arguments");
        if (!gb_node_is_kind(fn, GB_NK_IDENTIFIER)) return gb_answer__why(why, size, "a call of something not a name");
        bool known = false;
        for (size_t i = 0; gb_answer__ctors[i] && !known; i++) known = gb_node_text_eq(fn, src, gb_answer__ctors[i]);
        if (!known) {
            char *name = gb_node_text(fn, src);
            gb_answer__why(why, size, "a call of %.40s (only builtin constructors of data may be called)", name);
            free(name);
            return false;
        }
        if (!gb_node_is_kind(args, GB_NK_ARGUMENT_LIST))
            return gb_answer__why(why, size, "a call with a generator argument");
        return gb_answer__arglist_ok(args, src, depth + 1, why, size);
    }
    case GB_NK_IDENTIFIER: {
        char *name = gb_node_text(n, src);
        gb_answer__why(why, size, "the name %.40s (only literal data is allowed)", name);
        free(name);
        return false;
    }
    default: {
        const char *kn = ts_node_type(n);
        return gb_answer__why(why, size, "%s %s (only literal data is allowed)",
                              gb_node_is_kind(n, GB_NK_INTERPOLATION) ? "an f-string interpolation" : "a node",
                              gb_node_is_kind(n, GB_NK_INTERPOLATION) ? "" : (kn ? kn : "?"));
    }
    }
}

/* Parse text as a module that must be exactly one expression statement with one child;
 * returns that child (the tree in *tree, owned) or a null node with the reason. */
static TSNode gb_answer__single(TSParser *parser, const char *text, TSTree **tree, char *why, size_t size)
{
    TSNode null = {0};
    *tree = NULL;
    size_t len = strlen(text);
    if (len == 0) return gb_answer__why(why, size, "empty"), null;
    if (len > GB_ANSWER_MAX_BYTES) return gb_answer__why(why, size, "longer than %d bytes", GB_ANSWER_MAX_BYTES), null;
    if (!gb_utf8_valid(text, len, NULL)) return gb_answer__why(why, size, "not valid UTF-8"), null;
    if (memchr(text, '\0', len) || strchr(text, '\r') || strchr(text, '\f'))
        return gb_answer__why(why, size, "a control character"), null;
    *tree = gb_parse(parser, text, len);
    unsigned row, col;
    if (gb_tree_has_error(*tree, &row, &col))
        return gb_answer__why(why, size, "not valid Python (line %u column %u)", row + 1, col + 1), null;
    TSNode root = ts_tree_root_node(*tree);
    if (ts_node_child_count(root) != 1)
        return gb_answer__why(why, size, "not a single expression (%u statements or comments)",
                              ts_node_child_count(root)),
               null;
    TSNode st = ts_node_child(root, 0);
    if (!gb_node_is_kind(st, GB_NK_EXPRESSION_STATEMENT) || ts_node_child_count(st) != 1)
        return gb_answer__why(why, size, "not a single expression (a %s)", ts_node_type(st)), null;
    return ts_node_child(st, 0);
}

/* No comment anywhere below n (a comment would swallow the closing parenthesis). */
static bool gb_answer__no_comment(TSNode n)
{
    if (gb_node_is_kind(n, GB_NK_COMMENT) || gb_node_is_kind(n, GB_NK_LINE_CONTINUATION)) return false;
    uint32_t nc = ts_node_child_count(n);
    for (uint32_t i = 0; i < nc; i++)
        if (!gb_answer__no_comment(ts_node_child(n, i))) return false;
    return true;
}

bool gb_answer_literal_ok(TSParser *parser, const char *text, char *why, size_t why_size)
{
    TSTree *tree;
    TSNode e = gb_answer__single(parser, text, &tree, why, why_size);
    bool ok = false;
    if (!ts_node_is_null(e)) {
        if (!gb_answer__no_comment(ts_tree_root_node(tree)))
            gb_answer__why(why, why_size, "a comment or line continuation");
        else
            ok = gb_answer__expr_ok(e, text, 0, why, why_size);
    }
    if (tree) ts_tree_delete(tree);
    return ok;
}

bool gb_answer_args_ok(TSParser *parser, const char *text, char *why, size_t why_size)
{
    if (strlen(text) > GB_ANSWER_MAX_BYTES)
        return gb_answer__why(why, why_size, "longer than %d bytes", GB_ANSWER_MAX_BYTES);
    char *call = gb_asprintf("_gb_call(%s)", text);
    TSTree *tree;
    TSNode e = gb_answer__single(parser, call, &tree, why, why_size);
    bool ok = false;
    if (!ts_node_is_null(e)) {
        TSNode fn = gb_node_field(e, "function"), args = gb_node_field(e, "arguments");
        if (!gb_answer__no_comment(ts_tree_root_node(tree)))
            gb_answer__why(why, why_size, "a comment or line continuation");
        else if (!gb_node_is_kind(e, GB_NK_CALL) || !gb_node_text_eq(fn, call, "_gb_call") ||
                 !gb_node_is_kind(args, GB_NK_ARGUMENT_LIST) || ts_node_end_byte(e) != strlen(call))
            gb_answer__why(why, why_size, "not an argument list");
        else
            ok = gb_answer__arglist_ok(args, call, 0, why, why_size);
    }
    if (tree) ts_tree_delete(tree);
    free(call);
    return ok;
}

/* ---- items ---------------------------------------------------------------------------- */

static bool gb_answer__callee_ok(TSNode call, const char *src, const char *entry)
{
    TSNode fn = gb_node_field(call, "function");
    if (!gb_node_is_kind(fn, GB_NK_IDENTIFIER)) return false;
    return (entry && gb_node_text_eq(fn, src, entry)) || gb_node_text_eq(fn, src, "candidate") ||
           gb_node_text_eq(fn, src, "f");
}

/* The two operands of `A == B` (exactly one operator, ==); false otherwise. */
static bool gb_answer__eq_operands(TSNode cmp, const char *src, TSNode *a, TSNode *b)
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

/* The arguments of a call as written, without the parentheses (owned). */
static char *gb_answer__args_text(TSNode call, const char *src)
{
    TSNode args = gb_node_field(call, "arguments");
    uint32_t s = ts_node_start_byte(args), e = ts_node_end_byte(args);
    if (e - s < 2) return gb_strdup("");
    return gb_strndup(src + s + 1, e - s - 2);
}

static void gb_answer__collect(TSParser *parser, TSNode n, const char *src, const char *entry, GbEvalPairs *out)
{
    if (gb_node_is_kind(n, GB_NK_ASSERT_STATEMENT)) {
        TSNode a, b;
        if (ts_node_named_child_count(n) >= 1 && gb_answer__eq_operands(ts_node_named_child(n, 0), src, &a, &b) &&
            gb_node_is_kind(a, GB_NK_CALL) && gb_answer__callee_ok(a, src, entry) &&
            gb_node_is_kind(gb_node_field(a, "arguments"), GB_NK_ARGUMENT_LIST)) {
            char *args = gb_answer__args_text(a, src), *expected = gb_node_text(b, src);
            char why[160];
            if (gb_answer_args_ok(parser, args, why, sizeof why) &&
                gb_answer_literal_ok(parser, expected, why, sizeof why)) {
                GbEvalPair p = {args, expected, ts_node_start_point(n).row + 1};
                gb_array_push(out, p);
            } else {
                free(args);
                free(expected);
            }
        }
        return;
    }
    uint32_t nc = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < nc; i++) gb_answer__collect(parser, ts_node_named_child(n, i), src, entry, out);
}

void gb_eval_pairs(TSParser *parser, const GbTask *t, GbEvalPairs *out)
{
    if (t->kind != GB_TESTS_ASSERT || !t->test_code) return;
    TSTree *tree = gb_parse(parser, t->test_code, strlen(t->test_code));
    gb_answer__collect(parser, ts_tree_root_node(tree), t->test_code, t->entry_point, out);
    ts_tree_delete(tree);
}

void gb_eval_pairs_destroy(GbEvalPairs *p)
{
    for (size_t i = 0; i < p->len; i++) {
        free(p->items[i].args);
        free(p->items[i].expected);
    }
    gb_array_free(p);
}

/* ---- extraction ------------------------------------------------------------------------ */

static char *gb_answer__strip(const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')) s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r')) n--;
    return gb_strndup(s, n);
}

/* The answer block of a reply (owned). */
static char *gb_answer__block(const char *reply)
{
    const char *a = strstr(reply, "[ANSWER]");
    if (a) {
        a += strlen("[ANSWER]");
        const char *e = strstr(a, "[/ANSWER]");
        return gb_answer__strip(a, e ? (size_t)(e - a) : strlen(a));
    }
    const char *last = NULL, *p = reply;
    const char *open;
    while ((open = strstr(p, "```"))) {
        const char *body = strchr(open + 3, '\n');
        if (!body) break;
        const char *close = strstr(body + 1, "```");
        if (!close) break;
        last = open;
        p = close + 3;
    }
    if (last) {
        const char *body = strchr(last + 3, '\n') + 1;
        const char *close = strstr(body, "```");
        return gb_answer__strip(body, (size_t)(close - body));
    }
    return gb_answer__strip(reply, strlen(reply));
}

static TSNode gb_answer__last_assert(TSNode root)
{
    TSNode found = {0};
    uint32_t nc = ts_node_named_child_count(root);
    for (uint32_t i = 0; i < nc; i++) {
        TSNode c = ts_node_named_child(root, i);
        if (gb_node_is_kind(c, GB_NK_ASSERT_STATEMENT)) found = c;
    }
    return found;
}

bool gb_answer_extract(TSParser *parser, const char *reply, GbEvalMode mode, const char *entry, char **answer,
                       char *why, size_t why_size)
{
    *answer = NULL;
    char *block = gb_answer__block(reply ? reply : "");
    size_t blen = strlen(block);
    char *cand = NULL;
    bool failed = false;
    if (blen > GB_ANSWER_MAX_BYTES) {
        failed = true;
        gb_answer__why(why, why_size, "the answer is longer than %d bytes", GB_ANSWER_MAX_BYTES);
    } else {
        TSTree *tree = gb_parse(parser, block, blen);
        TSNode root = ts_tree_root_node(tree);
        TSNode as = gb_answer__last_assert(root);
        if (!ts_node_is_null(as)) {
            TSNode a, b;
            if (!gb_answer__eq_operands(ts_node_named_child(as, 0), block, &a, &b)) {
                failed = true;
                gb_answer__why(why, why_size, "the assert is not `assert CALL == VALUE`");
            } else if (mode == GB_EVAL_OUTPUT) {
                cand = gb_node_text(b, block);
            } else {
                TSNode call = gb_node_is_kind(a, GB_NK_CALL) ? a : b;
                if (!gb_node_is_kind(call, GB_NK_CALL) || !gb_answer__callee_ok(call, block, entry) ||
                    !gb_node_is_kind(gb_node_field(call, "arguments"), GB_NK_ARGUMENT_LIST)) {
                    failed = true;
                    gb_answer__why(why, why_size, "the assert does not call %s", entry ? entry : "f");
                } else {
                    cand = gb_answer__args_text(call, block);
                }
            }
        } else if (mode == GB_EVAL_INPUT && ts_node_child_count(root) == 1 &&
                   ts_node_child_count(ts_node_child(root, 0)) == 1 &&
                   gb_node_is_kind(ts_node_child(ts_node_child(root, 0), 0), GB_NK_CALL) &&
                   gb_answer__callee_ok(ts_node_child(ts_node_child(root, 0), 0), block, entry) &&
                   gb_node_is_kind(gb_node_field(ts_node_child(ts_node_child(root, 0), 0), "arguments"),
                                   GB_NK_ARGUMENT_LIST)) {
            cand = gb_answer__args_text(ts_node_child(ts_node_child(root, 0), 0), block);
        } else {
            cand = gb_strdup(block);
        }
        ts_tree_delete(tree);
    }
    free(block);
    if (failed) return false;
    *answer = cand;
    char inner[200];
    bool ok = mode == GB_EVAL_OUTPUT ? gb_answer_literal_ok(parser, cand, inner, sizeof inner)
                                     : gb_answer_args_ok(parser, cand, inner, sizeof inner);
    if (!ok) gb_answer__why(why, why_size, "refused: %s", inner);
    return ok;
}

char *gb_answer_check_code(GbEvalMode mode, const char *entry, const char *expected, const char *answer)
{
    if (mode == GB_EVAL_OUTPUT) return gb_asprintf("assert (%s) == (%s)\n", expected, answer);
    return gb_asprintf("assert (%s) == %s(%s)\n", expected, entry, answer);
}

char *gb_answer_prompt(GbEvalMode mode, const char *program, const char *entry, const char *args, const char *expected)
{
    GbStr s;
    gb_str_init(&s);
    size_t plen = strlen(program);
    const char *nl = plen && program[plen - 1] == '\n' ? "" : "\n";
    if (mode == GB_EVAL_OUTPUT) {
        gb_str_appendf(&s,
                       "Here is a Python program and an assertion that calls `%s` on an input. Work out what the "
                       "call returns and replace ?\? with that value, written as a Python literal (a constant, "
                       "list, tuple, dict or set; no variables, no function calls). Answer with the completed "
                       "assertion between [ANSWER] and [/ANSWER], for example:\n"
                       "[ANSWER]\nassert %s(...) == [1, 'a']\n[/ANSWER]\n\n"
                       "[PYTHON]\n%s%sassert %s(%s) == ?\?\n[/PYTHON]\n",
                       entry, entry, program, nl, entry, args);
    } else {
        gb_str_appendf(&s,
                       "Here is a Python program and an assertion about what `%s` returns. Find an input for which "
                       "the call returns the given value and replace ?\? with it, written as Python literals (no "
                       "variables, no function calls). Several inputs may be right; give one. Answer with the "
                       "completed assertion between [ANSWER] and [/ANSWER], for example:\n"
                       "[ANSWER]\nassert %s([3, 4], 'x') == ...\n[/ANSWER]\n\n"
                       "[PYTHON]\n%s%sassert %s(?\?) == %s\n[/PYTHON]\n",
                       entry, entry, program, nl, entry, expected);
    }
    return gb_str_take(&s);
}
