/* S9 ReplaceNumpy: replace a builtin call by its numpy equivalent where the result is provably
 * the same value of the same type.
 *
 * Accepted shapes (np is numpy, imported under a name nothing else uses):
 *   max(a, b, ...) / min(a, b, ...)     -> int(np.max([a, b, ...])), int(np.amin(np.array([...]))),
 *                                          int(np.maximum(a, b)) (two arguments)
 *   max([a, b, ...]) / min((a, b, ...)) -> int(np.max([a, b, ...]))         (non-empty literal)
 *   abs(x), x a small int               -> int(np.abs(x)) / int(np.absolute(x))
 *   abs(x), x a float                   -> float(np.abs(x)) / float(np.fabs(x))
 *   sum(ELEMENTS)                       -> int(np.sum([...]))
 *   sorted(INTS[, reverse=True])        -> np.sort(np.array([...], dtype=np.int64))[::-1].tolist()
 * where the argument of sum/sorted is a list or tuple display, a list comprehension or a
 * generator expression (rewritten as the list comprehension that evaluates the same elements
 * in the same order: sum and sorted consume it at once).
 *
 * Why each is exact: numpy computes on int64 (or float64) arrays. An int64 holds every value
 * the accepted expressions can take (bounds below), so np.max/np.min/np.abs/np.sort give the
 * same integers, and int()/float()/tolist() turn the numpy scalars back into exact int/float
 * objects. np.abs on a float64 is IEEE fabs, exactly abs() (nan, inf, -0.0 included). An empty
 * sum gives 0.0, and int(0.0) == 0 == sum([]); an empty sorted() gives []. max/min are only
 * rewritten with at least one argument known to exist (no ValueError difference); bools are
 * never max/min/sorted elements (True would come back as 1).
 *
 * "Small" integers. Only exact ints count (never bool): integer literals with |v| <= 2**20,
 * len(...), and variables whose every binding (anywhere in the module, closures and global
 * declarations included) is one of: a literal, len(...), a copy of a small variable, a small
 * variable plus or minus a literal, `//` or `%` by a positive literal, min/max of such atoms,
 * `+=`/`-=` of a literal, `//=`/`%=` by a positive literal, or a `for` target over
 * range(...) (one argument, or a start of those shapes and a literal step). A test run is
 * bounded by the runner's CPU limit, in which CPython executes fewer than 2**30 statements,
 * and len() is below 2**33, so every small variable stays below 2**51 and an accepted
 * argument (at most 64 small atoms joined by + and -) below 2**57. Elements of sum() are
 * bools, literals, len(...) or loop counters (a range with one argument, or a literal start
 * and a step of at most 16), so the sum of fewer than 2**28 of them (what fits in the CPU
 * limit) stays below 2**61.
 *
 * Refused: keyword arguments (except sorted's reverse=True), star arguments, key=/default=/
 * start=, anything not proven small (parameters, unpacked values, products, big literals),
 * floats in max/min/sum (NaN ordering and summation order differ), mixed types, strings,
 * names that do not resolve to the builtins (max, int, float, len, range, ...), programs
 * that mention `builtins` or `__builtins__`, and dynamic scopes. */
#include "operators/operator.h"

#include <stdlib.h>
#include <string.h>

#include "operators/edit.h"
#include "operators/infer.h"
#include "src/python/flow.h"
#include "src/python/pyparse.h"

enum {
    GB_S9_MAXMIN = 0,
    GB_S9_MAXMIN_LIST = 1,
    GB_S9_ABS_INT = 2,
    GB_S9_ABS_FLOAT = 3,
    GB_S9_SUM = 4,
    GB_S9_SORTED = 5,
    /* Guarded forms: a module-level helper that checks the argument types at run time. */
    GB_S9_GUARD_MAX = 6,
    GB_S9_GUARD_MIN = 7,
    GB_S9_GUARD_SUM = 8,
    GB_S9_GUARD_ABS = 9,
    GB_S9_GUARD_SORTED = 10
};

#define GB_S9_LIT_MAX (1L << 20)
#define GB_S9_MAX_LEAVES 64

typedef struct {
    char *name;
    int scope;
    GbArray(uint32_t) binds; /* start offsets of binding identifiers */
    GbArray(unsigned) flags;
    bool small;   /* every binding keeps it a small int */
    bool counter; /* every binding is a range loop with a literal start and a step <= 16 */
} GbS9Var;

typedef struct {
    GbOpContext *ctx;
    size_t module;
    const char *src;
    const GbScopes *sc;
    TSNode root;
    GbTypes types;
    GbArray(GbS9Var) vars;
    GbNames in_loops; /* identifiers mentioned inside loops and comprehensions */
    GbCallGraph graph;
} GbS9;

static TSNode gb_s9_unparen(TSNode n)
{
    while (gb_node_is_kind(n, GB_NK_PARENTHESIZED_EXPRESSION) && ts_node_named_child_count(n) == 1)
        n = ts_node_named_child(n, 0);
    return n;
}

/* Decimal integer literal (optionally negated), |v| <= GB_S9_LIT_MAX. */
static bool gb_s9_lit(const GbS9 *a, TSNode n, long *out)
{
    n = gb_s9_unparen(n);
    bool neg;
    n = gb_s9_unparen(gb_node_unminus(n, &neg));
    if (!gb_node_is_kind(n, GB_NK_INTEGER)) return false;
    uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (e - s > 8) return false;
    long v = 0;
    for (uint32_t i = s; i < e; i++) {
        if (a->src[i] < '0' || a->src[i] > '9') return false;
        v = v * 10 + (a->src[i] - '0');
    }
    if (e - s > 1 && a->src[s] == '0') return false;
    if (v > GB_S9_LIT_MAX) return false;
    if (out) *out = neg ? -v : v;
    return true;
}

