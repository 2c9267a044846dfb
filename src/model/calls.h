#pragma once
/* Calls of a task's entry point with literal arguments, taken from its assert tests, and the
 * whitelist of literal data (moved here from src/eval/answer.c so that the equivalence gate in
 * nsga2, a lower layer, can use them; src/eval uses them for its prediction items and answers).
 *
 * Literal data (gb_literal_ok): constants (numbers, strings without interpolation,
 * True/False/None, ...), lists, tuples, sets, dicts, parentheses, unary + - ~, binary arithmetic
 * / bitwise operators, and calls of the builtin constructors set, frozenset, list, tuple, dict,
 * int, float, complex, str, bytes, bytearray, bool with such arguments. Everything else is
 * refused: names, attributes, subscripts, other calls, lambda, walrus, comparisons, boolean
 * operators, conditionals, comprehensions, f-string interpolations, comments, several
 * statements or expressions.
 *
 * Thread-safety: every function uses the caller's parser (one per thread). */
#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "src/base/util.h"
#include "src/model/task.h"

/* True when text is one whitelisted literal-data expression; else false with the reason in why. */
bool gb_literal_ok(TSParser *parser, const char *text, char *why, size_t why_size);
/* True when text is a whitelisted argument list (literal expressions, optionally keyword=
 * literal), written as inside a call's parentheses. */
bool gb_literal_args_ok(TSParser *parser, const char *text, char *why, size_t why_size);

/* One call found in the tests. */
typedef struct {
    char *callee;   /* owned: the name called: the entry point, `candidate` or `f` */
    char *args;     /* owned: the arguments as written, without the parentheses (literal data) */
    char *expected; /* owned: EXPECTED of `assert CALL == EXPECTED` when the call is its left
                       operand and EXPECTED is literal data; else NULL */
    unsigned line;  /* 1-based line of the call in the test code */
} GbCall;

typedef GbArray(GbCall) GbCallList;

/* Append to out every call, anywhere in t's assert tests (the `assert f(x) == y` of CRUXEval,
 * the asserts inside HumanEval's check(), `assert f(x)`, `assert not f(x)`,
 * `assert abs(f(x) - y) < 1e-6`, a bare `candidate(x)`, ...), of the entry point, `candidate`
 * or `f` whose arguments are literal data (gb_literal_args_ok), in the order of the test code.
 * Nothing for unittest / stdio tests. */
void gb_calls_extract(TSParser *parser, const GbTask *t, GbCallList *out);
void gb_call_list_destroy(GbCallList *l);

/* The two operands of `A == B` (a comparison with exactly one operator, ==); false otherwise. */
bool gb_call_eq_operands(TSNode cmp, const char *src, TSNode *a, TSNode *b);
/* The arguments of a call node as written, without the parentheses (owned). */
char *gb_call_args_text(TSNode call, const char *src);
