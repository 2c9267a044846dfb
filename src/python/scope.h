#pragma once
/* Scope analysis of one Python module, computed on its tree-sitter tree.
 *
 * Scopes follow Python 3.11 rules: the module, every class body, function, lambda and
 * comprehension (list/set/dict comprehensions and generator expressions) is a scope.
 * - A def's decorators, default values and annotations, and a class's bases, belong to the
 *   enclosing scope; the first iterable of a comprehension is evaluated in the enclosing scope.
 * - Class scopes do not enclose methods: a name in a method never resolves to the class body.
 * - `global`/`nonlocal` declarations redirect bindings; a walrus (`:=`) inside a comprehension
 *   binds in the nearest enclosing function or module scope.
 * - `del x`, augmented assignment (reads and writes), for/with/except targets, imports, def and
 *   class names, match captures and parameters all bind.
 *
 * A GbScopes is an immutable value after gb_scopes_new: it may be read from several threads.
 * It borrows nothing: the source text and tree may be freed after it is built (TSNodes are
 * not kept; positions are byte offsets into the source it was built from). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "src/base/util.h"

typedef enum {
    GB_SCOPE_MODULE,
    GB_SCOPE_CLASS,
    GB_SCOPE_FUNCTION,
    GB_SCOPE_LAMBDA,
    GB_SCOPE_COMPREHENSION
} GbScopeKind;

/* Flags of a name within one scope (GbScopeName.flags). */
enum {
    GB_NAME_READ = 1u << 0,       /* loaded somewhere in this scope's own code */
    GB_NAME_PARAM = 1u << 1,      /* a parameter (function/lambda) */
    GB_NAME_ASSIGN = 1u << 2,     /* target of =, annotated =, walrus, for, with-as, except-as, match capture */
    GB_NAME_AUG = 1u << 3,        /* target of an augmented assignment (also READ and ASSIGN) */
    GB_NAME_DEF = 1u << 4,        /* bound by def or class */
    GB_NAME_IMPORT = 1u << 5,     /* bound by import */
    GB_NAME_DEL = 1u << 6,        /* deleted by del */
    GB_NAME_GLOBAL = 1u << 7,     /* declared `global` in this scope */
    GB_NAME_NONLOCAL = 1u << 8,   /* declared `nonlocal` in this scope */
    GB_NAME_CAPTURED = 1u << 9,   /* a local read or written by a nested function/lambda/comprehension (a cell) */
    GB_NAME_ANNOTATED = 1u << 10, /* `x: T` without a value (binds nothing at run time, but makes x local) */
};
/* Any flag that makes a name local to a function scope (unless declared global/nonlocal). */
#define GB_NAME_BINDS                                                                                                  \
    (GB_NAME_PARAM | GB_NAME_ASSIGN | GB_NAME_AUG | GB_NAME_DEF | GB_NAME_IMPORT | GB_NAME_DEL | GB_NAME_ANNOTATED)

typedef struct {
    char *name; /* owned */
    unsigned flags;
} GbScopeName;

typedef struct {
    GbScopeKind kind;
    int parent;                    /* index of the enclosing scope; -1 for the module */
    uint32_t node_start, node_end; /* byte range of the defining node (whole def/class/lambda/comprehension) */
    uint32_t start, end;           /* byte range of the code that runs in this scope (def: parameters..body) */
    uint32_t skip_start, skip_end; /* comprehension: its first iterable, which runs in the parent (else 0,0) */
    char *name;                    /* owned: def/class name; NULL for others */
    bool star_import;              /* module: has `from m import *` (any name may be bound) */
    bool dynamic;                  /* calls locals()/vars()/eval()/exec() or uses super() without arguments */
    bool is_async;                 /* async def */
    bool is_generator;             /* function/lambda body contains yield (not in nested scopes) */
    GbArray(GbScopeName) names;    /* sorted by name */
} GbScope;

typedef struct {
    GbArray(GbScope) scopes; /* scopes.items[0] is the module; a parent always precedes its children */
} GbScopes;

/* Analyse a parsed module. Returns an owned value (gb_scopes_delete). Parse errors are
 * tolerated (ERROR subtrees are skipped); callers normally refuse modules with errors. */
GbScopes *gb_scopes_new(TSTree *tree, const char *src);
void gb_scopes_delete(GbScopes *s);

/* Index of the innermost scope whose own code contains byte offset pos. */
int gb_scopes_at(const GbScopes *s, uint32_t pos);
/* The name entry of a scope, or NULL (borrowed). */
const GbScopeName *gb_scope_name(const GbScope *scope, const char *name);

typedef enum {
    GB_RESOLVE_LOCAL,   /* bound in this (function/lambda/comprehension/class) scope */
    GB_RESOLVE_GLOBAL,  /* module scope: bound there, or declared global */
    GB_RESOLVE_FREE,    /* bound in an enclosing function scope (a closure variable) */
    GB_RESOLVE_BUILTIN, /* bound nowhere in the module: a builtin or an undefined name */
    GB_RESOLVE_UNKNOWN  /* bound nowhere visible but the module has a star import */
} GbResolution;

