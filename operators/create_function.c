/* S6 CreateFunction: extract statements or an expression into a new module-level function
 * (or, inside a method of a top-level class, a new method of that class: gb_s6_method_of; or a
 * method of a new class deriving from that class, defined right after it, called as
 * `Helper.fn(self, ...)`: the
 * sibling-class form, an inter-class dependency, offered as a second site beside each method
 * site).
 *
 *     def area(w, h, pad):                def compute_part(h, pad, w):
 *         inner = w - 2 * pad                 inner = w - 2 * pad
 *         size = inner * (h - 2 * pad)  ->    size = inner * (h - 2 * pad)
 *         return size                         return size
 *
 *                                         def area(w, h, pad):
 *                                             size = compute_part(h, pad, w)
 *                                             return size
 *
 * Statement ranges (1 to 3 consecutive statements of one block) and expressions (binary,
 * boolean, comparison, `not` and conditional expressions) are extracted; in a stdio task, the
 * script forms also move the last top-level statements of the module into a new function or a
 * static method of a new class (their own rules: the comment above gb_s6_tail_find). The code
 * moves verbatim; only its indentation changes (never inside multi-line strings).
 *
 * Parameters are the function locals (and closure variables) the code reads; module globals
 * and builtins are read directly, at the same moment as before, because the new function
 * lives in the same module. Results are the names the code writes that may be read later
 * (gb_scopes_live_after; at module level every written name), assigned back by the caller in
 * one statement after the code ran. An expression is replaced in place by the call, so its
 * evaluation is never hoisted out of a guard, a short-circuit, a conditional expression or a
 * comprehension: it happens exactly where and when it did.
 *
 * Why it is exact, and what is refused to keep it so:
 *   - a parameter is loaded when the call starts, so it must certainly be bound there
 *     (gb_flow_bound_before; for an expression, comprehension variables count): otherwise
 *     the original might not have read it (short-circuit) or read it later; locals only
 *     written and then read inside the range stay local to the new function;
 *   - a result must be certainly assigned by the range, or be a parameter too (so the
 *     function returns the old value when the range leaves it alone);
 *   - nothing may observe the enclosing function's variables while the code runs: refused are
 *     writes to variables captured by closures, variables that nested functions rebind
 *     (nonlocal), at module level writes to globals that functions read or rebind while the
 *     code makes calls, and ranges inside try/with/except/finally (a partial write would be
 *     visible after an exception);
 *   - code that must stay in its frame or class: return, yield, await, break/continue leaving
 *     the range, global/nonlocal, del, walrus, bare raise, locals()/eval()/super(),
 *     `__class__`, private names such as `self.__total` (mangled only inside the class);
 *   - closures created by the code (lambda, def, class, generator expressions other than the
 *     argument of a consuming builtin such as sum() or a literal string's join): they would
 *     capture the new function's variables instead of the caller's;
 *   - class bodies, recursive functions (one more frame per level), programs that mention
 *     RecursionError, annotated assignments, more than 5 parameters; in programs that call
 *     setrecursionlimit (they recurse deeply and the C stack may run out before their limit),
 *     code whose top-level statement may run while a recursion is on the stack or may start
 *     one (gb_callgraph_near_recursion): elsewhere the new frame never meets a deep stack;
 *   - names are fresh; the new function is defined before the top-level statement that
 *     contains the site (or, at module level, just before the site), so it exists whenever
 *     the site runs. The sibling class is defined right after the method's class, which must
 *     be one whose methods cannot run before that (gb_op_ctx_sibling_of), and under ClassEval's
 *     rules (everything from the first `class` line on is kept) it is kept;
 *     `Helper.fn(self, ...)` calls the very function `self.fn(...)` would in the method form
 *     (it is a plain function of the class). Deriving from the class keeps what a reader and
 *     pylint know about `self` (its attributes) in the helper.
 *     Both class forms need `self` to be an instance of the class: methods that the program
 *     also reaches as `K.m` (any object may come as `self`) are refused. */
#include "operators/operator.h"

#include <stdlib.h>
#include <string.h>

#include "operators/edit.h"
#include "operators/rename.h"
#include "operators/words.h"
#include "src/python/flow.h"
#include "src/python/pyparse.h"

/* kinds 1..3: statement ranges of that length; + GB_S6_SIBLING: the sibling-class form; the
 * script forms: the module's tail into a function, or into a static method of a new class */
enum { GB_S6_EXPR = 0, GB_S6_SIBLING = 4, GB_S6_TAIL_FUNCTION = 8, GB_S6_TAIL_CLASS = 9 };
#define GB_S6_MAX_PARAMS 5

static const char *const gb_s6_refuse_names[] = {"RecursionError", "_getframe", "currentframe"};
static const char *const gb_s6_limit_names[] = {"setrecursionlimit"};

/* In a program that sets its recursion limit, may the code of top-level statement `top` share
 * the stack with a recursion (see the header comment)? */
static bool gb_s6_near_deep_stack(GbOpContext *ctx, size_t m, const GbCallGraph *graph, TSNode top)
{
    return gb_op_ctx_mentions_any(ctx, gb_s6_limit_names, 1) &&
           gb_callgraph_near_recursion(graph, top, gb_op_ctx_source(ctx, m));
}

static bool gb_s6_program_ok(GbOpContext *ctx)
{
    return !gb_op_ctx_mentions_any(ctx, gb_s6_refuse_names, sizeof gb_s6_refuse_names / sizeof *gb_s6_refuse_names);
}

typedef struct {
    GbNames params;  /* sorted */
    GbNames results; /* sorted */
} GbS6Plan;

static void gb_s6_plan_destroy(GbS6Plan *p)
{
    gb_names_destroy(&p->params);
    gb_names_destroy(&p->results);
}

/* Consuming builtins: a generator expression passed to them is used up before they return. */
static bool gb_s6_consumed_genexp(TSNode gen, const char *src, const GbScopes *sc)
{
    TSNode call = ts_node_parent(gen);
    if (gb_node_is_kind(call, GB_NK_ARGUMENT_LIST)) {
        if (ts_node_named_child_count(call) != 1) return false;
        call = ts_node_parent(call);
    }
    if (!gb_node_is_kind(call, GB_NK_CALL)) return false;
    TSNode f = gb_node_field(call, "function");
    static const char *const builtins[] = {"sum",  "any",   "all", "min",       "max", "sorted",
                                           "list", "tuple", "set", "frozenset", "dict"};
    if (gb_node_is_kind(f, GB_NK_IDENTIFIER)) {
        for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
            if (gb_node_text_eq(f, src, builtins[i]))
                return gb_scopes_resolve(sc, gb_scopes_at(sc, ts_node_start_byte(f)), builtins[i], NULL) ==
                       GB_RESOLVE_BUILTIN;
        return false;
    }
    /* "sep".join(generator) */
    return gb_node_is_kind(f, GB_NK_ATTRIBUTE) && gb_node_is_kind(gb_node_field(f, "object"), GB_NK_STRING) &&
           gb_node_text_eq(gb_node_field(f, "attribute"), src, "join");
}