static bool gb_s9_builtin_at(const GbS9 *a, uint32_t pos, const char *name)
{
    return gb_scopes_resolve(a->sc, gb_scopes_at(a->sc, pos), name, NULL) == GB_RESOLVE_BUILTIN;
}

/* The positional arguments of a call (at most 64; comments skipped), and at most one keyword
 * argument when keyword is not NULL (it stays a null node when there is none). False for
 * star arguments, other keywords, or a call without an argument list. */
static bool gb_s9_positional(TSNode call, TSNode *args, uint32_t *n, TSNode *keyword)
{
    TSNode al = gb_node_field(call, "arguments");
    *n = 0;
    if (keyword) memset(keyword, 0, sizeof *keyword);
    if (!gb_node_is_kind(al, GB_NK_ARGUMENT_LIST)) return false;
    uint32_t c = ts_node_named_child_count(al);
    for (uint32_t i = 0; i < c; i++) {
        TSNode x = ts_node_named_child(al, i);
        if (gb_node_is_kind(x, GB_NK_COMMENT)) continue;
        if (gb_node_is_kind(x, GB_NK_KEYWORD_ARGUMENT)) {
            if (!keyword || !ts_node_is_null(*keyword)) return false;
            *keyword = x;
            continue;
        }
        if (gb_node_is_kind(x, GB_NK_LIST_SPLAT) || gb_node_is_kind(x, GB_NK_DICTIONARY_SPLAT) ||
            gb_node_is_kind(x, GB_NK_PARENTHESIZED_LIST_SPLAT) || *n == 64)
            return false;
        args[(*n)++] = x;
    }
    return true;
}

/* A call of the builtin `name` (the callee is that identifier and resolves to the builtin). */
static bool gb_s9_builtin_call(const GbS9 *a, TSNode call, const char *name)
{
    if (!gb_node_is_kind(call, GB_NK_CALL)) return false;
    TSNode f = gb_node_field(call, "function");
    return gb_node_is_kind(f, GB_NK_IDENTIFIER) && gb_node_text_eq(f, a->src, name) &&
           gb_s9_builtin_at(a, ts_node_start_byte(f), name);
}

static bool gb_s9_len_call(const GbS9 *a, TSNode n)
{
    n = gb_s9_unparen(n);
    TSNode args[64];
    uint32_t k;
    return gb_s9_builtin_call(a, n, "len") && gb_s9_positional(n, args, &k, NULL) && k == 1;
}

static const GbS9Var *gb_s9_var_of(const GbS9 *a, TSNode id)
{
    char *name = gb_node_text(id, a->src);
    int d;
    GbResolution r = gb_scopes_resolve(a->sc, gb_scopes_at(a->sc, ts_node_start_byte(id)), name, &d);
    const GbS9Var *found = NULL;
    if (r == GB_RESOLVE_GLOBAL) d = 0;
    if (r == GB_RESOLVE_LOCAL || r == GB_RESOLVE_FREE || r == GB_RESOLVE_GLOBAL)
        for (size_t i = 0; i < a->vars.len && !found; i++)
            if (a->vars.items[i].scope == d && strcmp(a->vars.items[i].name, name) == 0) found = &a->vars.items[i];
    free(name);
    return found;
}

static bool gb_s9_small_var(const GbS9 *a, TSNode id)
{
    const GbS9Var *v = gb_s9_var_of(a, id);
    return v && v->small;
}

/* An atom of a binding: literal, len(...), or a small variable. */
static bool gb_s9_atom(const GbS9 *a, TSNode n)
{
    n = gb_s9_unparen(n);
    if (gb_s9_lit(a, n, NULL) || gb_s9_len_call(a, n)) return true;
    return gb_node_is_kind(n, GB_NK_IDENTIFIER) && gb_s9_small_var(a, n);
}

static bool gb_s9_pos_lit(const GbS9 *a, TSNode n)
{
    long v;
    return gb_s9_lit(a, n, &v) && v > 0;
}

/* Right-hand sides that keep a variable small (see the header comment). */
static bool gb_s9_step_safe(const GbS9 *a, TSNode e)
{
    e = gb_s9_unparen(e);
    if (gb_s9_atom(a, e)) return true;
    if (gb_node_is_kind(e, GB_NK_BINARY_OPERATOR)) {
        GbNodeKind op = gb_node_kind(gb_node_field(e, "operator"));
        TSNode l = gb_node_field(e, "left"), r = gb_node_field(e, "right");
        if (op == GB_NK_PLUS)
            return (gb_s9_atom(a, l) && gb_s9_lit(a, r, NULL)) || (gb_s9_lit(a, l, NULL) && gb_s9_atom(a, r));
        if (op == GB_NK_MINUS) return gb_s9_atom(a, l) && gb_s9_lit(a, r, NULL);
        if (op == GB_NK_SLASH_SLASH || op == GB_NK_PERCENT) return gb_s9_atom(a, l) && gb_s9_pos_lit(a, r);
        return false;
    }
    if (gb_s9_builtin_call(a, e, "min") || gb_s9_builtin_call(a, e, "max")) {
        TSNode args[64];
        uint32_t k;
        if (!gb_s9_positional(e, args, &k, NULL) || k < 2) return false;
        for (uint32_t i = 0; i < k; i++)
            if (!gb_s9_atom(a, args[i])) return false;
        return true;
    }
    return false;
}

/* A `for` target bound over builtin range(...) that keeps it small; *counter: one argument,
 * or a literal start and a literal step of at most 16. */
