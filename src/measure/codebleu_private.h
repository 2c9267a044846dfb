#pragma once
/* Private to src/measure/: what the CodeBLEU files share (codebleu.c was split along its four
 * measures). Nothing outside src/measure/ includes this header; the public API is
 * src/measure/codebleu.h.
 *
 *   codebleu.c           documents, statistics of a corpus, scores, options
 *   codebleu_text.c      Python's whitespace and columns, UTF-8, hashing, key counts
 *   codebleu_strip.c     gb_codebleu_strip_comments (Python 3.11's tokenize)
 *   codebleu_ngram.c     n-gram match: whitespace tokens, their n-grams, corpus BLEU-4
 *   codebleu_weighted.c  weighted n-gram match: the keywords and the weighted recall
 *   codebleu_syntax.c    syntax match: subtree S-expressions
 *   codebleu_dataflow.c  dataflow match: the port of DFG_python */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "src/base/util.h"
#include "src/measure/codebleu.h"

typedef GbArray(uint64_t) CbU64Vec;
typedef GbArray(TSNode) CbNodeVec;

/* A key with its multiplicity (and, for unigrams, the package's keyword weight). */
typedef struct {
    uint64_t key;
    uint32_t count;
    float weight;
} CbCount;

struct GbCodeBleuDoc {
    char *clean;    /* what syntax and dataflow see (comments/docstrings removed) */
    size_t ntok;    /* whitespace tokens */
    CbCount *ng[4]; /* n-gram counts, sorted by key; ng[0] carries keyword weights */
    size_t ng_len[4];
    CbCount *subs; /* subtree S-expression hashes with counts */
    size_t nsubs, sub_total;
    CbCount *dfg; /* normalised data-flow items with counts */
    size_t ndfg, dfg_total;
    bool df_truncated;
};

/* ---- codebleu_text.c ---- */

/* Decode one UTF-8 code point at s (len bytes available); *adv gets its byte length.
 * Invalid bytes decode as themselves, one byte long. */
uint32_t cb__decode(const unsigned char *s, size_t len, size_t *adv);
/* Python's str.isspace() / str.split() whitespace (Py_UNICODE_ISSPACE). */
bool cb__py_space(uint32_t c);
/* Python's s.strip(): the byte range [*a, *b) of s without leading/trailing whitespace. */
void cb__py_strip(const char *s, size_t len, size_t *a, size_t *b);
/* True when s[0, len) is whitespace only (Python's `line.strip() == ""`). */
bool cb__blank(const char *s, size_t len);
/* Number of code points in s[0, off): Python's str columns. */
long cb__cp(const char *s, size_t off);
/* A 64-bit mixing function (n-gram keys). */
uint64_t cb__mix(uint64_t x);
int cb__cmp_count(const void *a, const void *b);
int cb__cmp_u64(const void *a, const void *b);
/* Sort keys and collapse equal ones into counts. Returns the number of distinct keys; the
 * owned array in *out. */
size_t cb__count_keys(uint64_t *keys, size_t n, CbCount **out);
/* Count of key in a sorted count array (binary search). */
uint32_t cb__lookup(const CbCount *c, size_t n, uint64_t key);
/* Σ over a's keys of min(count_a, count_b) (both sorted). */
size_t cb__clipped(const CbCount *a, size_t na, const CbCount *b, size_t nb);

/* ---- codebleu_ngram.c ---- */

/* The whitespace tokens of stripped (s.split()) into d->ntok and d->ng[0..3] (unigrams with
 * their keyword weights). */
void cb__doc_ngrams(GbCodeBleuDoc *d, const char *stripped, size_t len);
/* BLEU statistics of hyp against refs: n-grams clipped by their maximum count in any
 * reference, the closest reference length. */
void cb__ngram_add(GbCodeBleuStats *acc, const GbCodeBleuDoc *hyp, const GbCodeBleuDoc *const *refs, size_t nrefs);
/* Corpus BLEU-4 with uniform weights and Chen-Cherry method1 (epsilon 0.1). */
double cb__bleu(const double *num, const double *den, double ref_len, double hyp_len);

/* ---- codebleu_weighted.c ---- */

/* The weighted n-gram recall of hyp against refs, summed over references. */
void cb__weighted_add(GbCodeBleuStats *acc, const GbCodeBleuDoc *hyp, const GbCodeBleuDoc *const *refs, size_t nrefs);

/* ---- codebleu_syntax.c ---- */

/* The hashes of the S-expressions of the root and of every node with children (unsorted). */
void cb__subtrees(TSTree *tree, CbU64Vec *out);
/* Every reference subtree (with multiplicity) found anywhere in the hypothesis. */
void cb__syntax_add(GbCodeBleuStats *acc, const GbCodeBleuDoc *hyp, const GbCodeBleuDoc *ref);

/* ---- codebleu_dataflow.c ---- */

/* get_data_flow + normalize_dataflow: the normalised items of code as hashed keys. Returns
 * false when the walk was aborted (the items are then empty, as in the package). */
bool cb__dataflow_items(TSTree *tree, const char *code, CbU64Vec *items);
/* Multiset match of the data-flow items; references without data flow add nothing. */
void cb__dataflow_add(GbCodeBleuStats *acc, const GbCodeBleuDoc *hyp, const GbCodeBleuDoc *ref);
