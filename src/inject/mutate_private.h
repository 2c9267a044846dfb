#pragma once
/* Private to src/inject/: what the mutation files share (mutate.c was split along its five
 * operators). Nothing outside src/inject/ includes this header; the public API is
 * src/inject/mutate.h.
 *
 *   mutate.c             operator names, sites, applying, signatures, matching
 *   mutate_source.c      tree helpers, statement normalisation, statements, literal values
 *   mutate_candidates.c  candidates of an operator and the refused contexts
 *   mutate_variant.c     the edits of a site, applied and re-parsed
 *   mutate_arith.c       M1 arith
 *   mutate_compare.c     M2 compare
 *   mutate_condition.c   M3 condition
 *   mutate_return.c      M4 return
 *   mutate_constant.c    M5 constant */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "src/base/util.h"
#include "src/inject/mutate.h"

typedef struct {
    size_t start, end; /* the simple statement, or the compound statement's header */
    char *norm;        /* owned */
    size_t ordinal;
} GbMutStmt;

typedef struct {
    const char *src;
    size_t len;
    TSTree *tree; /* borrowed: the parse of src */
    TSNode root;
    TSParser *parser;
    GbArray(GbMutStmt) stmts;    /* in source order */
    GbArray(size_t) line_starts; /* byte offset of each line, for tree-sitter points */
} GbMutCtx;

typedef struct {
    int base;       /* 10, 16, 8 or 2 */
    char prefix[3]; /* as written, e.g. "0X" */
    bool upper;     /* hexadecimal digits written in upper case */
    uint64_t value;
} GbMutInt;

enum { GB_MUT__NEGATE = 0, GB_MUT__SWAP = 1 };

typedef struct {
    TSNode node;        /* the targeted node (operator token, condition, value, literal) */
    TSNode left, right; /* operands (M1, M2, M3 swap) */
    int kind;           /* M3: GB_MUT__NEGATE or GB_MUT__SWAP */
    const char *owner;  /* M3 negate: "if", "elif", "while", "comprehension if", "if-else expression" */
    size_t start, end;
    size_t stmt; /* index into ctx stmts, SIZE_MAX when none */
    size_t occurrence;
} GbMutCand;

typedef GbArray(GbMutCand) GbMutCands;

/* The arithmetic operators M1 swaps (NULL-terminated; mutate_arith.c). */
extern const char *const gb_mutate__arith_ops[];

/* ---- mutate_source.c ---- */

bool gb_mutate__ident_char(unsigned char c);
bool gb_mutate__is_any(TSNode n, const char *const *types);
TSNode gb_mutate__field(TSNode n, const char *f);
bool gb_mutate__contains(TSNode outer, TSNode inner);
/* The only named, non-comment child of a parenthesized expression, or the node itself;
 * repeated, so `((x))` gives x. */
TSNode gb_mutate__unparen(TSNode n);
char *gb_mutate__clip(const char *text, size_t len, size_t max);
void gb_mutate__ctx_init(GbMutCtx *c, const char *source, TSTree *tree);
void gb_mutate__ctx_destroy(GbMutCtx *c);
/* Index in c->stmts of the statement that contains n, or SIZE_MAX. */
size_t gb_mutate__stmt_of(const GbMutCtx *c, TSNode n);
bool gb_mutate__parse_int(const char *text, size_t n, GbMutInt *out);
char *gb_mutate__format_int(const GbMutInt *t, uint64_t v);
/* Shortest text that reads back as v, always recognisable as a float. */
char *gb_mutate__format_float(double v);
/* Value of a numeric literal node: integer or float, optionally parenthesised or under a
 * unary + or -. */
bool gb_mutate__numeric_value(const GbMutCtx *c, TSNode n, double *out);
bool gb_mutate__is_string_literal(TSNode n);
/* A value fixed at parse time: number, string, True/False/None, or +-/not of one. */
bool gb_mutate__is_constant(const GbMutCtx *c, TSNode n);
bool gb_mutate__same_text(const GbMutCtx *c, TSNode a, TSNode b);

/* ---- mutate_candidates.c ---- */