/* __class__, and private names (`self.__x` is mangled with the class name only in code written
 * inside the class). */
static bool gb_s6_private_name(TSNode n, const char *src)
{
    if (!gb_node_is_kind(n, GB_NK_IDENTIFIER)) return false;
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    if (b - a <= 2 || src[a] != '_' || src[a + 1] != '_') return false;
    bool dunder = b - a > 4 && src[b - 1] == '_' && src[b - 2] == '_';
    return !dunder || gb_node_text_eq(n, src, "__class__");
}

/* Names whose builtin reads or changes the namespace it is called in. */
static const char *const gb_s6_tail_namespace_builtins[] = {"locals", "globals", "vars",      "dir",
                                                            "eval",   "exec",    "breakpoint"};

/* Syntax the extracted code must not contain (see the header comment). The script forms (tail)
 * allow lambdas and generator expressions (see the comment above gb_s6_tail_find) and refuse
 * `return` and the builtins that read the namespace they are called in. */
static bool gb_s6_bad_syntax(TSNode n, const char *src, const GbScopes *sc, bool tail)
{
    GbNodeKind t = gb_node_kind(n);
    if (t == GB_NK_FUNCTION_DEFINITION || t == GB_NK_CLASS_DEFINITION || t == GB_NK_DECORATED_DEFINITION ||
        t == GB_NK_NAMED_EXPRESSION || t == GB_NK_YIELD || t == GB_NK_AWAIT || t == GB_NK_DELETE_STATEMENT ||
        t == GB_NK_GLOBAL_STATEMENT || t == GB_NK_NONLOCAL_STATEMENT || t == GB_NK_FUTURE_IMPORT_STATEMENT)
        return true;
    if (!tail && (t == GB_NK_LAMBDA || (t == GB_NK_GENERATOR_EXPRESSION && !gb_s6_consumed_genexp(n, src, sc))))
        return true;
    if (tail && t == GB_NK_RETURN_STATEMENT) return true;
    if (t == GB_NK_ASSIGNMENT && !ts_node_is_null(gb_node_field(n, "type"))) return true;
    if (gb_s6_private_name(n, src)) return true;
    if (tail && t == GB_NK_IDENTIFIER) {
        size_t k = sizeof gb_s6_tail_namespace_builtins / sizeof *gb_s6_tail_namespace_builtins;
        for (size_t i = 0; i < k; i++)
            if (gb_node_text_eq(n, src, gb_s6_tail_namespace_builtins[i]) &&
                gb_scopes_resolve(sc, gb_scopes_at(sc, ts_node_start_byte(n)), gb_s6_tail_namespace_builtins[i],
                                  NULL) == GB_RESOLVE_BUILTIN)
                return true;
    }
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++)
        if (gb_s6_bad_syntax(ts_node_named_child(n, i), src, sc, tail)) return true;
    return false;
}

/* The function node whose scope is `scope` (null node for the module). */
static TSNode gb_s6_scope_node(TSNode from, const GbScope *s)
{
    for (TSNode p = from; !ts_node_is_null(p); p = ts_node_parent(p))
        if (ts_node_start_byte(p) == s->node_start && ts_node_end_byte(p) == s->node_end &&
            gb_node_is_kind(p, GB_NK_FUNCTION_DEFINITION))
            return p;
    TSNode null = {0};
    return null;
}

/* True when some scope declares `nonlocal name` referring to the variable defined in scope d. */
static bool gb_s6_rebound_by_closure(const GbScopes *sc, int d, const char *name)
{
    for (size_t i = 0; i < sc->scopes.len; i++) {
        const GbScopeName *n = gb_scope_name(&sc->scopes.items[i], name);
        if (!n || !(n->flags & GB_NAME_NONLOCAL)) continue;
        int dd;
        if (gb_scopes_resolve(sc, (int)i, name, &dd) == GB_RESOLVE_FREE && dd == d) return true;
    }
    return false;
}

/* A closure variable read in the function of scope s: it must be bound in its defining
 * function before the statement there that (eventually) defines s's function. */
static bool gb_s6_free_bound(const GbScopes *sc, const char *src, TSNode from, int s, int d, const char *name)
{
    /* Find the ancestor def whose parent scope is d. */
    int cur = s;
    while (cur >= 0 && sc->scopes.items[cur].parent != d) cur = sc->scopes.items[cur].parent;
    if (cur < 0) return false;
    TSNode def = gb_s6_scope_node(from, &sc->scopes.items[cur]);
    if (ts_node_is_null(def)) return false;
    TSNode stmt = def;
    if (gb_node_is_kind(ts_node_parent(stmt), GB_NK_DECORATED_DEFINITION)) stmt = ts_node_parent(stmt);
    return !gb_s6_rebound_by_closure(sc, d, name) && gb_flow_bound_before(src, stmt, name);
}

/* Are the ancestors of node, up to its scope's code, free of try/with/except/finally? */
static bool gb_s6_no_handlers(TSNode node, const GbScope *s)
{
    for (TSNode p = ts_node_parent(node); !ts_node_is_null(p); p = ts_node_parent(p)) {
        if (ts_node_start_byte(p) < s->start || ts_node_end_byte(p) > s->end) break;
        GbNodeKind t = gb_node_kind(p);
        if (t == GB_NK_TRY_STATEMENT || t == GB_NK_WITH_STATEMENT || t == GB_NK_EXCEPT_CLAUSE ||
            t == GB_NK_EXCEPT_GROUP_CLAUSE || t == GB_NK_FINALLY_CLAUSE)
            return false;
    }
    return true;
}

/* Every read (or del) of the variable `name` of scope fscope in [start, end), from fscope
 * itself or comprehensions inside it, happens after a binding in the range. */
static bool gb_s6_reads_bound_in_range(const GbScopes *sc, const GbOccurrences *occ, const char *src, TSNode root,
                                       TSNode block, uint32_t start, uint32_t end, int fscope, const char *name)
{
    size_t len = strlen(name);
    bool ok = true;
    for (size_t i = 0; ok && i < occ->len; i++) {
        const GbOccurrence *o = &occ->items[i];
        if (o->start < start || o->end > end || (o->flag != GB_NAME_READ && o->flag != GB_NAME_DEL)) continue;
        if (o->end - o->start != len || memcmp(src + o->start, name, len) != 0) continue;
        int base = o->scope;
        while (base != fscope && base > 0 && sc->scopes.items[base].kind == GB_SCOPE_COMPREHENSION)
            base = sc->scopes.items[base].parent;
        if (base != fscope) continue;
        int d;
        GbResolution r = gb_scopes_resolve(sc, o->scope, name, &d);
        if (fscope == 0 ? r != GB_RESOLVE_GLOBAL : ((r != GB_RESOLVE_LOCAL && r != GB_RESOLVE_FREE) || d != fscope))
            continue;
        TSNode id = ts_node_descendant_for_byte_range(root, o->start, o->end);
        TSNode stmt = gb_stmt_enclosing(id);
        ok = !ts_node_is_null(stmt) && gb_flow_bound_before_range(src, stmt, name, block, start);
    }
    return ok;
}

