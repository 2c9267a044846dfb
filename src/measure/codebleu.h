#pragma once
/* CodeBLEU for Python with the behaviour of the `codebleu` package v0.7.1 (k4black/codebleu,
 * `calc_codebleu(references, predictions, lang="python")`), quirks included:
 *
 *   codebleu = alpha*ngram + beta*weighted_ngram + gamma*syntax + delta*(dataflow or 1)
 *
 * - ngram: corpus BLEU-4 over whitespace tokens (`s.strip().split()`, no lexing), precision
 *   clipped by the maximum count in any reference, brevity penalty with the closest
 *   reference length, Chen-Cherry method1 smoothing (0.1 added to zero numerators).
 * - weighted_ngram: a *recall* (reference n-gram counts clipped by hypothesis counts, summed
 *   over references); unigrams weigh 1 for the 38 Python keywords and 0.2 otherwise; the
 *   brevity penalty sees every reference as 2 tokens long (the package hands
 *   `[tokens, weights]` pairs to closest_ref_length), so it is 1 unless the hypothesis has
 *   at most 2 tokens.
 * - syntax: comments and docstrings removed (a port of the package's tokenize-based
 *   remove_comments_and_docstrings, Python 3.11 tokenize rules), both sides parsed with
 *   tree-sitter-python; the subtrees are the root and every node with children, each
 *   compared as its S-expression (ts_node_string(), taken from the root's string: see
 *   codebleu_syntax.c about a 0.20.7 runtime bug in per-node strings); score = #(reference
 *   subtrees whose S-expression occurs anywhere in the hypothesis) / #(reference subtrees):
 *   set membership, not clipped counts.
 * - dataflow: a port of the package's DFG_python (assignments, augmented assignments,
 *   for_in_clause, default_parameter, if-branch state merge, for/while bodies walked twice,
 *   comesFrom/computedFrom edges), nodes kept only when in an edge, merged by token index,
 *   variables renamed var_0.. by first appearance, items matched as a multiset.
 *   With no reference data flow in the whole corpus the score is 0, and CodeBLEU then uses
 *   1 in its place (`dataflow_match_score or 1`, which also turns a genuine 0/N into 1).
 *   `strict_dataflow` turns that rule off (CodeXGLUE's behaviour: the 0 is used as is).
 *
 * Everything is micro-averaged over a corpus (sums of numerators and denominators), as the
 * package does when given lists; for one pair use a one-element corpus.
 *
 * Deviations (all documented in the codebleu_*.c files where they arise): where the package orders a
 * merged list through a Python set (hash-randomised per process, so the package itself is
 * not deterministic there) we use first-appearance order; a data-flow walk that exceeds a
 * work budget (the package is exponential in loop nesting) or Python's recursion limit gives
 * an empty data-flow graph for that program, as an exception does in the package.
 *
 * Thread-safety: documents are immutable after creation and may be shared; each thread
 * needs its own TSParser. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "src/base/util.h"

typedef struct {
    double alpha, beta, gamma, delta; /* weights of ngram, weighted ngram, syntax, dataflow */
    bool strict_dataflow;             /* false: the package's `or 1` rule */
} GbCodeBleuOptions;

/* alpha = beta = gamma = delta = 0.25, strict_dataflow = false. */
void gb_codebleu_options_default(GbCodeBleuOptions *o);
/* Parse "a,b,c,d" (four non-negative numbers) into the weights; false on bad text. */
bool gb_codebleu_parse_weights(const char *text, GbCodeBleuOptions *o);

typedef struct {
    double codebleu;
    double ngram;          /* ngram_match_score */
    double weighted_ngram; /* weighted_ngram_match_score */
    double syntax;         /* syntax_match_score */
    double dataflow;       /* dataflow_match_score as the package returns it (0 when undefined) */
    bool dataflow_defined; /* false when no reference had any data flow */
} GbCodeBleuScore;

/* A program prepared once for any number of comparisons: whitespace tokens and their
 * n-grams, subtree S-expression hashes, normalised data-flow items. */
typedef struct GbCodeBleuDoc GbCodeBleuDoc;

/* Prepare source (NUL-terminated, UTF-8). parser: the caller's (one per thread). Owned
 * result; never NULL. */
GbCodeBleuDoc *gb_codebleu_doc_new(TSParser *parser, const char *source);
void gb_codebleu_doc_delete(GbCodeBleuDoc *d);
/* True when the data-flow walk of this document hit the work budget or the recursion limit
 * (its data-flow graph is then empty). */
bool gb_codebleu_doc_dataflow_truncated(const GbCodeBleuDoc *d);

/* Sufficient statistics of a corpus; start from all zero ({0}) and add pairs. */
typedef struct {
    double bleu_num[4], bleu_den[4];
    double bleu_hyp_len, bleu_ref_len;
    double w_num[4], w_den[4];
    double w_hyp_len, w_ref_len;
    double syntax_match, syntax_total;
    double df_match, df_total;
} GbCodeBleuStats;

/* Add one hypothesis with its references (nrefs >= 1). parser is needed only when nrefs > 1:
 * the package strips comments from the hypothesis once more for every further reference
 * (remove_comments_and_docstrings is not idempotent), which we reproduce. */
void gb_codebleu_stats_add(GbCodeBleuStats *acc, TSParser *parser, const GbCodeBleuDoc *hyp,
                           const GbCodeBleuDoc *const *refs, size_t nrefs);
/* Combine two statistics (acc += other). */
void gb_codebleu_stats_merge(GbCodeBleuStats *acc, const GbCodeBleuStats *other);
/* The scores of a corpus. */
void gb_codebleu_score(const GbCodeBleuStats *s, const GbCodeBleuOptions *o, GbCodeBleuScore *out);

/* Convenience: CodeBLEU of one prediction against one or more references (strings). */
void gb_codebleu_pair(TSParser *parser, const char *prediction, const char *const *references, size_t nrefs,
                      const GbCodeBleuOptions *o, GbCodeBleuScore *out);

/* The package's remove_comments_and_docstrings(source, "python"): Python 3.11 tokenize
 * rules; comments dropped, a string token dropped when it follows INDENT or NEWLINE or
 * starts at column 0, whitespace-only lines removed, lines joined with "\n". Returns an
 * owned string, or NULL when Python's tokenize would raise (unterminated multi-line string
 * or statement at end of input, inconsistent dedent); the package then keeps the source. */
char *gb_codebleu_strip_comments(const char *source, size_t len);

/* The 38 keywords of the package's keywords/python.txt (weight 1 in weighted_ngram). */
bool gb_codebleu_is_keyword(const char *tok, size_t len);

/* For tests: the hashes of the S-expressions of the root and of every node with children,
 * taken from the root's S-expression (exact == false; what CodeBLEU uses) or with one
 * ts_node_string() per node (exact == true; the fallback, which in the 0.20.7 runtime
 * mis-prints aliased blocks such as that of `if x: continue`). Sorted; owned array in *out.
 * Returns the count, or SIZE_MAX (and *out NULL) when the root's string cannot be split
 * (quoted MISSING/UNEXPECTED text). */
size_t gb_codebleu_subtree_hashes(TSParser *parser, const char *code, bool exact, uint64_t **out);
