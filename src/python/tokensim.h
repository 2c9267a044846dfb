#pragma once
/* Lexical token similarity of Python programs: cosine of token-count vectors and Jaccard of
 * token sets. Tokens are the leaves of the tree-sitter-python parse, with comments and line
 * continuations dropped and every string literal (f-strings included) one token, compared
 * by exact text (case kept). Output names this tokenizer (GB_TOKENIZER_NAME) because most
 * differences between tools' numbers come from tokenisation.
 * Thread-safety: pure functions; one TSParser per thread. */
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#define GB_TOKENIZER_NAME                                                                                              \
    "tree-sitter-python 0.23.6 leaves (comments and line continuations dropped, each string literal one "              \
    "token, exact text)"

/* The token texts of source in order, as 64-bit hashes (owned array in *hashes, free()).
 * Returns the number of tokens. */
size_t gb_lex_tokens(TSParser *parser, const char *source, size_t len, uint64_t **hashes);

/* A multiset of tokens: distinct token hashes, sorted, with their counts. */
typedef struct {
    uint64_t *keys;   /* owned */
    uint32_t *counts; /* owned */
    size_t n;         /* distinct tokens */
    size_t total;     /* tokens */
} GbTokenBag;

/* Build the bag of source (caller storage; free with gb_token_bag_destroy). */
void gb_token_bag_init(GbTokenBag *bag, TSParser *parser, const char *source, size_t len);
void gb_token_bag_destroy(GbTokenBag *bag);
/* Cosine of the token-count vectors; 0 when either program has no tokens. */
double gb_token_cosine(const GbTokenBag *a, const GbTokenBag *b);
/* |A ∩ B| / |A ∪ B| of the token sets; 0 when both are empty (GeneBench's convention). */
double gb_token_jaccard(const GbTokenBag *a, const GbTokenBag *b);
