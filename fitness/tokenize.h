#pragma once
/* A C re-implementation of NLTK's `word_tokenize` (NLTK 3.8), which the reference tool used
 * for the readability metrics num_tokens, max_line_tokens and entropy, so that our values and
 * thresholds are on the same scale:
 *   word_tokenize(text) = [t for s in punkt_sentences(text) for t in NLTKWordTokenizer(s)]
 * - NLTKWordTokenizer: every regular-expression pass of NLTK 3.8's destructive tokenizer,
 *   in order (starting quotes, punctuation, brackets, double dashes, ending quotes, clitics,
 *   contractions), then a whitespace split. This part is exact.
 * - Sentence splitting: NLTK's Punkt algorithm (candidate contexts, first and second
 *   annotation pass, boundary realignment) run with a built-in English abbreviation list and
 *   no other trained data. The reference loaded the pickled English Punkt model, which also
 *   holds collocations, frequent sentence starters and orthographic statistics; those only
 *   change decisions after abbreviations, ellipses, initials and numbers, so sentence
 *   boundaries can differ there (rare in code).
 * - Unicode: Python's \w, \d, isupper/islower come from tables generated from Python 3.11's
 *   Unicode database (fitness/unicode_tables.c); \s is str.isspace.
 * A GbTokenizer holds scratch buffers; one per thread. */
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"

typedef struct {
    GbStr a, b;            /* scratch buffers for the regex passes */
    GbArray(size_t) spans; /* sentence spans (start, end pairs) */
    GbArray(size_t) cand;  /* candidate breaks */
} GbTokenizer;

/* Called once per token; tok is not NUL-terminated and only valid during the call. */
typedef void (*GbTokenFn)(void *ctx, const char *tok, size_t len);

void gb_tokenizer_init(GbTokenizer *tk);
void gb_tokenizer_destroy(GbTokenizer *tk);
/* word_tokenize(text[0..len)): calls fn (may be NULL) for each token in order and returns the
 * number of tokens. text must be valid UTF-8 (invalid bytes are treated as single characters). */
size_t gb_word_tokenize(GbTokenizer *tk, const char *text, size_t len, GbTokenFn fn, void *ctx);
/* NLTKWordTokenizer().tokenize(text) alone (one sentence, no Punkt split). */
size_t gb_treebank_tokenize(GbTokenizer *tk, const char *text, size_t len, GbTokenFn fn, void *ctx);
/* The Punkt sentence spans of text: appends start/end byte offsets (pairs) to *spans. */
void gb_punkt_sentences(GbTokenizer *tk, const char *text, size_t len);