static bool gb_s9_range_binding(const GbS9 *a, TSNode loop, bool *counter)
{
    TSNode r = gb_node_field(loop, "right");
    TSNode args[64];
    uint32_t k;
    *counter = false;
    if (!gb_s9_builtin_call(a, r, "range") || !gb_s9_positional(r, args, &k, NULL) || k < 1 || k > 3) return false;
    if (k == 1) {
        *counter = true;
        return true;
    }
    long step = 1;
    if (k == 3 && (!gb_s9_lit(a, args[2], &step) || step == 0)) return false;
    if (!gb_s9_step_safe(a, args[0])) return false;
    *counter = gb_s9_lit(a, args[0], NULL) && step >= -16 && step <= 16;
    return true;
}

/* Does this binding keep its variable small? (*counter: is it a counter binding?) */
static bool gb_s9_binding_ok(const GbS9 *a, uint32_t pos, unsigned flag, bool *counter)
{
    *counter = false;
    TSNode id = ts_node_descendant_for_byte_range(a->root, pos, pos + 1);
    if (!gb_node_is_kind(id, GB_NK_IDENTIFIER)) return false;
    TSNode p = ts_node_parent(id);
    if (flag == GB_NAME_ASSIGN) {
        if (gb_node_is_kind(p, GB_NK_ASSIGNMENT) && ts_node_eq(gb_node_field(p, "left"), id)) {
            if (!ts_node_is_null(gb_node_field(p, "type")) && ts_node_is_null(gb_node_field(p, "right"))) return false;
            TSNode r = gb_node_field(p, "right");
            while (gb_node_is_kind(r, GB_NK_ASSIGNMENT)) r = gb_node_field(r, "right");
            return !ts_node_is_null(r) && gb_s9_step_safe(a, r);
        }
        if (gb_node_is_kind(p, GB_NK_NAMED_EXPRESSION) && ts_node_eq(gb_node_field(p, "name"), id))
            return gb_s9_step_safe(a, gb_node_field(p, "value"));
        if ((gb_node_is_kind(p, GB_NK_FOR_STATEMENT) || gb_node_is_kind(p, GB_NK_FOR_IN_CLAUSE)) &&
            ts_node_eq(gb_node_field(p, "left"), id))
            return gb_s9_range_binding(a, p, counter);
        return false;
    }
    if (flag == GB_NAME_AUG) {
        if (!gb_node_is_kind(p, GB_NK_AUGMENTED_ASSIGNMENT)) return false;
        GbNodeKind op = gb_node_kind(gb_node_field(p, "operator"));
        TSNode r = gb_node_field(p, "right");
        if (op == GB_NK_PLUS_EQ || op == GB_NK_MINUS_EQ) return gb_s9_lit(a, r, NULL);
        if (op == GB_NK_SLASH_SLASH_EQ || op == GB_NK_PERCENT_EQ) return gb_s9_pos_lit(a, r);
        return false;
    }
    return false;
}

static void gb_s9_init(GbS9 *a, GbOpContext *ctx, size_t module)
{
    memset(a, 0, sizeof *a);
    a->ctx = ctx;
    a->module = module;
    a->src = gb_op_ctx_source(ctx, module);
    a->sc = gb_op_ctx_scopes(ctx, module);
    a->root = ts_tree_root_node(gb_op_ctx_tree(ctx, module));
    gb_types_init(&a->types, ctx, module);
    gb_flow_loop_identifiers(a->root, a->src, &a->in_loops);
    gb_callgraph_init(&a->graph, a->root, a->src);
    GbOccurrences occ = {0};
    gb_scopes_occurrences(a->sc, a->src, a->root, &occ);
    for (size_t i = 0; i < occ.len; i++) {
        const GbOccurrence *o = &occ.items[i];
        if (o->flag == GB_NAME_READ || o->flag == GB_NAME_GLOBAL || o->flag == GB_NAME_NONLOCAL) continue;
        char *name = gb_strndup(a->src + o->start, o->end - o->start);
        int d;
        GbResolution r = gb_scopes_resolve(a->sc, o->scope, name, &d);
        if (r == GB_RESOLVE_GLOBAL || r == GB_RESOLVE_BUILTIN || r == GB_RESOLVE_UNKNOWN) d = 0;
        GbS9Var *v = NULL;
        for (size_t k = 0; k < a->vars.len && !v; k++)
            if (a->vars.items[k].scope == d && strcmp(a->vars.items[k].name, name) == 0) v = &a->vars.items[k];
        if (!v) {
            GbS9Var nv;
            memset(&nv, 0, sizeof nv);
            nv.name = name;
            nv.scope = d;
            const GbScope *s = &a->sc->scopes.items[d];
            nv.small = !s->dynamic && !(d == 0 && (s->star_import || gb_op_ctx_is_pinned(ctx, name)));
            gb_array_push(&a->vars, nv);
            v = &a->vars.items[a->vars.len - 1];
        } else {
            free(name);
        }
        gb_array_push(&v->binds, o->start);
        gb_array_push(&v->flags, o->flag);
    }
    gb_array_free(&occ);
    /* Greatest fixpoint: assume small, refute until stable. */
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < a->vars.len; i++) {
            GbS9Var *v = &a->vars.items[i];
            if (!v->small) continue;
            bool all_counter = true;
            for (size_t k = 0; k < v->binds.len && v->small; k++) {
                bool counter;
                if (!gb_s9_binding_ok(a, v->binds.items[k], v->flags.items[k], &counter)) {
                    v = &a->vars.items[i];
                    v->small = false;
                    changed = true;
                }
                all_counter = all_counter && counter;
                v = &a->vars.items[i];
            }
            v->counter = v->small && all_counter;
        }
    }
}

static void gb_s9_destroy(GbS9 *a)
{
    for (size_t i = 0; i < a->vars.len; i++) {
        free(a->vars.items[i].name);
        gb_array_free(&a->vars.items[i].binds);
        gb_array_free(&a->vars.items[i].flags);
    }
    gb_array_free(&a->vars);
    gb_types_destroy(&a->types);
    gb_names_destroy(&a->in_loops);
    gb_callgraph_destroy(&a->graph);
}

