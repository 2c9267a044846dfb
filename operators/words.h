#pragma once
/* Words for the identifiers the structural operators add (helper functions, helper classes and
 * modules, decorators and their parameters), drawn with the operator's rng so that they vary per
 * task and per seed instead of repeating a handful of fixed names across a benchmark. A name
 * says nothing about the transformation (no "passthrough", "wrapper_unchanged", ...); it is a
 * plain verb-noun or noun-kind pair of the vocabulary below. Names are still made fresh by the
 * caller (gb_op_ctx_fresh_name). Thread-safe: the tables are constant. */
#include "src/base/rng.h"

typedef enum {
    GB_WORDS_FUNCTION,  /* snake_case verb_noun: "derive_margin" */
    GB_WORDS_CLASS,     /* CamelCase NounKind: "LedgerRules" */
    GB_WORDS_MODULE,    /* snake_case noun_kind: "ledger_rules" */
    GB_WORDS_DECORATOR, /* snake_case noun_role: "ratio_adapter" */
    GB_WORDS_CALLABLE,  /* a decorator's parameter: "func", "target", ... */
    GB_WORDS_INNER,     /* the decorator's inner function: "wrapper", "invoke", ... */
    GB_WORDS_ARGS,      /* *args: "args", "params", ... */
    GB_WORDS_KWARGS,    /* **kwargs: "kwargs", "options", ... */
    GB_WORDS_RESULT,    /* a returned value: "result", "outcome", ... */
    GB_WORDS_NOUN,      /* a plain noun that no builtin spells: "margin", "ledger", ... */
    GB_WORDS_EXECUTOR,  /* a thread pool: "executor", "pool", "lane", ... */
    GB_WORDS_LOOP_VAR,  /* an unused loop variable, underscore first: "_attempt", "_sweep", ... */
    GB_WORDS_FLAG       /* a loop's state flag or counter: "pending", "first_pass", ... */
} GbWordsKind;

/* A name of that kind (owned), chosen with rng. */
char *gb_words_pick(GbRng *rng, GbWordsKind kind);