/* Plan the extraction of statements first..last. */
static bool gb_s6_plan_stmts(GbOpContext *ctx, size_t m, TSNode first, TSNode last, GbS6Plan *plan)
{
    memset(plan, 0, sizeof *plan);
    const char *src = gb_op_ctx_source(ctx, m);
    const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
    int scope = gb_scopes_at(sc, ts_node_start_byte(first));
    const GbScope *s = &sc->scopes.items[scope];
    if (s->kind != GB_SCOPE_FUNCTION && s->kind != GB_SCOPE_MODULE) return false;
    if (s->dynamic || sc->scopes.items[0].star_import) return false;
    if (!gb_stmts_own_lines(src, first, last) || !gb_s6_no_handlers(first, s)) return false;
    bool only_pass = true;
    GbEffects fx;
    gb_effects_init(&fx);
    for (TSNode st = first;; st = gb_stmt_next(st)) {
        if (ts_node_is_null(st)) {
            gb_effects_destroy(&fx);
            return false;
        }
        if (!gb_stmt_wrappable(ctx, m, st, 0) || gb_s6_bad_syntax(st, src, sc, false)) {
            gb_effects_destroy(&fx);
            return false;
        }
        if (!gb_node_is_kind(st, GB_NK_PASS_STATEMENT)) only_pass = false;
        GbEffects e;
        gb_effects_init(&e);
        gb_scopes_effects(sc, src, st, &e);
        fx.flags |= e.flags;
        for (size_t i = 0; i < e.reads.len; i++) gb_names_add(&fx.reads, e.reads.items[i]);
        for (size_t i = 0; i < e.writes.len; i++) gb_names_add(&fx.writes, e.writes.items[i]);
        gb_effects_destroy(&e);
        if (ts_node_eq(st, last)) break;
    }
    unsigned bad = GB_FX_RETURN | GB_FX_YIELD | GB_FX_AWAIT | GB_FX_BREAK | GB_FX_CONTINUE | GB_FX_GLOBAL |
                   GB_FX_NONLOCAL | GB_FX_DEL | GB_FX_DYNAMIC | GB_FX_STAR_IMPORT | GB_FX_BARE_RAISE;
    bool ok = !only_pass && (fx.flags & bad) == 0;
    uint32_t start = ts_node_start_byte(first), end = ts_node_end_byte(last);
    TSNode block = ts_node_parent(first);

    /* Results: written names that may be read afterwards. */
    GbNames live = {0};
    if (ok && fx.writes.len) {
        gb_scopes_live_after(sc, src, first, last, (const char *const *)fx.writes.items, fx.writes.len, &live);
    }
    GbNames names = {0};
    for (size_t i = 0; i < fx.reads.len; i++) gb_names_add(&names, fx.reads.items[i]);
    for (size_t i = 0; i < fx.writes.len; i++) gb_names_add(&names, fx.writes.items[i]);
    for (size_t i = 0; ok && i < names.len; i++) {
        const char *name = names.items[i];
        bool reads = gb_effects_reads(&fx, name), writes = gb_effects_writes(&fx, name);
        if (strncmp(name, "__", 2) == 0 && (writes || s->kind != GB_SCOPE_MODULE)) {
            ok = false;
            break;
        }
        int d;
        GbResolution r = gb_scopes_resolve(sc, scope, name, &d);
        if (r == GB_RESOLVE_UNKNOWN) {
            ok = false;
            break;
        }
        bool is_var = s->kind == GB_SCOPE_MODULE ? (r == GB_RESOLVE_GLOBAL && writes)
                                                 : (r == GB_RESOLVE_LOCAL || r == GB_RESOLVE_FREE);
        if (!is_var) {
            if (writes) ok = false; /* cannot happen without global/nonlocal; be safe */
            continue;
        }
        if (r == GB_RESOLVE_FREE) {
            if (writes || !gb_s6_free_bound(sc, src, first, scope, d, name))
                ok = false;
            else
                gb_names_add(&plan->params, name);
            continue;
        }
        if (s->kind == GB_SCOPE_FUNCTION) {
            const GbScopeName *sn = gb_scope_name(s, name);
            if (sn && (sn->flags & GB_NAME_CAPTURED) && (writes || gb_s6_rebound_by_closure(sc, scope, name))) {
                ok = false;
                break;
            }
        } else {
            /* A module global the code writes: no function may rebind it, and none may read
             * it while the code makes calls. */
            for (size_t k = 1; k < sc->scopes.len && ok; k++) {
                const GbScopeName *sn = gb_scope_name(&sc->scopes.items[k], name);
                if (!sn) continue;
                /* Comprehensions of module-level code run where they are, never during a call. */
                int base = (int)k;
                while (base > 0 && sc->scopes.items[base].kind == GB_SCOPE_COMPREHENSION)
                    base = sc->scopes.items[base].parent;
                if (base == 0 && !(sn->flags & GB_NAME_GLOBAL)) continue;
                if (sn->flags & GB_NAME_GLOBAL)
                    ok = false;
                else if ((fx.flags & GB_FX_CALL) && gb_scopes_resolve(sc, (int)k, name, NULL) == GB_RESOLVE_GLOBAL)
                    ok = false;
            }
            if (!ok) break;
        }
        bool before = gb_flow_bound_before(src, first, name);
        bool is_live = writes && gb_names_has(&live, name);
        bool assigned = false;
        if (writes)
            for (TSNode st = first;; st = gb_stmt_next(st)) {
                if (gb_flow_stmt_binds(src, st, name)) assigned = true;
                if (ts_node_eq(st, last)) break;
            }
        bool param = false;
        if (reads &&
            !gb_s6_reads_bound_in_range(sc, gb_op_ctx_occurrences(ctx, m), src, root, block, start, end, scope, name)) {
            if (!before) ok = false;
            param = true;
        }
        if (is_live) {
            if (!assigned) {
                if (!before) ok = false;
                param = true;
            }
            gb_names_add(&plan->results, name);
        }
        if (param) gb_names_add(&plan->params, name);
    }
    if (plan->params.len > GB_S6_MAX_PARAMS) ok = false;
    gb_names_destroy(&names);
    gb_names_destroy(&live);
    gb_effects_destroy(&fx);
    if (!ok) gb_s6_plan_destroy(plan);
    return ok;
}

static bool gb_s6_expr_type(TSNode n)
{
    switch (gb_node_kind(n)) {
    case GB_NK_BINARY_OPERATOR:
    case GB_NK_BOOLEAN_OPERATOR:
    case GB_NK_COMPARISON_OPERATOR:
    case GB_NK_NOT_OPERATOR:
    case GB_NK_CONDITIONAL_EXPRESSION:
        return true;
    default:
        return false;
    }
}