/* An argument proven to be a small exact int: small atoms joined by + and -, unary minus,
 * `//`/`%` by a positive literal, at most GB_S9_MAX_LEAVES atoms. */
static bool gb_s9_small_expr(const GbS9 *a, TSNode e, int *leaves)
{
    e = gb_s9_unparen(e);
    if (gb_s9_atom(a, e)) return ++*leaves <= GB_S9_MAX_LEAVES;
    if (gb_node_is_kind(e, GB_NK_UNARY_OPERATOR)) {
        GbNodeKind op = gb_node_kind(ts_node_child(e, 0));
        if (op != GB_NK_MINUS && op != GB_NK_PLUS) return false;
        return gb_s9_small_expr(a, gb_node_field(e, "argument"), leaves);
    }
    if (gb_node_is_kind(e, GB_NK_BINARY_OPERATOR)) {
        GbNodeKind op = gb_node_kind(gb_node_field(e, "operator"));
        TSNode l = gb_node_field(e, "left"), r = gb_node_field(e, "right");
        if (op == GB_NK_PLUS || op == GB_NK_MINUS)
            return gb_s9_small_expr(a, l, leaves) && gb_s9_small_expr(a, r, leaves);
        if (op == GB_NK_SLASH_SLASH || op == GB_NK_PERCENT)
            return gb_s9_pos_lit(a, r) && gb_s9_small_expr(a, l, leaves);
    }
    return false;
}

static bool gb_s9_small_arg(const GbS9 *a, TSNode e)
{
    int leaves = 0;
    return gb_s9_small_expr(a, e, &leaves);
}

/* An element of sum(): a bool, a literal, len(...), a loop counter, or a conditional of those. */
static bool gb_s9_sum_elem(const GbS9 *a, TSNode e)
{
    e = gb_s9_unparen(e);
    if (gb_s9_lit(a, e, NULL) || gb_s9_len_call(a, e)) return true;
    if (gb_node_is_kind(e, GB_NK_IDENTIFIER)) {
        const GbS9Var *v = gb_s9_var_of(a, e);
        if (v && v->counter) return true;
    }
    if (gb_node_is_kind(e, GB_NK_CONDITIONAL_EXPRESSION) && ts_node_named_child_count(e) == 3)
        return gb_s9_sum_elem(a, ts_node_named_child(e, 0)) && gb_s9_sum_elem(a, ts_node_named_child(e, 2));
    /* x % k with a positive literal k lies in [0, k). */
    if (gb_node_is_kind(e, GB_NK_BINARY_OPERATOR) && gb_node_kind(gb_node_field(e, "operator")) == GB_NK_PERCENT)
        return gb_s9_pos_lit(a, gb_node_field(e, "right")) && gb_s9_small_arg(a, gb_node_field(e, "left"));
    return gb_types_expr(&a->types, e) == GB_TY_BOOL;
}

/* The elements of a display or comprehension argument: each `elem` must satisfy pred. Lists
 * and tuples must not use star elements; comprehensions must not be async. *nonempty: a
 * display with at least one element. */
static bool gb_s9_elements(const GbS9 *a, TSNode arg, bool (*pred)(const GbS9 *, TSNode), bool *nonempty)
{
    arg = gb_s9_unparen(arg);
    *nonempty = false;
    if (gb_node_is_kind(arg, GB_NK_LIST) || gb_node_is_kind(arg, GB_NK_TUPLE)) {
        uint32_t c = ts_node_named_child_count(arg);
        for (uint32_t i = 0; i < c; i++) {
            TSNode x = ts_node_named_child(arg, i);
            if (gb_node_is_kind(x, GB_NK_COMMENT)) continue;
            if (gb_node_is_kind(x, GB_NK_LIST_SPLAT) || gb_node_is_kind(x, GB_NK_PARENTHESIZED_LIST_SPLAT) ||
                !pred(a, x))
                return false;
            *nonempty = true;
        }
        return true;
    }
    if (gb_node_is_kind(arg, GB_NK_LIST_COMPREHENSION) || gb_node_is_kind(arg, GB_NK_GENERATOR_EXPRESSION)) {
        uint32_t c = ts_node_named_child_count(arg);
        for (uint32_t i = 0; i < c; i++) {
            TSNode x = ts_node_named_child(arg, i);
            if (gb_node_is_kind(x, GB_NK_FOR_IN_CLAUSE) && gb_node_kind(ts_node_child(x, 0)) == GB_NK_ASYNC)
                return false;
        }
        TSNode body = gb_node_field(arg, "body");
        return !ts_node_is_null(body) && pred(a, body);
    }
    return false;
}

