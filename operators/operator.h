#pragma once
/* The operator interface and registry (operators/README.md).
 *
 * An operator is a pair of functions over a GbOpContext:
 *   find:  list ALL sites where the operator is applicable and provably behaviour-preserving.
 *          Pure: it only reads the program (through the context's cached trees and scopes).
 *   apply: transform the program at one of those sites, using the rng only for choices that
 *          cannot change behaviour (shapes, constants, names), and commit the edit with
 *          gb_edits_commit (operators/edit.h), which re-parses and rejects broken results.
 * "No site" is a normal result. Sites are only valid for the program state they were found
 * on: after any edit, find again.
 *
 * Site keys are stable across edits elsewhere in the program: gb_site_key maps the node's
 * start position back through the program's edit history (GbProgram.history) to the position
 * in the original source (or in the text an earlier edit inserted), so a site once transformed
 * keeps its key and gb_op_find_sites never offers it to the same operator again. A node that
 * starts where an edit replaced text (not a pure insertion) keeps the anchor of that text, so
 * renaming a statement's first name does not make the statement new.
 *
 * Thread-safety: a GbOpContext belongs to one thread (it owns tree caches and borrows a
 * TSParser). The registry is immutable and shared. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "operators/operator_list.h"
#include "src/model/program.h"
#include "src/base/rng.h"
#include "src/python/nodekind.h"
#include "src/python/scope.h"
#include "src/model/task.h"
#include "src/base/util.h"

/* One applicable location. */
typedef struct {
    char *key;           /* owned: stable key, e.g. "main.py@o120:for_statement" (see gb_site_key) */
    size_t module;       /* index into ctx->prog->modules */
    uint32_t start, end; /* byte range of the site's node in that module's current source */
    int kind;            /* operator-specific variant (0 when unused) */
    char *name;          /* owned, may be NULL: operator-specific text (e.g. the name to rename) */
} GbSite;

typedef GbArray(GbSite) GbSiteList;
void gb_site_list_init(GbSiteList *l);
void gb_site_list_destroy(GbSiteList *l);
/* Remove all sites (keeps the storage). */
void gb_site_list_clear(GbSiteList *l);

/* Per-module cache entry (private to operators/operator.c). */
typedef struct {
    TSTree *tree;     /* owned, NULL until first asked */
    GbScopes *scopes; /* owned, NULL until first asked */
    bool checked;     /* has_error computed */
    bool has_error;
    bool idents_done;
    GbNames idents; /* every identifier text of the module */
    bool occ_done;
    GbOccurrences occ; /* every name occurrence of the module (gb_scopes_occurrences) */
} GbOpModuleCache;

typedef struct {
    GbProgram *prog;    /* borrowed: apply edits it in place */
    const GbTask *task; /* borrowed, may be NULL: pinned names and test code */
    TSParser *parser;   /* borrowed: this thread's parser */
    /* Private: use the functions below. */
    GbArray(GbOpModuleCache) cache_;
    GbNames test_names_; /* identifiers of the task's tests and its pinned names */
    GbNames reserved_;   /* fresh names handed out by this context */
    bool test_names_done_;
    const char *active_op_; /* set by gb_op_apply while an operator runs */
    const char *active_key_;
    int commits_; /* gb_edits_commit calls during the current gb_op_apply */
} GbOpContext;

/* Caller storage; borrows prog, task (may be NULL) and parser for its whole lifetime. */
void gb_op_ctx_init(GbOpContext *ctx, GbProgram *prog, const GbTask *task, TSParser *parser);
void gb_op_ctx_destroy(GbOpContext *ctx);
/* A module's current source (borrowed; valid until the next edit). */
const char *gb_op_ctx_source(const GbOpContext *ctx, size_t module);
/* The module's parse tree (borrowed, cached until the module is edited). Never NULL. */
TSTree *gb_op_ctx_tree(GbOpContext *ctx, size_t module);
/* True when the module parses without ERROR/MISSING nodes. Operators list no sites in a
 * module that does not. */
bool gb_op_ctx_module_ok(GbOpContext *ctx, size_t module);
/* The module's scope analysis (borrowed, cached until the module is edited). */
const GbScopes *gb_op_ctx_scopes(GbOpContext *ctx, size_t module);
/* Every name occurrence of a module (gb_scopes_occurrences over its whole tree), cached like its
 * scopes. */
const GbOccurrences *gb_op_ctx_occurrences(GbOpContext *ctx, size_t module);
/* Drop the caches of one module / of all modules (the edit layer calls these). */
void gb_op_ctx_invalidate(GbOpContext *ctx, size_t module);
void gb_op_ctx_invalidate_all(GbOpContext *ctx);
/* True when the tests may refer to name: the task's pinned names, its entry point, test
 * class names, and every identifier that occurs in its test code. Operators must not rename,
 * move or change the signature of a pinned definition. */
bool gb_op_ctx_is_pinned(GbOpContext *ctx, const char *name);
/* True when one of the n names is pinned or occurs in some module of the program as an
 * identifier (variable, attribute or keyword name: gb_flow_mentions_any): the program-wide
 * refusal of an operator whose change such a name could observe (recursion limits, frames,
 * pickling). */