/* Plan the extraction of an expression. */
static bool gb_s6_plan_expr(GbOpContext *ctx, size_t m, TSNode e, GbS6Plan *plan)
{
    memset(plan, 0, sizeof *plan);
    if (!gb_s6_expr_type(e)) return false;
    /* Not the operand of a bigger expression of the same kind (extract whole operator chains),
     * and only in value positions. */
    TSNode stmt = {0};
    for (TSNode p = ts_node_parent(e); !ts_node_is_null(p); p = ts_node_parent(p)) {
        GbNodeKind t = gb_node_kind(p);
        if (t == GB_NK_DECORATOR || t == GB_NK_TYPE || t == GB_NK_INTERPOLATION || t == GB_NK_DEFAULT_PARAMETER ||
            t == GB_NK_TYPED_DEFAULT_PARAMETER || t == GB_NK_LAMBDA || t == GB_NK_PARAMETERS || t == GB_NK_CASE_PATTERN)
            return false;
        if (gb_node_is_statement(p)) {
            stmt = p;
            break;
        }
    }
    if (ts_node_is_null(stmt)) return false;
    GbNodeKind st = gb_node_kind(stmt);
    if (st == GB_NK_DELETE_STATEMENT || st == GB_NK_GLOBAL_STATEMENT || st == GB_NK_NONLOCAL_STATEMENT ||
        gb_node_is_kind(stmt, GB_NK_DECORATED_DEFINITION) || gb_node_is_kind(stmt, GB_NK_FUNCTION_DEFINITION) ||
        gb_node_is_kind(stmt, GB_NK_CLASS_DEFINITION))
        return false;
    /* Assignment targets are not values. */
    for (TSNode p = e, q = ts_node_parent(e); !ts_node_is_null(q) && !ts_node_eq(p, stmt); p = q, q = ts_node_parent(q))
        if ((gb_node_is_kind(q, GB_NK_ASSIGNMENT) || gb_node_is_kind(q, GB_NK_AUGMENTED_ASSIGNMENT)) &&
            ts_node_eq(gb_node_field(q, "left"), p))
            return false;
    const char *src = gb_op_ctx_source(ctx, m);
    const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
    if (gb_s6_bad_syntax(e, src, sc, false) || sc->scopes.items[0].star_import) return false;
    int scope = gb_scopes_at(sc, ts_node_start_byte(e));
    /* The expression runs in a function, the module, or comprehensions inside those. */
    int base = scope;
    while (base > 0 && sc->scopes.items[base].kind == GB_SCOPE_COMPREHENSION) base = sc->scopes.items[base].parent;
    const GbScope *b = &sc->scopes.items[base];
    if ((b->kind != GB_SCOPE_FUNCTION && b->kind != GB_SCOPE_MODULE) || b->dynamic) return false;
    for (int k = scope; k != base; k = sc->scopes.items[k].parent)
        if (sc->scopes.items[k].dynamic) return false;
    GbEffects fx;
    gb_effects_init(&fx);
    gb_scopes_effects(sc, src, e, &fx);
    bool ok = (fx.flags & (GB_FX_YIELD | GB_FX_AWAIT | GB_FX_DYNAMIC)) == 0 && fx.writes.len == 0;
    for (size_t i = 0; ok && i < fx.reads.len; i++) {
        const char *name = fx.reads.items[i];
        int d;
        GbResolution r = gb_scopes_resolve(sc, scope, name, &d);
        if (r == GB_RESOLVE_UNKNOWN) ok = false;
        if (r != GB_RESOLVE_LOCAL && r != GB_RESOLVE_FREE) continue;
        if (strncmp(name, "__", 2) == 0) {
            ok = false;
            break;
        }
        const GbScope *ds = &sc->scopes.items[d];
        if (ds->kind == GB_SCOPE_COMPREHENSION) {
            /* A comprehension variable, bound whenever its body runs (walrus is refused). */
            gb_names_add(&plan->params, name);
            continue;
        }
        if (gb_s6_rebound_by_closure(sc, d, name))
            ok = false;
        else if (d == base)
            ok = gb_flow_bound_before(src, stmt, name);
        else
            ok = gb_s6_free_bound(sc, src, stmt, base, d, name);
        if (ok) gb_names_add(&plan->params, name);
    }
    if (plan->params.len > GB_S6_MAX_PARAMS) ok = false;
    gb_effects_destroy(&fx);
    if (!ok) gb_s6_plan_destroy(plan);
    return ok;
}

/* The method form: gb_op_ctx_self_method (operators/operator.h) finds the method. */
static TSNode gb_s6_method_of(GbOpContext *ctx, size_t m, TSNode node)
{
    return gb_op_ctx_self_method(ctx, m, node);
}

/* Shared site conditions: not in a recursive function, not in a class body; under ClassEval's
 * rules (only the class and the imports before it are kept) only the method form. */
static bool gb_s6_context_ok(GbOpContext *ctx, size_t m, const GbCallGraph *graph, TSNode node)
{
    const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
    int scope = gb_scopes_at(sc, ts_node_start_byte(node));
    if (sc->scopes.items[scope].kind == GB_SCOPE_CLASS) return false;
    TSNode top = gb_flow_toplevel_of(node);
    if (ts_node_is_null(top) || gb_s6_near_deep_stack(ctx, m, graph, top)) return false;
    for (TSNode p = node; !ts_node_is_null(p); p = ts_node_parent(p))
        if (gb_node_is_kind(p, GB_NK_FUNCTION_DEFINITION) && gb_callgraph_is_recursive_at(graph, ts_node_start_byte(p)))
            return false;
    if (ctx->task && ctx->task->harness == GB_HARNESS_CLASSEVAL && ts_node_is_null(gb_s6_method_of(ctx, m, node)))
        return false;
    return true;
}

/* The last statement of a range of `count` statements from first, or a null node. */
static TSNode gb_s6_range_last(TSNode first, int count)
{
    TSNode last = first;
    for (int i = 1; i < count && !ts_node_is_null(last); i++) last = gb_stmt_next(last);
    return last;
}

static const char *const gb_s6_tags[] = {
    "expr", "1", "2", "3", "expr-sibling", "1-sibling", "2-sibling", "3-sibling", "tail-function", "tail-class"};

/* Add the site of kind `kind` on node n, and its sibling-class form when n is in a method. */
static void gb_s6_add(GbOpContext *ctx, GbSiteList *out, size_t m, TSNode n, int kind)
{
    gb_site_add(ctx, out, m, n, gb_s6_tags[kind], kind, NULL);
    if (!ts_node_is_null(gb_s6_method_of(ctx, m, n)) && !ts_node_is_null(gb_op_ctx_sibling_of(ctx, m, n)))
        gb_site_add(ctx, out, m, n, gb_s6_tags[kind + GB_S6_SIBLING], kind + GB_S6_SIBLING, NULL);
}

