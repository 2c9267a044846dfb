#pragma once
/* Input / output prediction items and the model's answers (genebench eval).
 *
 * Items: every `assert NAME(ARGS) == EXPECTED` of a task's assert tests, anywhere in the test
 * code (CRUXEval's one line, the asserts inside HumanEval's check()), where NAME is the entry
 * point, `candidate` or `f`, and ARGS and EXPECTED are literal data (gb_answer_literal_ok). One
 * item per such assert.
 *
 * Answers are untrusted: one is inserted into the scoring assert only as a literal-data
 * expression, checked with tree-sitter against a whitelist: constants (numbers, strings
 * without interpolation, True/False/None, ...), lists, tuples, sets, dicts, parentheses,
 * unary + - ~, binary arithmetic / bitwise operators, and calls of the builtin constructors
 * set, frozenset, list, tuple, dict, int, float, complex, str, bytes, bytearray, bool with such
 * arguments. Everything else is refused: names, attributes, subscripts, other calls, lambda,
 * walrus, comparisons, boolean operators, conditionals, comprehensions, f-string
 * interpolations, comments, several statements or expressions. The checked text is then
 * inserted in parentheses, so it is one expression that cannot reach outside its operand.
 *
 * Thread-safety: every function uses the caller's parser (one per thread). */
#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "src/base/util.h"
#include "src/model/task.h"

/* The four tasks of genebench eval: output and input prediction (this header), program repair
 * and Python -> Java translation (src/eval/repair.h, src/eval/java.h). */
typedef enum { GB_EVAL_OUTPUT, GB_EVAL_INPUT, GB_EVAL_REPAIR, GB_EVAL_TRANSLATE } GbEvalMode;

typedef struct {
    char *args;     /* owned: the call's arguments as written, without the parentheses */
    char *expected; /* owned: the expected value as written */
    unsigned line;  /* 1-based line of the assert in the test code */
} GbEvalPair;

typedef GbArray(GbEvalPair) GbEvalPairs;

/* Append the pairs of t's tests to out (nothing for unittest / stdio tests). */
void gb_eval_pairs(TSParser *parser, const GbTask *t, GbEvalPairs *out);
void gb_eval_pairs_destroy(GbEvalPairs *p);

/* True when text is one whitelisted literal-data expression (see above); else false with the
 * reason in why. */
bool gb_answer_literal_ok(TSParser *parser, const char *text, char *why, size_t why_size);
/* True when text is a whitelisted argument list (literal expressions, optionally keyword=
 * literal), written as inside a call's parentheses. */
bool gb_answer_args_ok(TSParser *parser, const char *text, char *why, size_t why_size);

/* Extract the answer from a model's reply: the text between the first [ANSWER] and the next
 * [/ANSWER], else the last ``` fenced block, else the whole reply; in it the last
 * `assert CALL == VALUE` (output mode: VALUE; input mode: CALL's arguments, CALL must call
 * entry or f), else (no assert) the text itself (input mode: a call's arguments when it is a
 * call to entry or f). The result is then checked (gb_answer_literal_ok / _args_ok). Returns
 * true with *answer (owned) on success; false with *answer set to what was extracted (owned,
 * may be NULL) and the reason in why. */
bool gb_answer_extract(TSParser *parser, const char *reply, GbEvalMode mode, const char *entry, char **answer,
                       char *why, size_t why_size);

/* The assert that scores an answer (owned): output mode `assert (EXPECTED) == (ANSWER)`,
 * input mode `assert (EXPECTED) == ENTRY(ANSWER)`, as CRUXEval compares them. */
char *gb_answer_check_code(GbEvalMode mode, const char *entry, const char *expected, const char *answer);

/* The prompt (owned) for one item: the program, then `assert ENTRY(ARGS) == ??` (output) or
 * `assert ENTRY(??) == EXPECTED` (input), asking for the completed assert in [ANSWER] tags. */
char *gb_answer_prompt(GbEvalMode mode, const char *program, const char *entry, const char *args, const char *expected);