bool gb_mutate__refused_context(const GbMutCtx *c, TSNode n);
void gb_mutate__push_cand(GbMutCands *out, TSNode node, TSNode left, TSNode right, int kind, const char *owner);
void gb_mutate__candidates(const GbMutCtx *c, GbMutOp op, GbMutCands *out);

/* ---- mutate_variant.c ---- */

void gb_mutate__variant_destroy(GbMutVariant *v);
/* An edit whose text is padded with a space where it would otherwise glue onto an
 * adjacent identifier or keyword (`if(x)` negated is `if not (x)`, not `ifnot (x)`). */
GbMutEdit gb_mutate__edit(const GbMutCtx *c, size_t start, size_t end, const char *text);
/* Splice sorted, non-overlapping edits into source. Owned result. */
char *gb_mutate__splice(const char *src, size_t len, const GbMutEdit *const *edits, size_t n);
/* Keep the variant when its mutant parses cleanly; otherwise free it. The label is
 * taken (owned). */
void gb_mutate__add_variant(const GbMutCtx *c, GbMutSite *site, char *label, GbMutEdit e0, GbMutEdit *e1);
void gb_mutate__add_replace(const GbMutCtx *c, GbMutSite *site, const char *label, size_t start, size_t end,
                            const char *text);
/* An edit inside a string literal's contents: never padded. */
void gb_mutate__add_content_edit(const GbMutCtx *c, GbMutSite *site, const char *label, size_t start, size_t end,
                                 const char *text);
void gb_mutate__add_wrap(const GbMutCtx *c, GbMutSite *site, const char *label, size_t start, size_t end,
                         const char *before, const char *after);
/* True when op and target fall in the same group of a NULL-terminated list whose groups
 * are separated by "|" entries. */
bool gb_mutate__same_group(const char *const *groups, const char *op, const char *target);

/* ---- mutate_arith.c ---- */

void gb_mutate__variants_arith(const GbMutCtx *c, const GbMutCand *cd, GbMutSite *site);
/* M1 candidates at n: the operator token of an arithmetic binary_operator. */
void gb_mutate__cands_arith(TSNode n, GbMutCands *out);

/* ---- mutate_compare.c ---- */

void gb_mutate__variants_compare(const GbMutCtx *c, const GbMutCand *cd, GbMutSite *site);
/* M2 candidates at n: each comparison operator token of a comparison_operator, with the
 * operands beside it. */
void gb_mutate__cands_compare(TSNode n, GbMutCands *out);

/* ---- mutate_condition.c ---- */

bool gb_mutate__is_primary(TSNode e);
/* `c` -> `not (c)`; a primary `x`, `f(x)`, `(c)` -> `not x`, ...; `not c` -> `c`. */
void gb_mutate__add_negation(const GbMutCtx *c, GbMutSite *site, TSNode e, const char *label_not,
                             const char *label_unnot);
void gb_mutate__variants_condition(const GbMutCtx *c, const GbMutCand *cd, GbMutSite *site);
/* M3 candidates at n: the condition of if/elif/while, a comprehension filter, the test of a
 * conditional expression (negated), or a boolean operator (swapped). */
void gb_mutate__cands_condition(TSNode n, GbMutCands *out);

/* ---- mutate_constant.c ---- */

/* String variants shared by M4 and M5: drop the contents, or append an "X". */
void gb_mutate__variants_string(const GbMutCtx *c, TSNode s, GbMutSite *site);
/* Numeric literal (under optional unary +/-): value +- 1. keep_base writes integers in
 * their original base (M5); allow_negative permits n - 1 < 0 (M4 return values). */
void gb_mutate__variants_number(const GbMutCtx *c, TSNode lit, GbMutSite *site, bool allow_negative);
void gb_mutate__variants_constant(const GbMutCtx *c, const GbMutCand *cd, GbMutSite *site);
/* M5 candidates at n: a number, boolean or string literal. */
void gb_mutate__cands_constant(TSNode n, GbMutCands *out);

/* ---- mutate_return.c ---- */

void gb_mutate__variants_return(const GbMutCtx *c, const GbMutCand *cd, GbMutSite *site);
/* M4 candidates at n: the value of a return statement. */
void gb_mutate__cands_return(TSNode n, GbMutCands *out);