bool gb_op_ctx_mentions_any(GbOpContext *ctx, const char *const *names, size_t n);
/* The method definition of a top-level class that node runs in (directly, or in a
 * comprehension of it) when a helper may become a method of that class called as
 * `self.helper(...)`: the method's first parameter is `self`, never rebound, so attribute
 * lookup on `self` finds a fresh name in the class (no instance or base class attribute has
 * it), and the helper's body resolves names as a module-level function would (a method's body
 * never sees the class namespace). Refused: decorated classes and methods (the class name or
 * `self` may be something else), classes with keyword arguments (a metaclass), programs that
 * mention __getattribute__, __init_subclass__ or metaclass, and methods the program also
 * reaches as `K.m` (any object may come as `self`). A null node otherwise. The node is
 * borrowed from the module's cached tree. */
TSNode gb_op_ctx_self_method(GbOpContext *ctx, size_t module, TSNode node);
/* The top-level class that node is in, when a sibling class deriving from it may be defined
 * right after it, for the class's methods to call through: the class is undecorated and has
 * no base classes (deriving from it then runs no code of the program), and its body is only
 * definitions, docstrings, `pass` and assignments without calls, so none of its methods can
 * run before the class statement (and the sibling after it) is complete. ClassEval keeps the
 * sibling (everything from the first `class` line on). A null node otherwise; borrowed. */
TSNode gb_op_ctx_sibling_of(GbOpContext *ctx, size_t module, TSNode node);
/* True when name occurs as an identifier (or attribute/keyword name) in any module of the
 * program or in the tests, or is a keyword, builtin, pinned or already handed out. */
bool gb_op_ctx_name_taken(GbOpContext *ctx, const char *name);
/* A fresh identifier: base itself if free, else base_1, base_2, ... (deterministic); the
 * name is reserved in this context and recorded as synthetic in the program
 * (gb_program_add_synthetic), so that it gets a natural name before output. Owned. */
char *gb_op_ctx_fresh_name(GbOpContext *ctx, const char *base);
/* gb_op_ctx_fresh_name for a name bound at byte offset at of the module: where that is module
 * level, the name is a module constant and base is upper-cased first, as pylint's naming
 * convention expects (a lower-case module-level name bound to a literal is invalid-name). */
char *gb_op_ctx_fresh_name_at(GbOpContext *ctx, size_t module, uint32_t at, const char *base);
/* The named node of the module with exactly this byte range and kind (GB_NK_OTHER: any
 * kind); the outermost such node. Returns a null node (ts_node_is_null) when there is none. */
TSNode gb_op_ctx_node_at(GbOpContext *ctx, size_t module, uint32_t start, uint32_t end, GbNodeKind kind);

/* The stable key of node in module: "<path>@<anchor>:<type>[.<n>][:<tag>]" where anchor is
 * "o<offset>" (position in the module's original text) or "e<i>+<offset>" (inside the text
 * inserted by history entry i), n counts enclosing nodes of the same type that start at the
 * same position, and tag (may be NULL) distinguishes several sites on one node. Owned. */
char *gb_site_key(GbOpContext *ctx, size_t module, TSNode node, const char *tag);
/* Append a site on node (key from gb_site_key; name copied, may be NULL). */
void gb_site_add(GbOpContext *ctx, GbSiteList *out, size_t module, TSNode node, const char *tag, int kind,
                 const char *name);

/* Operator function types. find appends sites to out. apply returns false with err set when
 * the site cannot be transformed after all (the program is then unchanged). */
typedef void (*GbOpFindFn)(GbOpContext *ctx, GbSiteList *out);
typedef bool (*GbOpApplyFn)(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err);

#define GB_OPERATOR(code, Name, snake)                                                                                 \
    void gb_op_##snake##_find(GbOpContext *ctx, GbSiteList *out);                                                      \
    bool gb_op_##snake##_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err);
GB_OPERATOR_LIST
#undef GB_OPERATOR

typedef enum {
#define GB_OPERATOR(code, Name, snake) GB_OP_##code,
    GB_OPERATOR_LIST
#undef GB_OPERATOR
        GB_OP_COUNT
} GbOperatorId;

typedef struct {
    GbOperatorId id;
    const char *code;  /* "S1" */
    const char *name;  /* "AddNestedFor" (recorded in GbProgram.history) */
    const char *snake; /* "add_nested_for" */
    GbOpFindFn find;
    GbOpApplyFn apply;
} GbOperator;

/* The registry (static, in operator_list.h order). */
const GbOperator *gb_operator(GbOperatorId id);
/* By name, snake name or code, case-insensitively ("AddNestedFor", "add_nested_for", "S1"); NULL if unknown. */
const GbOperator *gb_operator_find(const char *name);

/* All sites of op that it was never applied at (history), sorted by module and position,
 * without duplicate keys. out is cleared first. */
void gb_op_find_sites(GbOpContext *ctx, const GbOperator *op, GbSiteList *out);

typedef enum {
    GB_APPLY_OK,      /* the program was transformed */
    GB_APPLY_NO_SITE, /* nothing to do (normal) */
    GB_APPLY_REJECTED /* the operator failed at the site or produced unparsable code; program unchanged */
} GbApplyStatus;

/* Apply op at site (found on the current program). Records the edit in the history under
 * op->name and site->key. */
GbApplyStatus gb_op_apply(GbOpContext *ctx, const GbOperator *op, const GbSite *site, GbRng *rng, GbError *err);
/* Find op's sites and apply it at one chosen by rng. *key_out (may be NULL) gets the key of
 * the chosen site (owned) when one was chosen. */
GbApplyStatus gb_op_apply_random(GbOpContext *ctx, const GbOperator *op, GbRng *rng, char **key_out, GbError *err);