/* How `name` used in scope `scope` resolves. *def_scope gets the index of the scope that
 * holds the binding (the module for GLOBAL/BUILTIN/UNKNOWN). def_scope may be NULL. */
GbResolution gb_scopes_resolve(const GbScopes *s, int scope, const char *name, int *def_scope);
/* True when `name` resolves to the same variable from both scopes. */
bool gb_scopes_same_variable(const GbScopes *s, int scope_a, int scope_b, const char *name);

/* Effects of a piece of code (usually one statement) in the scope that contains it. */
enum {
    GB_FX_CALL = 1u << 0,        /* contains a call: may write any global, attribute or element */
    GB_FX_YIELD = 1u << 1,       /* yield / yield from (in this scope) */
    GB_FX_AWAIT = 1u << 2,       /* await, async for, async with (in this scope) */
    GB_FX_RETURN = 1u << 3,      /* return (in this scope) */
    GB_FX_BREAK = 1u << 4,       /* a break that leaves the analysed code (targets an outer loop) */
    GB_FX_CONTINUE = 1u << 5,    /* a continue that leaves the analysed code */
    GB_FX_RAISE = 1u << 6,       /* raise or assert */
    GB_FX_GLOBAL = 1u << 7,      /* a global declaration */
    GB_FX_NONLOCAL = 1u << 8,    /* a nonlocal declaration */
    GB_FX_DEL = 1u << 9,         /* del of a name */
    GB_FX_ATTR_WRITE = 1u << 10, /* assigns or deletes an attribute */
    GB_FX_ITEM_WRITE = 1u << 11, /* assigns or deletes a subscript */
    GB_FX_DEFINES = 1u << 12,    /* contains a def, class, lambda or comprehension */
    GB_FX_IMPORT = 1u << 13,     /* an import */
    GB_FX_STAR_IMPORT = 1u << 14,
    GB_FX_DYNAMIC = 1u << 15,    /* locals()/vars()/eval()/exec()/globals()/super() */
    GB_FX_BARE_RAISE = 1u << 16, /* a bare `raise` that is not inside an except handler of the code */
};

/* A sorted list of unique owned names. */
typedef GbArray(char *) GbNames;
void gb_names_destroy(GbNames *n);
bool gb_names_has(const GbNames *n, const char *name);
/* Insert a copy of name, keeping the list sorted and unique. */
void gb_names_add(GbNames *n, const char *name);

typedef struct {
    GbNames reads;  /* loaded by the code, including free reads of nested scopes */
    GbNames writes; /* bound or deleted in the code's scope */
    unsigned flags; /* GB_FX_* */
} GbEffects;

void gb_effects_init(GbEffects *e);
void gb_effects_destroy(GbEffects *e);
bool gb_effects_reads(const GbEffects *e, const char *name);
bool gb_effects_writes(const GbEffects *e, const char *name);

/* Compute the effects of node (a statement or expression of the module s was built from).
 * Names bound in nested scopes are not writes of the code; names such a nested scope reads
 * from outside are reads (conservatively, as if the nested code ran). */
void gb_scopes_effects(const GbScopes *s, const char *src, TSNode node, GbEffects *out);

/* Names that may be read after the consecutive statements first..last (same block) before
 * being rebound, conservatively: every name that is not a plain local of the enclosing
 * function (module/class names, globals, nonlocals, cells) is live; a function local is live
 * when some code after `last` in the function (or anywhere in an enclosing loop of the
 * function) reads it; with locals()/eval() in the function everything is live. Only names
 * in `candidates` are tested; live ones are appended (copied) to out. */
void gb_scopes_live_after(const GbScopes *s, const char *src, TSNode first, TSNode last, const char *const *candidates,
                          size_t n_candidates, GbNames *out);

/* One occurrence of a variable name in the module: a read (GB_NAME_READ) or a binding
 * (one of GB_NAME_PARAM, ASSIGN, AUG, DEF, IMPORT, DEL, ANNOTATED, GLOBAL, NONLOCAL). An
 * augmented assignment target occurs twice (READ, then AUG). Attribute names, keyword-argument
 * names and import module paths are not variable occurrences. A walrus inside a comprehension
 * occurs as GLOBAL/NONLOCAL in each comprehension and as ASSIGN in the scope it binds in, all
 * at the same position. */
typedef struct {
    int scope;           /* scope the occurrence belongs to */
    uint32_t start, end; /* byte range of the identifier */
    unsigned flag;
} GbOccurrence;
typedef GbArray(GbOccurrence) GbOccurrences;

/* Every occurrence in the module s was built from (root = its tree's root), in walk order. */
void gb_scopes_occurrences(const GbScopes *s, const char *src, TSNode root, GbOccurrences *out);

/* Python keywords (including the soft keywords match, case, type and _) and builtins. */
bool gb_python_is_keyword(const char *name);
bool gb_python_is_builtin(const char *name);