static void gb_s6_walk_exprs(GbOpContext *ctx, size_t m, const GbCallGraph *graph, TSNode n, GbSiteList *out)
{
    GbS6Plan plan;
    if (gb_s6_expr_type(n) && gb_s6_context_ok(ctx, m, graph, n) && gb_s6_plan_expr(ctx, m, n, &plan)) {
        gb_s6_add(ctx, out, m, n, GB_S6_EXPR);
        gb_s6_plan_destroy(&plan);
    }
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_s6_walk_exprs(ctx, m, graph, ts_node_named_child(n, i), out);
}

/* ---- Script forms: the module's tail into a function or a static method ---- */

/* Ways to reach the module's namespace (or a frame's) other than by name, and finalizers,
 * which would run when the new function returns instead of at interpreter exit. */
static const char *const gb_s6_tail_refuse_names[] = {"modules",       "__main__",  "__dict__", "__import__",
                                                      "import_module", "f_globals", "f_locals", "__del__"};

/* Is the task one whose module-level code may move: a stdio task (its tests see only what the
 * program prints, never its module's namespace), in the main module, and not under ClassEval's
 * rules (they keep no module-level code)? */
static bool gb_s6_tail_task_ok(GbOpContext *ctx, size_t m)
{
    return m == 0 && ctx->task && ctx->task->kind == GB_TESTS_STDIO && ctx->task->harness != GB_HARNESS_CLASSEVAL &&
           !gb_op_ctx_mentions_any(ctx, gb_s6_tail_refuse_names,
                                   sizeof gb_s6_tail_refuse_names / sizeof *gb_s6_tail_refuse_names);
}

/* The names bound by module-level code in [start, end) (the tail's own bindings). */
static void gb_s6_tail_written(const GbOccurrences *occ, const char *src, uint32_t start, uint32_t end, GbNames *out)
{
    for (size_t i = 0; i < occ->len; i++) {
        const GbOccurrence *o = &occ->items[i];
        if (o->scope != 0 || !(o->flag & GB_NAME_BINDS) || o->start < start || o->end > end) continue;
        char *name = gb_strndup(src + o->start, o->end - o->start);
        gb_names_add(out, name);
        free(name);
    }
}

/* The names the tail writes, checked against every occurrence in the module: outside the tail
 * only module-level code that ran before it (and its comprehensions) may refer to them; inside
 * it every read of one must follow a certain binding in the tail, or become a parameter when
 * the name is bound before the tail. */
static bool gb_s6_tail_names(GbOpContext *ctx, size_t m, TSNode first, uint32_t end, const GbOccurrences *occ,
                             GbS6Plan *plan)
{
    const char *src = gb_op_ctx_source(ctx, m);
    const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
    uint32_t start = ts_node_start_byte(first);
    GbNames written = {0};
    gb_s6_tail_written(occ, src, start, end, &written);
    bool ok = true;
    for (size_t i = 0; ok && i < written.len; i++)
        ok = strncmp(written.items[i], "__", 2) != 0 && !gb_op_ctx_is_pinned(ctx, written.items[i]);
    for (size_t i = 0; ok && i < occ->len; i++) {
        const GbOccurrence *o = &occ->items[i];
        char *name = gb_strndup(src + o->start, o->end - o->start);
        if (gb_names_has(&written, name) && gb_scopes_resolve(sc, o->scope, name, NULL) == GB_RESOLVE_GLOBAL) {
            if (o->start < start || o->end > end) {
                /* where the occurrence is written (a `global` binding belongs to scope 0) */
                int base = gb_scopes_at(sc, o->start);
                while (base > 0 && sc->scopes.items[base].kind == GB_SCOPE_COMPREHENSION)
                    base = sc->scopes.items[base].parent;
                /* a function, lambda or class body that sees the global */
                if (base != 0) ok = false;
            } else if (o->flag == GB_NAME_READ) {
                TSNode stmt = gb_stmt_enclosing(ts_node_descendant_for_byte_range(root, o->start, o->end));
                if (ts_node_is_null(stmt) || !gb_flow_bound_before_range(src, stmt, name, root, start)) {
                    if (gb_flow_bound_before(src, first, name))
                        gb_names_add(&plan->params, name);
                    else
                        ok = false;
                }
            }
        }
        free(name);
    }
    gb_names_destroy(&written);
    return ok && plan->params.len <= GB_S6_MAX_PARAMS;
}

/* The last statement of the module (first's block), or a null node. */
static TSNode gb_s6_tail_last(TSNode first, size_t *count)
{
    TSNode last = first;
    *count = 1;
    for (TSNode n = gb_stmt_next(first); !ts_node_is_null(n); n = gb_stmt_next(n)) {
        last = n;
        (*count)++;
    }
    return last;
}

/* Plan moving the statements from first to the end of module m into a function; occ are the
 * module's occurrences (gb_scopes_occurrences). */
static bool gb_s6_plan_tail(GbOpContext *ctx, size_t m, TSNode first, const GbOccurrences *occ, GbS6Plan *plan)
{
    memset(plan, 0, sizeof *plan);
    if (!gb_s6_tail_task_ok(ctx, m) || !gb_node_is_kind(ts_node_parent(first), GB_NK_MODULE)) return false;
    const char *src = gb_op_ctx_source(ctx, m);
    const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
    if (sc->scopes.items[0].star_import) return false;
    size_t count;
    TSNode last = gb_s6_tail_last(first, &count);
    if (count < 2 || !gb_stmts_own_lines(src, first, last)) return false;
    unsigned bad = GB_FX_RETURN | GB_FX_YIELD | GB_FX_AWAIT | GB_FX_BREAK | GB_FX_CONTINUE | GB_FX_GLOBAL |
                   GB_FX_NONLOCAL | GB_FX_DEL | GB_FX_DYNAMIC | GB_FX_STAR_IMPORT | GB_FX_BARE_RAISE;
    for (TSNode st = first; !ts_node_is_null(st); st = gb_stmt_next(st))
        if (!gb_stmt_wrappable(ctx, m, st, bad) || gb_s6_bad_syntax(st, src, sc, true)) return false;
    if (gb_op_ctx_mentions_any(ctx, gb_s6_limit_names, 1)) {
        GbCallGraph graph;
        gb_callgraph_init(&graph, ts_tree_root_node(gb_op_ctx_tree(ctx, m)), src);
        bool near = false;
        for (TSNode st = first; !ts_node_is_null(st) && !near; st = gb_stmt_next(st))
            near = gb_s6_near_deep_stack(ctx, m, &graph, st);
        gb_callgraph_destroy(&graph);
        if (near) return false;
    }
    if (!gb_s6_tail_names(ctx, m, first, ts_node_end_byte(last), occ, plan)) {
        gb_s6_plan_destroy(plan);
        return false;
    }
    return true;
}

/* Tries of a start statement per module: the longest tail is nearly always valid or invalid
 * for a reason a later start does not remove, and each try walks the module's occurrences. */
#define GB_S6_TAIL_TRIES 16

