#pragma once
/* Bug-injection mutation operators for program-repair benchmarks. Unlike the
 * hardening operators these are meant to CHANGE behaviour: each one injects a small,
 * plausible bug into Python source, found and edited with tree-sitter (src/python/pyparse.h).
 *
 *   M1 arith      swap an arithmetic operator of a binary_operator: + - * / // %
 *   M2 compare    swap a comparison operator inside a comparison_operator: < <= > >= == !=
 *   M3 condition  negate a condition (`c` -> `not (c)`, `not c` -> `c`) of an if/elif/while,
 *                 a comprehension filter (`... for x in xs if c`) or an if-else expression
 *                 (`a if c else b`), or swap a boolean operator (and <-> or)
 *   M4 return     change the value of `return <expr>` to a different value of the same
 *                 plausible type (see "M4 types" below)
 *   M5 constant   change a literal: integer n -> n+1 / n-1 (n >= 1), float x -> x+1 / x-1,
 *                 string -> empty string / the string with "X" appended, True <-> False
 *
 * A *site* is one place an operator can mutate; each site has one or more *variants*
 * (the concrete replacements). A site is listed only when at least one variant survives
 * the refusal rules below AND the mutated source re-parses without ERROR or MISSING nodes
 * (every variant is re-parsed while the sites are found, and again when applied). On the
 * 60 HumanEval dev programs this lists 1681 mutants, all of which CPython compiles.
 *
 * Refusals (a site or variant that must never be offered):
 *   contexts (all operators): anything inside a decorator; a type annotation (parameter,
 *     return or variable annotation); a parameter default value of any def or lambda
 *     (function signatures are never mutated: tests pin them, and a default is evaluated
 *     once at definition time); an f-string format specifier; a raise statement (only
 *     builds the exception: changing it is equivalent unless a test reads the message);
 *     the message of an assert; an expression statement without effect (docstrings, bare
 *     literals, `a + b` with no call/assignment/yield/await); the condition of
 *     `if __name__ == "__main__":` (harness plumbing, not program logic); ERROR subtrees.
 *   M1: `**`, bit and matrix operators are not arithmetic here; augmented assignments are
 *     not binary operators. Trivially equivalent swaps are refused: `x + 0` <-> `x - 0`;
 *     `x * 1`, `x / 1`, `x // 1` among each other (`x * 1.0` <-> `x / 1.0`); `0 * x`, `0 / x`, `0 // x`, `0 % x`
 *     among each other; `x - x` <-> `x % x` and `x / x` <-> `x // x` (same operand text);
 *     two numeric literals whose results are equal (`2 + 2` -> `2 * 2`). `%` next to a string
 *     literal is string formatting, not arithmetic: neither source nor target.
 *   M2: `is`, `is not`, `in`, `not in` are never touched and never offered (`==` -> `is`
 *     would depend on object identity). Equal operand text: `==` `<=` `>=` are all True
 *     and `!=` `<` `>` all False, so swaps within a group are refused. Two numeric literals
 *     with equal results are refused. A `None` operand only allows `==` <-> `!=`.
 *   M3: a constant condition (`while True:`, `if 0:`, `if not None:`, ...) is not negated;
 *     `x and x` <-> `x or x` is refused.
 *   M4: bare `return`, `return None`, tuples (`return a, b`), and values whose type cannot
 *     be inferred are refused (the reference's `return not <anything>` is not type-sane).
 *   M5: imaginary (`1j`) and Python-2 long (`1L`) literals, integers above 2^63, and None.
 *
 * M4 types: literals change by value (numbers +-1, booleans negated, strings as in M5).
 * Other expressions get a type from a small local inference: comparisons, `not`, `and`/
 * `or` of booleans, isinstance/all/any/str.startswith/... are bool; len/int/float/
 * round/sum/abs/ord/str.count/str.find/... and arithmetic on numbers are numeric;
 * str/chr/repr/format/str.join/str.upper/... and string literals are strings; list and
 * list-comprehension displays, list/sorted and str.split/rsplit/splitlines are lists (as are
 * `list`/`List[...]` annotations and `+` of two lists); a variable
 * gets the type all its bindings in the enclosing function agree on (assignments,
 * `x: int` annotations, `for x in range(...)`, `+=` of the same type, walrus), falling
 * back to module-level bindings when the function does not bind it; parameters are
 * unknown unless annotated bool/int/float/str. bool -> `not (e)` (`not e` -> `e` when e is
 * bool, else `bool(e)`); number -> `e + 1`, `e - 1`; string or list -> `e[1:]`.
 *
 * Locating a site again in another version of the program (e.g. the hardened one): a site
 * records its containing statement -- the innermost simple statement, or the header (up to
 * the block) of a compound statement or clause, e.g. `if a < b:` or `elif x:` -- as
 * normalised text (gb_mutate_normalise), the ordinal of that statement among statements
 * with the same normalised text, and the occurrence index of the site among the
 * operator's *candidates* in that statement (candidates are counted before refusals, so a
 * refusal elsewhere does not shift the index). gb_mutate_site_signature() serialises this;
 * gb_mutate_match() finds the same site in another source.
 *
 * All functions are thread-safe (no shared state; a tree-sitter parser is created per
 * call where one is needed). Trees and sources are borrowed. */
#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "src/base/util.h"

/* The operator list, in fixed order (the rng picks by index, so the order is part of
 * reproducibility): X(enum suffix, name, description). */
#define GB_MUTATION_OPS(X)                                                                                             \
    X(ARITH, "arith", "change an arithmetic operator")                                                                 \
    X(COMPARE, "compare", "change a comparison operator")                                                              \
    X(CONDITION, "condition", "negate a condition or swap and/or")                                                     \
    X(RETURN, "return", "change a returned value")                                                                     \
    X(CONSTANT, "constant", "change a constant's value")