/* The kind of a call whose exactness is proven statically, or -1. */
static int gb_s9_proven_kind(const GbS9 *a, TSNode call)
{
    if (!gb_node_is_kind(call, GB_NK_CALL)) return -1;
    TSNode f = gb_node_field(call, "function");
    if (!gb_node_is_kind(f, GB_NK_IDENTIFIER)) return -1;
    uint32_t pos = ts_node_start_byte(call);
    const GbScope *s = &a->sc->scopes.items[gb_scopes_at(a->sc, pos)];
    if (s->dynamic) return -1;
    TSNode args[64];
    uint32_t n;
    TSNode kw = {0};
    bool nonempty;
    if (gb_s9_builtin_call(a, call, "max") || gb_s9_builtin_call(a, call, "min")) {
        if (!gb_s9_builtin_at(a, pos, "int") || !gb_s9_positional(call, args, &n, NULL)) return -1;
        if (n >= 2) {
            for (uint32_t i = 0; i < n; i++)
                if (!gb_s9_small_arg(a, args[i])) return -1;
            return GB_S9_MAXMIN;
        }
        if (n != 1) return -1;
        TSNode l = gb_s9_unparen(args[0]);
        if ((gb_node_is_kind(l, GB_NK_LIST) || gb_node_is_kind(l, GB_NK_TUPLE)) &&
            gb_s9_elements(a, l, gb_s9_small_arg, &nonempty) && nonempty)
            return GB_S9_MAXMIN_LIST;
        return -1;
    }
    if (gb_s9_builtin_call(a, call, "abs")) {
        if (!gb_s9_positional(call, args, &n, NULL) || n != 1) return -1;
        if (gb_s9_small_arg(a, args[0]) && gb_s9_builtin_at(a, pos, "int")) return GB_S9_ABS_INT;
        if (gb_types_expr(&a->types, args[0]) == GB_TY_FLOAT && gb_s9_builtin_at(a, pos, "float"))
            return GB_S9_ABS_FLOAT;
        return -1;
    }
    if (gb_s9_builtin_call(a, call, "sum")) {
        TSNode al = gb_node_field(call, "arguments");
        TSNode arg;
        if (gb_node_is_kind(al, GB_NK_GENERATOR_EXPRESSION))
            arg = al;
        else if (gb_s9_positional(call, args, &n, NULL) && n == 1)
            arg = args[0];
        else
            return -1;
        if (!gb_s9_builtin_at(a, pos, "int")) return -1;
        return gb_s9_elements(a, arg, gb_s9_sum_elem, &nonempty) ? GB_S9_SUM : -1;
    }
    if (gb_s9_builtin_call(a, call, "sorted")) {
        TSNode al = gb_node_field(call, "arguments");
        TSNode arg;
        if (gb_node_is_kind(al, GB_NK_GENERATOR_EXPRESSION))
            arg = al;
        else if (gb_s9_positional(call, args, &n, &kw) && n == 1)
            arg = args[0];
        else
            return -1;
        if (!ts_node_is_null(kw)) {
            if (!gb_node_text_eq(gb_node_field(kw, "name"), a->src, "reverse") ||
                !gb_node_is_kind(gb_node_field(kw, "value"), GB_NK_TRUE))
                return -1;
        }
        return gb_s9_elements(a, arg, gb_s9_small_arg, &nonempty) ? GB_S9_SORTED : -1;
    }
    return -1;
}

/* Names the guarded helpers use; they must resolve to the builtins at module level. */
static const char *const gb_s9_helper_builtins[] = {"int", "float", "bool", "type", "list", "tuple", "all", "len"};

/* True when the call runs at most a few times per call of its function: not in a loop or
 * comprehension of its function, and the function (and the ones enclosing it) is neither
 * recursive nor mentioned inside a loop or comprehension of the module. A guarded helper
 * costs microseconds; this keeps it out of hot loops. */
static bool gb_s9_cold(const GbS9 *a, TSNode call)
{
    for (TSNode p = ts_node_parent(call); !ts_node_is_null(p); p = ts_node_parent(p)) {
        GbNodeKind t = gb_node_kind(p);
        if (t == GB_NK_FOR_STATEMENT || t == GB_NK_WHILE_STATEMENT || t == GB_NK_LAMBDA ||
            t == GB_NK_LIST_COMPREHENSION || t == GB_NK_SET_COMPREHENSION || t == GB_NK_DICTIONARY_COMPREHENSION ||
            t == GB_NK_GENERATOR_EXPRESSION)
            return false;
        if (t == GB_NK_FUNCTION_DEFINITION) {
            char *name = gb_node_text(gb_node_field(p, "name"), a->src);
            bool hot =
                gb_names_has(&a->in_loops, name) || gb_callgraph_is_recursive_at(&a->graph, ts_node_start_byte(p));
            free(name);
            if (hot) return false;
        }
    }
    return true;
}

static bool gb_s9_in_own_helper(const GbS9 *a, TSNode call);
static char *gb_s9_existing_helper(GbOpContext *ctx, size_t module, int kind, const char *np, uint32_t limit);

/* The guarded kind of a call of max/min (positional arguments, `*` allowed) or sum/abs/sorted
 * (one positional argument), or -1. */
static int gb_s9_guard_kind(const GbS9 *a, TSNode call)
{
    static const char *const names[] = {"max", "min", "sum", "abs", "sorted"};
    if (!gb_node_is_kind(call, GB_NK_CALL)) return -1;
    TSNode f = gb_node_field(call, "function");
    if (!gb_node_is_kind(f, GB_NK_IDENTIFIER)) return -1;
    int kind = -1;
    for (int i = 0; i < 5 && kind < 0; i++)
        if (gb_node_text_eq(f, a->src, names[i]) && gb_s9_builtin_at(a, ts_node_start_byte(f), names[i]) &&
            gb_scopes_resolve(a->sc, 0, names[i], NULL) == GB_RESOLVE_BUILTIN)
            kind = GB_S9_GUARD_MAX + i;
    if (kind < 0 || a->sc->scopes.items[gb_scopes_at(a->sc, ts_node_start_byte(call))].dynamic) return -1;
    for (size_t i = 0; i < sizeof gb_s9_helper_builtins / sizeof *gb_s9_helper_builtins; i++)
        if (gb_scopes_resolve(a->sc, 0, gb_s9_helper_builtins[i], NULL) != GB_RESOLVE_BUILTIN) return -1;
    TSNode al = gb_node_field(call, "arguments");
    if (!gb_node_is_kind(al, GB_NK_ARGUMENT_LIST)) return -1;
    uint32_t n = 0, c = ts_node_named_child_count(al);
    for (uint32_t i = 0; i < c; i++) {
        TSNode x = ts_node_named_child(al, i);
        if (gb_node_is_kind(x, GB_NK_COMMENT)) continue;
        if (gb_node_is_kind(x, GB_NK_KEYWORD_ARGUMENT) || gb_node_is_kind(x, GB_NK_DICTIONARY_SPLAT)) return -1;
        if ((gb_node_is_kind(x, GB_NK_LIST_SPLAT) || gb_node_is_kind(x, GB_NK_PARENTHESIZED_LIST_SPLAT)) &&
            kind > GB_S9_GUARD_MIN)
            return -1;
        n++;
    }
    if (n == 0 || (kind > GB_S9_GUARD_MIN && n != 1)) return -1;
    return gb_s9_cold(a, call) && !gb_s9_in_own_helper(a, call) ? kind : -1;
}

