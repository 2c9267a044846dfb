/* S7 CreateModuleDependencies: move a top-level function of the main module into a new
 * helper module of the program, and import it back under the same name at the same place.
 *
 *     import math                         main.py:    import math
 *     SCALE = 2                                       SCALE = 2
 *     def norm(v):                 ->                 from vector_helpers import norm
 *         return math.hypot(*v) * SCALE
 *                                         vector_helpers.py:
 *                                                     """Functions used by the main module."""
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
 * module and globals are what changes). */
#include "operators/operator.h"

#include <stdlib.h>
#include <string.h>

#include "operators/edit.h"
#include "src/python/flow.h"
#include "src/python/pyparse.h"

static const char *const gb_s7_refuse_names[] = {"__module__", "__globals__", "__code__",     "pickle",  "dill",
                                                 "inspect",    "_getframe",   "currentframe", "modules", "getmodule"};

static const char *const gb_s7_module_dunders[] = {"__name__",        "__file__",    "__doc__",      "__spec__",
                                                   "__loader__",      "__package__", "__builtins__", "__cached__",
                                                   "__annotations__", "__path__",    "__dict__"};

static const char *const gb_s7_module_names[] = {"solution_helpers", "core_functions", "computation_utils",
                                                 "support_routines", "shared_logic"};

static bool gb_s7_program_ok(GbOpContext *ctx)
{
    return !gb_op_ctx_mentions_any(ctx, gb_s7_refuse_names, sizeof gb_s7_refuse_names / sizeof *gb_s7_refuse_names);
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

/* Check a function and collect the statements to copy (sorted by position, unique). */
static bool gb_s7_site_ok(GbOpContext *ctx, size_t m, TSNode fn, GbNodes *deps)
{
    if (deps) deps->len = 0;
    if (m != 0 || !gb_node_is_kind(fn, GB_NK_FUNCTION_DEFINITION) || !gb_flow_is_toplevel(fn)) return false;
    if (gb_node_kind(ts_node_child(fn, 0)) != GB_NK_DEF) return false; /* async */
    const char *src = gb_op_ctx_source(ctx, m);
    const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
    if (sc->scopes.items[0].star_import || sc->scopes.items[0].dynamic) return false;
    if (!gb_stmt_owns_lines(src, fn)) return false;
    char *name = gb_node_text(gb_node_field(fn, "name"), src);
    bool ok = !gb_op_ctx_is_pinned(ctx, name) && gb_flow_global_bindings(sc, src, root, name, NULL) == 1;
    GbEffects fx;
    gb_effects_init(&fx);
    if (ok) {
        gb_scopes_effects(sc, src, fn, &fx);
        /* The def binds its own name; nested scopes' declarations do not show here. */
        ok = (fx.flags & (GB_FX_GLOBAL | GB_FX_DYNAMIC | GB_FX_STAR_IMPORT)) == 0;
    }
    /* Any function scope inside declaring `global` or using locals()/eval(): refuse. */
    for (size_t i = 1; ok && i < sc->scopes.len; i++) {
        const GbScope *s = &sc->scopes.items[i];
        if (s->node_start < ts_node_start_byte(fn) || s->node_end > ts_node_end_byte(fn)) continue;
        if (s->dynamic) ok = false;
        for (size_t k = 0; ok && k < s->names.len; k++)
            if (s->names.items[k].flags & GB_NAME_GLOBAL) ok = false;
    }
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

void gb_op_create_module_dependencies_find(GbOpContext *ctx, GbSiteList *out)
{
    if (ctx->prog->modules.len == 0 || !gb_op_ctx_module_ok(ctx, 0) || !gb_s7_program_ok(ctx)) return;
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, 0));
    uint32_t c = ts_node_named_child_count(root);
    for (uint32_t i = 0; i < c; i++) {
        TSNode fn = ts_node_named_child(root, i);
        if (gb_s7_site_ok(ctx, 0, fn, NULL)) gb_site_add(ctx, out, 0, fn, NULL, 0, NULL);
    }
}

static int gb_s7_node_cmp(const void *a, const void *b)
{
    uint32_t x = ts_node_start_byte(*(const TSNode *)a), y = ts_node_start_byte(*(const TSNode *)b);
    return x < y ? -1 : x > y;
}

bool gb_op_create_module_dependencies_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    size_t m = site->module;
    TSNode fn = gb_op_ctx_node_at(ctx, m, site->start, site->end, GB_NK_FUNCTION_DEFINITION);
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
    char *module = gb_op_ctx_fresh_name(ctx, gb_s7_module_names[gb_rng_bounded(rng, 5)]);
    char *path = gb_asprintf("%s.py", module);
    char *name = gb_node_text(gb_node_field(fn, "name"), src);

    GbStr h;
    gb_str_init(&h);
    gb_str_append(&h, "\"\"\"Functions used by the main module.\"\"\"\n");
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