typedef enum {
#define GB_MUT__ENUM(id, name, help) GB_MUT_##id,
    GB_MUTATION_OPS(GB_MUT__ENUM)
#undef GB_MUT__ENUM
        GB_MUT_COUNT
} GbMutOp;

/* Name ("arith", ...) of an operator (static string), and the reverse lookup. */
const char *gb_mutate_op_name(GbMutOp op);
const char *gb_mutate_op_help(GbMutOp op);
bool gb_mutate_op_from_name(const char *name, GbMutOp *op);

/* One text edit against the ORIGINAL source: bytes [start, end) become text. start == end
 * is an insertion. */
typedef struct {
    size_t start, end;
    char *text; /* owned */
} GbMutEdit;

/* One concrete mutation at a site: 1 or 2 non-overlapping edits in source order (a
 * negation is two insertions, `not (` and `)`, so an edit inside the condition can be
 * combined with it). */
typedef struct {
    GbMutEdit edits[2];
    size_t nedits;
    char *label; /* owned: short stable code naming the variant, the same for the same
                  * change in any version of the program: "op:-", "op:<=", "negate",
                  * "unnegate", "op:or", "value:6", "plus1", "minus1", "not", "bool",
                  * "drop-first", "empty", "append-X", "true", "false" */
} GbMutVariant;

typedef struct {
    GbMutOp op;
    size_t start, end;              /* the targeted node: operator token, condition, returned value or literal */
    unsigned line, column;          /* of start: line 1-based, column 0-based in bytes (like Python's ast) */
    char *original;                 /* owned: source[start, end) */
    char *description;              /* owned: human-readable, e.g. "line 3, column 13: arithmetic operator `+`" */
    size_t stmt_start, stmt_end;    /* containing statement (header only for compound statements) */
    char *statement;                /* owned: normalised text of the containing statement */
    size_t stmt_ordinal;            /* index among statements with the same normalised text, source order */
    size_t occurrence;              /* index among the operator's candidates in that statement, source order */
    GbArray(GbMutVariant) variants; /* at least one for a listed site */
} GbMutSite;

typedef GbArray(GbMutSite) GbMutSites;

/* Append every site of operator op in source (NUL-terminated; tree is its parse, borrowed)
 * to sites, in source order. Returns the number appended (0 is a normal result). Each
 * variant is validated by an incremental reparse of the edited tree, so a program that
 * already has syntax errors yields no sites. */
size_t gb_mutate_find_sites(const char *source, TSTree *tree, GbMutOp op, GbMutSites *sites);

/* Free what a site owns / every site and the array (caller storage; NULL-safe). */
void gb_mutate_site_destroy(GbMutSite *site);
void gb_mutate_sites_destroy(GbMutSites *sites);
/* Deep copy (caller storage). */
void gb_mutate_site_copy(GbMutSite *dst, const GbMutSite *src);

/* Apply variant `variant` of site to source (the source the site was found in). On
 * success *new_source is an owned string. Fails (false, err filled) when the site does
 * not match the source, the variant index is out of range, or the mutant does not parse. */
bool gb_mutate_apply(const char *source, const GbMutSite *site, size_t variant, char **new_source, GbError *err);

/* A higher-order mutant: apply variants[i] of sites[i] for i < n, all found in the same
 * source, at once. Fails when two edits overlap (one mutation inside text another one
 * replaces, or two insertions at the same point) or the result does not parse. */
bool gb_mutate_apply_many(const char *source, const GbMutSite *const *sites, const size_t *variants, size_t n,
                          char **new_source, GbError *err);

/* Whitespace-insensitive normal form of Python text: comments and line continuations are
 * dropped, whitespace is removed except one space between two identifier/number
 * characters (`not x` stays `not x`, `a = b + 1` becomes `a=b+1`), string literals are
 * kept verbatim. Idempotent. Owned string. */
char *gb_mutate_normalise(const char *text, size_t len);

/* "<op>:<occurrence>:<stmt_ordinal>:<normalised statement>". Owned string. */
char *gb_mutate_site_signature(const GbMutSite *site);

/* Parsed signature (caller storage; statement owned). */
typedef struct {
    GbMutOp op;
    size_t occurrence;
    size_t stmt_ordinal;
    char *statement;
} GbMutSignature;
bool gb_mutate_signature_parse(const char *signature, GbMutSignature *out);
void gb_mutate_signature_destroy(GbMutSignature *sig);

typedef enum {
    GB_MUT_MATCH_FOUND = 0,     /* *out filled (caller destroys it) */
    GB_MUT_MATCH_NO_STATEMENT,  /* no statement with that text, or fewer than stmt_ordinal + 1 */
    GB_MUT_MATCH_NO_OCCURRENCE, /* the statement has fewer candidates of op */
    GB_MUT_MATCH_REFUSED,       /* the candidate exists but is refused in this source */
} GbMutMatch;

/* Find, in source/tree, the site of op that is the occurrence-th candidate in the
 * stmt_ordinal-th statement whose normalised text equals statement (normalised here, so
 * raw statement text works too). *n_statements (may be NULL) gets how many statements
 * have that text, so a caller can insist on a unique statement. The variants of the found
 * site are those valid in this source; compare labels to pick the same change. */
GbMutMatch gb_mutate_match(const char *source, TSTree *tree, GbMutOp op, const char *statement, size_t occurrence,
                           size_t stmt_ordinal, GbMutSite *out, size_t *n_statements);
/* The same, from a signature string. A malformed signature gives GB_MUT_MATCH_NO_STATEMENT. */
GbMutMatch gb_mutate_match_signature(const char *source, TSTree *tree, const char *signature, GbMutSite *out,
                                     size_t *n_statements);