/* The site kind of a call (proven first, then guarded), or -1. */
static int gb_s9_kind(const GbS9 *a, TSNode call)
{
    int k = gb_s9_proven_kind(a, call);
    return k >= 0 ? k : gb_s9_guard_kind(a, call);
}

static bool gb_s9_program_ok(GbOpContext *ctx)
{
    static const char *const refuse[] = {"builtins", "__builtins__"};
    return !gb_op_ctx_mentions_any(ctx, refuse, 2);
}

static void gb_s9_walk(GbS9 *a, TSNode n, GbSiteList *out)
{
    int kind = gb_s9_kind(a, n);
    if (kind >= 0) gb_site_add(a->ctx, out, a->module, n, NULL, kind, NULL);
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_s9_walk(a, ts_node_named_child(n, i), out);
}

void gb_op_replace_numpy_find(GbOpContext *ctx, GbSiteList *out)
{
    if (!gb_s9_program_ok(ctx)) return;
    for (size_t m = 0; m < ctx->prog->modules.len; m++) {
        if (!gb_op_ctx_module_ok(ctx, m)) continue;
        GbS9 a;
        gb_s9_init(&a, ctx, m);
        gb_s9_walk(&a, a.root, out);
        gb_s9_destroy(&a);
    }
}

/* The argument of sum()/sorted() as a list expression: a genexp becomes a list comprehension
 * (same clauses, same order of evaluation). Owned. */
static char *gb_s9_as_list(const char *src, TSNode arg)
{
    arg = gb_s9_unparen(arg);
    char *t = gb_node_text(arg, src);
    if (gb_node_is_kind(arg, GB_NK_GENERATOR_EXPRESSION)) {
        size_t n = strlen(t);
        t[0] = '[';
        t[n - 1] = ']';
    }
    return t;
}

/* The text of the arguments of call between its parentheses (positional ones), joined. */
static char *gb_s9_arg_list(const char *src, TSNode call)
{
    TSNode args[64];
    uint32_t n;
    TSNode kw = {0};
    gb_s9_positional(call, args, &n, &kw);
    GbStr s;
    gb_str_init(&s);
    gb_str_append(&s, "");
    for (uint32_t i = 0; i < n; i++) {
        char *t = gb_node_text(args[i], src);
        gb_str_appendf(&s, "%s%s", i ? ", " : "", t);
        free(t);
    }
    return gb_str_take(&s);
}

/* ---- Guarded helpers ---- */

typedef struct {
    const char *helper, *np;
    const char *values, *items, *item, *kind;
} GbS9Names;

static const char *const gb_s9_locals[2][4] = {{"values", "items", "item", "kind"},
                                               {"numbers", "elements", "element", "number_type"}};

/* The helper for a guarded kind, as a snippet (4 spaces per level). Owned. */
static char *gb_s9_helper_text(int kind, const GbS9Names *n)
{
    GbStr t;
    gb_str_init(&t);
    const char *np = n->np, *v = n->values, *e = n->item;
    switch (kind) {
    case GB_S9_GUARD_MAX:
    case GB_S9_GUARD_MIN: {
        const char *op = kind == GB_S9_GUARD_MAX ? "max" : "min";
        const char *i = n->items;
        gb_str_appendf(&t, "def %s(*%s):\n", n->helper, v);
        gb_str_appendf(&t, "    %s = %s[0] if len(%s) == 1 else %s\n", i, v, v, v);
        gb_str_appendf(&t, "    if type(%s) not in (list, tuple) or not %s:\n        return %s(*%s)\n", i, i, op, v);
        gb_str_appendf(&t,
                       "    if {type(%s) for %s in %s} != {int} or not all(-2 ** 62 <= %s < 2 ** 62 for %s in %s):\n",
                       e, e, i, e, e, i);
        gb_str_appendf(&t, "        return %s(*%s)\n", op, v);
        gb_str_appendf(&t, "    return int(%s.%s(%s.array(%s, dtype=%s.int64)))\n", np, op, np, i, np);
        break;
    }
    case GB_S9_GUARD_SUM:
        gb_str_appendf(&t, "def %s(%s):\n", n->helper, v);
        gb_str_appendf(&t, "    if type(%s) not in (list, tuple) or not {type(%s) for %s in %s} <= {int, bool}:\n", v,
                       e, e, v);
        gb_str_appendf(&t, "        return sum(%s)\n", v);
        gb_str_appendf(&t, "    if not all(-2 ** 31 < %s < 2 ** 31 for %s in %s):\n        return sum(%s)\n", e, e, v,
                       v);
        gb_str_appendf(&t, "    return int(%s.sum(%s.array(%s, dtype=%s.int64)))\n", np, np, v, np);
        break;
    case GB_S9_GUARD_ABS:
        gb_str_appendf(&t, "def %s(%s):\n", n->helper, v);
        gb_str_appendf(&t, "    %s = type(%s)\n", n->kind, v);
        gb_str_appendf(&t, "    if %s not in (int, float) or (%s is int and not -2 ** 62 <= %s < 2 ** 62):\n", n->kind,
                       n->kind, v);
        gb_str_appendf(&t, "        return abs(%s)\n", v);
        gb_str_appendf(&t, "    return %s(%s.abs(%s))\n", n->kind, np, v);
        break;
    default: /* GB_S9_GUARD_SORTED */
        gb_str_appendf(&t, "def %s(%s):\n", n->helper, v);
        gb_str_appendf(&t, "    if type(%s) not in (list, tuple) or not {type(%s) for %s in %s} <= {int}:\n", v, e, e,
                       v);
        gb_str_appendf(&t, "        return sorted(%s)\n", v);
        gb_str_appendf(&t, "    if not all(-2 ** 62 <= %s < 2 ** 62 for %s in %s):\n        return sorted(%s)\n", e, e,
                       v, v);
        gb_str_appendf(&t, "    return %s.sort(%s.array(%s, dtype=%s.int64)).tolist()\n", np, np, v, np);
        break;
    }
    return gb_str_take(&t);
}