/* The script forms, for a stdio task's module-level code (stdin/stdout scripts whose logic is
 * not in functions, where the operators that work inside function bodies find little):
 *
 *     import sys                            import sys
 *     n = int(input())                      def settle_entry():
 *     total = sum(range(n))        ->           n = int(input())
 *     print(total)                              total = sum(range(n))
 *                                               print(total)
 *
 *
 *                                           settle_entry()
 *
 * or `class K:` / `@staticmethod` / `def f():` with the same body, called as `K.f()` (an
 * inter-class call, C6). The statements from a top-level statement S to the end of the module
 * move; S is the first statement after the module's last definition that is not an import (the
 * imports stay where a reader looks for them) and gives a valid tail, so each module has one
 * site per form. Nothing runs after the call, which is what makes the move exact:
 *   - the tail's module-level bindings become locals of the new function: refused when
 *     anything else sees them as globals (a function, lambda or class body outside the tail, a
 *     `global` declaration), when the tests name them (pinned), for `__` names, and with
 *     `global`/`nonlocal`/`del`, walrus, annotated assignments, star imports,
 *     locals()/globals()/vars()/dir()/eval()/exec()/breakpoint(), which see the namespace, and
 *     in programs that may reach the module's namespace otherwise (sys.modules, `__main__`,
 *     `__dict__`, `__import__`, import_module, a frame's f_globals/f_locals);
 *   - the tail's objects are released when the call returns instead of at interpreter exit:
 *     refused in programs that define `__del__` (a finalizer would run at another moment);
 *   - a read of such a name must follow a certain binding in the tail; otherwise, when the
 *     name is bound before the tail, it becomes a parameter (the local starts with the
 *     global's value), else the site is refused (the global read would reach a builtin or fail
 *     with NameError where the local fails with UnboundLocalError);
 *   - lambdas and generator expressions inside the tail are allowed: a closure over the new
 *     function's locals sees each name's current value, as it would have seen the global's,
 *     also when it runs after the call returned (a callback kept somewhere), since no
 *     module-level code runs after the call to rebind the global and the tail's names are
 *     certainly bound before any closure reads them (the rule above applies to closure reads
 *     at the statement that creates the closure); comprehensions likewise;
 *   - def, class, return, yield and await in the tail are refused (a definition would become a
 *     local, the rest is a syntax error at module level);
 *   - exceptions and sys.exit()/exit()/quit() (SystemExit) propagate out of the call exactly as
 *     out of module-level code, and the process ends the same way; only a traceback gains a
 *     frame. One more frame counts against the recursion limit: as for the other forms,
 *     programs that mention RecursionError are refused (the tail runs at depth 2 instead of 1,
 *     which matters only to a program near the limit), and in programs that call
 *     setrecursionlimit a tail that may start a recursion;
 *   - in the class form the static method's body resolves names as a module-level function's
 *     would (a method never sees the class namespace); only private names (mangled in a class)
 *     and `__class__` differ, and both are refused;
 *   - only stdio tasks: assert and unittest tests run in the program's namespace and may read
 *     any global; ClassEval's rules keep no module-level code at all. */
static void gb_s6_tail_find(GbOpContext *ctx, size_t m, GbSiteList *out)
{
    if (!gb_s6_tail_task_ok(ctx, m)) return;
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
    TSNode from = {0};
    for (uint32_t i = 0, c = ts_node_named_child_count(root); i < c; i++) {
        TSNode n = ts_node_named_child(root, i);
        GbNodeKind t = gb_node_kind(n);
        if (t == GB_NK_FUNCTION_DEFINITION || t == GB_NK_CLASS_DEFINITION || t == GB_NK_DECORATED_DEFINITION)
            from.id = NULL;
        else if (gb_node_is_statement(n) && ts_node_is_null(from))
            from = n;
    }
    if (ts_node_is_null(from)) return;
    GbOccurrences occ = {0};
    gb_scopes_occurrences(gb_op_ctx_scopes(ctx, m), gb_op_ctx_source(ctx, m), root, &occ);
    int tries = 0;
    for (TSNode st = from; !ts_node_is_null(st) && tries < GB_S6_TAIL_TRIES; st = gb_stmt_next(st)) {
        GbNodeKind t = gb_node_kind(st);
        if (t == GB_NK_IMPORT_STATEMENT || t == GB_NK_IMPORT_FROM_STATEMENT || t == GB_NK_FUTURE_IMPORT_STATEMENT ||
            gb_stmt_is_docstring(st))
            continue;
        tries++;
        GbS6Plan plan;
        if (gb_s6_plan_tail(ctx, m, st, &occ, &plan)) {
            gb_site_add(ctx, out, m, st, gb_s6_tags[GB_S6_TAIL_FUNCTION], GB_S6_TAIL_FUNCTION, NULL);
            gb_site_add(ctx, out, m, st, gb_s6_tags[GB_S6_TAIL_CLASS], GB_S6_TAIL_CLASS, NULL);
            gb_s6_plan_destroy(&plan);
            break;
        }
    }
    gb_array_free(&occ);
}

void gb_op_create_function_find(GbOpContext *ctx, GbSiteList *out)
{
    if (!gb_s6_program_ok(ctx)) return;
    for (size_t m = 0; m < ctx->prog->modules.len; m++) {
        if (!gb_op_ctx_module_ok(ctx, m)) continue;
        TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
        GbCallGraph graph;
        gb_callgraph_init(&graph, root, gb_op_ctx_source(ctx, m));
        GbNodes stmts = {0};
        gb_stmts_collect(root, &stmts);
        for (size_t i = 0; i < stmts.len; i++) {
            TSNode first = stmts.items[i];
            if (!gb_s6_context_ok(ctx, m, &graph, first)) continue;
            for (int k = 1; k <= 3; k++) {
                TSNode last = gb_s6_range_last(first, k);
                if (ts_node_is_null(last)) break;
                GbS6Plan plan;
                if (gb_s6_plan_stmts(ctx, m, first, last, &plan)) {
                    gb_s6_add(ctx, out, m, first, k);
                    gb_s6_plan_destroy(&plan);
                }
            }
        }
        gb_array_free(&stmts);
        gb_s6_walk_exprs(ctx, m, &graph, root, out);
        gb_callgraph_destroy(&graph);
        gb_s6_tail_find(ctx, m, out);
    }
}

/* ---- Apply ---- */

/* The lines of [start, end) (start at the first statement, after its indentation `old`),
 * re-indented from `old` to `indent`; lines inside multi-line strings stay as they are.
 * Each line ends with a newline. */
