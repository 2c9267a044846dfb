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

/* What a prediction item asks for: the value the call returns (output prediction) or the call's
 * arguments (input prediction). */
typedef enum { GB_ANSWER_VALUE, GB_ANSWER_ARGS } GbAnswerPart;

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
 * `assert CALL == VALUE` (GB_ANSWER_VALUE: VALUE; GB_ANSWER_ARGS: CALL's arguments, CALL must
 * call entry or f), else (no assert) the text itself (GB_ANSWER_ARGS: a call's arguments when it
 * is a call to entry or f). The result is then checked (gb_answer_literal_ok / _args_ok). Returns
 * true with *answer (owned) on success; false with *answer set to what was extracted (owned,
 * may be NULL) and the reason in why. */
bool gb_answer_extract(TSParser *parser, const char *reply, GbAnswerPart part, const char *entry, char **answer,
                       char *why, size_t why_size);

/* CRUXEval's extraction (its direct prompt, gb_eval_cruxeval_prompt): the reply after its first
 * [ANSWER] (when it has one) up to the next [/ANSWER]; GB_ANSWER_VALUE: the text between the
 * first `==` and the next one (all of it without `==`); GB_ANSWER_ARGS: the text before the first
 * `==`, from `assert f` on written as `f...` (`assert ENTRY` when there is no `assert f`), which
 * must be one call of entry or f, its arguments the answer. Stripped of white space, then checked as gb_answer_extract does (CRUXEval would
 * evaluate any expression; the whitelist refuses what is not literal data). Returns as
 * gb_answer_extract. */
bool gb_answer_extract_cruxeval(TSParser *parser, const char *reply, GbAnswerPart part, const char *entry,
                                char **answer, char *why, size_t why_size);

/* The assert that scores an answer (owned): GB_ANSWER_VALUE `assert (EXPECTED) == (ANSWER)`,
 * GB_ANSWER_ARGS `assert (EXPECTED) == ENTRY(ANSWER)`, as CRUXEval compares them. */
char *gb_answer_check_code(GbAnswerPart part, const char *entry, const char *expected, const char *answer);

/* The prompt (owned) for one item: the program, then `assert ENTRY(ARGS) == ??` (GB_ANSWER_VALUE)
 * or `assert ENTRY(??) == EXPECTED` (GB_ANSWER_ARGS), asking for the completed assert in [ANSWER] tags. */
char *gb_answer_prompt(GbAnswerPart part, const char *program, const char *entry, const char *args,
                       const char *expected);