static char *gb_s9_format(GbOpContext *ctx, size_t module, const char *snippet)
{
    char *unit = gb_indent_unit(gb_op_ctx_source(ctx, module), ts_tree_root_node(gb_op_ctx_tree(ctx, module)));
    char *text = gb_edit_format(snippet, "", unit, true);
    free(unit);
    return text;
}

/* A helper this operator wrote for `kind` with numpy alias np, defined at top level before
 * `limit` and bound once: its name (owned), or NULL. */
static char *gb_s9_existing_helper(GbOpContext *ctx, size_t module, int kind, const char *np, uint32_t limit)
{
    const char *src = gb_op_ctx_source(ctx, module);
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, module));
    const GbScopes *sc = gb_op_ctx_scopes(ctx, module);
    uint32_t c = ts_node_named_child_count(root);
    for (uint32_t i = 0; i < c; i++) {
        TSNode d = ts_node_named_child(root, i);
        if (ts_node_end_byte(d) > limit) break;
        if (!gb_node_is_kind(d, GB_NK_FUNCTION_DEFINITION)) continue;
        char *name = gb_node_text(gb_node_field(d, "name"), src);
        for (int set = 0; set < 2; set++) {
            GbS9Names n = {
                name, np, gb_s9_locals[set][0], gb_s9_locals[set][1], gb_s9_locals[set][2], gb_s9_locals[set][3]};
            char *snippet = gb_s9_helper_text(kind, &n);
            char *text = gb_s9_format(ctx, module, snippet);
            size_t tl = strlen(text);
            if (tl && text[tl - 1] == '\n') text[--tl] = '\0';
            bool same = tl == (size_t)(ts_node_end_byte(d) - ts_node_start_byte(d)) &&
                        memcmp(src + ts_node_start_byte(d), text, tl) == 0;
            free(text);
            free(snippet);
            if (same && gb_flow_global_bindings(sc, src, root, name, NULL) == 1 && !gb_op_ctx_is_pinned(ctx, name))
                return name;
        }
        free(name);
    }
    return NULL;
}

/* True when call lies in a helper this operator wrote (its fallback calls the builtin). */
static bool gb_s9_in_own_helper(const GbS9 *a, TSNode call)
{
    TSNode d = gb_flow_toplevel_of(call);
    if (!gb_node_is_kind(d, GB_NK_FUNCTION_DEFINITION)) return false;
    /* Candidate numpy aliases: names bound by top-level `import numpy [as X]`. */
    GbNames aliases = {0};
    uint32_t c = ts_node_named_child_count(a->root);
    for (uint32_t i = 0; i < c; i++) {
        TSNode st = ts_node_named_child(a->root, i);
        if (!gb_node_is_kind(st, GB_NK_IMPORT_STATEMENT)) continue;
        uint32_t k = ts_node_named_child_count(st);
        for (uint32_t j = 0; j < k; j++) {
            TSNode x = ts_node_named_child(st, j);
            if (gb_node_is_kind(x, GB_NK_DOTTED_NAME) && gb_node_text_eq(x, a->src, "numpy"))
                gb_names_add(&aliases, "numpy");
            if (gb_node_is_kind(x, GB_NK_ALIASED_IMPORT) &&
                gb_node_text_eq(gb_node_field(x, "name"), a->src, "numpy")) {
                char *al = gb_node_text(gb_node_field(x, "alias"), a->src);
                gb_names_add(&aliases, al);
                free(al);
            }
        }
    }
    bool own = false;
    for (size_t i = 0; i < aliases.len && !own; i++)
        for (int kind = GB_S9_GUARD_MAX; kind <= GB_S9_GUARD_SORTED && !own; kind++) {
            char *name = gb_s9_existing_helper(a->ctx, a->module, kind, aliases.items[i], ts_node_end_byte(d) + 1);
            own = name && gb_node_text_eq(gb_node_field(d, "name"), a->src, name);
            free(name);
        }
    gb_names_destroy(&aliases);
    return own;
}

static const char *const gb_s9_helper_names[5][2] = {{"numpy_max", "array_max"},
                                                     {"numpy_min", "array_min"},
                                                     {"numpy_sum", "array_sum"},
                                                     {"numpy_abs", "array_abs"},
                                                     {"numpy_sorted", "array_sorted"}};

