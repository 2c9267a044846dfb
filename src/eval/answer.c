/* Items from assert tests, answer extraction and the whitelist of answers (answer.h). */
#include "src/eval/answer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/python/nodekind.h"
#include "src/model/calls.h"
#include "src/python/pyparse.h"

#define GB_ANSWER_MAX_BYTES 65536

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

/* ---- items ---------------------------------------------------------------------------- */

bool gb_answer_literal_ok(TSParser *parser, const char *text, char *why, size_t why_size)
{
    return gb_literal_ok(parser, text, why, why_size);
}

bool gb_answer_args_ok(TSParser *parser, const char *text, char *why, size_t why_size)
{
    return gb_literal_args_ok(parser, text, why, why_size);
}

static bool gb_answer__callee_ok(TSNode call, const char *src, const char *entry)
{
    TSNode fn = gb_node_field(call, "function");
    if (!gb_node_is_kind(fn, GB_NK_IDENTIFIER)) return false;
    return (entry && gb_node_text_eq(fn, src, entry)) || gb_node_text_eq(fn, src, "candidate") ||
           gb_node_text_eq(fn, src, "f");
}

void gb_eval_pairs(TSParser *parser, const GbTask *t, GbEvalPairs *out)
{
    GbCallList calls = {0};
    gb_calls_extract(parser, t, &calls);
    for (size_t i = 0; i < calls.len; i++) {
        GbCall *c = &calls.items[i];
        if (!c->expected) continue;
        GbEvalPair p = {c->args, c->expected, c->line};
        c->args = c->expected = NULL;
        gb_array_push(out, p);
    }
    gb_call_list_destroy(&calls);
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

bool gb_answer_extract(TSParser *parser, const char *reply, GbAnswerPart part, const char *entry, char **answer,
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
            if (!gb_call_eq_operands(ts_node_named_child(as, 0), block, &a, &b)) {
                failed = true;
                gb_answer__why(why, why_size, "the assert is not `assert CALL == VALUE`");
            } else if (part == GB_ANSWER_VALUE) {
                cand = gb_node_text(b, block);
            } else {
                TSNode call = gb_node_is_kind(a, GB_NK_CALL) ? a : b;
                if (!gb_node_is_kind(call, GB_NK_CALL) || !gb_answer__callee_ok(call, block, entry) ||
                    !gb_node_is_kind(gb_node_field(call, "arguments"), GB_NK_ARGUMENT_LIST)) {
                    failed = true;
                    gb_answer__why(why, why_size, "the assert does not call %s", entry ? entry : "f");
                } else {
                    cand = gb_call_args_text(call, block);
                }
            }
        } else if (part == GB_ANSWER_ARGS && ts_node_child_count(root) == 1 &&
                   ts_node_child_count(ts_node_child(root, 0)) == 1 &&
                   gb_node_is_kind(ts_node_child(ts_node_child(root, 0), 0), GB_NK_CALL) &&
                   gb_answer__callee_ok(ts_node_child(ts_node_child(root, 0), 0), block, entry) &&
                   gb_node_is_kind(gb_node_field(ts_node_child(ts_node_child(root, 0), 0), "arguments"),
                                   GB_NK_ARGUMENT_LIST)) {
            cand = gb_call_args_text(ts_node_child(ts_node_child(root, 0), 0), block);
        } else {
            cand = gb_strdup(block);
        }
        ts_tree_delete(tree);
    }
    free(block);
    if (failed) return false;
    *answer = cand;
    char inner[200];
    bool ok = part == GB_ANSWER_VALUE ? gb_answer_literal_ok(parser, cand, inner, sizeof inner)
                                      : gb_answer_args_ok(parser, cand, inner, sizeof inner);
    if (!ok) gb_answer__why(why, why_size, "refused: %s", inner);
    return ok;
}

/* The arguments (owned) of text when it is one call of entry or f, else NULL. */
static char *gb_answer__call_args(TSParser *parser, const char *text, const char *entry)
{
    TSTree *tree = gb_parse(parser, text, strlen(text));
    TSNode root = ts_tree_root_node(tree);
    char *args = NULL;
    if (ts_node_child_count(root) == 1 && ts_node_child_count(ts_node_child(root, 0)) == 1) {
        TSNode call = ts_node_child(ts_node_child(root, 0), 0);
        if (gb_node_is_kind(call, GB_NK_CALL) && gb_answer__callee_ok(call, text, entry) &&
            gb_node_is_kind(gb_node_field(call, "arguments"), GB_NK_ARGUMENT_LIST))
            args = gb_call_args_text(call, text);
    }
    ts_tree_delete(tree);
    return args;
}

bool gb_answer_extract_cruxeval(TSParser *parser, const char *reply, GbAnswerPart part, const char *entry,
                                char **answer, char *why, size_t why_size)
{
    *answer = NULL;
    const char *t = reply ? reply : "";
    const char *open = strstr(t, "[ANSWER]");
    if (open) t = open + strlen("[ANSWER]");
    const char *close = strstr(t, "[/ANSWER]");
    char *g = gb_strndup(t, close ? (size_t)(close - t) : strlen(t));
    if (strlen(g) > GB_ANSWER_MAX_BYTES) {
        free(g);
        return gb_answer__why(why, why_size, "the answer is longer than %d bytes", GB_ANSWER_MAX_BYTES);
    }
    char *cand;
    const char *eq = strstr(g, "==");
    if (part == GB_ANSWER_VALUE) {
        /* the text between the first == and the next one */
        const char *a = eq ? eq + 2 : g;
        const char *b = eq ? strstr(a, "==") : NULL;
        cand = gb_answer__strip(a, b ? (size_t)(b - a) : strlen(a));
    } else {
        char *call = gb_answer__strip(g, eq ? (size_t)(eq - g) : strlen(g));
        /* CRUXEval's functions are all f; another entry point's assert is read the same way */
        char *head = gb_asprintf("assert %s", entry && !strstr(call, "assert f") ? entry : "f");
        const char *af = strstr(call, head);
        if (af) {
            const char *name = af + strlen("assert ");
            size_t nl = strlen(head) - strlen("assert ");
            char *rest = gb_answer__strip(name + nl, strlen(name + nl));
            char *with_name = gb_asprintf("%.*s%s", (int)nl, name, rest);
            free(rest);
            free(call);
            call = with_name;
        }
        free(head);
        cand = gb_answer__call_args(parser, call, entry);
        if (!cand) {
            *answer = call;
            free(g);
            return gb_answer__why(why, why_size, "the answer is not a call of %s", entry ? entry : "f");
        }
        free(call);
    }
    free(g);
    *answer = cand;
    char inner[200];
    bool ok = part == GB_ANSWER_VALUE ? gb_answer_literal_ok(parser, cand, inner, sizeof inner)
                                      : gb_answer_args_ok(parser, cand, inner, sizeof inner);
    if (!ok) gb_answer__why(why, why_size, "refused: %s", inner);
    return ok;
}

char *gb_answer_check_code(GbAnswerPart part, const char *entry, const char *expected, const char *answer)
{
    if (part == GB_ANSWER_VALUE) return gb_asprintf("assert (%s) == (%s)\n", expected, answer);
    return gb_asprintf("assert (%s) == %s(%s)\n", expected, entry, answer);
}

char *gb_answer_prompt(GbAnswerPart part, const char *program, const char *entry, const char *args,
                       const char *expected)
{
    GbStr s;
    gb_str_init(&s);
    size_t plen = strlen(program);
    const char *nl = plen && program[plen - 1] == '\n' ? "" : "\n";
    if (part == GB_ANSWER_VALUE) {
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