static void gb_s6_reindent(const char *src, TSNode root, uint32_t start, uint32_t end, const char *old,
                           const char *indent, bool bare_blank, GbStr *out)
{
    GbByteRanges strings = {0};
    gb_multiline_strings(root, src, &strings);
    size_t ol = strlen(old);
    uint32_t pos = start;
    bool first = true;
    while (pos < end) {
        uint32_t eol = pos;
        while (eol < end && src[eol] != '\n') eol++;
        bool in_string = false;
        for (size_t k = 0; k < strings.len; k += 2)
            if (pos > strings.items[k] && pos < strings.items[k + 1]) in_string = true;
        if (first) {
            gb_str_append(out, indent);
            gb_str_append_n(out, src + pos, eol - pos);
        } else if (in_string || (bare_blank && eol == pos)) {
            gb_str_append_n(out, src + pos, eol - pos);
        } else if ((size_t)(eol - pos) >= ol && strncmp(src + pos, old, ol) == 0) {
            gb_str_append(out, indent);
            gb_str_append_n(out, src + pos + ol, eol - pos - ol);
        } else {
            gb_str_append_n(out, src + pos, eol - pos);
        }
        gb_str_append(out, "\n");
        first = false;
        if (eol >= end) break;
        pos = eol + 1;
    }
    gb_array_free(&strings);
}

static void gb_s6_join(GbStr *out, const GbNames *names)
{
    for (size_t i = 0; i < names->len; i++) gb_str_appendf(out, "%s%s", i ? ", " : "", names->items[i]);
}

/* Apply a script form (GB_S6_TAIL_FUNCTION or GB_S6_TAIL_CLASS) at the tail's first statement. */
static bool gb_s6_tail_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    size_t m = site->module;
    TSNode first = gb_stmt_at(ctx, m, site->start, site->end);
    GbS6Plan plan;
    bool ok = !ts_node_is_null(first) && gb_s6_program_ok(ctx);
    if (ok) {
        GbOccurrences occ = {0};
        gb_scopes_occurrences(gb_op_ctx_scopes(ctx, m), gb_op_ctx_source(ctx, m),
                              ts_tree_root_node(gb_op_ctx_tree(ctx, m)), &occ);
        ok = gb_s6_plan_tail(ctx, m, first, &occ, &plan);
        gb_array_free(&occ);
    }
    if (!ok) {
        gb_error_set(err, "CreateFunction: site %s cannot be moved into a function", site->key);
        return false;
    }
    const char *src = gb_op_ctx_source(ctx, m);
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
    size_t count;
    TSNode last = gb_s6_tail_last(first, &count);
    bool in_class = site->kind == GB_S6_TAIL_CLASS;
    char *owner = NULL;
    if (in_class) {
        char *cword = gb_words_pick(rng, GB_WORDS_CLASS);
        owner = gb_op_ctx_fresh_name(ctx, cword);
        free(cword);
    }
    char *word = gb_words_pick(rng, GB_WORDS_FUNCTION);
    char *name = gb_op_ctx_fresh_name(ctx, word);
    free(word);
    char *unit = gb_indent_unit(src, root);
    char *body_indent = in_class ? gb_asprintf("%s%s", unit, unit) : gb_strdup(unit);

    GbStr text;
    gb_str_init(&text);
    /* two blank lines before the new top-level definition, counting those already there */
    uint32_t at = ts_node_start_byte(first);
    int blank = 0;
    while (at > 0 && blank < 2 && at >= (uint32_t)blank + 2 && src[at - 1 - blank] == '\n' &&
           src[at - 2 - blank] == '\n')
        blank++;
    if (at > 0)
        for (int i = blank; i < 2; i++) gb_str_append(&text, "\n");
    if (in_class) gb_str_appendf(&text, "class %s:\n%s@staticmethod\n%s", owner, unit, unit);
    gb_str_appendf(&text, "def %s(", name);
    gb_s6_join(&text, &plan.params);
    gb_str_append(&text, "):\n");
    gb_s6_reindent(src, root, ts_node_start_byte(first), ts_node_end_byte(last), "", body_indent, true, &text);
    gb_str_appendf(&text, "\n\n%s%s%s(", in_class ? owner : "", in_class ? "." : "", name);
    gb_s6_join(&text, &plan.params);
    gb_str_append(&text, ")");

    GbEditSet set;
    gb_edits_init(&set);
    gb_edits_replace(&set, m, ts_node_start_byte(first), ts_node_end_byte(last), text.data);
    ok = gb_edits_commit(ctx, &set, err);
    gb_edits_destroy(&set);
    gb_str_destroy(&text);
    free(body_indent);
    free(unit);
    free(name);
    free(owner);
    gb_s6_plan_destroy(&plan);
    return ok;
}

/* A module-level helper function fname whose parameters and locals keep the names of the module
 * variables they came from shadows them (pylint: redefined-outer-name, which the lint gate
 * counts): each such name is renamed inside the helper (scope-aware, gb_rename_variable) to a
 * free name, marked synthetic so that it gets a natural name before output. A name the
 * renamer refuses keeps its name. Only in stdio scripts, whose logic is module-level code:
 * in function-level benchmarks the extra renaming was measured to cost RC (operators/README.md,
 * "Stdio scripts"). */
static void gb_s6_unshadow(GbOpContext *ctx, size_t m, const char *fname)
{
    GbNames refused = {0};
    for (int round = 0; round < 64; round++) {
        const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
        int s = -1;
        for (size_t i = 1; i < sc->scopes.len && s < 0; i++) {
            const GbScope *f = &sc->scopes.items[i];
            if (f->kind == GB_SCOPE_FUNCTION && f->parent == 0 && f->name && strcmp(f->name, fname) == 0) s = (int)i;
        }
        if (s < 0) break;
        const GbScope *fs = &sc->scopes.items[s], *mod = &sc->scopes.items[0];
        const char *shadow = NULL;
        for (size_t i = 0; i < fs->names.len && !shadow; i++) {
            const GbScopeName *n = &fs->names.items[i];
            const GbScopeName *g = gb_scope_name(mod, n->name);
            if ((n->flags & GB_NAME_BINDS) && !(n->flags & (GB_NAME_GLOBAL | GB_NAME_NONLOCAL)) && g &&
                (g->flags & GB_NAME_BINDS) && !gb_names_has(&refused, n->name))
                shadow = n->name;
        }
        if (!shadow) break;
        char *old = gb_strdup(shadow);
        char *fresh = NULL;
        for (unsigned k = 1; !fresh || !gb_rename_name_ok(ctx, fresh); k++) {
            free(fresh);
            fresh = gb_asprintf("%s_%u", old, k);
        }
        GbError why;
        if (gb_rename_variable(ctx, m, s, old, fresh, &why))
            gb_program_add_synthetic(ctx->prog, fresh);
        else
            gb_names_add(&refused, old);
        free(fresh);
        free(old);
    }
    gb_names_destroy(&refused);
}