/* Edits for a guarded site: the helper (reused or new) and the callee renamed to it. */
static void gb_s9_apply_guard(GbOpContext *ctx, GbEditSet *set, size_t m, TSNode call, int kind, const char *np,
                              GbRng *rng)
{
    TSNode top = gb_flow_toplevel_of(call);
    TSNode f = gb_node_field(call, "function");
    char *helper = gb_s9_existing_helper(ctx, m, kind, np, ts_node_start_byte(top));
    if (!helper) {
        const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
        int set_i = 0;
        for (int k = 0; k < 4; k++)
            if (gb_scope_name(&sc->scopes.items[0], gb_s9_locals[0][k])) set_i = 1;
        helper = gb_op_ctx_fresh_name(ctx, gb_s9_helper_names[kind - GB_S9_GUARD_MAX][gb_rng_bounded(rng, 2)]);
        GbS9Names n = {
            helper, np, gb_s9_locals[set_i][0], gb_s9_locals[set_i][1], gb_s9_locals[set_i][2], gb_s9_locals[set_i][3]};
        char *snippet = gb_s9_helper_text(kind, &n);
        char *text = gb_s9_format(ctx, m, snippet);
        char *block = gb_asprintf("%s\n\n", text);
        gb_edits_insert_ordered(set, m, gb_module_code_start(ctx, m), block, 0);
        free(block);
        free(text);
        free(snippet);
    }
    gb_edits_replace_node(set, m, f, helper);
    free(helper);
}

bool gb_op_replace_numpy_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    size_t m = site->module;
    TSNode call = gb_op_ctx_node_at(ctx, m, site->start, site->end, GB_NK_CALL);
    int kind = -1;
    if (!ts_node_is_null(call) && gb_s9_program_ok(ctx)) {
        GbS9 a;
        gb_s9_init(&a, ctx, m);
        kind = gb_s9_kind(&a, call);
        gb_s9_destroy(&a);
    }
    if (kind < 0) {
        gb_error_set(err, "ReplaceNumpy: site %s is not a builtin call with an exact numpy equivalent", site->key);
        return false;
    }
    GbEditSet set;
    gb_edits_init(&set);
    size_t before = set.edits.len;
    char *np = gb_edits_add_import(ctx, &set, m, "numpy", NULL, "np");
    if (set.edits.len == before) {
        /* An existing import is only usable when it certainly ran before this call. */
        const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
        const char *src0 = gb_op_ctx_source(ctx, m);
        TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
        TSNode stmt = {0};
        TSNode top = gb_flow_toplevel_of(call);
        if (gb_flow_global_bindings(sc, src0, root, np, &stmt) != 1 || ts_node_is_null(stmt) ||
            !gb_flow_is_toplevel(stmt) || ts_node_is_null(top) || ts_node_end_byte(stmt) > ts_node_start_byte(top)) {
            free(np);
            char *fresh = gb_op_ctx_fresh_name(ctx, "np");
            np = gb_edits_add_import(ctx, &set, m, "numpy", NULL, fresh);
            free(fresh);
        }
    }
    const char *src = gb_op_ctx_source(ctx, m);
    TSNode f = gb_node_field(call, "function");
    bool is_max = gb_node_text_eq(f, src, "max");
    unsigned shape = gb_rng_bounded(rng, 3);
    char *text = NULL;
    if (kind >= GB_S9_GUARD_MAX) {
        gb_s9_apply_guard(ctx, &set, m, call, kind, np, rng);
        bool ok = gb_edits_commit(ctx, &set, err);
        gb_edits_destroy(&set);
        free(np);
        return ok;
    }
    TSNode args[64];
    uint32_t n;
    TSNode kw = {0};
    switch (kind) {
    case GB_S9_MAXMIN: {
        char *list = gb_s9_arg_list(src, call);
        gb_s9_positional(call, args, &n, NULL);
        if (shape == 0 && n == 2)
            text = gb_asprintf("int(%s.%s(%s))", np, is_max ? "maximum" : "minimum", list);
        else if (shape == 1)
            text = gb_asprintf("int(%s.%s(%s.array([%s])))", np, is_max ? "amax" : "amin", np, list);
        else
            text = gb_asprintf("int(%s.%s([%s]))", np, is_max ? "max" : "min", list);
        free(list);
        break;
    }
    case GB_S9_MAXMIN_LIST: {
        gb_s9_positional(call, args, &n, NULL);
        char *l = gb_node_text(args[0], src);
        text = gb_asprintf("int(%s.%s(%s))", np, shape == 1 ? (is_max ? "amax" : "amin") : (is_max ? "max" : "min"), l);
        free(l);
        break;
    }
    case GB_S9_ABS_INT:
    case GB_S9_ABS_FLOAT: {
        gb_s9_positional(call, args, &n, NULL);
        char *x = gb_node_text(args[0], src);
        if (kind == GB_S9_ABS_INT)
            text = gb_asprintf("int(%s.%s(%s))", np, shape == 1 ? "absolute" : "abs", x);
        else
            text = gb_asprintf("float(%s.%s(%s))", np, shape == 1 ? "fabs" : "abs", x);
        free(x);
        break;
    }
    case GB_S9_SUM:
    case GB_S9_SORTED: {
        TSNode al = gb_node_field(call, "arguments");
        TSNode arg = al;
        if (!gb_node_is_kind(al, GB_NK_GENERATOR_EXPRESSION)) {
            gb_s9_positional(call, args, &n, &kw);
            arg = args[0];
        }
        char *l = gb_s9_as_list(src, arg);
        if (kind == GB_S9_SUM)
            text = gb_asprintf("int(%s.sum(%s))", np, l);
        else
            text = gb_asprintf("%s.sort(%s.array(%s, dtype=%s.int64))%s.tolist()", np, np, l, np,
                               ts_node_is_null(kw) ? "" : "[::-1]");
        free(l);
        break;
    }
    default:
        break;
    }
    gb_edits_replace_node(&set, m, call, text);
    bool ok = gb_edits_commit(ctx, &set, err);
    gb_edits_destroy(&set);
    free(text);
    free(np);
    return ok;
}