bool gb_op_create_function_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    if (site->kind >= GB_S6_TAIL_FUNCTION) return gb_s6_tail_apply(ctx, site, rng, err);
    size_t m = site->module;
    bool sibling = site->kind >= GB_S6_SIBLING;
    int kind = sibling ? site->kind - GB_S6_SIBLING : site->kind;
    bool is_expr = kind == GB_S6_EXPR;
    TSNode first = is_expr ? gb_op_ctx_node_at(ctx, m, site->start, site->end, GB_NK_OTHER)
                           : gb_stmt_at(ctx, m, site->start, site->end);
    if (is_expr && !ts_node_is_null(first) && !gb_s6_expr_type(first)) {
        /* the outermost node with this range may be a wrapper; find the expression itself */
        TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
        TSNode n = ts_node_descendant_for_byte_range(root, site->start, site->end);
        first.id = NULL;
        for (; !ts_node_is_null(n) && ts_node_start_byte(n) == site->start && ts_node_end_byte(n) == site->end;
             n = ts_node_parent(n))
            if (gb_s6_expr_type(n)) first = n;
    }
    TSNode last = is_expr ? first : gb_s6_range_last(first, kind);
    GbS6Plan plan;
    bool ok = !ts_node_is_null(first) && !ts_node_is_null(last) && gb_s6_program_ok(ctx);
    if (ok) {
        GbCallGraph graph;
        gb_callgraph_init(&graph, ts_tree_root_node(gb_op_ctx_tree(ctx, m)), gb_op_ctx_source(ctx, m));
        ok = gb_s6_context_ok(ctx, m, &graph, first) &&
             (!sibling || (!ts_node_is_null(gb_s6_method_of(ctx, m, first)) &&
                           !ts_node_is_null(gb_op_ctx_sibling_of(ctx, m, first)))) &&
             (is_expr ? gb_s6_plan_expr(ctx, m, first, &plan) : gb_s6_plan_stmts(ctx, m, first, last, &plan));
        gb_callgraph_destroy(&graph);
    }
    if (!ok) {
        gb_error_set(err, "CreateFunction: site %s cannot be extracted", site->key);
        return false;
    }
    const char *src = gb_op_ctx_source(ctx, m);
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
    const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
    bool module_level =
        sc->scopes.items[gb_scopes_at(sc, ts_node_start_byte(first))].kind == GB_SCOPE_MODULE && !is_expr;
    if (is_expr) {
        int s = gb_scopes_at(sc, ts_node_start_byte(first));
        while (s > 0 && sc->scopes.items[s].kind == GB_SCOPE_COMPREHENSION) s = sc->scopes.items[s].parent;
        module_level = s == 0;
    }
    char *unit = gb_indent_unit(src, root);
    char *word = gb_words_pick(rng, GB_WORDS_FUNCTION);
    char *name = gb_op_ctx_fresh_name(ctx, word);
    free(word);
    /* Where the definition goes, and at which indentation: before the method (method form),
     * before the top-level statement, or at module level just before the site. */
    TSNode method = gb_s6_method_of(ctx, m, first);
    bool in_class = !ts_node_is_null(method);
    /* The sibling-class form: the helper is a method of a new class deriving from the method's
     * class, defined right after it, called through that class with the instance first. */
    char *owner = NULL;
    if (sibling) {
        char *cword = gb_words_pick(rng, GB_WORDS_CLASS);
        owner = gb_op_ctx_fresh_name(ctx, cword);
        free(cword);
    }
    TSNode anchor = sibling         ? gb_flow_toplevel_of(method)
                    : in_class      ? method
                    : !module_level ? gb_flow_toplevel_of(first)
                    : is_expr       ? gb_stmt_enclosing(first)
                                    : first;
    char *def_indent = sibling                    ? gb_strdup(unit)
                       : module_level || in_class ? gb_line_indent(src, ts_node_start_byte(anchor))
                                                  : gb_strdup("");
    char *body_indent = gb_asprintf("%s%s", def_indent, unit);
    /* In the method form `self` is the helper's own first parameter, passed by the call. */
    GbNames args = {0};
    for (size_t i = 0; i < plan.params.len; i++)
        if (!in_class || strcmp(plan.params.items[i], "self") != 0) gb_names_add(&args, plan.params.items[i]);

    GbStr def;
    gb_str_init(&def);
    if (sibling) {
        char *cname = gb_node_text(gb_node_field(anchor, "name"), src);
        gb_str_appendf(&def, "\n\n\nclass %s(%s):\n", owner, cname);
        free(cname);
    }
    gb_str_appendf(&def, "%sdef %s(%s", def_indent, name, in_class ? (args.len ? "self, " : "self") : "");
    gb_s6_join(&def, &args);
    gb_str_append(&def, "):\n");
    GbStr call;
    gb_str_init(&call);
    if (!is_expr && plan.results.len) {
        gb_s6_join(&call, &plan.results);
        gb_str_append(&call, " = ");
    }
    if (sibling)
        gb_str_appendf(&call, "%s.%s(self%s", owner, name, args.len ? ", " : "");
    else
        gb_str_appendf(&call, "%s%s(", in_class ? "self." : "", name);
    gb_s6_join(&call, &args);
    gb_str_append(&call, ")");
    gb_names_destroy(&args);
    if (is_expr) {
        char *e = gb_node_text(first, src);
        gb_str_appendf(&def, "%sreturn (%s)\n", body_indent, e);
        free(e);
    } else {
        char *old = gb_line_indent(src, ts_node_start_byte(first));
        gb_s6_reindent(src, root, ts_node_start_byte(first), ts_node_end_byte(last), old, body_indent, false, &def);
        free(old);
        if (plan.results.len) {
            gb_str_appendf(&def, "%sreturn ", body_indent);
            gb_s6_join(&def, &plan.results);
            gb_str_append(&def, "\n");
        }
    }
    gb_str_append(&def, module_level || sibling ? "" : in_class ? "\n" : "\n\n");
    if (sibling && def.data[def.len - 1] == '\n') def.data[--def.len] = '\0';

    GbEditSet set;
    gb_edits_init(&set);
    uint32_t at = sibling ? ts_node_end_byte(anchor) : gb_line_start(src, ts_node_start_byte(anchor));
    gb_edits_insert(&set, m, at, def.data);
    /* `if(a)and b:` -> `if calculate(a, b):` : keep the call apart from a preceding word. */
    uint32_t fs = ts_node_start_byte(first);
    if (is_expr && fs > 0 &&
        (src[fs - 1] == '_' || (src[fs - 1] >= 'a' && src[fs - 1] <= 'z') ||
         (src[fs - 1] >= 'A' && src[fs - 1] <= 'Z') || (src[fs - 1] >= '0' && src[fs - 1] <= '9') ||
         (unsigned char)src[fs - 1] >= 0x80)) {
        char *spaced = gb_asprintf(" %s", call.data);
        gb_str_clear(&call);
        gb_str_append(&call, spaced);
        free(spaced);
    }
    gb_edits_replace(&set, m, fs, ts_node_end_byte(last), call.data);
    ok = gb_edits_commit(ctx, &set, err);
    gb_edits_destroy(&set);
    if (ok && module_level && !in_class && !sibling && ctx->task && ctx->task->kind == GB_TESTS_STDIO)
        gb_s6_unshadow(ctx, m, name);
    gb_str_destroy(&def);
    gb_str_destroy(&call);
    free(def_indent);
    free(body_indent);
    free(unit);
    free(name);
    free(owner);
    gb_s6_plan_destroy(&plan);
    return ok;
}
